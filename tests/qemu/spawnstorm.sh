# Hundreds of processes created and reaped on several CPUs: every physical page, page-manager
# frame, kernel heap block and ProcessAnnex slot comes back.
cd "$(dirname "$0")/../.."
for args in "--profile smp --cpus 2" "--profile smp --cpus 4" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run spawnstorm 200 2>&1); rc=$?
	echo "$args: $(echo "$out" | grep -E 'spawnstorm: (free|[0-9]+ processes created)' | tr '\n' ' ')"
	[ "$rc" = 0 ] && echo "$out" | grep -q '^spawnstorm: nothing leaked$' \
		|| { echo "FAIL: $args"; echo "$out" | tail -8; exit 1; }
done
