# Runs one lockbench pattern on a booted target and checks KOV's lock statistics against the
# truth every object measured itself (sourced by the lockstat_*.sh tests and by make bench).
#   lockbench_check PATTERN CPUS -> 0 if KOV agrees; prints one line of figures
# Every object's contentions must be exactly the calls lockbench saw wait (a first try that
# failed), its trylock failures exactly the spin_trylock calls that failed, and KOV's interval
# of each contention inside lockbench's (kov_outside 0): a lost or extra event fails the test
# whatever the times. KOV's per-object wait
# (kovctl lockstat) must agree within 1% with the object's truth less the stalls lockbench saw
# outside KOV's interval (sim/workloads/lockbench.c: its thread held up in the instructions
# between its clock and KOV's, no wait) for every object that waited at least 10 times (fewer
# waits of a few microseconds each could be moved by 1% by a hold-up just under the 2 us that
# makes a stall), and within 0.5% in total; the stalls must stay a small part of the truth (at most 5%: up
# to 1% seen, on the parallel machine with 150,000 waits on the hot object); `top --metric
# spinlock` must rank the hot object first, and with one thread (pattern single) no LockObj may
# show any contention.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

lockbench_check() {
	local pattern=$1 cpus=$2 port json top
	port=$(free_port)
	json=$(mktemp) top=$(mktemp)
	boot_bg --cpus "$cpus" --port "$port" --timeout 60 --append "dci.token=lb" \
		--workload "lockbench:$pattern:4:8:3:3"
	wait_for '^dcid: listening' 40
	wait_for '^lockbench: pid' 20
	build/host/kovctl --target 127.0.0.1:"$port" --token lb --json lockstat --kind spin \
		--seconds 7 >"$json" 2>"$json.err" &
	local ls=$!
	sleep 0.5
	build/host/kovctl --target 127.0.0.1:"$port" --json top --metric spinlock --n 20 \
		--seconds 6 >"$top" 2>"$top.err"
	local top_rc=$?
	wait "$ls"
	local ls_rc=$?
	wait_for '^lockbench: done' 20
	kill -- -"$SIM_PID" 2>/dev/null
	tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
	[ "$ls_rc" = 0 ] || { echo "kovctl lockstat exited $ls_rc: $(cat "$json.err")"; return 1; }
	python3 - "$pattern" "$LOG" "$json" "$top" "$top_rc" <<'PY'
import json, re, sys
pattern, log, lsf, topf, top_rc = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
truth = {}
hot = None
for line in open(log, errors="replace"):
    m = re.match(r"lockbench: object (\d+) lock=(0x[0-9a-f]+) rep=\S+ hot=(\d) acquisitions=(\d+) waited=(\d+) "
                 r"truth_wait=(\d+) kov_outside=(\d+) stalls=(\d+) stall_ticks=(\d+) tryfails=(\d+)", line)
    if m:
        truth[int(m.group(2), 16)] = tuple(int(m.group(i)) for i in (1, 6, 5, 7, 8, 9, 10))
        if m.group(3) == "1":
            hot = int(m.group(2), 16)
assert len(truth) == 8 and hot is not None, "lockbench printed no truth"
kov = {int(l["lock"], 16): l for l in json.load(open(lsf))["locks"]}
BOUND, TOTAL_BOUND = 0.01, 0.005
raw_total = sum(t[1] for t in truth.values())
worst, rows, kov_total, bad, stalls, stall_ticks = 0.0, [], 0, [], 0, 0
for lock, (idx, tw, waited, outside, st, st_ticks, tryfails) in sorted(truth.items(), key=lambda x: x[1][0]):
    l = kov.get(lock)
    kw, kc, kt = (l["wait_ticks"], l["contentions"], l["trylock_failures"]) if l else (0, 0, 0)
    if l and l["class"] != "LockObj":
        sys.exit(f"{pattern}: lock {lock:#x} attributed to {l['class']}, not LockObj")
    if pattern == "single":
        if kw or kc:
            sys.exit(f"{pattern}: one thread, yet KOV shows contention on object {idx}: {l}")
        continue
    if kc != waited:
        bad.append(f"object {idx}: KOV counted {kc} contentions, lockbench saw {waited} calls wait")
    if kt != tryfails:
        bad.append(f"object {idx}: KOV counted {kt} trylock failures, lockbench saw {tryfails}")
    if outside:
        bad.append(f"object {idx}: KOV's interval of {outside} contended calls lay outside the call")
    kov_total += kw
    stalls += st
    stall_ticks += st_ticks
    net = tw - st_ticks   # the truth less the stalls outside KOV's interval
    if net:
        rows.append(f"obj{idx}{'*' if lock == hot else ''} {kw / net:.4f}/{waited}")
    if waited >= 10 and net > 0:
        worst = max(worst, abs(kw - net) / net)
if pattern == "single":
    print(f"{pattern}: no contention on any LockObj (truth: one thread)")
    sys.exit(0)
total = raw_total - stall_ticks
total_err = abs(kov_total - total) / total if total else 1
stall_share = stall_ticks / raw_total if raw_total else 0
stall_text = (f"{stalls} stalls outside KOV's interval ({stall_ticks} ticks, {stall_share:.2%} of the truth; "
              f"with them KOV is {abs(kov_total - raw_total) / raw_total if raw_total else 0:.2%} off)")
if stall_share > 0.05:
    bad.append("the stalls are more than 5% of the truth")
if bad or worst > BOUND or total_err > TOTAL_BOUND:
    sys.exit(f"{pattern}: KOV/truth wait ratio/waits {' '.join(rows)}: worst {worst:.2%} off, total {total_err:.2%} off; "
             f"{stall_text}; {'; '.join(bad)}")
if top_rc != 0:
    sys.exit(f"{pattern}: kovctl top exited {top_rc}")
objs = [o for o in json.load(open(topf))["objects"] if o["class"] == "LockObj"]
kovhot = int(kov[hot]["coid"], 16) if hot in kov else -1
if not objs or int(objs[0]["coid"], 16) != kovhot:
    sys.exit(f"{pattern}: top --metric spinlock ranks {objs[0] if objs else 'nothing'} first, not the hot object {kovhot:#x}")
print(f"{pattern}: worst error {worst:.2%} (objects with >= 10 waits), total {total_err:.2%}, contentions and trylock failures exact, hot object first "
      f"({objs[0]['share']:.1f}% of the wait); {stall_text}; KOV/truth ratio/waits: {' '.join(rows)}")
PY
	local rc=$?
	rm -f "$json" "$json.err" "$top" "$top.err"
	return $rc
}
