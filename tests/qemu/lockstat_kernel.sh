# Kernel lock statistics under pagestorm on 4 CPUs with the single page manager (pm=single):
# the page manager's lock is the most
# contended spin lock, attributed to the PM object, with its call site symbolized; locks of no
# object are named by their symbol; figures agree with themselves; bad options are usage errors.
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
OUT=$(mktemp)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
$K --target 127.0.0.1:1 lockstat --sort speed >"$OUT" 2>&1; [ $? = 2 ] || fail "--sort speed must be a usage error"
grep -q 'wait, contentions or acquisitions' "$OUT" || fail "unclear --sort error: $(cat "$OUT")"
$K --target 127.0.0.1:1 lockstat --kind rw >/dev/null 2>&1; [ $? = 2 ] || fail "--kind rw must be a usage error"

PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 60 --append "dci.token=k pm=single" --workload pagestorm:4:32
wait_for '^dcid: listening' 40
$K --target 127.0.0.1:"$PORT" --token k --json lockstat --pid 0 --seconds 4 >"$OUT" 2>&1 ||
	fail "kovctl lockstat --pid 0 failed: $(cat "$OUT")"
python3 - "$OUT" <<'PY' || fail "kernel lock statistics: $(head -c 2000 "$OUT")"
import json, sys
d = json.load(open(sys.argv[1]))
locks = d["locks"]
assert locks and all(l["pid"] == 0 for l in locks), "no kernel locks, or --pid 0 not honoured"
top = locks[0]
assert top["class"] == "PM" and top["kind"] == "spin" and top["contentions"] > 0, top
assert top["owner_from"] == "stack walk", top
assert any(s["symbol"].startswith("pm_") for s in top["sites"]), top["sites"]
for l in locks:
    assert l["wait_min_us"] <= l["wait_max_us"] <= l["wait_us"] + 1e-6, l
    assert l["bounces"] <= l["contentions"], l
    assert sum(s["contentions"] for s in l["sites"]) + l["other_sites"] == l["contentions"], l
    assert l["coid"] != "0x0" or l["class"] == "-" or l["name"], l
named = [l for l in locks if l["coid"] == "0x0" and l["name"]]
assert named, "no lock of no object was named by its symbol"
print(f"PM lock: {top['contentions']} contentions, {top['wait_us']:.0f} us waited; "
      f"{len(locks)} kernel locks, {len(named)} named by symbol")
PY
echo "kernel lock statistics: PM first, call sites and names symbolized"
