# kov-viewer under Xvfb against real targets: a screenshot after a few seconds must be a PNG
# of the window's size that is not blank, and the viewer's report of what it drew must show
# the connection, the object tree (processes and objects), the catalogue, panes with series
# where the target counts their events (configured and started by the viewer itself with the
# controller token) and attributed samples, the selected object's samples and symbolized hot
# spots; panes it cannot count say so instead of drawing zeros. A target that is not there: the viewer still draws, says so, and exits cleanly.
# Usage errors exit 2. The lock view against lockbench is viewer_locks.sh.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/viewer_lib.bash"

# Usage errors.
"$VIEWER" >/dev/null 2>&1; [ $? = 2 ] || fail "no --target must be a usage error"
"$VIEWER" --target nohost >"$OUT" 2>&1; [ $? = 2 ] || fail "a bad --target must be a usage error"
grep -q 'needs HOST:PORT' "$OUT" || fail "unclear --target error: $(cat "$OUT")"
"$VIEWER" --target 127.0.0.1:1 --screenshot x.png >/dev/null 2>&1; [ $? = 2 ] ||
	fail "--screenshot without --after must be a usage error"

# Nothing listening: drawn anyway, not connected.
shot 2 --target 127.0.0.1:"$(free_port)" || fail "viewer without a target exited $?: $(cat "$OUT")"
png_ok 1280 800
[ "$(field connected)" = 0 ] || fail "connected to nothing? $(cat "$OUT")"

PORT=$(free_port)
boot_bg --port "$PORT" --timeout 90 --append "dci.token=s3cret" \
	--workload spinbench:1000000:2:0,cotree:touch,sleepbench:3:1000:0
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT" "$PNG" "$CONF" "$REC"' EXIT
wait_for '^dcid: listening' 40
printf 'group main 100\n  PM_INST_CMPL 100003\n  PM_CYC\n  SW_HPT_MISS\n  SW_SLB_MISS\n' >"$CONF"
shot 6 --target 127.0.0.1:"$PORT" --token s3cret --config "$CONF" --select SpinBench --record "$REC" \
	--csv "$REC.csv" ||
	fail "viewer exited $?: $(cat "$OUT")"
cat "$OUT"
png_ok 1280 800
[ "$(field connected)" = 1 ] || fail "not connected"
[ "$(field processes)" -ge 3 ] || fail "the tree lacks processes"
[ "$(field objects)" -ge 20 ] || fail "the tree lacks objects"
[ "$(field tree_rows)" -ge 4 ] || fail "the tree drew too few rows"
[ "$(field events)" -ge 40 ] || fail "no catalogue"
[ "$(field available_panes)" = 4 ] ||
	fail "QEMU gives IPC, spin-lock wait, MMU misses and (software) lock acquisition counts, nothing else"
# sleepbench's monitored mutex counts every acquisition: the acquisition pane has software counts.
[ "$(field series)" = 4 ] || fail "IPC, spin-lock wait, MMU misses and lock acquisitions must draw series"
# IPC says its cycles are QEMU's; the branch pane says why it has nothing.
grep -q '^viewer: pane "Instructions per emulated cycle" available=1 .*virtual time at 1 GHz' "$OUT" ||
	fail "the IPC pane does not say its cycles are emulated"
grep -q '^viewer: pane "Branch mispredictions" available=0 .*not available on this target: PM_BR_MPRED_CR: ' "$OUT" ||
	fail "the branch pane does not say why it has no data"
grep -q '^viewer: pane "Lock acquisition success (software counts)" available=1 ' "$OUT" ||
	fail "the lock acquisition pane is not the software counts under QEMU"
[ "$(field samples)" -gt 100 ] || fail "too few samples arrived"
[ "$(field contributors)" -ge 1 ] || fail "no object got samples"
# Losses are accounted for over the same samples (and say so when the target does not report
# discards).
grep -qE '^viewer: losses: received=[0-9]+ lost=[0-9]+ dropped_frames=[0-9]+ dropped_samples=[0-9]+ discarded=[0-9]+ top_incomplete=[01]$' "$OUT" ||
	fail "the viewer does not account for lost, dropped and discarded samples"
