# Invocation counts are per interval from the first report on: cotree's objects are counted
# all along, monitoring runs for 2 s, stops for 6 s and runs 1 s again. The calls of that last
# second must match the rate of the first two seconds, not the total since counting began
# (the daemon's baseline is the counts at START, not zero).
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
OUT=$(mktemp)
PORT=$(free_port)
boot_bg --port "$PORT" --timeout 90 --append "dci.token=s3cret" --workload cotree:touch
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40

k() { "$KOVCTL" --target "127.0.0.1:$PORT" --token s3cret --timeout 10 "$@" >"$OUT" 2>&1 ||
	{ cat "$OUT"; fail "kovctl $* exited with $?"; }; }
calls() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples"])' "$OUT"; }

cotree=$(grep -a 'workload cotree started' "$LOG" | tr -d '\r' | sed 's/.*pid //')
[ -n "$cotree" ] || fail "cotree did not start"
k instrument --pid "$cotree" on
k top --metric invocations --seconds 2 --json   # starts the stream, stops it at the end
first=$(calls)
sleep 6                                          # cotree keeps calling, nobody reports
k top --metric invocations --seconds 1 --json
again=$(calls)
echo "calls: $first in 2 s, then $again in 1 s after 6 s stopped"
# 1 s at the rate of the first 2 s is first / 2; the cumulative total would be over 3 times that.
python3 -c 'import sys; first, again = int(sys.argv[1]), int(sys.argv[2])
assert first > 1000, first
assert again <= 1.5 * first, (first, again)
assert again >= 0.1 * first, (first, again)' "$first" "$again" ||
	fail "the first report after START is not one interval's calls ($first in 2 s, $again in 1 s)"
grep -a 'dcid: invocation counts' "$LOG" && fail "the daemon skipped or deferred reports"
exit 0
