# kovctl optimize against a real target: four threads add to a shared Counter (swapstress
# serve), which takes no lock (atomics), so the optimizer must decide nothing and leave it a
# Counter, dry or not. Checked: bad arguments are usage errors (2) before connecting; an
# observer may run a dry run only where the lock stream already runs (else 3), never a real
# one (3); the controller's run starts the lock stream (with invocation counts) and stops it
# again after; --json gives one object per line. The decisions themselves are unit-tested on
# known series (tests/unit/test_optimizer.c); the contended end to end case is optimize_jbb.sh.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
rc_is() { [ "$RC" = "$1" ] || { cat "$OUT"; fail "$2: exit $RC, not $1"; }; }

# Usage errors need no target: nothing listens on this port.
PORT=$(free_port)
for bad in "--pairs Counter" "--pairs Counter=Counter" "--pairs A=B,B=C" "--dry-run=yes" \
	"--interval 0" "--threshold 0" "--threshold 150" "--intervals 0" "--back 0" "--cooldown x" \
	"--coid 0x10"; do
	# shellcheck disable=SC2086
	k optimize $bad
	rc_is 2 "optimize $bad"
done

PORT=$(free_port)
boot_bg --port "$PORT" --timeout 150 --append "dci.token=s3cret" \
	--workload "swapstress:serve:60:4" --parallel --cpus 2
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40
wait_for '^swapstress: serving a Counter' 40

# Nothing streams: an observer cannot start the lock stream, dry or not.
k optimize --dry-run --seconds 2 --interval 1
rc_is 3 "an observer's dry run with nothing streaming"
out_has 'not streaming lock statistics'
k optimize --seconds 2 --interval 1
rc_is 3 "an observer's optimize"
out_has 'optimize needs the controller role'

# The controller's dry run: the stream started, figures every interval, nothing decided, and
# the stream stopped after it.
ctl optimize --dry-run --seconds 4 --interval 1
rc_is 0 "the controller's dry run"
cat "$OUT"
out_has '^optimize: every 1.0 s, swap after 3 intervals above 5% of 2 CPUs. time .*pairs Counter=DCounter, Warehouse=WarehouseFine, PageViews=PageViewsPerCPU, PM=PMPerCPU; dry run'
out_has '^optimize: [0-9]+ intervals \([1-9][0-9]* with lock reports\), 0 decisions, 0 swapped, 0 not swapped \(dry run\)$'
k status
out_has '^streams +0x0 \(stopped\)'

# Where the lock stream runs, an observer's dry run is enough; --json: one object a line.
ctl start --streams locks
rc_is 0 "start --streams locks"
k optimize --dry-run --seconds 3 --interval 1 --threshold 1 --pairs Counter=DCounter --json
rc_is 0 "an observer's dry run on the running lock stream"
cat "$OUT"
python3 - "$OUT" <<'PY' || fail "optimize --json"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
end = lines[-1]
assert end["event"] == "end" and end["dry_run"] is True, end
assert end["intervals"] >= 2 and end["intervals_with_lock_reports"] >= 1, end
assert end["decisions"] == 0 and end["swapped"] == 0, end
assert all(l["event"] == "decision" for l in lines[:-1]), lines
PY
k status
out_has '^streams +0x4 locks$'   # left as it was found
ctl stop

# The controller's real run with the calls counted: no contention, so no swap; the object
# stays a Counter.
swapstress_counter
ctl instrument --pid "$pid" --coid "$coid" on
rc_is 0 "instrument the Counter"
ctl optimize --seconds 4 --interval 1
rc_is 0 "the controller's optimize"
cat "$OUT"
out_has '^optimize: [0-9]+ intervals \([1-9][0-9]* with lock reports\), 0 decisions, 0 swapped, 0 not swapped$'
k scan --pid "$pid" --class Counter
out_has "$coid"
wait_for '^swapstress: (passed|FAILED)$' 90
expect '^swapstress: passed$'
rm -f "$OUT"
echo "optimize: passed"
