# The DCI daemon is killed while a controller samples through it: the kernel stays up, the
# monitor stops (nobody drains it any more) with the kernel's instrumentation off, the kernel
# restarts the daemon, and a client reconnects, configures and samples again. Then it is killed
# five more times, 3 s apart: the kernel gives up after SERVICE_RESTARTS (5) restarts in a
# minute instead of spinning, and stays up.
source "$(dirname "$0")/lib.bash"
port=$(free_port)
boot_bg --port "$port" --cpus 2 --timeout 150 --append "dci.token=s3cret" \
	--workload "spinbench:100000:1:0:20,kill:dcid:12,kill:dcid:26,kill:dcid:29,kill:dcid:32,kill:dcid:35,kill:dcid:38"
wait_for '^dcid: listening' 40
python3 - "$port" "$LOG" <<'PY' || fail "the daemon's restart"
import sys, time, re
sys.path.insert(0, "tests/qemu")
import kovproto as k
port, log = int(sys.argv[1]), sys.argv[2]

def console():
    return open(log, errors="replace").read()

def sample_for(seconds):
    """Connects as controller, configures, starts; returns the connection and a tally."""
    c = k.Conn(port)
    st, role, reason = c.handshake(b"s3cret", minor=3)
    assert st == 0 and role == 2, reason
    tally = k.Tally()
    fr = k.call(c, k.pmu_config(2, [(b"PM_INST_CMPL", 1000003)]), 2)
    assert fr[0] == k.PMU_CONFIG, k.error_of(fr)
    assert k.call(c, k.start(3, streams=3), 3)[0] == k.OK
    end = time.time() + seconds
    while time.time() < end:
        fr = c.recv_frame()
        if fr is None:
            return c, tally, True
        tally.add(fr)
    return c, tally, False

# Sampling until the daemon goes away under us (kill:dcid:12 ends it 12 s after boot).
c, before, closed = sample_for(40)
assert closed, "the daemon was not ended within 40 s"
assert before.samples > 0, "no samples before the kill"
print("before the kill: %d samples" % before.samples)

end = time.time() + 30
while time.time() < end and not re.search(r"^kov: dcid restarted, pid \d+$", console(), re.M):
    time.sleep(0.2)
log_text = console()
assert re.search(r"^kov: pid \d+ \(dcid\) killed by pid \d+ \(kill\)$", log_text, re.M), "no kill line"
assert re.search(r"^kov: dcid \(pid \d+\) ended with status 137; restarting it$", log_text, re.M)
assert re.search(r"^kov: the process that controlled monitoring ended: monitoring stopped",
                 log_text, re.M), "the monitor was not stopped"
assert re.search(r"^kov: dcid restarted, pid \d+$", log_text, re.M), "not restarted"

# QEMU's user network accepts on the host side whether or not the guest listens: wait for the
# new daemon's own "listening" line, not for the port.
end = time.time() + 30
while time.time() < end and len(re.findall(r"^dcid: listening", console(), re.M)) < 2:
    time.sleep(0.2)
assert len(re.findall(r"^dcid: listening", console(), re.M)) >= 2, "the new daemon does not listen"
c, after, closed = sample_for(3)
assert not closed and after.samples > 0, "no samples from the new daemon"
st = c.status(50)
print("after the restart: %d samples; status %s" % (after.samples, st))
assert c.ping(51, 7) is None
c.close()

end = time.time() + 45
while time.time() < end and not re.search(r"^kov: dcid ended .* times within a minute; left down$", console(), re.M):
    time.sleep(0.5)
assert re.search(r"^kov: dcid ended \(status 137\) 6 times within a minute; left down$", console(), re.M), \
    "the kernel did not give up restarting"
print("restarts: %d" % len(re.findall(r"^kov: dcid restarted", console(), re.M)))
PY
grep -a "^kov: .*dcid\|^kov: the process that controlled" "$LOG"
expect_not 'kov: PANIC'
