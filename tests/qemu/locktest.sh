# User threads on every CPU under a user spin lock and a user sleep lock (futex on the kernel's
# blocked-thread queues): exact totals; the sleep-lock log pairs every wait with its wake-up;
# exit() with threads still running or sleeping ends the process cleanly; a program that keeps
# making and joining threads does not run out of memory (each joined thread's stack is freed).
cd "$(dirname "$0")/../.."
fail() { echo "FAIL: $*"; exit 1; }
for args in "--profile smp --cpus 4" "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run locktest 3 3000 2>&1); rc=$?
	echo "$out" | grep locktest
	[ "$rc" = 0 ] && echo "$out" | grep -qE '^locktest: [0-9]+ threads on [0-9]+ CPUs .*: exact' \
		|| fail "$args: $out"
	echo "$out" | grep -qE '^locktest: condition-variable queue: 6000 items consumed, .*: exact$' \
		|| fail "$args: condition variables: $out"
	# Every logged wait has its wake-up (the program checks the order; here the totals).
	echo "$out" | grep -qE '^locktest: sleep-lock log: [0-9]+ events \(0 lost\), ([0-9]+) waits, \1 wake-ups' \
		|| fail "$args: sleep-lock log: $out"
	for mode in "" join; do
		# shellcheck disable=SC2086
		out=$(sim/run $args --run threadexit $mode 2>&1); rc=$?
		echo "$out" | grep threadexit
		[ "$rc" = 0 ] || fail "$args threadexit $mode: $out"
	done
done
# 2,400 threads made and joined, one round of three at a time: with the stacks kept (64 KiB
# each) the C library ran out of memory after about 1,000, and sleepbench counted nothing more.
out=$(sim/run --profile smp --cpus 2 --run sleepbench 3 50 800 2>&1); rc=$?
echo "$out" | grep -a 'round 800 '
[ "$rc" = 0 ] && echo "$out" | grep -qa '^sleepbench: round 800 done, count 120000' \
	|| fail "thread churn: $(echo "$out" | tail -5)"
