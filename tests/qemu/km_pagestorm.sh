# The thesis's contention scenario: pagestorm keeps creating processes that fault in pages on
# four CPUs, with the thesis's single page manager (pm=single); `kovctl top --metric spinlock` must rank a page-fetch object (the page manager or
# a file cache manager) first, attributed from spin-lock samples taken inside the kernel's
# page-fault and process-creation paths. Scans meanwhile name every object's class and process.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
OUT=$(mktemp)
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 90 --append "dci.token=s3cret pm=single" --workload pagestorm
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 60

"$KOVCTL" --target "127.0.0.1:$PORT" --token s3cret top --metric spinlock --seconds 6 --n 5 >"$OUT" 2>&1 ||
	{ cat "$OUT"; fail "kovctl top exited $?"; }
cat "$OUT"
grep -qE '^1 +[0-9.]+% +[0-9.]+ +[1-9][0-9]* +[0-9.]+% +(PM|PMPerCPU|FCM) +0xd0{5}' "$OUT" ||
	fail "a page-fetch object (PM, PMPerCPU or FCM) is not ranked first"
# Objects gone by the end keep the class and process a scan saw; none is just "?".
! grep -E '^[0-9]+ ' "$OUT" | awk '{ print $7 }' | grep -qx '?' || fail "a ranked object has class '?'"

# Scans while processes come and go every few milliseconds: every object has its class and
# its process, also a process started between the daemon's process list and its scan.
for i in $(seq 15); do
	"$KOVCTL" --target "127.0.0.1:$PORT" scan --json >"$OUT" 2>&1 || { cat "$OUT"; fail "scan $i"; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["processes"]:
    assert p["name"] not in ("", "?"), p["pid"]
    for o in p["objects"]:
        assert o["class"] not in ("", "?"), (p["pid"], o)
' "$OUT" || fail "an object or process without its name in scan $i"
done
exit 0
