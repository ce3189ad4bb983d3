# Full lock counting (INSTRUMENT what 3, `kovctl instrument --what full-locks`): with it on for
# lockbench's process, every acquisition of every LockObj lock is counted, exactly as many as
# the objects counted themselves, each with its hold measured, contended or not (4 threads, and
# one thread where nothing contends); switched off, the figures go back to contended ones only.
# Switched on and off many times while the locks are busy, every lock word ends marked if and
# only if full counting is on.
# For the kernel (pid 0) under pagestorm (single page manager), the locks of live kernel objects count every
# acquisition, more than their contentions. Bad --what values are usage errors.
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
OUT=$(mktemp)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"*' EXIT
$K --target 127.0.0.1:1 --token t instrument --pid 1 --what most on >"$OUT" 2>&1
[ $? = 2 ] || fail "--what most must be a usage error"
grep -q 'calls, locks or full-locks' "$OUT" || fail "unclear --what error: $(cat "$OUT")"

# lockbench with PATTERN THREADS: full counting on before the run, off after it.
full_run() {
	local pattern=$1 threads=$2 port pid
	port=$(free_port)
	boot_bg --cpus 4 --port "$port" --timeout 60 --append "dci.token=f" \
		--workload "lockbench:$pattern:$threads:8:3:4"
	wait_for '^dcid: listening' 40
	wait_for '^lockbench: pid' 20
	pid=$(grep -a -m1 '^lockbench: pid' "$LOG" | awk '{print $3}')
	$K --target 127.0.0.1:"$port" --token f instrument --pid "$pid" --what full-locks on >"$OUT.on" 2>&1 ||
		fail "instrument full-locks on: $(cat "$OUT.on")"
	grep -q "full lock counting on for every object of pid $pid" "$OUT.on" || fail "unexpected answer: $(cat "$OUT.on")"
	$K --target 127.0.0.1:"$port" --token f --json lockstat --pid "$pid" --kind spin --seconds 7 \
		>"$OUT.json" 2>"$OUT.err" || fail "kovctl lockstat: $(cat "$OUT.err")"
	wait_for '^lockbench: done' 20
	$K --target 127.0.0.1:"$port" --token f instrument --pid "$pid" --what full-locks off >"$OUT.off" 2>&1 ||
		fail "instrument full-locks off: $(cat "$OUT.off")"
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
	python3 - "$pattern" "$threads" "$LOG" "$OUT.json" <<'PY' || fail "full counting ($pattern) disagrees with lockbench"
import json, re, sys
pattern, threads, log, lsf = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
truth = {}
for line in open(log, errors="replace"):
    m = re.match(r"lockbench: object (\d+) lock=(0x[0-9a-f]+) rep=\S+ hot=\d acquisitions=(\d+) waited=(\d+)", line)
    if m:
        truth[int(m.group(2), 16)] = (int(m.group(1)), int(m.group(3)), int(m.group(4)))
assert len(truth) == 8, "lockbench printed no truth"
kov = {int(l["lock"], 16): l for l in json.load(open(lsf))["locks"]}
rows = []
for lock, (idx, acq, waited) in sorted(truth.items(), key=lambda x: x[1][0]):
    l = kov.get(lock)
    assert l, f"object {idx}'s lock {lock:#x} is not in lockstat"
    assert l["class"] == "LockObj" and l["owner_from"] == "registered", l
    assert l["acquisitions_counted"] == "all", f"object {idx}: not fully counted: {l}"
    assert l["acquisitions"] == acq, f"object {idx}: KOV counted {l['acquisitions']} acquisitions, the object {acq}"
    assert l["holds"] == acq, f"object {idx}: {l['holds']} holds measured for {acq} acquisitions"
    assert l["contentions"] <= l["acquisitions"], l
    if threads == 1:
        assert l["contentions"] == 0 and l["wait_ticks"] == 0, f"one thread, yet contention: {l}"
    rows.append(f"obj{idx} {acq}")
print(f"{pattern}/{threads}: every acquisition counted exactly ({' '.join(rows)})")
PY
}
full_run long 4
full_run single 1

