# kovctl optimize finds a hot object on its own and swaps it: jbb with every transaction on
# warehouse 0 (a coarse Warehouse, one spin lock) and 6 terminals on the parallel machine's 2
# CPUs, so the guest's scheduler preempts lock holders and the warehouse's wait is structural
# (25% of the CPUs' time measured, whatever the host's load; with 2 terminals it was 1-6% and
# followed the host). The optimizer, at its default threshold (5%) and told nothing of which
# object is hot, must decide exactly one swap, of the warehouse jbb names as hot, to
# WarehouseFine, and carry it out; the scan then shows that COID as a WarehouseFine; jbb's
# payments stay exact (the decisions' rules are unit-tested on known series,
# tests/unit/test_optimizer.c).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
boot_hot_jbb 100 seconds=40
ctl --json optimize --seconds 20
cat "$OUT"
[ "$RC" = 0 ] || fail "optimize exited $RC"
python3 - "$OUT" "$hot" <<'PY' || fail "the optimizer's decisions"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
decisions = [d for d in lines if d.get("event") == "decision"]
assert len(decisions) == 1, decisions
d = decisions[0]
assert d["coid"] == sys.argv[2] and d["class"] == "Warehouse" and d["to"] == "WarehouseFine", d
assert d["swap"]["swapped"], d
print("optimize: one decision, the hot warehouse %s -> WarehouseFine (%s)" % (d["coid"], d.get("why", "")))
PY
k scan --class WarehouseFine
grep -q "$hot" "$OUT" || { cat "$OUT"; fail "the hot warehouse is not a WarehouseFine now"; }
wait_for '^jbb: done' 60
expect '^jbb: payments: every warehouse.s year-to-date equals what its payers paid$'
echo "optimize_jbb: passed"
