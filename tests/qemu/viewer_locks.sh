# kov-viewer's lock view under Xvfb against lockbench on 4 CPUs (eight LockObj, one hot): the
# spin pane plots the measured wait, the lock view's heaviest lock is the hot object's, F turns
# full counting on and the acquisition pane gets software counts, the selected object shows
# its lock with the call site symbolized.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/viewer_lib.bash"

# Measured contention: lockbench, 4 threads on 4 CPUs, eight LockObj, the hot one holding its
# lock 10 times longer; the viewer configures, starts (with the lock stream) and, with F on
# the first LockObj, counts every acquisition of its lock.
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 90 --append "dci.token=s3cret" --workload lockbench:long:4:8:30:1
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"* "$PNG" "$CONF" "$REC"' EXIT
wait_for '^dcid: listening' 40
wait_for '^lockbench: running' 30
printf 'group main 100\n  PM_INST_CMPL 100003\n  PM_CYC\n' >"$CONF"
shot 7 --target 127.0.0.1:"$PORT" --token s3cret --config "$CONF" --view locks --select LockObj --keys f ||
	fail "lock view exited $?: $(cat "$OUT")"
cat "$OUT"
png_ok 1280 800
cp "$OUT" "$OUT.locks"
grep -a -q 'dcid: full lock counting on for pid [0-9]* (one object)' "$LOG" || fail "F: INSTRUMENT not sent"
shot 4 --target 127.0.0.1:"$PORT" --token s3cret --select LockObj || fail "selected LockObj exited $?: $(cat "$OUT")"
# The figures come from lockbench's run: both viewers must have looked while it ran (beside a
# busy host its 14 s of work once ended before the second viewer's look, which then saw no lock).
grep -a -q '^lockbench: done' "$LOG" && fail "lockbench ended before the viewers had looked"
cat "$OUT"
png_ok 1280 800
wait_for '^lockbench: done' 60
tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
python3 - "$LOG" "$OUT.locks" "$OUT" <<'PY' || fail "the viewer's lock figures disagree with lockbench"
import re, sys
log, locks, sel = (open(f, errors="replace").read() for f in sys.argv[1:4])
hot = re.search(r"^lockbench: object \d+ lock=(0x[0-9a-f]+) rep=\S+ hot=1 ", log, re.M)
assert hot, "lockbench printed no truth"
hot = int(hot.group(1), 16)
def pane(text, title):
    m = re.search(r'^viewer: pane "%s" available=1 points=(\d+) last=(\S+) max=(\S+)' % re.escape(title), text, re.M)
    assert m, f"no {title} pane in the report"
    return int(m.group(1)), float(m.group(2)), float(m.group(3))
# The spin pane: points of measured wait, some of them above zero (four threads contend).
n, last, top = pane(locks, "Spin-lock wait")
assert n >= 20 and top > 0, f"spin pane: {n} points, largest {top}"
# The lock view: the hot object's lock first, as LockObj of lockbench, the eight listed.
m = re.search(r"^viewer: locks: rows=(\d+) hidden=(\d+) top: (0x[0-9a-f]+) spin LockObj 0x[0-9a-f]+ lockbench \d+ wait=(\d+)", locks, re.M)
assert m, "the lock view's report has no LockObj row first"
assert int(m.group(1)) >= 8, f"the lock view lists {m.group(1)} locks, lockbench has 8"
assert int(m.group(3), 16) == hot, f"the lock view's heaviest is {m.group(3)}, lockbench's hot lock {hot:#x}"
assert int(m.group(4)) > 0
# On a serial machine the spin pane's figures say so (the lock view and panels too).
if re.search(r'^viewer: machine: cpus_run=take-turns ', locks, re.M):
    assert re.search(r'^viewer: pane "Spin-lock wait" .*subtitle="serial machine: ', locks, re.M), "spin pane unlabelled"
# The acquisition pane: software counts of the fully counted lock, a first-try share.
acq, last, _ = pane(locks, "Lock acquisition success (software counts)")
assert acq >= 5 and 0 < last <= 100, f"acquisition pane: {acq} points, last {last}"
# The selected LockObj: its lock, its call site symbolized.
m = re.search(r"^viewer: selected: selected_locks=(\d+) lock_sites=(\d+) symbolized_sites=(\d+)", sel, re.M)
assert m and int(m.group(1)) == 1 and int(m.group(3)) >= 1, f"selected object's locks: {m and m.group(0)}"
print(f"viewer: hot lock {hot:#x} heaviest in the lock view; spin pane {n} points up to {top:.1f}%; "
      f"first-try acquisitions {last:.2f}% of the fully counted lock")
PY
exit 0