# Full counting switched on and off while four threads keep the locks busy, ending with LAST:
# at rest every lock word must be marked (SPIN_MARKED) if full counting is on and free (0) if
# it is off. A release racing with the switch once stored 0 over a fresh mark (full counting
# silently gone for that lock), and a waiter that read the record's flags before a switch off
# put SPIN_FULL back when it took the lock, and its release kept it (every acquisition counted
# again, with the flags saying otherwise).
toggle_run() {
	local last=$1 port pid i=0 state= words
	port=$(free_port)
	boot_bg --cpus 4 --port "$port" --timeout 60 --append "dci.token=f" --workload "lockbench:long:4:8:6:3"
	wait_for '^dcid: listening' 40
	wait_for '^lockbench: pid' 20
	pid=$(grep -a -m1 '^lockbench: pid' "$LOG" | awk '{print $3}')
	wait_for '^lockbench: running' 10
	# The last switch must find the locks busy (the run lasts 6 s): switched for 3 s.
	local until=$((SECONDS + 3))
	while [ "$SECONDS" -lt "$until" ] || [ "$state" != "$last" ]; do
		state=$([ $((i % 2)) = 0 ] && echo on || echo off)
		i=$((i + 1))
		$K --target 127.0.0.1:"$port" --token f instrument --pid "$pid" --what full-locks "$state" \
			>"$OUT.t" 2>&1 || fail "instrument full-locks $state: $(cat "$OUT.t")"
	done
	grep -a -q '^lockbench: done' "$LOG" && fail "the run ended before the last switch: it proves nothing"
	wait_for '^lockbench: words' 20
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	words=$(grep -a -m1 '^lockbench: words' "$LOG" | tr -d '\r' | cut -d' ' -f3-)
	local want=0x0
	[ "$last" = on ] && want=0xc0000000
	for w in $words; do
		[ "$w" = "$want" ] || fail "full counting switched $i times, last $last: lock words $words (each should be $want)"
	done
	echo "full counting switched $i times under load, last $last: every lock word $want"
}
toggle_run on
toggle_run off

# The kernel: full counting of the locks of live kernel objects under pagestorm.
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 60 --append "dci.token=k pm=single" --workload pagestorm:4:32
wait_for '^dcid: listening' 40
$K --target 127.0.0.1:"$PORT" --token k --json lockstat --pid 0 --kind spin --seconds 3 >"$OUT.before" 2>&1 ||
	fail "kovctl lockstat --pid 0: $(cat "$OUT.before")"
$K --target 127.0.0.1:"$PORT" --token k instrument --pid 0 --what full-locks on >"$OUT" 2>&1 ||
	fail "instrument --pid 0 full-locks on: $(cat "$OUT")"
$K --target 127.0.0.1:"$PORT" --token k --json lockstat --pid 0 --seconds 3 >"$OUT.json" 2>&1 ||
	fail "kovctl lockstat --pid 0 (full): $(cat "$OUT.json")"
$K --target 127.0.0.1:"$PORT" --token k instrument --pid 0 --what full-locks off >"$OUT" 2>&1 ||
	fail "instrument --pid 0 full-locks off: $(cat "$OUT")"
$K --target 127.0.0.1:"$PORT" --token k --json lockstat --pid 0 --seconds 3 >"$OUT.after" 2>&1 ||
	fail "kovctl lockstat --pid 0 (after): $(cat "$OUT.after")"
python3 - "$OUT.before" "$OUT.json" "$OUT.after" <<'PY' || fail "kernel full counting"
import json, sys
before, full, after = (json.load(open(f))["locks"] for f in sys.argv[1:4])
assert after, "no kernel lock reported after full counting was switched off"
assert before and all(l["acquisitions_counted"] == "contended" for l in before), "full before it was switched on"
counted = [l for l in full if l["acquisitions_counted"] == "all"]
assert counted, "no kernel lock fully counted"
assert all(l["coid"] != "0x0" for l in counted), "a lock of no object was marked"
busy = [l for l in counted if l["acquisitions"] > l["contentions"]]
assert busy, f"no fully counted lock shows uncontended acquisitions: {counted[:3]}"
for l in counted:
    assert l["holds"] <= l["acquisitions"] + 1, l
assert all(l["acquisitions_counted"] == "contended" for l in after), "still fully counted after off"
top = max(busy, key=lambda l: l["acquisitions"])
print(f"kernel: {len(counted)} locks fully counted; {top['class']} lock {top['acquisitions']} acquisitions, "
      f"{top['contentions']} contended")
PY
echo "full lock counting: exact for user locks, on and off for the kernel's"
