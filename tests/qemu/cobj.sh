# Clustered objects on both machines (boot self-test): per-CPU reps installed by misses on
# every CPU, seven arguments intact through the miss trampoline, the context-object stack walk
# through three nested methods, and destruction deferred until every CPU was quiescent.
source "$(dirname "$0")/lib.bash"
for args in "--profile smp --cpus 4" "--profile smp --cpus 1" "--profile g5"; do
	# shellcheck disable=SC2086
	boot_check $args --append selftest=co
	cpus=$(field cpus)
	expect "^cobj: per-cpu reps: cpus=$cpus reps=$cpus value=[0-9]+ expected=[0-9]+ misses=$cpus\$"
	line=$(grep -a '^cobj: per-cpu reps' "$LOG")
	value=$(echo "$line" | sed -n 's/.*value=\([0-9]*\).*/\1/p')
	want=$(( 1000 * cpus * (cpus + 1) / 2 ))
	[ "$value" = "$want" ] || fail "$args: counter value $value, want $want"
	expect "^cobj: root-level visit: $cpus reps, sum $want\$"
	expect "^cobj: miss re-dispatch with 7 arguments on $cpus CPUs: intact \(cpu0 got 1140\)\$"
	expect '^cobj: context objects from the innermost method: 3 found \(depth 2\): inner, middle, outer$'
	expect '^cobj: destroy: slot [0-9]+ reclaimed after quiescence: yes, generation 0 -> 1$'
	expect '^cobj: selftest passed$'
	expect_not 'FAILED'
	echo "$args: clustered objects ok"
done
