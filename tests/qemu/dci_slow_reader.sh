# The samples stream to a client that reads slowly, beside one that keeps up (protocol 1.8,
# sampling every 2,000 instructions with the bound off, spinbench on 2 CPUs). dcid sends a data
# queue as runs of whole frames (DCID_SEND_SPAN), and the slow client's socket takes part of a
# run again and again. Every frame either client gets must decode whole (the framing kept
# across partial sends), the slow one's pings must be answered in the middle of the stream, it
# must be told what its queue dropped (DROPPED), and what it got must be exactly the fast
# one's samples less the frames it was told it lost.
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --timeout 150 --cpus 2 --append "dci.token=sr" \
	--workload spinbench:1000000:2:0,cotree:touch
wait_for '^dcid: listening' 40
build/host/kovctl --target "127.0.0.1:$port" --token sr --timeout 30 throttle --limit off >/dev/null ||
	fail "kovctl throttle --limit off"
python3 - "$port" <<'PY' || fail "a slow reader of the samples stream"
import sys, socket, struct, threading, time, collections
sys.path.insert(0, "tests/qemu")
import kovproto as k
port = int(sys.argv[1])
fast = k.Conn(port, timeout=30)
st, role, reason = fast.handshake(b"sr", minor=8)
assert st == 0 and role == 2, (st, role, reason)
# A small window, read at most 4 KiB every 20 ms (about 200 KB/s).
slow = k.Conn(port, timeout=30, rcvbuf=4096, recv_size=4096, recv_pause=0.02)
st, role, reason = slow.handshake(b"", minor=8)
assert st == 0, (st, reason)
frames = {fast: [], slow: []}
stopped = threading.Event()

def read_fast():
    while True:
        fr = fast.recv_frame()
        assert fr is not None, "the fast reader's connection closed"
        frames[fast].append(fr)
        if fr[2] == 9:
            break
    stopped.set()
    fast.sock.settimeout(3)
    try:
        while (fr := fast.recv_frame()) is not None:
            frames[fast].append(fr)
    except OSError:
        pass

def read_slow():
    try:
        while True:
            if stopped.is_set():
                slow.sock.settimeout(4)
            fr = slow.recv_frame()
            if fr is None:
                raise AssertionError("the slow reader's connection closed")
            frames[slow].append(fr)
    except socket.timeout:
        pass                           # quiet for 4 s after STOP: all delivered

fr = k.call(fast, k.pmu_config(2, [(b"PM_INST_CMPL", 2000)], chain_depth=4), 2)
assert fr[0] == k.PMU_CONFIG and fr[2] == 2, ("configuration refused", k.error_of(fr))
readers = [threading.Thread(target=read_fast), threading.Thread(target=read_slow)]
for t in readers:
    t.start()
fast.send(k.start(3, streams=1))
for i in range(3):                     # answers between the runs of data
    time.sleep(2)
    slow.send(k.ping(20 + i, 1000 + i))
time.sleep(2)
fast.send(k.frame(k.STOP, 9, b""))
for t in readers:
    t.join(180)
    assert not t.is_alive(), "a reader did not finish"

def dropped_samples(c):
    """The last DROPPED's SAMPLES_PACKED records (totals are cumulative), and its frames."""
    recs = nframes = 0
    for t, fl, req, p in frames[c]:
        if t == k.DROPPED:
            nframes = struct.unpack(">Q", p[0:8])[0]
            (count,) = struct.unpack(">I", p[24:28])
            recs = 0
            for i in range(count):
                typ, _, rc = struct.unpack(">HQQ", p[28 + 18 * i:46 + 18 * i])
                if typ == k.SAMPLES_PACKED:
                    recs = rc
    return recs, nframes

def samples(c):
    out = []
    for t, fl, req, p in frames[c]:
        if t == k.SAMPLES_PACKED:
            out += k.samples_packed(p)    # asserts the frame decodes exactly to its end
    return out

pongs = sorted(r for t, fl, r, p in frames[slow] if t == k.PONG)
assert pongs == [20, 21, 22], "the slow reader's pings were answered %s" % pongs
got_fast, got_slow = samples(fast), samples(slow)
lost_fast, _ = dropped_samples(fast)
lost_slow, dframes = dropped_samples(slow)
print("fast: %d samples, %d dropped; slow: %d samples, %d dropped in %d frames; %d and %d frames"
      % (len(got_fast), lost_fast, len(got_slow), lost_slow, dframes, len(frames[fast]), len(frames[slow])))
assert lost_slow > 0, "the slow reader lost nothing: the test did not make its queue overflow"
assert len(got_slow) + lost_slow == len(got_fast) + lost_fast, "received and dropped do not add up"
if not lost_fast:
    missing = collections.Counter(got_slow) - collections.Counter(got_fast)
    assert not missing, "%d of the slow reader's samples are not the fast one's" % sum(missing.values())
PY
echo "PASS"
