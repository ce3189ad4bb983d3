# Slow clients on the metrics port do not stall the daemon: while sampling streams to a client,
# two clients open /metrics and send "GET /metr" without ever finishing their request (and
# open a new connection whenever one is closed). DCI pings are not held up by them: no ping
# waits anywhere near a request's 5 s deadline (what a daemon blocked on a slow client would
# make it wait), and their median stays within what the pings before measured on the same host
# (twice that and 2 ms: the host's load moves both, a slow client only the second), the
# stream loses no samples (no LOST_SAMPLES from the target's rings, no DROPPED from the
# client's queue), a normal scrape is still answered, and the slow clients are closed at their
# deadline with 408. The samples come from spinbench working a third of the time (10 ms rounds,
# 20 ms pauses) on one of two CPUs, so that the daemon is not kept waiting for a CPU.
source "$(dirname "$0")/lib.bash"
port=$(free_port) mport=$(free_port)
boot_bg --port "$port" --metrics-port "$mport" --timeout 100 --cpus 2 --append "dci.token=s3cret" \
	--workload spinbench:100000:1:0:20
wait_for '^dcid: listening' 40
python3 - "$port" "$mport" <<'PY' || fail "slow metrics clients"
import sys, socket, struct, time, statistics, threading
sys.path.insert(0, "tests/qemu")
import kovproto as k
port, mport = int(sys.argv[1]), int(sys.argv[2])

ctl = k.Conn(port)
st, role, reason = ctl.handshake(b"s3cret")
assert st == 0 and role == 2, (st, role, reason)
tally = k.Tally()
fr = k.call(ctl, k.pmu_config(2, [(b"PM_INST_CMPL", 100003)]), 2)
assert fr[0] == k.PMU_CONFIG, ("configuration refused", k.error_of(fr))
fr = k.call(ctl, k.start(3, streams=1), 3)
assert fr[0] == k.OK, fr

def pings(n, first):
    rtts = []
    for i in range(n):
        t0 = time.perf_counter()
        fr = k.call(ctl, k.ping(first + i, i), first + i, tally)
        rtts.append((time.perf_counter() - t0) * 1000)
        assert fr[0] == k.PONG, fr
        time.sleep(0.05)
    return statistics.median(rtts), max(rtts)

def scrape():
    s = socket.create_connection(("127.0.0.1", mport), timeout=20)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: kov\r\n\r\n")
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    s.close()
    return data

before, before_max = pings(40, 100)
stop = False
answers = []
def slowloris():
    while not stop:
        s = socket.create_connection(("127.0.0.1", mport), timeout=1)
        s.sendall(b"GET /metr")
        data = b""
        while not stop:
            try:
                d = s.recv(4096)
            except socket.timeout:
                continue
            if not d:
                break
            data += d
        s.close()
        if data or not stop:
            answers.append(data.split(b"\r\n")[0])
slow = [threading.Thread(target=slowloris) for i in range(2)]
for t in slow:
    t.start()
time.sleep(0.5)
during, during_max = pings(150, 1000)
body = scrape()
stop = True
for t in slow:
    t.join()
assert body.startswith(b"HTTP/1.1 200 OK\r\n") and b"kov_cpus 2" in body, body[:200]
print("ping median %.2f ms (max %.1f) before, %.2f ms (max %.1f) with two slow metrics clients; "
      "%d samples, %d lost, %d frames dropped; the slow clients were answered %s" %
      (before, before_max, during, during_max, tally.samples, tally.lost, tally.dropped_frames, answers))
assert during_max < 2500, "a ping waited %.0f ms: held up by a slow metrics client" % during_max
assert during < 2 * before + 2, "ping median %.2f ms with slow metrics clients, %.2f ms before" % (during, before)
assert tally.samples > 0, "no samples streamed"
assert tally.lost == 0 and tally.dropped_frames == 0, (tally.lost, tally.dropped_frames)
assert answers and all(a.startswith(b"HTTP/1.1 408 ") for a in answers), answers
PY
expect_not 'kov: PANIC'
