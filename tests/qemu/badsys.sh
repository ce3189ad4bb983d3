# Bad pointers and arguments to every system call are refused with the right errors; crashing
# and no-execute-violating children are killed and reaped; the kernel keeps running.
cd "$(dirname "$0")/../.."
for args in "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run badsys 2>&1); rc=$?
	echo "$out" | grep -E 'badsys|killed'
	[ "$rc" = 0 ] || { echo "FAIL: $args: badsys exited $rc"; echo "$out" | tail -20; exit 1; }
	echo "$out" | grep -qE '^badsys: ([0-9]+) of \1 checks passed$' || { echo "FAIL: $args"; exit 1; }
	echo "$out" | grep -q 'killed: protection fault at 0x.* (pc 0x' || { echo "FAIL: no NX kill"; exit 1; }
done
