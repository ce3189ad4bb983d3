# Sampling at 100x the thesis's rate (a sample every 1,000 instructions) on 2 busy CPUs: samples
# arrive as fast as the daemon drains them. It must still answer its clients: pings, a status,
# and a STOP, after which the stream ends. (Before, the drain loop never returned to the
# sockets and STOP never got through; the evaluation had to replace the machine.)
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --cpus 2 --timeout 100 --append "dci.token=s3cret" \
	--workload "spinbench:100000:2:0:0"
wait_for '^dcid: listening' 40
python3 - "$port" <<'PY' || fail "the daemon under a sample flood"
import sys, time, socket
sys.path.insert(0, "tests/qemu")
import kovproto as k
c = k.Conn(int(sys.argv[1]), timeout=15)
st, role, reason = c.handshake(b"s3cret", minor=3)
assert st == 0 and role == 2, reason
tally = k.Tally()
fr = k.call(c, k.pmu_config(2, [(b"PM_INST_CMPL", 1000)]), 2)
assert fr[0] == k.PMU_CONFIG, k.error_of(fr)
assert k.call(c, k.start(3, streams=1), 3)[0] == k.OK
time.sleep(3)
for i in range(10):
    assert k.call(c, k.ping(10 + i, i), 10 + i, tally)[0] == k.PONG, "no PONG"
st = c.status(30)
assert k.call(c, k.frame(k.STOP, 31, b""), 31, tally)[0] == k.OK, "STOP not answered"
before = tally.samples
c.sock.settimeout(2)
try:
    while True:
        fr = c.recv_frame()
        if fr is None:
            break
        tally.add(fr)
except socket.timeout:
    pass
print("flood: %d samples, %d lost, status %s; %d after STOP's answer" %
      (tally.samples, tally.lost, st, tally.samples - before))
assert tally.samples > 10000
assert k.call(c, k.ping(40, 40), 40)[0] == k.PONG
PY
expect_not 'kov: PANIC'