[ "$(field received)" = "$(field samples)" ] || fail "the losses' sample count disagrees with the model's"
# Top contributors name class and process (with its pid while it lives).
grep -qE '^viewer: top: (.* \| )?SpinBench · spinbench pid [0-9]+( \||$)' "$OUT" ||
	fail "the top contributors do not name SpinBench and its process"
[ "$(field selected_samples)" -gt 50 ] || fail "the selected SpinBench object shows no samples"
[ "$(field hot_spots)" -ge 1 ] || fail "the selected object's hot spots were not symbolized"
# The window's title names the target and its CPUs, with how they ran where the kernel could
# tell (protocol 1.5); a serial machine's lock figures carry its label.
grep -qE '^viewer: title: KOV viewer — 127\.0\.0\.1:[0-9]+ · smp · [0-9]+ CPUs?(, parallel|, taking turns)?( · sampling periods x[0-9]+: the monitor.s cost passed its [0-9.]+% limit)?$' "$OUT" ||
	fail "the window title does not name the target and its CPUs"
grep -qE '^viewer: machine: cpus_run=(parallel|unknown serial_note=""|take-turns serial_note="serial machine: [^"]+")' "$OUT" ||
	fail "the viewer does not say how the CPUs ran"
grep -a -q 'dcid: monitoring started' "$LOG" || fail "the viewer did not start monitoring"
live=$(field samples)
# The exported data: a header and points of the three panes that count here.
head -n1 "$REC.csv" | grep -q '^pane,seconds_ago,value$' || fail "CSV header"
for pane in "Instructions per emulated cycle" "Spin-lock wait" "MMU misses" \
	"Lock acquisition success (software counts)"; do
	[ "$(grep -c "^\"$pane\"," "$REC.csv")" -ge 10 ] || fail "CSV lacks points of $pane"
done
grep -q '^"Branch mispredictions"' "$REC.csv" && fail "CSV has data of a pane that cannot count"
rm -f "$REC.csv"

# The lock view: sleepbench's monitored mutex with its lockstat figures.
shot 5 --target 127.0.0.1:"$PORT" --view locks --hover 1230,200 || fail "lock view exited $?: $(cat "$OUT")"
cat "$OUT"
png_ok 1280 800
[ "$(field locks)" -ge 1 ] || fail "the lock view shows no lock"
[ "$(field hover)" = 1 ] || fail "no value shown under the pointer over a chart"

# Two targets at once: a g5 target without a controller token is watched as an observer.
LOG2=$(mktemp) PORT2=$(free_port)
setsid sim/run --profile g5 --port "$PORT2" --timeout 90 --workload cotree:forever </dev/null >"$LOG2" 2>&1 &
SIM2=$!
trap 'kill -- -$SIM_PID -$SIM2 2>/dev/null; rm -f "$LOG" "$LOG2" "$OUT" "$PNG" "$CONF" "$REC"' EXIT
for i in $(seq 400); do grep -a -q '^dcid: listening' "$LOG2" && break; sleep 0.1; done
grep -a -q '^dcid: listening' "$LOG2" || fail "the g5 target did not come up"
shot 4 --target 127.0.0.1:"$PORT" --target 127.0.0.1:"$PORT2" --token s3cret --sort metric ||
	fail "two targets exited $?: $(cat "$OUT")"
[ "$(field targets)" = 2 ] && [ "$(field connected)" = 2 ] || fail "not both targets connected: $(cat "$OUT")"
grep -q 'observing (target refused: wrong controller token' "$OUT" || fail "the g5 target: not observed"
kill -- -"$SIM2" 2>/dev/null

# I on a selected object turns its invocation counting on: calls arrive.
shot 4 --target 127.0.0.1:"$PORT" --token s3cret --select TreeNode --keys i ||
	fail "instrumenting exited $?: $(cat "$OUT")"
[ "$(field calls)" -gt 0 ] || fail "no invocation counts after I: $(cat "$OUT")"
grep -a -q 'dcid: invocation counting on for pid [0-9]* (one object)' "$LOG" || fail "INSTRUMENT not sent"

