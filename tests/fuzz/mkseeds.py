#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (tests/fuzz/corpus/NAME) from real traffic: the frames of a
recording made by `kovctl record` and a short live session with a target (every request a
client sends and the answers they get), plus small hand-made inputs for the other parsers.

    tests/fuzz/mkseeds.py PORT TOKEN RECORDING DTB ELF...

PORT and TOKEN: a running target's DCI port and controller token (sim/run --port PORT
--append dci.token=TOKEN). The seeds are committed; run this again only to refresh them."""
import os, struct, sys, hashlib
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "qemu"))
import kovproto as k

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

def put(name, data):
    d = os.path.join(top, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)

def frames_of(recording):
    d = open(recording, "rb").read()
    pos, out = 8, []
    while pos + 12 <= len(d):
        ns, n = struct.unpack(">QI", d[pos:pos + 12])
        out.append(d[pos + 12:pos + 12 + n])
        pos += 12 + n
    return d, out

# fuzz_proto's first byte: bit 0 the client side receives, bits 1-2 the peer's role, the rest
# the size of the pieces the stream arrives in (code * 7 + 1 bytes).
CLIENT, SERVER = 1, 0
def proto_seed(side, role, frames, piece=31):
    put("proto", bytes([side | role << 1 | piece << 3]) + b"".join(frames))

def live(port, token):
    """Client frames and the server's answers to them: a 1.0 client's session, then a 1.5
    client's handshake (SERVER_HELLO_EX), WAKEUPS_GET and STATUS_GET (STATUS_EX)."""
    sent, got = [], []
    def ask(c, frame, req):
        sent.append(frame)
        c.send(frame)
        while True:
            fr = c.recv_frame()
            raw = struct.pack(">IHHI", 8 + len(fr[3]), fr[0], fr[1], fr[2]) + fr[3]
            got.append(raw)
            if fr[2] == req and not fr[1] & k.F_MORE:
                return
    c = k.Conn(port)
    ask(c, k.hello(1, token.encode()), 1)
    ask(c, k.ping(2, 77), 2)
    ask(c, k.frame(k.STATUS_GET, 3, b""), 3)
    ask(c, k.frame(0x204, 4, b""), 4)                           # CONFIG_GET
    ask(c, k.pmu_config(5, [(b"PM_INST_CMPL", 100003), (b"PM_CYC", 0)]), 5)
    ask(c, k.pmu_config(6, [(b"NO_SUCH_EVENT", 1)]), 6)         # ERROR CONFIG
    ask(c, k.start(7, streams=15, interval_us=100000), 7)
    ask(c, k.frame(0x207, 8, struct.pack(">IQHH", 0, 0, 1, 1)), 8)  # INSTRUMENT calls on
    ask(c, k.scan_request(9, 0), 9)
    ask(c, k.symbol_table_get(10, 1), 10)
    ask(c, k.frame(0x111, 11, struct.pack(">II", 0, 2) + struct.pack(">QQ", 0xc000000000004000, 0)), 11)
    ask(c, k.frame(0x007, 12, k.s(token.encode())), 12)          # CLAIM_CONTROL
    ask(c, k.frame(k.STOP, 13, b""), 13)
    c.close()
    c = k.Conn(port)
    ask(c, k.hello(1, minor=5), 1)
    ask(c, k.frame(k.WAKEUPS_GET, 2, b""), 2)
    ask(c, k.frame(k.STATUS_GET, 3, b""), 3)
    c.close()
    return sent, got

def power_seeds():
    """POWER_OFF and REBOOT (1.8), never asked live (the target would go down): from the
    controller and, refused, from an observer; PLATFORM_GET and a PLATFORM answer as a G5
    under QEMU gives it."""
    for role in (1, 2):
        proto_seed(SERVER, role, [k.frame(0x10, 1, b""), k.frame(0x11, 2, b""),
                                  k.frame(0x12, 3, b"")])
    paths = [(0, b"power-off", b"PMU99, under QEMU mac99,via=pmu"),
             (2, b"second CPU start", b"QEMU mac99 has one CPU"), (3, b"nap in idle", b"")]
    body = struct.pack(">QBB", 1795919411, 1, 1) + k.s(b"mac99") + k.s(b"PMU99")
    body += struct.pack(">I", len(paths))
    for state, name, detail in paths:
        body += struct.pack(">B", state) + k.s(name) + k.s(detail)
    proto_seed(CLIENT, 1, [k.frame(0x13, 3, body)])

def main():
    port, token, recording, dtb = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    sent, got = live(port, token)
    for f in sent:
        proto_seed(SERVER, 0 if f[4:6] == b"\0\1" else 2, [f])
    proto_seed(SERVER, 0, sent, piece=5)
    power_seeds()
    for f in got:                          # big symbol tables are represented by smaller ones
        if len(f) < 8192:
            proto_seed(CLIENT, 2, [f])
    raw, rec = frames_of(recording)
    seen = {}
    for f in rec:                          # one of each type, the smallest
        t = f[4:6]
        if t not in seen or len(f) < len(seen[t]):
            seen[t] = f
    for f in seen.values():
        proto_seed(CLIENT, 1, [f])
    scan = [f for f in rec if f[4:6] in (b"\1\2", b"\1\3")]
    proto_seed(CLIENT, 1, scan, piece=0)
    # Recordings: a short one (magic, the first frames), cut inside a record, a bad magic.
    pos, n = 8, 0
    while pos < len(raw) and n < 3:
        pos += 12 + struct.unpack(">I", raw[pos + 8:pos + 12])[0]
        n += 1
    put("recording", raw[:pos])
    put("recording", raw[:pos - 7])
    put("recording", b"KOVREC\0\2" + raw[8:200])
    # Device trees, programs.
    put("fdt", open(dtb, "rb").read())
    for elf in sys.argv[5:]:
        put("elf", open(elf, "rb").read())
    # PMU configuration files.
    for text in [
        b"# a comment\nslice 10000 us\ncount kernel user\ngroup spin 50\n  PM_INST_CMPL 100000\n"
        b"  PM_CYC\ngroup mem 50\n  SW_HPT_MISS 1\n",
        b"slice 200000 instructions\ncount user\ngroup all 100\n  PM_LD_MISS_L1 0\n",
        b'{ "slice": { "length": 10000, "unit": "us" }, "count": ["kernel", "user"],\n'
        b'  "groups": [ { "name": "spin", "share": 100,\n'
        b'    "events": [ { "name": "PM_INST_CMPL", "threshold": 100003 }, "PM_CYC" ] } ] }\n',
        b'{"groups":[{"name":"a","share":60,"events":["PM_CYC"]},{"name":"b","share":40,'
        b'"events":[{"name":"SW_SYSCALL","threshold":1}]}]}',
    ]:
        put("pmuconf", text)
    # HTTP requests as Prometheus, curl and worse send them.
    for req in [
        b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9242\r\nUser-Agent: Prometheus/2.42.0\r\n"
        b"Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
        b"version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"
        b"Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: kov\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
        b"GET /metrics?x=1 HTTP/1.0\nAccept: text/plain; version=\"0.0.4\"; q=1.0\n\n",
        b"\r\nPOST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
        b"GET /metr",
    ]:
        put("http", req)

main()
