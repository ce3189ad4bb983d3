# The optimizer swaps back when demand falls: jbb's structural hot spot (every transaction on
# warehouse 0, a coarse Warehouse, 6 terminals on the parallel machine's 2 CPUs; see
# optimize_jbb.sh) for 30 s, then a quiet phase in which each terminal sleeps 50 ms between
# transactions (think2=50), so the warehouse's calls fall about a hundredfold. With the
# process's calls counted (kovctl instrument), the optimizer at its defaults must decide
# exactly two things, both about the hot warehouse (the only object whose calls are counted): swap it to WarehouseFine in the hot phase
# (its wait above 5% for 3 intervals), and back to Warehouse in the quiet one (its wait and the
# coarse class's wait predicted at the calls now both below 1.25% for 3 intervals); the scan
# then shows a Warehouse again and jbb's payments are exact. Whether each decision paid is
# measured by sim/case-study-swap (docs/case-study.md).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
boot_hot_jbb 110 seconds=62:phase=30:hot2=100:think2=50
k scan --json
jbb=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(next(p["pid"] for p in d["processes"] if p["name"] == "jbb"))' "$OUT") || { cat "$OUT"; fail "no jbb in the scan"; }
ctl instrument --pid "$jbb" --coid "$hot" on
[ "$RC" = 0 ] || { cat "$OUT"; fail "instrument exited $RC"; }
ctl --json optimize --seconds 48
cat "$OUT"
[ "$RC" = 0 ] || fail "optimize exited $RC"
grep -a '^jbb: phase 2 at t=[0-9]* ms: 100% to warehouse 0, 50 ms between' "$LOG" || fail "jbb's quiet phase did not begin"
python3 - "$OUT" "$hot" <<'PY' || fail "the optimizer's decisions"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
d = [x for x in lines if x.get("event") == "decision"]
assert len(d) == 2, d
assert [x["action"] for x in d] == ["swap", "swap_back"], d
assert all(x["coid"] == sys.argv[2] and x["swap"]["swapped"] for x in d), d
assert (d[0]["class"], d[0]["to"]) == ("Warehouse", "WarehouseFine"), d[0]
assert (d[1]["class"], d[1]["to"]) == ("WarehouseFine", "Warehouse"), d[1]
b = d[1]
assert b["predicted_wait_pct"] < b["limit_pct"] and b["wait_pct"] < b["limit_pct"], b
print("optimize_phases: swapped at %.1f%% wait, back at %.0f calls/s against %.0f at the swap "
      "(predicted coarse wait %.2f%%)" % (d[0]["wait_pct"], b["calls_per_s"], b["swap_calls_per_s"],
                                          b["predicted_wait_pct"]))
PY
k scan --class Warehouse
grep -q "$hot" "$OUT" || { cat "$OUT"; fail "the hot warehouse is not a Warehouse again"; }
wait_for '^jbb: done' 60
expect '^jbb: payments: every warehouse.s year-to-date equals what its payers paid$'
echo "optimize_phases: passed"
