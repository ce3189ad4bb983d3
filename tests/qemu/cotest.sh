# User-level clustered objects: per-CPU reps made by misses on every CPU, arguments intact
# across the miss, deferred destruction, and a reused slot whose entries are empty again on
# every CPU (new generation, fresh reps); libc-instr's distributed counter (DCounter): a rep per
# CPU and an exact total from the root-level visit of every rep.
cd "$(dirname "$0")/../.."
for args in "--profile smp --cpus 4" "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run cotest 2>&1); rc=$?
	echo "$out" | grep cotest
	[ "$rc" = 0 ] && echo "$out" | grep -q '^cotest: passed$' || { echo "FAIL: $args"; exit 1; }
	echo "$out" | grep -qE '^cotest: new object in slot ([0-9]+) \(generation 1\): reps=[1-9]' \
		|| { echo "FAIL: $args: slot not reused"; exit 1; }
	cpus=$(echo "$out" | sed -n 's/^cotest: per-cpu reps: cpus=\([0-9]*\).*/\1/p')
	echo "$out" | grep -qE "^cotest: DCounter: reps=$cpus total=([0-9]+) expected=\1\$" \
		|| { echo "FAIL: $args: DCounter"; exit 1; }
done
