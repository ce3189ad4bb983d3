"""A deliberately independent, minimal Python encoder/decoder of the KOV wire protocol
(docs/protocol.md), for integration tests that must send frames the C codec would never
produce (garbage, truncated, oversized, wrong magic) and check the daemon's answers."""
import socket, struct, time

MAGIC = 0x4B4F5650
HELLO, SERVER_HELLO, ERROR, OK, PING, PONG = 1, 2, 3, 4, 5, 6
SCAN_REQUEST, SCAN_PROCESSES, SCAN_OBJECTS = 0x101, 0x102, 0x103
EVENT_CATALOGUE = 0x202
F_MORE = 2
ERRF_FATAL = 1
E_INTERNAL = 19

def s(b):
    return struct.pack(">H", len(b)) + b

def frame(ftype, req, payload, flags=0):
    return struct.pack(">IHHI", 8 + len(payload), ftype, flags, req) + payload

NO_DATA = 4   # HELLO flag (1.7): answers and events only, none of the data streams

def hello(req=1, token=b"", magic=MAGIC, major=1, minor=0, client=b"kovproto-test", flags=0):
    return frame(HELLO, req, struct.pack(">IHH", magic, major, minor) + s(client) + s(token), flags)

def ping(req, cookie):
    return frame(PING, req, struct.pack(">Q", cookie))

STATUS_GET, STATUS, SYMBOL_TABLE_GET = 8, 9, 0x112
STATUS_EX = 0x0B          # 1.3: STATUS and samples_discarded
SERVER_HELLO_EX = 0x0C    # 1.5: an accepted SERVER_HELLO and cpus_run
WAKEUPS_GET, WAKEUPS = 0x0D, 0x0E   # 1.5: the kernel's wake-up counters
CPUS_RUN = ("unknown", "take-turns", "parallel")
SWAP, SWAPPED = 0x208, 0x309        # 1.6: hot swaps

def swapped(p):
    """SWAPPED's payload as a dict (docs/protocol.md)."""
    pid, coid, result, walks = struct.unpack(">IQHI", p[:18])
    at, fwd, blk, xfer, forwarded, held = struct.unpack(">QQQQQQ", p[18:66])
    (n,) = struct.unpack(">H", p[66:68])
    frm = p[68:68 + n].decode()
    (m,) = struct.unpack(">H", p[68 + n:70 + n])
    to = p[70 + n:70 + n + m].decode()
    assert len(p) == 70 + n + m, "SWAPPED of %d bytes" % len(p)
    return {"pid": pid, "coid": coid, "result": result, "walks": walks, "at_ns": at,
            "forward_ns": fwd, "block_ns": blk, "transfer_ns": xfer, "forwarded": forwarded,
            "held": held, "from": frm, "to": to}

def symbol_table_get(req, pid=0):
    return frame(SYMBOL_TABLE_GET, req, struct.pack(">I", pid))

def scan_request(req, pid=0xFFFFFFFF, what=3):
    return frame(SCAN_REQUEST, req, struct.pack(">IH", pid, what))

