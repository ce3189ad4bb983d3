# Hot swaps under fire on the parallel machine (swap.sh: the serial one; what is checked:
# swap_lib.bash, run_stress): 1000 swaps of a counter 4 threads add to, 2 CPUs.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
run_stress "${SWAP_STRESS_SWAPS:-1000}" 4 --parallel --cpus 2
echo "swap_parallel: passed"
