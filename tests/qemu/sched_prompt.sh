# The prompt scheduling class (sched_setclass; kernel/proc/runqueue.h), with promptcheck on 2
# CPUs, its threads pinned to CPU 0:
# - a thread woken just after the CPU changed hands runs at once when it is prompt, at the next
#   tick (about 10 ms) when it is normal: the prompt median must be at most a quarter of the
#   normal one, measured before the class is set and after it is set back (ratios, not times,
#   so a slow or busy host does not matter);
# - the bound: against a CPU-bound prompt thread a CPU-bound normal one still gets 15-40% of
#   CPU 0 (about 25%: the prompt thread goes first for half of each 100 ms, the rest is round
#   robin); without the class it would get half, without the bound almost nothing;
# - unknown classes and threads are refused (checked by the workload).
# No --icount: the figures hold on the serial and the parallel machine alike.
cd "$(dirname "$0")/../.." || exit 1
out=$(timeout 90 sim/run --cpus 2 --run promptcheck 40 2 2>&1); rc=$?
echo "$out" | grep -a '^promptcheck:'
[ "$rc" = 0 ] || { echo "FAIL: promptcheck exited $rc"; echo "$out" | tail -n 30; exit 1; }
sum=$(echo "$out" | grep -a '^promptcheck: normal_late_median_us=')
[ -n "$sum" ] || { echo "FAIL: no summary line"; exit 1; }
get() { echo "$sum" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
normal=$(get normal_late_median_us) renormal=$(get renormal_late_median_us)
prompt=$(get prompt_late_median_us) share=$(get normal_share_pct)
for v in "$normal" "$renormal" "$prompt" "$share"; do
	[ -n "$v" ] || { echo "FAIL: a figure is missing from the summary"; exit 1; }
done
echo "$sum" | grep -q ' errors=ok' || { echo "FAIL: bad sched_setclass arguments were accepted"; exit 1; }
[ $((prompt * 4)) -lt "$normal" ] ||
	{ echo "FAIL: prompt median ${prompt} us is not a quarter of the normal ${normal} us"; exit 1; }
[ $((prompt * 4)) -lt "$renormal" ] ||
	{ echo "FAIL: back in the normal class the median ${renormal} us is not 4x the prompt ${prompt} us"; exit 1; }
[ "$share" -le 40 ] || { echo "FAIL: the normal thread got ${share}% against a prompt one (no precedence)"; exit 1; }
[ "$share" -ge 15 ] || { echo "FAIL: the normal thread got only ${share}% against a prompt one (no bound)"; exit 1; }
echo "$out" | grep -a -q '^promptcheck: ok$' || { echo "FAIL: promptcheck did not say ok"; exit 1; }
exit 0
