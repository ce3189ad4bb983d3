# Hot swaps asked for over the DCI (kovctl swap, protocol 1.6 SWAP/SWAPPED) on the serial
# machine (swap_remote_parallel.sh: the parallel one); what is checked: swap_lib.bash,
# swap_remote_check.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"
swap_remote_check --serial --cpus 2
rm -f "$OUT" "$OUT.events"
echo "swap_remote: passed"
