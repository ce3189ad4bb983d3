# Monitoring end to end through the DCI with kovctl, against spinbench (two threads contending
# for their object's spin lock): the catalogue says what counts here; configuration files with
# mistakes are refused with their line, impossible configurations with the target's reason;
# observers cannot configure (exit 3), what the target cannot do now exits 1; top uses a
# configuration set but not started and never replaces it; counts come scaled with enabled/running; top ranks spinbench's
# object first for spin-lock contention; lockstat shows sleepbench's monitored mutex with its
# three threads (at most two waiting); invocation counting turned on for cotree's objects
# ranks its three TreeNodes 3:2:1 as it calls them; a recording replays, also one ended by
# Ctrl-C; /metrics shows the
# samples' periods spread over T +- T/8 with mean T; samples taken while no client takes the
# samples stream are counted as discarded (STATUS_EX to 1.3 clients, STATUS to older ones);
# events say their basis; a kernel-only configuration's counts and samples are flagged as
# not filtered (QEMU ignores MMCR0[FCS]); STOP stops the streams.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/asan/kovctl                      # with ASan and UBSan when make test built it
[ -x "$KOVCTL" ] || KOVCTL=build/host/kovctl
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

# This test checks the periods as configured (randomized within T +- T/8, below): the
# monitor's cost bound, which lengthens them when the daemon's work on the stream passes 10%
# of the CPUs' time, is off here (tests throttle and throttle_dci check it).
ok --token s3cret throttle --limit off
out_has '^throttling off; sampling periods x1 \(as asked\)'
ok events
# Each event's basis: instructions measured by the boot probe, the 970's others not counted
# under QEMU, software events counted by the kernel; and QEMU ignores the freeze of the kernel
# or user mode, so counts include both.
# Listed as perf list does (kovctl events): grouped by what holds here, the reason once as
# the group's heading, each event with its counters and its description.
python3 - "$OUT" <<'PY' || { cat "$OUT"; fail "kovctl events: the catalogue's groups"; }
import re, sys
text = open(sys.argv[1]).read()
sections = {m.group(1): m.group(2) for m in re.finditer(r"^(\S[^\n]*)\n((?:  [^\n]*\n)*)", text, re.M)}
def section(prefix):
    hits = [body for head, body in sections.items() if head.startswith(prefix)]
    assert len(hits) == 1, f"{len(hits)} sections start with {prefix!r}"
    return hits[0]
here = section("Count and sample here:")
assert re.search(r"^  PM_INST_CMPL +\[hardware, any PMC, measured, both modes\]\n       Instructions completed$", here, re.M), here
assert re.search(r"^  SW_HPT_MISS +\[software, both modes\]\n       \S", here, re.M), here
no = section("Do not count here: 970 event selects counted nothing")
assert re.search(r"^  PM_LARX_LSU0 +\[hardware, PMC 1,2,5,6\]\n       Load-and-reserve", no, re.M), no
assert len(re.findall(r"^  PM_", no, re.M)) >= 30, "the 970's events share one heading"
assert text.count("970 event selects counted nothing") == 1, "the reason is said once"
PY
ok events --json
python3 -c '
import json, sys
ev = {e["name"]: e for e in json.load(open(sys.argv[1]))}
assert ev["PM_INST_CMPL"]["basis"] == "measured" and ev["PM_CYC"]["basis"] == "measured", ev["PM_CYC"]
assert ev["PM_LARX_LSU0"]["basis"] == "not counted" and ev["PM_LARX_LSU0"]["privilege_filter"] is False
assert ev["SW_SYSCALL"]["basis"] == "software"
assert not any(e["basis"] == "assumed" for e in ev.values()), "nothing is assumed under QEMU"
assert all(e["privilege_filter"] is False for e in ev.values()), "QEMU ignores MMCR0[FCS]"
' "$OUT" || { cat "$OUT"; fail "events --json basis"; }

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
config=$(sed -n 's/^configuration \([0-9]*\) applied.*/\1/p' "$OUT")
# A configuration set but not started is not top's to replace: a metric it does not sample is
# refused, one it samples runs on it (started for the run, stopped again).
exits 1 --token s3cret top --metric SW_HPT_MISS --seconds 1
out_has "configuration $config \\(set, not started\\) samples no SW_HPT_MISS: top uses the configuration in effect, it does not replace it"
ok --token s3cret top --metric spinlock-samples --seconds 1
ok status
out_has "^config_id +$config$"
out_has 'streams +0x0 \(stopped\)'
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
# What the period lost is part of the report, and whether the ranking is complete.
for key in ("lost", "dropped", "dropped_samples", "discarded", "unclassified", "not_ranked"):
    assert isinstance(d[key], int), (key, d)
