# Migration and balancing: 8 CPU-bound threads created pinned to CPU 0 of 4 and then set free
# (sched_setaffinity to every CPU) must end up spread by the kernel itself (idle CPUs pull,
# loaded ones push): three quarters into the run every CPU has at least one of them and none
# more than 3, and they moved; a thread pinned to CPU 3 never ran anywhere else. Bad affinity
# arguments are refused (checked by the workload).
cd "$(dirname "$0")/../.."
out=$(timeout 150 sim/run --cpus 4 --run spread 8 4 2>&1); rc=$?
echo "$out" | grep -a '^spread:'
[ "$rc" = 0 ] || { echo "FAIL: spread exited $rc"; echo "$out" | tail -n 30; exit 1; }
sum=$(echo "$out" | grep -a '^spread: summary')
get() { echo "$sum" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
[ "$(get cpus)" = 4 ] || { echo "FAIL: not 4 CPUs"; exit 1; }
[ "$(get cpus_used)" = 4 ] || { echo "FAIL: the free threads were on $(get cpus_used) CPUs, not 4"; exit 1; }
[ "$(get max_per_cpu)" -le 3 ] || { echo "FAIL: $(get max_per_cpu) threads on one CPU"; exit 1; }
[ "$(get moves)" -ge 3 ] || { echo "FAIL: the threads moved $(get moves) times"; exit 1; }
pinned=$(echo "$out" | grep -a '^spread: pinned')
echo "$pinned" | grep -q ' elsewhere=0 ' || { echo "FAIL: the pinned thread ran elsewhere"; exit 1; }
echo "$pinned" | grep -qE ' checks=[1-9][0-9]*$' || { echo "FAIL: the pinned thread never ran"; exit 1; }
exit 0
