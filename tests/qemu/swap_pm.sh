# The kernel's page manager hot-swapped under pagestorm on the serial 4-CPU machine, from the
# single class it was booted with (pm=single); what is checked: swap_lib.bash, pm_swap_check.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
pm_swap_check PM 500 --cpus 4
echo "swap_pm: passed"
