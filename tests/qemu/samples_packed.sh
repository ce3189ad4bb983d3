# Protocol 1.8's SAMPLES_PACKED end to end: a 1.8 client and a 1.7 client watch the same
# sampling (call chains on, spinbench and cotree on 2 CPUs). The 1.8 one gets only
# SAMPLES_PACKED, the 1.7 one only SAMPLES_CHAINED; decoded by the test's own reading of
# docs/protocol.md 8.18c, the two streams hold exactly the same samples, none lost or dropped,
# and the packed one takes a fraction of the bytes.
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --timeout 100 --cpus 2 --append "dci.token=pk" \
	--workload spinbench:1000000:2:0,cotree:touch
wait_for '^dcid: listening' 40
python3 - "$port" <<'PY' || fail "packed and chained samples"
import sys, struct, threading, time, collections
sys.path.insert(0, "tests/qemu")
import kovproto as k
port = int(sys.argv[1])
# Each connects just before its handshake: the daemon closes a connection that sends no HELLO
# within 3 s, which a loaded host can take for the first handshake alone.
new = k.Conn(port, timeout=30)
st, role, reason = new.handshake(b"pk", minor=8)
assert st == 0 and role == 2 and new.server_minor == 8, (st, role, reason, new.server_minor)
old = k.Conn(port, timeout=30)
st, role, reason = old.handshake(b"", minor=7)
assert st == 0, (st, reason)
frames = {new: [], old: []}
def read(c):
    while True:
        fr = c.recv_frame()
        if fr is None:
            return
        frames[c].append(fr)
        if fr[2] == 9:
            break                      # the answer to STOP (its PONG for the 1.7 reader)
    c.sock.settimeout(2)
    try:
        while (fr := c.recv_frame()) is not None:
            frames[c].append(fr)
    except OSError:
        pass                           # quiet for 2 s: all delivered
readers = []
fr = k.call(new, k.pmu_config(2, [(b"PM_INST_CMPL", 100003)], chain_depth=8), 2)
assert fr[0] == k.PMU_CONFIG and fr[2] == 2, ("configuration refused", k.error_of(fr))
for c in (new, old):
    readers.append(threading.Thread(target=read, args=(c,)))
    readers[-1].start()
new.send(k.start(3, streams=1))
time.sleep(5)
new.send(k.frame(k.STOP, 9, b""))
time.sleep(3)
old.send(k.ping(9, 1))
for t in readers:
    t.join(30)
def collect(c, want, other):
    types = collections.Counter(f[0] for f in frames[c])
    assert not types[other], "%d frames of type %#x" % (types[other], other)
    recs, nbytes = [], 0
    for t, fl, req, p in frames[c]:
        assert t not in (k.LOST_SAMPLES, k.DROPPED), "loss reported: %#x" % t
        if t == want:
            recs += k.samples_packed(p) if want == k.SAMPLES_PACKED else k.samples_chained(p)
            nbytes += 12 + len(p)
    return recs, nbytes
packed, packed_bytes = collect(new, k.SAMPLES_PACKED, k.SAMPLES_CHAINED)
chained, chained_bytes = collect(old, k.SAMPLES_CHAINED, k.SAMPLES_PACKED)
assert len(packed) > 500, "only %d samples" % len(packed)
assert sorted(packed) == sorted(chained), "the streams differ: %d packed, %d chained samples" % (len(packed), len(chained))
chains = sum(1 for r in packed if r[10])
objects = len({r[2] for r in packed})
print("packed: %d samples (%d with a chain, %d objects), %.1f bytes per sample; chained: %.1f" %
      (len(packed), chains, objects, packed_bytes / len(packed), chained_bytes / len(chained)))
assert chains > 0 and objects > 1, "no chains or a single object: nothing exercised"
assert packed_bytes * 3 < chained_bytes, (packed_bytes, chained_bytes)
PY
expect_not 'kov: PANIC'
