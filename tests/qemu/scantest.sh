# The KM's live-object scan from a user program: per-class counts; the program's own kernel
# objects with the right parent/child links (Process -> HAT -> SegmentHATs, Process -> Regions
# -> FCMs -> FR), owned by its pid; a child's user-level objects scanned by its own runtime
# (TreeNode with two linked children); a process that never answers is reported as silent; a
# runtime claiming records in pages it never touched (scanbait) gets none read and no page
# allocated in it by the KM.
cd "$(dirname "$0")/../.."
for args in "--profile smp --cpus 2" "--profile g5"; do
	# shellcheck disable=SC2086
	out=$(sim/run $args --run scantest 2>&1); rc=$?
	echo "$out" | grep scantest
	[ "$rc" = 0 ] && echo "$out" | grep -q '^scantest: links as expected$' \
		|| { echo "FAIL: $args"; exit 1; }
	echo "$out" | grep -qE '^scantest:   Process +2$' || { echo "FAIL: init and scantest expected"; exit 1; }
	echo "$out" | grep -qE '^scantest: user objects: [0-9]+ of [0-9]+ live objects; 2 runtimes asked, 1 silent' \
		|| { echo "FAIL: $args: user-object scan"; exit 1; }
done
