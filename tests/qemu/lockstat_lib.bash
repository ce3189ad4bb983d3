# Runs one lockbench pattern on a booted target and checks KOV's lock statistics against the
# truth every object measured itself (sourced by the lockstat_*.sh tests and by make bench).
#   lockbench_check PATTERN CPUS -> 0 if KOV agrees; prints one line of figures
# KOV's per-object wait (kovctl lockstat) must agree with the truth within 5% for every object
# that waited at least 40 times (fewer waits are single events of several ms each under QEMU's
# CPUs-in-turn: one of them moves the figure by more than 5%) and in total over all objects;
# `top --metric spinlock` must rank the hot object first,
# and with one thread (pattern single) no LockObj may show any contention.
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
    m = re.match(r"lockbench: object (\d+) lock=(0x[0-9a-f]+) rep=\S+ hot=(\d) acquisitions=(\d+) waited=(\d+) truth_wait=(\d+)", line)
    if m:
        truth[int(m.group(2), 16)] = (int(m.group(1)), int(m.group(6)), int(m.group(5)))
        if m.group(3) == "1":
            hot = int(m.group(2), 16)
assert len(truth) == 8 and hot is not None, "lockbench printed no truth"
kov = {int(l["lock"], 16): l for l in json.load(open(lsf))["locks"]}
total = sum(t[1] for t in truth.values())
worst, rows, kov_total = 0.0, [], 0
for lock, (idx, tw, waited) in sorted(truth.items(), key=lambda x: x[1][0]):
    l = kov.get(lock)
    kw = l["wait_ticks"] if l else 0
    if l and l["class"] != "LockObj":
        sys.exit(f"{pattern}: lock {lock:#x} attributed to {l['class']}, not LockObj")
    if pattern == "single":
        if kw or (l and l["contentions"]):
            sys.exit(f"{pattern}: one thread, yet KOV shows contention on object {idx}: {l}")
        continue
    kov_total += kw
    if tw:
        rows.append(f"obj{idx}{'*' if lock == hot else ''} {kw / tw:.3f}/{waited}")
    if waited >= 40:
        worst = max(worst, abs(kw - tw) / tw)
if pattern == "single":
    print(f"{pattern}: no contention on any LockObj (truth: one thread)")
    sys.exit(0)
total_err = abs(kov_total - total) / total if total else 1
if worst > 0.05 or total_err > 0.05:
    sys.exit(f"{pattern}: KOV/truth wait ratio/waits {' '.join(rows)}: worst {worst:.1%} off, total {total_err:.1%} off")
if top_rc != 0:
    sys.exit(f"{pattern}: kovctl top exited {top_rc}")
objs = [o for o in json.load(open(topf))["objects"] if o["class"] == "LockObj"]
kovhot = int(kov[hot]["coid"], 16) if hot in kov else -1
if not objs or int(objs[0]["coid"], 16) != kovhot:
    sys.exit(f"{pattern}: top --metric spinlock ranks {objs[0] if objs else 'nothing'} first, not the hot object {kovhot:#x}")
print(f"{pattern}: worst error {worst:.2%} (objects with >= 40 waits), total {total_err:.2%}, hot object first "
      f"({objs[0]['share']:.1f}% of the wait); KOV/truth ratio/waits: {' '.join(rows)}")
PY
	local rc=$?
	rm -f "$json" "$json.err" "$top" "$top.err"
	return $rc
}
