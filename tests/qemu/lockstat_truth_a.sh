# Lock statistics against ground truth (tests/qemu/lockstat_lib.bash), patterns: long many.
source "$(dirname "$0")/lockstat_lib.bash"
for p in long many; do
	lockbench_check "$p" 4 || fail "lock statistics disagree with lockbench's truth ($p)"
done
