# Kernel threads on every CPU with spin locks (lwarx/stwcx.) and sleep locks (blocked-thread
# queues): exact totals; two CPU-bound threads on one CPU both finish (decrementer preemption);
# a join outlasts a wake-up that is not its thread's exit.
source "$(dirname "$0")/lib.bash"
for args in "--profile smp --cpus 4" "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	boot_check $args --append selftest=threads
	cpus=$(field cpus)
	n=$((cpus * 4)); want=$((n * 2000))
	expect "^threads: $n threads on $cpus CPUs: spin total $want, sleep total $want, expected $want: exact\$"
	expect '^threads: sleep lock acquisitions [0-9]+, contended [0-9]+; [0-9]+ us$'
	expect '^threads: two CPU-bound threads on cpu0 both finished: yes \(preempted\)$'
	expect '^threads: cross-CPU call to [0-9]+ CPUs: [0-9]+ us per round trip \(all answered\), [0-9]+ IPIs taken$'
	ipis=$(grep -a '^threads: cross-CPU call' "$LOG" | sed -n 's/.*, \([0-9]*\) IPIs taken$/\1/p')
	if [ "$cpus" -gt 1 ]; then
		[ "$ipis" -ge $((cpus - 1)) ] || fail "$args: cross-CPU calls took only $ipis IPIs"
	else
		[ "$ipis" = 0 ] || fail "$args: IPIs on a single CPU"
	fi
	expect '^threads: a join woken before its thread.s exit waits on: yes$'
	expect '^threads: selftest passed$'
	echo "$args: threads ok"
done
