# The system-call fuzzer on 4 CPUs while the network and the monitor run: a client configures
# and starts sampling through the daemon and keeps pinging and taking the stream while sysfuzz
# makes SYSFUZZ_CALLS (10,000; make fuzz: 1,000,000) random calls from 4 threads. Pass: no
# panic, sysfuzz passed (every wrong call refused; free pages, heap blocks, processes and
# sockets back to their start), and the daemon still answers and streams afterwards.
source "$(dirname "$0")/lib.bash"
calls=${SYSFUZZ_CALLS:-10000} seed=${SYSFUZZ_SEED:-1}
limit=$((60 + calls / 5000))
port=$(free_port)
boot_bg --port "$port" --cpus 4 --timeout $((limit + 40)) --append "dci.token=s3cret" \
	--workload "spinbench:100000:1:0:20,sysfuzz:$calls:4:$seed:5"
wait_for '^dcid: listening' 40
python3 - "$port" "$LOG" "$limit" <<'PY' || fail "sysfuzz with the monitor running"
import sys, time, re
sys.path.insert(0, "tests/qemu")
import kovproto as k
port, log, limit = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
c = k.Conn(port)
st, role, reason = c.handshake(b"s3cret")
assert st == 0 and role == 2, reason
tally = k.Tally()
fr = k.call(c, k.pmu_config(2, [(b"PM_INST_CMPL", 100003), (b"SW_SYSCALL", 1000)]), 2)
assert fr[0] == k.PMU_CONFIG, k.error_of(fr)
assert k.call(c, k.start(3, streams=7), 3)[0] == k.OK
end, req, verdict = time.time() + limit, 100, None
while time.time() < end and not verdict:
    req += 1
    assert k.call(c, k.ping(req, req), req, tally)[0] == k.PONG
    m = re.search(r"^sysfuzz: (passed|FAILED)$", open(log, errors="replace").read(), re.M)
    verdict = m and m.group(1)
    time.sleep(0.2)
assert verdict, "sysfuzz did not finish within %d s" % limit
during = tally.samples
for i in range(10):     # the daemon still answers and streams
    req += 1
    assert k.call(c, k.ping(req, req), req, tally)[0] == k.PONG
    time.sleep(0.1)
print("sysfuzz %s; %d samples streamed meanwhile, %d after; %d lost" %
      (verdict, during, tally.samples - during, tally.lost))
assert verdict == "passed"
assert during > 0 and tally.samples > during, "the stream stopped"
PY
grep -a '^sysfuzz:' "$LOG"
expect_not 'kov: PANIC'
expect_not 'killed'
