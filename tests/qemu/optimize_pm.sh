# kovctl optimize finds the kernel's hot page manager on its own and hot-swaps it: pagestorm on
# the parallel machine's 2 CPUs booted with the single page manager (pm=single), where every
# page fault of every CPU takes its one lock (7.8% of the CPUs' time in spin wait, measured).
# At its default threshold (5%) and told nothing, the optimizer must decide exactly one swap,
# of the PM (pid 0: a kernel object) to PMPerCPU, and carry it out; the scan then shows the PM
# as a PMPerCPU, and pagestorm's processes all succeed.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
PORT=$(free_port)
boot_bg --parallel --cpus 2 --port "$PORT" --timeout 100 --append "dci.token=s3cret pm=single" \
	--workload pagestorm:4:16
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40
wait_for '^pagestorm: 1000 processes done' 60
ctl --json optimize --seconds 20
cat "$OUT"
[ "$RC" = 0 ] || fail "optimize exited $RC"
python3 - "$OUT" <<'PY' || fail "the optimizer's decisions"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
decisions = [d for d in lines if d.get("event") == "decision"]
assert len(decisions) == 1, decisions
d = decisions[0]
assert d["pid"] == 0 and d["coid"] == "0xd000000000000020", d
assert d["class"] == "PM" and d["to"] == "PMPerCPU" and d["swap"]["swapped"], d
print("optimize: one decision, the kernel's PM -> PMPerCPU at %.1f%% wait" % d["wait_pct"])
PY
k scan --pid 0 --class PMPerCPU
out_has '0xd000000000000020'
expect_not 'pagestorm: [0-9]+ processes done, [1-9][0-9]* failed'
echo "optimize_pm: passed"
