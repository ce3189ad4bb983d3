# The DCI daemon under abuse, on both profiles: while one client keeps pinging, others send
# every request malformed every way kovproto knows (about 1350 frames, first as an observer
# with nothing configured yet, then as the controller: each answered, or refused with the
# error naming what is wrong, never INTERNAL), garbage, a truncated frame, an oversized length, a wrong magic, an unsupported major version,
# an unknown mandatory type, a scan request abandoned mid-answer, 64 pipelined requests (all
# answered), a client that stops reading
# (cut off once its queue is full, and counted), and a 17th client arriving
# when 16 are connected; each gets the protocol's error or refusal (fatal ones close only that
# connection) and the good client keeps working throughout. CPUS=N boots smp with N CPUs.
source "$(dirname "$0")/lib.bash"
for profile in ${PROFILES:-smp g5}; do
	port=$(free_port)
	boot_bg --profile "$profile" --port "$port" --timeout 120 ${CPUS:+--cpus $CPUS} \
		--append "dci.token=s3cret"
	wait_for '^dcid: listening' 60
	python3 - "$port" <<'PY' || fail "$profile: daemon robustness"
import sys, struct, socket
sys.path.insert(0, "tests/qemu")
import kovproto as k
port = int(sys.argv[1])
good = k.Conn(port)
status, role, reason = good.handshake()
assert status == 0 and role == 1, (status, role, reason)
cookie = 1000
def still_good():
    global cookie
    cookie += 1
    good.ping(cookie, cookie * 7)

def sweep(token):
    """Every malformed request, each on a connection past the handshake (a new one after a
    fatal error, which must close it). kovproto fails the test on any ERROR INTERNAL."""
    conn, req, codes = None, 100, {}
    for what, t, p in k.malformed_requests():
        if conn is None:
            conn = k.Conn(port)
            st, role, reason = conn.handshake(token=token)
            assert st == 0, (what, reason)
        req += 1
        conn.send(k.frame(t, req, p))
        fr = conn.recv_frame()
        while fr is not None and (fr[2] != req or (fr[1] & k.F_MORE)):
            fr = conn.recv_frame()
        assert fr is not None, what + ": closed unanswered"
        code = 0
        if fr[0] == k.ERROR:
            code, about, flags, text = k.error_of(fr)
            if flags & k.ERRF_FATAL:
                assert conn.recv_frame() is None, what + ": left open after a fatal error"
                conn = None
        codes[code] = codes.get(code, 0) + 1
    if conn is not None:
        conn.close()
    return codes

for role, token in (("observer", b""), ("controller", b"s3cret")):
    codes = sweep(token)
    print("  malformed requests as the %s: %d frames, answers (0) and errors: %s"
          % (role, sum(codes.values()), sorted(codes.items())))
    assert k.E_INTERNAL not in codes
ctl = k.Conn(port)     # what the controller's sweep started stops, its configuration cleared
ctl.handshake(token=b"s3cret")
assert k.call(ctl, k.frame(k.STOP, 2, b""), 2)[0] == k.OK
clear = struct.pack(">IHHQHH", 0, 3, 3, 10000, 0, 0)
assert k.call(ctl, k.frame(k.PMU_CONFIG, 3, clear), 3)[0] == k.PMU_CONFIG
ctl.close()
still_good()

def expect_fatal(data, code, what):
    c = k.Conn(port)
    c.send(data)
    fr = c.recv_frame()
    assert fr is not None, what + ": closed without an ERROR"
    got, about, flags, text = k.error_of(fr)
    assert got == code and flags & k.ERRF_FATAL, (what, got, flags, text)
    assert c.recv_frame() is None, what + ": connection left open after a fatal error"
    print("  %s: error %d (%s)" % (what, got, text))
    still_good()

