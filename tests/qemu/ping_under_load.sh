# Wake-up latency under load: with 8 CPU-bound threads on 4 CPUs, a DCI ping must not wait for
# ticks. A woken thread goes to the head of its run queue and preempts a thread that has had
# the CPU for 1 ms; the NIC leaves interrupt mitigation on a busy CPU. Before, the median ping
# was about 60 ms here (six 10 ms ticks); after, 0.4 ms on a quiet host. The property checked
# is "no longer several ticks" (below 3 ticks, allowing for a loaded host whose QEMU thread
# runs the 4 CPUs in turn), not a time budget: make bench reports the figures.
source "$(dirname "$0")/lib.bash"
PORT=$(free_port)
boot_bg --cpus 4 --port "$PORT" --timeout 90 --workload spinbench:100000000:8:0
wait_for '^dcid: listening' 40
sleep 1
out=$(build/host/kovctl --target 127.0.0.1:"$PORT" ping --count 100 | tail -1)
median=$(echo "$out" | sed -n 's/.*median_us=\([0-9.]*\).*/\1/p')
[ -n "$median" ] || fail "no ping figures: $out"
python3 -c "import sys; sys.exit(0 if float('$median') < 30000 else 1)" ||
	fail "median ping $median us under load: the wake-up waited for ticks ($out)"
echo "ping under load (8 CPU-bound threads, 4 CPUs): median $median us ($out)"
