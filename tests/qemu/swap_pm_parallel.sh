# The kernel's page manager hot-swapped under pagestorm on the parallel 2-CPU machine, from the
# per-CPU class it boots with; what is checked: swap_lib.bash, pm_swap_check.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
pm_swap_check PMPerCPU 700 --parallel --cpus 2
echo "swap_pm_parallel: passed"
