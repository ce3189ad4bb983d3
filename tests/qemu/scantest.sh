# The KM's live-object scan from a user program: per-class counts, and the program's own
# objects with the right parent/child links (Process -> HAT -> SegmentHATs, Process -> Regions
# -> FCMs -> FR), owned by its pid; an unprivileged process is refused.
cd "$(dirname "$0")/../.."
for args in "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run scantest 2>&1); rc=$?
	echo "$out" | grep scantest
	[ "$rc" = 0 ] && echo "$out" | grep -q '^scantest: links as expected$' \
		|| { echo "FAIL: $args"; exit 1; }
	echo "$out" | grep -qE '^scantest:   Process +1$' || { echo "FAIL: one process expected"; exit 1; }
done
