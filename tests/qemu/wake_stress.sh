# Wake-ups under everything at once, on the parallel machine: pagestorm (page faults, process
# creation and exit), spawnstorm (waves of 8 short processes), sleepbench (sleep-lock wake-ups
# across CPUs), jbb (threads that migrate and contend), httpd (network interrupts, fetched from
# the host), the monitor sampling and streaming to a recorder over the network, and a DCI ping
# every half second, for STRESS_SECONDS (40; make bench runs it longer, STRESS_CPUS=4 too).
# Checked: every ping and page answered (no hang), no panic, every pagestorm child exited 0, sleepbench
# alive throughout, and the kernel's wake-up counters (kovctl info): the hypervisor watchdog
# never had to reset the machine, and no CPU slept past a due tick for longer than the guard's
# bound (kernel/arch/wake_guard.h). Prods and rescues (QEMU's H_CEDE race) are reported.
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
SECONDS_RUN=${STRESS_SECONDS:-40}
CPUS=${STRESS_CPUS:-2}
MACHINE=${STRESS_MACHINE:-parallel}
REC=$(mktemp)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$REC" "$REC".*' EXIT
PORT=$(free_port) HTTP=$(free_port)
boot_bg --"$MACHINE" --cpus "$CPUS" --port "$PORT" --forward "$HTTP:80" --timeout $((SECONDS_RUN + 90)) \
	--append "dci.token=ws" \
	--workload pagestorm:4:32,spawnstorm:100000000,sleepbench:3:1000:0,jbb:warehouses=2:hot=50,httpd:timeout=2
wait_for '^dcid: listening' 60
wait_for '^httpd: listening on port 80' 60
$K --target 127.0.0.1:"$PORT" --token ws configure sim/demo.pmu >/dev/null 2>&1 || fail "configure refused"
$K --target 127.0.0.1:"$PORT" --token ws record --seconds "$SECONDS_RUN" --out "$REC" >"$REC.log" 2>&1 &
rec=$!
pings=0 lost=0 slowest=0 pages=0 unserved=0
end=$((SECONDS + SECONDS_RUN))
while [ "$SECONDS" -lt "$end" ]; do
	if out=$($K --target 127.0.0.1:"$PORT" --timeout 10 ping --count 1 2>&1); then
		us=$(echo "$out" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p' | tail -1)
		[ -n "$us" ] && [ "$us" -gt "$slowest" ] && slowest=$us
	else
		lost=$((lost + 1)); echo "ping $pings unanswered: $out"
	fi
	pings=$((pings + 1))
	if curl -sf --max-time 10 "http://127.0.0.1:$HTTP/about.txt" | cmp -s - sim/workloads/httpd/www/about.txt; then
		pages=$((pages + 1))
	else
		unserved=$((unserved + 1)); echo "page $((pages + unserved)) not served"
	fi
	sleep 0.5
done
wait "$rec" || fail "kovctl record: $(cat "$REC.log")"
[ "$lost" = 0 ] || fail "$lost of $pings pings unanswered: the target hung"
[ "$unserved" = 0 ] || fail "httpd did not serve $unserved of $((pages + unserved)) pages"
expect_not 'kov: PANIC'
expect_not 'killed: '
# sleepbench says it is alive 5 s after its last word, when a thread next looks: no gap of more
# than 15 s between two, and the last within the run's last 15 s (it started before the run).
alive=$(grep -a -c '^sleepbench: alive' "$LOG")
gaps=$(grep -a -o '^sleepbench: alive after [0-9]*' "$LOG" | awk '{ s = $4; if (s - p > g) g = s - p; p = s } END { print g + 0, p + 0 }')
[ "${gaps% *}" -le 15 ] || fail "sleepbench went ${gaps% *} s without a word"
[ "${gaps#* }" -ge $((SECONDS_RUN - 15)) ] || fail "sleepbench's last word came after ${gaps#* } s of a ${SECONDS_RUN}s run"
# pagestorm reports every 1,000 children (fewer than that on a loaded serial machine).
done_line=$(grep -a '^pagestorm: [0-9]* processes done' "$LOG" | tail -1)
[ -z "$done_line" ] || [ "$(echo "$done_line" | awk '{print $5}')" = 0 ] ||
	fail "pagestorm children failed: $done_line"
info=$($K --target 127.0.0.1:"$PORT" --json info) || fail "kovctl info failed"
python3 - "$info" "$MACHINE" <<'EOF' || fail "wake-up counters: see above"
import json, sys
info = json.loads(sys.argv[1])
w = info["wake_ups"]
print("wake-ups:", w, "cpus_run:", info.get("cpus_run"))
assert w["watchdog_resets"] == 0, "the hypervisor watchdog had to reset the machine"
# The guard prods a ceded CPU 20 ms (3 ticks at most) past its tick at the next tick of
# another CPU; 250 ms leaves room for a host that did not run a CPU's thread for a while.
assert w["late_max_us"] < 250000, "a CPU slept %d us past a due tick" % w["late_max_us"]
EOF
echo "wake stress ($MACHINE, $CPUS CPUs, ${SECONDS_RUN}s): $pings pings answered (slowest ${slowest} us), $pages pages served, sleepbench alive $alive times, ${done_line:-pagestorm: under 1000 processes}"
