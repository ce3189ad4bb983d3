# jbb's warehouses hot-swapped while the terminals run (sim/workloads/jbb/warehouse.c): the hot
# warehouse goes from the coarse "Warehouse" (one spin lock) to "WarehouseFine" (striped locks,
# per-CPU payments) and back over the DCI; every swap succeeds, the scan shows the class it is
# now under the same COID, KOV's lock figures stay attributed to that COID, and at the end
# every warehouse's year-to-date equals what its payers paid (nothing lost across the swaps).
source "$(dirname "$0")/lib.bash"
KOVCTL=build/host/kovctl
OUT=$(mktemp)
PORT=$(free_port)
boot_bg --parallel --cpus 2 --port "$PORT" --timeout 90 --append "dci.token=jb" \
	--workload "jbb:hot=50:seconds=25:locks=coarse"
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40
wait_for '^jbb: t=[0-9]+ ms tps=[1-9]' 30
hot=$(grep -a '^jbb: warehouse 0 (hot) is object' "$LOG" | tr -d '\r' | sed 's/.* object //')
pid=$(grep -a '^kov: workload jbb started, pid' "$LOG" | tr -d '\r' | sed 's/.* pid //')
[ -n "$hot" ] && [ -n "$pid" ] || fail "jbb did not name its hot warehouse or pid"
k() { "$KOVCTL" --target "127.0.0.1:$PORT" --token jb --timeout 15 "$@" >"$OUT" 2>&1; RC=$?; }
for to in WarehouseFine Warehouse WarehouseFine; do
	sleep 2
	k swap --pid "$pid" --coid "$hot" --to "$to"
	cat "$OUT"
	[ "$RC" = 0 ] && grep -qE "^pid $pid object $hot: Warehouse(Fine)? -> $to; forward" "$OUT" \
		|| fail "swap of the hot warehouse to $to"
	k scan --pid "$pid" --class "$to"
	grep -q "$hot" "$OUT" || { cat "$OUT"; fail "the scan does not show $hot as a $to"; }
done
# Half of all transactions go to the hot warehouse, so its locks count the most contentions.
# (The ranking by wait time is the host's: a lock holder the host stops for 300 ms gives one
# contention of another object more wait than the warehouse's hundreds.)
k --json top --metric spinlock --seconds 3 --n 10
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["objects"]
assert rows, "no lock figures"
most = max(rows, key=lambda r: r["contentions"])
assert most["coid"] == sys.argv[2] and most["class"] == "WarehouseFine", (most, rows[:3])
print("most contended after the swaps:", most["class"], most["coid"], most["contentions"], "contentions")' "$OUT" "$hot" \
	|| { cat "$OUT"; fail "the lock figures after the swap"; }
wait_for '^jbb: done' 60
expect '^jbb: payments: every warehouse.s year-to-date equals what its payers paid$'
grep -a '^jbb: t=' "$LOG" | tr -d '\r' | tail -n 30
echo "swap_jbb: passed"