# K on a selected object turns its monitored mutexes' figures off.
shot 3 --target 127.0.0.1:"$PORT" --token s3cret --select SleepBench --keys k ||
	fail "K exited $?: $(cat "$OUT")"
grep -a -q 'dcid: sleep-lock figures off for pid [0-9]* (one object)' "$LOG" || fail "K: INSTRUMENT not sent"

# The configuration utility: the KM's planner refuses an event QEMU cannot count, with the
# reason; a two-group configuration (instructions sampled, cycles) is sent and started.
shot 3 --target 127.0.0.1:"$PORT" --token s3cret --config-keys "/larx"$'\r'" E" ||
	fail "configuration utility exited $?: $(cat "$OUT")"
grep -q '^viewer: config: group g1: PM_LARX_LSU0 does not count on this machine' "$OUT" ||
	fail "the utility did not refuse PM_LARX_LSU0: $(cat "$OUT")"
# Each event's basis in the utility: PM_LARX_LSU0 is not counted here, PM_INST_CMPL measured.
grep -q '^viewer: config row: PM_LARX_LSU0 basis=not counted$' "$OUT" ||
	fail "the utility does not give the event's basis: $(cat "$OUT")"
shot 2 --target 127.0.0.1:"$PORT" --config-keys "/inst_cmpl" || fail "configuration utility exited $?: $(cat "$OUT")"
grep -q '^viewer: config row: PM_INST_CMPL basis=measured$' "$OUT" ||
	fail "PM_INST_CMPL is not shown as measured by the probe: $(cat "$OUT")"
shot 4 --target 127.0.0.1:"$PORT" --token s3cret --config-keys " tg/pm_cyc"$'\r'" E" ||
	fail "configuration utility exited $?: $(cat "$OUT")"
cat "$OUT"
[ "$(field config_sent)" = 1 ] && [ "$(field config_groups)" = 2 ] || fail "the configuration was not sent"
grep -a -q 'dcid: configuration [0-9]* applied (2 groups)' "$LOG" || fail "the target did not apply it"

# A configuration asking for the kernel only, which QEMU's counters ignore: the viewer says so.
printf 'count kernel\ngroup k 100\n  PM_INST_CMPL 100003\n' >"$CONF"
build/host/kovctl --target 127.0.0.1:"$PORT" --token s3cret configure "$CONF" >/dev/null ||
	fail "kovctl could not configure the kernel only"
shot 2 --target 127.0.0.1:"$PORT" || fail "viewer exited $?: $(cat "$OUT")"
grep -q '^viewer: modes: asked=kernel warning="privilege filter not honoured here: kernel mode asked, PM_INST_CMPL, PM_CYC count both"$' "$OUT" ||
	fail "the kernel-only configuration is not flagged: $(cat "$OUT")"

# The recording replays with every view working, all its samples delivered.
stop_target() { kill -- -"$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; }
stop_target
shot 9 --replay "$REC" --select SpinBench || fail "replay exited $?: $(cat "$OUT")"
cat "$OUT"
png_ok 1280 800
[ "$(field connected)" = 1 ] || fail "the replay is not shown as a target"
[ "$(field objects)" -ge 20 ] || fail "the replay's tree lacks objects"
[ "$(field available_panes)" = 4 ] && [ "$(field series)" = 4 ] || fail "the replay's panes"
grep -q '^viewer: pane "Spin-lock wait" available=1 points=[1-9].*over 1 CPU.s time' "$OUT" ||
	fail "the replay's spin pane lacks the recorded description or its points"
[ "$(field samples)" -ge "$live" ] || fail "the replay delivered $(field samples) of $live samples"
[ "$(field selected_samples)" -gt 50 ] || fail "the replay's selected object has no samples"
head -c 300 "$REC" >"$CONF"
"$VIEWER" --replay "$CONF" >"$OUT" 2>&1; [ $? = 1 ] && grep -q 'damaged' "$OUT" ||
	fail "a damaged recording must be refused: $(cat "$OUT")"
