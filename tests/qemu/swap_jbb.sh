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
k --json top --metric spinlock --seconds 3 --n 3
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["objects"]
assert rows and rows[0]["coid"] == sys.argv[2] and rows[0]["class"] == "WarehouseFine", rows[:2]
print("top by spinlock after the swaps:", rows[0]["class"], rows[0]["coid"])' "$OUT" "$hot" \
	|| { cat "$OUT"; fail "the lock figures after the swap"; }
wait_for '^jbb: done' 60
expect '^jbb: payments: every warehouse.s year-to-date equals what its payers paid$'
grep -a '^jbb: t=' "$LOG" | tr -d '\r' | tail -n 30
echo "swap_jbb: passed"