class Conn:
    def __init__(self, port, timeout=10, rcvbuf=None, recv_size=65536, recv_pause=0):
        """rcvbuf: a receive buffer set before connecting (so the window offered stays that
        small); recv_size and recv_pause: at most that many bytes per recv, each after that
        many seconds (a client that reads slowly)."""
        if rcvbuf:
            self.sock = socket.socket()
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            self.sock.settimeout(timeout)
            self.sock.connect(("127.0.0.1", port))
        else:
            self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        self.recv_size, self.recv_pause = recv_size, recv_pause

    def send(self, data):
        self.sock.sendall(data)

    def recv_frame(self):
        """(type, flags, req, payload), or None when the server closed. An ERROR INTERNAL
        fails the test whatever it asked: it says the daemon failed (docs/protocol.md
        section 11), and no request of a test, however malformed, may cause that."""
        while True:
            if len(self.buf) >= 4:
                (n,) = struct.unpack(">I", self.buf[:4])
                if len(self.buf) >= 4 + n:
                    f, self.buf = self.buf[:4 + n], self.buf[4 + n:]
                    t, fl, req = struct.unpack(">HHI", f[4:12])
                    if t == ERROR and len(f) >= 14:
                        assert struct.unpack(">H", f[12:14])[0] != E_INTERNAL, \
                            "ERROR INTERNAL for request %d: %r" % (req, f[20:])
                    return t, fl, req, f[12:]
            if self.recv_pause:
                time.sleep(self.recv_pause)
            d = self.sock.recv(self.recv_size)
            if not d:
                return None
            self.buf += d

    def handshake(self, token=b"", minor=0, flags=0):
        """Sends HELLO, reads SERVER_HELLO (a 1.5 server's SERVER_HELLO_EX) and the catalogue;
        returns (status, role, reason). The answer's type is kept in welcome_type, the
        server's minor in server_minor, and SERVER_HELLO_EX's cpus_run (its last byte, a
        name of CPUS_RUN) in cpus_run, None without it."""
        self.send(hello(1, token, minor=minor, flags=flags))
        t, fl, req, p = self.recv_frame()
        assert t in (SERVER_HELLO, SERVER_HELLO_EX) and req == 1, (t, req)
        magic, major, self.server_minor, status, role, cid = struct.unpack(">IHHHHI", p[:16])
        (rl,) = struct.unpack(">H", p[16:18])
        reason = p[18:18 + rl].decode()
        self.welcome_type = t
        self.cpus_run = CPUS_RUN[p[-1]] if t == SERVER_HELLO_EX else None
        more = fl & F_MORE
        while more:
            t, fl, req, _ = self.recv_frame()
            assert t == EVENT_CATALOGUE and req == 1, t
            more = fl & F_MORE
        return status, role, reason

    def ping(self, req, cookie):
        self.send(ping(req, cookie))
        while True:
            t, fl, r, p = self.recv_frame()
            if r == 0:
                continue          # pushed data
            assert (t, r) == (PONG, req), (t, r)
            assert struct.unpack(">Q", p[:8])[0] == cookie
            return

    def status(self, req):
        """STATUS (or a 1.3 server's STATUS_EX) as a dict (pushed frames before it are
        skipped, the types of pushed STATUS frames kept in "pushed")."""
        self.send(frame(STATUS_GET, req, b""))
        pushed = []
        while True:
            t, fl, r, p = self.recv_frame()
            if r == req:
                break
            if t in (STATUS, STATUS_EX):
                pushed.append(t)
        assert t in (STATUS, STATUS_EX), t
        assert len(p) == (44 if t == STATUS else 52), (t, len(p))
        tb, clients, ctl, cfg, streams, cut = struct.unpack(">QIIIII", p[:28])
        dropped, lost = struct.unpack(">QQ", p[28:44])
        discarded = struct.unpack(">Q", p[44:52])[0] if t == STATUS_EX else None
        return {"type": t, "clients": clients, "cut_off": cut, "frames_dropped": dropped,
                "samples_lost": lost, "samples_discarded": discarded, "pushed": pushed}

    def wakeups(self, req):
        """WAKEUPS_GET (1.5) answered: the six counters of WAKEUPS as a dict."""
        self.send(frame(WAKEUPS_GET, req, b""))
        while True:
            t, fl, r, p = self.recv_frame()
            if r == req:
                break
        assert t == WAKEUPS and len(p) == 48, (t, len(p))
        keys = ("timebase", "rescues", "resets", "prods", "late_max_us", "ticks_pending")
        return dict(zip(keys, struct.unpack(">6Q", p)))

    def close(self):
        self.sock.close()

def error_of(fr):
    """(code, about, flags, text) of an ERROR frame."""
    t, fl, req, p = fr
    assert t == ERROR, t
    code, about, flags, n = struct.unpack(">HHHH", p[:8])
    return code, about, flags, p[8:8 + n].decode(errors="replace")

# Requests a client may send, each with a valid payload (docs/protocol.md section 8), for
# malformed_requests() to spoil.
REQUESTS = {
    "PING": (PING, struct.pack(">Q", 5)),
    "CLAIM_CONTROL": (7, s(b"wrong")),
    "STATUS_GET": (STATUS_GET, b""),
    "WAKEUPS_GET": (WAKEUPS_GET, b""),
    "CATALOGUE_GET": (0x201, b""),
    "CONFIG_GET": (0x204, b""),
    "STOP": (0x206, b""),
    "SCAN_REQUEST": (SCAN_REQUEST, struct.pack(">IH", 0xFFFFFFFF, 1)),
    "SYMBOL_LOOKUP": (0x111, struct.pack(">IIQQ", 0, 2, 0x10000100, 0)),
    "SYMBOL_TABLE_GET": (SYMBOL_TABLE_GET, struct.pack(">I", 1)),
    "PMU_CONFIG": (0x203, struct.pack(">IHHQHH", 0, 3, 3, 10000, 0, 1) + s(b"g") +
                   struct.pack(">HH", 100, 1) + s(b"PM_CYC") + struct.pack(">Q", 0)),
    "START": (0x205, struct.pack(">II", 2, 0)),
    "INSTRUMENT": (0x207, struct.pack(">IQHH", 1, 0, 1, 0)),
    "ERROR": (ERROR, struct.pack(">HHH", 8, 5, 0) + s(b"x")),
}