expect_fatal(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 2, "garbage")
expect_fatal(struct.pack(">I", 0x00100000) + b"\0" * 8, 2, "oversized length")
expect_fatal(struct.pack(">I", 4) + b"\0" * 4, 3, "length below 8")
expect_fatal(k.frame(k.PING, 1, struct.pack(">Q", 5)), 13, "request before HELLO")

c = k.Conn(port)
c.send(k.hello(magic=0x12345678))
t, fl, req, p = c.recv_frame()
st = struct.unpack(">H", p[8:10])[0]
assert t == k.SERVER_HELLO and st == 9, (t, st)
print("  bad magic: refused with status", st)
still_good()

c = k.Conn(port)
c.send(k.hello(major=2))
t, fl, req, p = c.recv_frame()
st = struct.unpack(">H", p[8:10])[0]
n = struct.unpack(">H", p[16:18])[0]
assert t == k.SERVER_HELLO and st == 10 and n > 0, (t, st)
print("  major 2: refused:", p[18:18 + n].decode())
still_good()

c = k.Conn(port)
c.handshake()
c.send(k.frame(0x7777, 5, b"xyz"))
fr = c.recv_frame()
while fr and fr[2] == 0:
    fr = c.recv_frame()
code, about, flags, text = k.error_of(fr)
assert code == 4 and flags & k.ERRF_FATAL, (code, text)
print("  unknown type: error", code)
still_good()

c = k.Conn(port)
c.send(k.frame(k.HELLO, 1, struct.pack(">IHH", k.MAGIC, 1, 0) + b"\0\x10abc"))
c.close()              # truncated: the length promises more than ever comes
still_good()

for i in range(3):     # abandon a scan answer mid-stream
    c = k.Conn(port)
    c.handshake()
    c.send(k.scan_request(9))
    c.recv_frame()
    c.close()
still_good()

crowd = []             # the 16-client limit: the 17th is refused with OVERLOAD
for i in range(15):
    c = k.Conn(port)
    st, role, reason = c.handshake()
    assert st == 0, (i, st, reason)
    crowd.append(c)
c = k.Conn(port)
c.send(k.hello())
t, fl, req, p = c.recv_frame()
st = struct.unpack(">H", p[8:10])[0]
n = struct.unpack(">H", p[16:18])[0]
assert t == k.SERVER_HELLO and st == 18, (t, st)
print("  17th client: refused:", p[18:18 + n].decode())
for c in crowd:
    c.close()
still_good()

# A client that pipelines 64 requests (~2.5 MB of answers, more than its queue) but reads
# them is answered completely: requests wait while its queue is over half full.
pipe = k.Conn(port, timeout=60)
pipe.handshake()
pipe.send(b"".join(k.symbol_table_get(100 + i) for i in range(64)))
done = set()
while len(done) < 64:
    t, fl, r, p = pipe.recv_frame()
    if r and not fl & k.F_MORE:
        assert t == 0x113, t
        done.add(r)
assert done == set(range(100, 164))
pipe.close()
print("  64 pipelined symbol tables answered")
still_good()

# A client that asks for far more than it reads (1000 kernel symbol tables, ~40 MB) fills
# its 1 MiB queue once the TCP buffers are full: it is cut off and that is counted.
before = good.status(900)["cut_off"]
hog = k.Conn(port)
hog.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
hog.handshake()
hog.send(b"".join(k.symbol_table_get(10 + i) for i in range(1000)))
import time
for _ in range(60):
    time.sleep(0.5)
    st = good.status(901)
    if st["cut_off"] > before:
        break
assert st["cut_off"] == before + 1 and st["frames_dropped"] >= 1, st
print("  a client that stopped reading was cut off:", st)
hog.close()
still_good()

other = k.Conn(port)   # two clients at once, interleaved
other.handshake()
for i in range(20):
    other.ping(100 + i, i)
    still_good()
print("  good client answered throughout")
PY
	expect '^dcid: listening'
	expect_not 'kov: PANIC'
	kill -- -"$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null
done
