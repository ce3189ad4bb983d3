# Lock statistics against ground truth (tests/qemu/lockstat_lib.bash), patterns: trylock random single.
source "$(dirname "$0")/lockstat_lib.bash"
for p in trylock random single; do
	lockbench_check "$p" 4 || fail "lock statistics disagree with lockbench's truth ($p)"
done