assert d["complete"] == (d["lost"] + d["dropped_samples"] + d["discarded"] + d["unclassified"]
                         + d["not_ranked"] == 0), d
' "$OUT" || { cat "$OUT"; fail "top --json"; }
ok top --metric spinlock-samples --seconds 1
out_has '^losses in this period: '

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
# Ctrl-C ends a recording: exit 0, and the file replays (whole frames, samples in it).
rm -f "$REC"
"$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 record --out "$REC" --seconds 120 >"$OUT" 2>&1 &
rec_pid=$!
for _ in $(seq 100); do [ "$(stat -c %s "$REC" 2>/dev/null || echo 0)" -gt 200000 ] && break; sleep 0.1; done
kill -INT "$rec_pid"
for _ in $(seq 50); do kill -0 "$rec_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$rec_pid" 2>/dev/null && { kill "$rec_pid"; fail "kovctl record ignored SIGINT"; }
wait "$rec_pid"; RC=$?
[ "$RC" = 0 ] || { cat "$OUT"; fail "kovctl record exited $RC after SIGINT"; }
out_has '^recorded [1-9][0-9]* frames .*\(stopped by a signal\)'
ok replay "$REC"
out_has 'samples \([0-9]+ without an object\)'

exits 3 lockstat --seconds 1
out_has 'needs the controller token'
ok --token s3cret lockstat --seconds 2
out_has '^sleep +0x[0-9a-f]{16} SleepBench +sleepbench +[0-9]+ +[1-9][0-9]* +[1-9][0-9]* +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +2 +-$'
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
assert all(isinstance(d[k], int) for k in ("samples", "lost", "dropped", "dropped_lock_reports")), d
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

# Sampling configured but the samples stream off: the daemon drains the samples and discards
# them, and says so (STATUS_EX, protocol 1.3); counts' period reports its losses.
ok --token s3cret stop
ok --token s3cret start --streams counts --interval 100
ok counts --seconds 1 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 0 and d["discarded"] > 0, d
assert d["lost"] >= 0 and d["dropped"] == 0 and d["dropped_frames"] == 0, d
' "$OUT" || { cat "$OUT"; fail "counts --json losses"; }
ok counts --seconds 1
out_has '^losses in this period: ([0-9]+ samples lost by the target.s rings; )?[1-9][0-9]* samples discarded with no client taking them$'
ok status
out_has '^samples_discarded [1-9][0-9]* '
# Old clients keep working: a 1.2 client gets STATUS, a 1.3 client STATUS_EX with the discards
# (answers and pushed frames alike).
python3 - "$PORT" <<'PY' || fail "STATUS by protocol minor"
import sys
sys.path.insert(0, "tests/qemu")
import kovproto as k
port = int(sys.argv[1])
for minor, want in ((2, k.STATUS), (3, k.STATUS_EX)):
    c = k.Conn(port)
    st, role, reason = c.handshake(minor=minor)
    assert st == 0, reason
    s = c.status(7)
    assert s["type"] == want and set(s["pushed"]) <= {want}, (minor, s)
    assert (s["samples_discarded"] or 0) > 0 or minor == 2, s
    print("  minor %d: %s" % (minor, s))
    c.close()
PY
# Kernel only asked, but QEMU ignores MMCR0[FCS]/[FCP]: counts and samples say so.
printf 'slice 10000 us\ncount kernel\ngroup k 100\n  PM_INST_CMPL 100003\n' >"$CONF"
ok --token s3cret stop
ok --token s3cret configure "$CONF"
ok --token s3cret start --interval 100
ok counts --seconds 1
out_has '^privilege filter not honoured here: configuration [0-9]+ asks for kernel mode only, but PM_INST_CMPL, PM_CYC count both modes'
ok counts --seconds 1 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["modes_asked"] == "kernel" and d["privilege_filter_honoured"] is False, d
assert "PM_INST_CMPL" in d["privilege_filter_not_honoured_by"], d
' "$OUT" || { cat "$OUT"; fail "counts --json privilege filter"; }
k top --metric PM_INST_CMPL --seconds 2   # kernel samples may be few in 2 s: flagged anyway
out_has '^privilege filter not honoured here: configuration [0-9]+ asks for kernel mode only'
ok --token s3cret stop
ok status
out_has 'streams=0x0|streams +0x0'
exit 0
