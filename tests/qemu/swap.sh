# Hot-swapping a live clustered object (sim/workloads/swapstress.c): the refusals (another
# state format, a swap from inside the object, a thread asleep inside it: timed out, object
# untouched; the same swap once it left; a thread asleep outside does not hold it), then
# threads adding to a counter while it is swapped between the shared Counter and the per-CPU
# DCounter: every swap succeeds and the final total equals the adds made. On the serial machine
# (4 CPUs taking turns: few swaps, each waits for the round robin); swap_parallel.sh: the
# parallel machine; make bench: 10,000 swaps.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
run_stress 40 4 --serial --cpus 4
echo "swap: passed"
