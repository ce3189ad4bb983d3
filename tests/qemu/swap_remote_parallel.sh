# Hot swaps asked for over the DCI on the parallel machine (swap_remote.sh: the serial one);
# what is checked: swap_lib.bash, swap_remote_check.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
swap_remote_check --parallel --cpus 2
rm -f "$OUT" "$OUT.events"
echo "swap_remote_parallel: passed"
