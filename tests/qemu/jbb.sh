# jbb, the transaction workload (sim/workloads/jbb): with one hot warehouse (50% of the
# transactions go to warehouse 0 of 4) KOV's top object is that warehouse, both by measured
# spin-lock wait (kovctl top --metric spinlock) and by instruction samples (PM_INST_CMPL),
# named by the COID jbb printed; jbb reports its throughput every second and at the end, and
# a fixed number of transactions ends the run with exactly that many counted.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
OUT=$(mktemp)
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 60 --append "dci.token=jb" --workload jbb:hot=50
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40
wait_for '^jbb: t=[0-9]+ ms tps=[1-9]' 30
hot=$(grep -a '^jbb: warehouse 0 (hot) is object' "$LOG" | tr -d '\r' | sed 's/.* object //')
[ -n "$hot" ] || fail "jbb did not name its hot warehouse"

first_object() { # metric seconds: prints "class coid" of the top row of kovctl top --json
	"$KOVCTL" --target "127.0.0.1:$PORT" --token jb --timeout 15 --json top --metric "$1" \
		--seconds "$2" --n 5 >"$OUT" 2>&1 || { cat "$OUT"; fail "kovctl top --metric $1"; }
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["objects"]
print(rows[0]["class"], rows[0]["coid"]) if rows else print("none none")' "$OUT"
}
for metric in spinlock PM_INST_CMPL; do
	read -r class coid < <(first_object "$metric" 4)
	echo "top by $metric: $class $coid (hot warehouse $hot)"
	[ "$class" = Warehouse ] && [ "$coid" = "$hot" ] \
		|| { cat "$OUT"; fail "KOV's top object by $metric is $class $coid, not the hot warehouse $hot"; }
done

out=$(sim/run --cpus 2 --append dci=off --run jbb transactions=20000 warehouses=2 2>&1) \
	|| { echo "$out" | tail; fail "jbb transactions=20000"; }
echo "$out" | grep -E '^jbb: [0-9]+ transactions in'
n=$(echo "$out" | sed -n 's/^jbb: \([0-9]*\) transactions in [0-9]* ms: [0-9]* tps.*/\1/p')
[ "$n" = 20000 ] || fail "a run of 20000 transactions counted '$n'"
