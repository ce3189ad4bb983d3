# Monitoring end to end through the DCI with kovctl, against spinbench (two threads contending
# for their object's spin lock): the catalogue says what counts here; configuration files with
# mistakes are refused with their line, impossible configurations with the target's reason;
# observers cannot configure (exit 3), what the target cannot do now exits 1; counts come scaled with enabled/running; top ranks spinbench's
# object first for spin-lock contention; lockstat shows sleepbench's monitored mutex with its
# three threads (at most two waiting); invocation counting turned on for cotree's objects
# ranks its three TreeNodes 3:2:1 as it calls them; a recording replays; /metrics shows the
# samples' periods spread over T +- T/8 with mean T; STOP stops the streams.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
OUT=$(mktemp) CONF=$(mktemp) REC=$(mktemp)
PORT=$(free_port) MPORT=$(free_port)
boot_bg --port "$PORT" --metrics-port "$MPORT" --timeout 90 --append "dci.token=s3cret" \
	--workload spinbench:1000000:2:0,sleepbench:3:1000:0,cotree:touch
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT" "$CONF" "$REC"' EXIT
wait_for '^dcid: listening' 40

k() { "$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 "$@" >"$OUT" 2>&1; RC=$?; }
out_has() { grep -qE -- "$1" "$OUT" || { cat "$OUT"; fail "expected /$1/ from kovctl"; }; }
ok() { k "$@"; [ "$RC" = 0 ] || { cat "$OUT"; fail "kovctl $* exited with $RC"; }; }
exits() { local want=$1; shift; k "$@"; [ "$RC" = "$want" ] || { cat "$OUT"; fail "kovctl $* exited $RC, not $want"; }; }

ok events
out_has '^1 +PM_INST_CMPL +hardware +yes +yes'
out_has '^[0-9]+ +PM_LARX_LSU0 +hardware +no +no +970 event selects counted nothing'
out_has '^[0-9]+ +SW_HPT_MISS +software +yes +yes'

# A file with a mistake: refused locally with its line (usage error, exit 2).
printf 'group spin 100\n  PM_INST_CMPL lots\n' >"$CONF"
exits 2 --token s3cret configure "$CONF"
out_has 'line 2: threshold .lots. is not a number'
# Fine as a file, impossible on this machine: the target's reason (exit 1).
printf 'group spin 100\n  PM_LARX_LSU0 100000\n' >"$CONF"
exits 1 --token s3cret configure "$CONF"
out_has 'PM_LARX_LSU0 does not count on this machine'
printf 'slice 10000 us\ngroup spin 100\n  PM_INST_CMPL 100003\n' >"$CONF"
# Refusals that depend on the target's state are not usage errors: an observer gets 3
# wherever the controller role is missing, 1 for what the target cannot do now.
exits 3 configure "$CONF"
out_has 'needs the controller role'
exits 3 start
exits 3 stop
exits 3 top --metric spinlock --seconds 1
out_has 'is not streaming lock statistics, and starting them needs the controller token'
exits 1 counts --seconds 0.5
out_has 'not streaming interval counts'
exits 1 --token s3cret top --metric branchmiss --seconds 1
out_has 'per-object branchmiss needs samples of PM_BR_MPRED_CR'
exits 2 top --metric no_such_event
out_has "unknown metric 'no_such_event'"

ok --token s3cret configure "$CONF"
out_has '^configuration [1-9][0-9]* applied'
out_has '^  PM_CYC$'
ok --token s3cret start --interval 100
ok status
out_has 'streams=0x3|streams +0x3'
ok counts --seconds 1
out_has '^0 +PM_INST_CMPL +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]*'
out_has '^0 +PM_CYC '

# The sampling second opinion counts only samples in a spin lock's wait loop (under QEMU a
# waiting CPU yields, so there may be none); measured wait is tests/qemu/lockstat_*.
ok top --metric spinlock-samples --seconds 3
out_has '^metric spinlock-samples: second opinion: instruction-overflow samples whose PC is in a spin lock.s wait loop'
ok top --metric spinlock-samples --seconds 2 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] > 0 and d["samples"] >= d["metric_samples"], d
' "$OUT" || { cat "$OUT"; fail "top --json"; }

