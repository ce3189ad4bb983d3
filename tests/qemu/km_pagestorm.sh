# The thesis's contention scenario: pagestorm keeps creating processes that fault in pages on
# four CPUs; `kovctl top --metric spinlock` must rank a page-fetch object (the page manager or
# a file cache manager) first, attributed from spin-lock samples taken inside the kernel's
# page-fault and process-creation paths.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
OUT=$(mktemp)
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 90 --append "dci.token=s3cret" --workload pagestorm
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 60

"$KOVCTL" --target "127.0.0.1:$PORT" --token s3cret top --metric spinlock --seconds 6 --n 5 >"$OUT" 2>&1 ||
	{ cat "$OUT"; fail "kovctl top exited $?"; }
cat "$OUT"
grep -qE '^1 +[0-9.]+% +[1-9][0-9]* +[1-9][0-9]* +[0-9.]+% +(PM|FCM) +0xd0{5}' "$OUT" ||
	fail "a page-fetch object (PM or FCM) is not ranked first"
exit 0
