# The SMP page-fault stress that found the page-table hash collapse: pagestorm with 8 processes
# of 64 heap pages at a time on 4 CPUs for 40 s (about 15,000 children) while the monitor
# samples and streams to a recorder over the network. Every child must exit 0. Before the fix,
# the same page of every process hashed to one page-table group, and about 1 child in 2,000 was
# killed ("bad address") when the group and its secondary were full. make bench runs it longer.
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
SECONDS_RUN=${STRESS_SECONDS:-40}
REC=$(mktemp)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$REC"' EXIT
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout $((SECONDS_RUN + 60)) --append "dci.token=st" --workload pagestorm:8:64
wait_for '^dcid: listening' 40
$K --target 127.0.0.1:"$PORT" --token st configure sim/demo.pmu >/dev/null 2>&1 || fail "configure refused"
$K --target 127.0.0.1:"$PORT" --token st record --seconds "$SECONDS_RUN" --out "$REC" >"$REC.log" 2>&1 ||
	fail "kovctl record: $(cat "$REC.log")"
sleep 1
done_line=$(grep -a '^pagestorm: [0-9]* processes done' "$LOG" | tail -1)
[ -n "$done_line" ] || fail "pagestorm reported no progress"
children=$(echo "$done_line" | awk '{print $2}') failed=$(echo "$done_line" | awk '{print $5}')
expect_not 'killed: '
[ "$failed" = 0 ] || fail "$failed of $children pagestorm children failed"
[ "$children" -ge 2000 ] || fail "only $children children in ${SECONDS_RUN}s: not a stress"
rm -f "$REC.log"
echo "pagestorm stress: $children children on 4 CPUs while streaming, 0 failed"
