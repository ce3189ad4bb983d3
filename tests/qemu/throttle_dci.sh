# The monitor's cost bound through the DCI (protocol 1.7), on the serial and the parallel
# machine: jbb sampled every 1,000 instructions is far past the default limit (10% of the
# CPUs' time), so the periods' factor rises; every change reaches a watching client as a
# THROTTLE event, `kovctl throttle` and /metrics show the factor and each event's period in
# force (threshold x factor); an observer cannot set the limit, a bad one is refused with a
# reason; `--limit off` puts the periods back as asked at once. On the serial machine a viewer
# (under Xvfb) watching while the limit is lowered marks the change on its time axis and says
# it in its title. Pings and STOP are timed and printed (make bench reports them; no time
# is asserted here).
source "$(dirname "$0")/lib.bash"
KOVCTL=build/host/kovctl
VIEWER=build/host/kov-viewer
CONF=$(mktemp) WATCH=$(mktemp) VOUT=$(mktemp) PNG=$(mktemp --suffix=.png)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$CONF" "$WATCH" "$VOUT" "$PNG"' EXIT
printf 'slice 10000 us\ngroup flood 100\n  PM_INST_CMPL 1000\n' >"$CONF"

for machine in serial parallel; do
	cpus=$([ $machine = serial ] && echo 4 || echo 2)
	PORT=$(free_port) MPORT=$(free_port)
	boot_bg --$machine --cpus $cpus --port "$PORT" --metrics-port "$MPORT" --timeout 110 \
		--append "dci.token=th" --workload jbb
	wait_for '^dcid: listening' 40
	wait_for '^jbb: t=[0-9]+ ms tps=[1-9]' 30
	K=("$KOVCTL" --target 127.0.0.1:"$PORT" --timeout 20)
	out=$("${K[@]}" throttle) || fail "kovctl throttle: $out"
	echo "$machine: $out"
	[[ $out == "limit 10.00% of the CPUs' time; sampling periods x1 (as asked);"* ]] ||
		fail "the default bound is not 10% with the periods as asked: $out"
	"${K[@]}" throttle --limit 5 >/dev/null 2>&1; rc=$?
	[ $rc = 3 ] || fail "an observer set the limit (exit $rc, not 3)"
	for bad in 0 101 abc 2.555; do
		out=$("${K[@]}" --token th throttle --limit "$bad" 2>&1) && fail "--limit $bad accepted: $out"
		[[ $out == *"--limit needs"* ]] || fail "--limit $bad refused without its reason: $out"
	done
	"${K[@]}" --token th configure "$CONF" >/dev/null || fail "configure"
	"${K[@]}" --token th start --streams samples,counts >/dev/null || fail "start"
	timeout 40 "${K[@]}" watch --seconds 6 >"$WATCH" 2>&1 || { cat "$WATCH"; fail "kovctl watch"; }
	grep -E ' THROTTLE ' "$WATCH" | head -5
	grep -qE ' THROTTLE .* factor=([2-9]|[1-9][0-9]+) ' "$WATCH" ||
		fail "no THROTTLE event raised the factor ($(grep -c SAMPLES "$WATCH") sample frames watched)"
	read -r factor < <("${K[@]}" --json throttle | python3 -c 'import json,sys; print(json.load(sys.stdin)["factor"])')
	metrics=$(curl -s --max-time 20 "127.0.0.1:$MPORT/metrics")
	mf=$(echo "$metrics" | sed -n 's/^kov_throttle_factor \([0-9]*\)$/\1/p')
	period=$(echo "$metrics" | sed -n 's/^kov_sample_period_effective{group="flood",event="PM_INST_CMPL"} \([0-9]*\)$/\1/p')
	echo "$machine: factor $factor (kovctl), $mf (/metrics), PM_INST_CMPL period in force $period"
	[ -n "$mf" ] && [ -n "$period" ] && [ "$period" = $((mf * 1000)) ] ||
		fail "/metrics: factor '$mf' and period in force '$period' disagree"
	echo "$machine: $("${K[@]}" ping --count 20 | tail -1)"
	if [ $machine = serial ]; then
		xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" \
			--screenshot "$PNG" --after 9 >"$VOUT" 2>&1 &
		viewer=$!
		sleep 4
		"${K[@]}" --token th throttle --limit 0.5 >/dev/null || fail "--limit 0.5"
		wait $viewer || fail "the viewer exited: $(cat "$VOUT")"
		grep -a '^viewer: \(title\|throttle\)' "$VOUT"
		grep -aqE '^viewer: throttle: marks=[1-9][0-9]* drawn=[1-9][0-9]* factor=([2-9]|[1-9][0-9]+)$' "$VOUT" ||
			fail "no throttle mark on the viewer's time axis: $(cat "$VOUT")"
		grep -aqE "^viewer: title: .* · sampling periods x[0-9]+: the monitor's cost passed its 0.50% limit$" "$VOUT" ||
			fail "the viewer's title does not say the periods are lengthened: $(cat "$VOUT")"
		python3 tests/qemu/png_check.py "$PNG" 1280 800 || fail "screenshot check"
	fi
	start=$(date +%s%N)
	"${K[@]}" --token th stop >/dev/null || fail "stop"
	echo "$machine: stop answered in $(( ($(date +%s%N) - start) / 1000000 )) ms"
	out=$("${K[@]}" --token th throttle --limit off) || fail "--limit off: $out"
	[[ $out == "throttling off; sampling periods x1 (as asked);"* ]] || fail "--limit off: $out"
	grep -a -q '^dcid: sampling periods x' "$LOG" || fail "the daemon did not log the changes"
	kill -- -$SIM_PID 2>/dev/null; wait $SIM_PID 2>/dev/null
done
exit 0