# The periods the samples stood for (PM_INST_CMPL at 100003 since the configuration above).
python3 - "$MPORT" <<'PY' || fail "sample periods on /metrics"
import re, sys, urllib.request
text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode()
assert re.search(r'^kov_info\{.*pmu="isa207-arch".*\} 1$', text, re.M), "kov_info does not name the PMU in use"
def get(name):
    m = re.search(r'^%s\{event="PM_INST_CMPL"\} (\d+)$' % name, text, re.M)
    assert m, "no %s in\n%s" % (name, text[:2000])
    return int(m.group(1))
n, ev = get("kov_samples_total"), get("kov_sampled_events_total")
lo, hi = get("kov_sample_period_min"), get("kov_sample_period_max")
t, s = 100003, 100003 // 8
print("metrics: %d samples, mean period %.0f, min %d, max %d" % (n, ev / n, lo, hi))
assert n >= 100 and t - s <= lo < hi <= t + s, (n, lo, hi)
assert lo < t - s // 2 and hi > t + s // 2, "periods do not spread over T +- T/8"
assert abs(ev / n - t) < 4 * (s / 3 ** 0.5) / n ** 0.5 + 1, "mean period is not T"
PY
ok record --out "$REC" --seconds 2
out_has '^recorded [1-9][0-9]* frames'
ok replay "$REC"
out_has 'samples \([0-9]+ without an object\), [1-9][0-9]* interval reports'
out_has '^  event PM_INST_CMPL +[1-9][0-9]* samples'
out_has '^1 +[1-9][0-9]* +SpinBench '
head -c 100 "$REC" >"$CONF"
exits 2 replay "$CONF"
out_has 'damaged'

exits 3 lockstat --seconds 1
out_has 'needs the controller token'
ok --token s3cret lockstat --seconds 2
out_has '^sleep +0x[0-9a-f]{16} SleepBench +sleepbench +[0-9]+ +[1-9][0-9]* +[1-9][0-9]* +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +2$'
ok status
out_has 'streams=0x7|streams +0x7'
ok --token s3cret lockstat --seconds 1 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
l = [x for x in d["locks"] if x["class"] == "SleepBench"][0]
assert 0 < l["contentions"] <= l["acquisitions"], l
assert l["wait_max_us"] <= l["wait_us"] and l["hold_max_us"] <= l["hold_us"], l
assert l["max_waiters"] == 2 and 1 <= l["avg_waiters"] <= 2, l
assert l["acquisitions_counted"] == "all" and l["owner_from"] == "registered", l
' "$OUT" || { cat "$OUT"; fail "lockstat --json"; }

cotree=$(grep -a 'workload cotree started' "$LOG" | tr -d '\r' | sed 's/.*pid //')
exits 3 instrument --pid "$cotree" on
exits 2 --token s3cret instrument --pid "$cotree"
exits 1 --token s3cret instrument --pid 999 on
out_has 'no such process'
ok --token s3cret instrument --pid "$cotree" on
ok --token s3cret top --metric invocations --seconds 2 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
nodes = [o for o in d["objects"] if o["class"] == "TreeNode"]
assert len(nodes) == 3, d
a, b, c = (o["metric_samples"] for o in nodes)
# exact up to the calls of one loop pass in flight when a scan caught the process
assert c > 1000 and abs(a - 3 * c) <= 6 and abs(b - 2 * c) <= 6, (a, b, c)
' "$OUT" || { cat "$OUT"; fail "top --metric invocations"; }
ok --token s3cret instrument --pid "$cotree" off

# Sleep-lock figures off for sleepbench: its lock stops reporting; on again: it reports.
sleep_pid=$(grep -a 'workload sleepbench started' "$LOG" | tr -d '\r' | sed 's/.*pid //')
ok --token s3cret instrument --pid "$sleep_pid" --what locks off
out_has '^sleep-lock figures off for every object of pid'
sleep 0.5   # reports of intervals that began before the pause have gone out
k --token s3cret lockstat --seconds 1
grep -q 'SleepBench' "$OUT" && { cat "$OUT"; fail "lock figures still reported while off"; }
ok --token s3cret instrument --pid "$sleep_pid" --what locks on
ok --token s3cret lockstat --seconds 1
out_has 'SleepBench'
exits 1 --token s3cret instrument --pid 0 --what locks on
out_has "the kernel has no monitored mutexes: use full lock counting"

ok --token s3cret stop
ok status
out_has 'streams=0x0|streams +0x0'
exit 0