def malformed_requests():
    """(what, type, payload) for every request of REQUESTS: as it is, then cut short at every
    length, with trailing bytes, each byte set to 0, 0x80 or 0xFF, and each u16 and u32 set to
    boundary values (counts at and past their limits, unknown enum values). Distinct frames
    only, about 1500."""
    seen = set()
    for name, (t, p) in REQUESTS.items():
        variants = [("as is", p)]
        variants += [("cut to %d" % n, p[:n]) for n in range(len(p))]
        variants += [("%d trailing" % n, p + b"\xa5" * n) for n in (1, 2, 8)]
        for i in range(len(p)):
            variants += [("byte %d=%#x" % (i, v), p[:i] + bytes([v]) + p[i + 1:])
                         for v in (0, 0x80, 0xFF)]
            if i + 2 <= len(p):
                variants += [("u16 at %d=%#x" % (i, v), p[:i] + struct.pack(">H", v) + p[i + 2:])
                             for v in (0, 1, 17, 33, 0x7FFF, 0xFFFF)]
            if i + 4 <= len(p):
                variants += [("u32 at %d=%#x" % (i, v), p[:i] + struct.pack(">I", v) + p[i + 4:])
                             for v in (0, 1, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF)]
        for what, v in variants:
            if (t, v) not in seen:
                seen.add((t, v))
                yield name + " " + what, t, v

def wait_port(port, limit=30):
    end = time.time() + limit
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("port %d never opened" % port)

PMU_CONFIG, START, STOP = 0x203, 0x205, 0x206
SAMPLES, LOST_SAMPLES, DROPPED = 0x301, 0x305, 0x00A

def pmu_config(req, events, config_id=0, slice_us=10000, group=b"g", chain_depth=0):
    """PMU_CONFIG of one group (share 100) sampling [(name, threshold), ...], kernel and user,
    with call chains of up to chain_depth frames."""
    g = s(group) + struct.pack(">HH", 100, len(events))
    for name, threshold in events:
        g += s(name) + struct.pack(">Q", threshold)
    flags = 3 | (4 if chain_depth else 0)
    return frame(PMU_CONFIG, req, struct.pack(">IHHQHH", config_id, 3, flags, slice_us, chain_depth, 1) + g)

def start(req, streams=1, interval_us=0):
    return frame(START, req, struct.pack(">II", streams, interval_us))

class Tally:
    """What a client saw of the pushed monitoring data: samples, samples the target's rings
    lost (LOST_SAMPLES), and data frames its own queue dropped (DROPPED)."""
    def __init__(self):
        self.samples = self.lost = self.dropped_frames = 0

    def add(self, fr):
        t, fl, req, p = fr
        if t == SAMPLES:
            self.samples += struct.unpack(">I", p[4:8])[0]
        elif t == LOST_SAMPLES:
            (n,) = struct.unpack(">I", p[16:20])
            for i in range(n):
                self.lost += struct.unpack(">Q", p[20 + 14 * i + 6:20 + 14 * i + 14])[0]
        elif t == DROPPED:
            self.dropped_frames = struct.unpack(">Q", p[0:8])[0]

def call(conn, data, req, tally=None):
    """Sends a request and returns its answer's first frame; pushed frames go to tally."""
    conn.send(data)
    while True:
        fr = conn.recv_frame()
        assert fr is not None, "connection closed"
        if fr[2] == req:
            return fr
        if tally:
            tally.add(fr)

SAMPLES_CHAINED, SAMPLES_PACKED = 0x308, 0x30B
SAMPLE_FIELDS = ("timebase", "pc", "coid", "gen", "pid", "tid", "cpu", "event", "flags",
                 "period", "chain")

def samples_chained(p):
    """SAMPLES_CHAINED's records (section 8.18a) as tuples in SAMPLE_FIELDS' order."""
    (n,) = struct.unpack(">I", p[4:8])
    return [struct.unpack(">QQQIIIHHHII", p[8 + 50 * i:58 + 50 * i]) for i in range(n)]

def samples_packed(p):
    """SAMPLES_PACKED's records (section 8.18c), read from the document's description."""
    (n,) = struct.unpack(">I", p[4:8])
    pos, prev, out = 8, [0] * 11, []
    def varint():
        nonlocal pos
        v = shift = 0
        while True:
            b = p[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v
    def delta(before):
        z = varint()
        return (before + ((z >> 1) ^ -(z & 1))) % (1 << 64)
    for _ in range(n):
        same = p[pos]
        pos += 1
        r = list(prev)
        r[0], r[1] = delta(prev[0]), delta(prev[1])
        if not same & 0x01:
            r[2] = delta(prev[2])
            r[3] = varint()
        if not same & 0x02:
            r[4], r[5] = varint(), varint()
        for bit, i in ((0x04, 6), (0x08, 7), (0x10, 8), (0x20, 9), (0x40, 10)):
            if not same & bit:
                r[i] = varint()
        out.append(tuple(r))
        prev = r
    assert pos == len(p), "bytes after the last record"
    return out
