# Hot-swapping a live clustered object (sim/workloads/swapstress.c): the refusals (another
# state format, a swap from inside the object, a thread asleep inside it: timed out, object
# untouched; the same swap once it left; a thread asleep outside does not hold it), then
# threads adding to a counter while it is swapped between the shared Counter and the per-CPU
# DCounter: every swap succeeds and the final total equals the adds made. On the serial machine
# (4 CPUs taking turns: few swaps, each waits for the round robin) and on the parallel one.
source "$(dirname "$0")/lib.bash"
run_stress() { # swaps threads sim/run-args...
	local swaps=$1 threads=$2; shift 2
	timeout 600 sim/run "$@" --timeout 580 --run swapstress "$swaps" "$threads" </dev/null >"$LOG" 2>&1
	local rc=$?
	grep -a '^swapstress:' "$LOG"
	[ "$rc" = 0 ] || fail "swapstress $swaps $threads ($*) exited $rc"
	expect '^swapstress: asleep inside: timed out: calls begun before the swap did not finish after [0-9]+ ms, [1-9][0-9]* walks$'
	expect '^swapstress: asleep outside: swapped in [0-9]+ us, [1-9][0-9]* walks$'
	expect "^swapstress: $swaps swaps by $threads threads' adds: $swaps succeeded; [1-9][0-9]* calls held, [0-9]+ forwarded; ([0-9]+) adds, total \\1; now a (Counter|DCounter)\$"
	expect_not 'swapstress: FAIL'
	expect '^swapstress: passed$'
}
run_stress 40 4 --serial --cpus 4
run_stress "${SWAP_STRESS_SWAPS:-2000}" 4 --parallel --cpus 2
echo "swap: passed"
