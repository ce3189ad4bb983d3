# The monitor's bound on its own cost (common/monitor/throttle.h), through the KM's calls
# (kmcheck throttle, deterministic under --icount): ipcbench sampled every 10,000 instructions
# against a limit of 2% of the CPUs' time, drained every 5 ms by a thread whose CPU time is
# charged as the daemon's. The KM must raise the periods' factor after the first window, hold
# every later window under the limit, bring the factor back to 1 once the load is gone, lose
# nothing, and the samples' periods must still add up: to the counted instructions (1%) and,
# for ipcbench's object, to the 10^9 adds it knows it ran (2%).
cd "$(dirname "$0")/../.."
out=$(timeout 150 sim/run --icount --run kmcheck throttle 1000000 10000 200 5 2>&1); rc=$?
echo "$out" | grep -a -E '^kmcheck: (throttle|ok|FAIL)'
[ "$rc" = 0 ] && echo "$out" | grep -a -q '^kmcheck: throttle done, 0 failures' ||
	{ echo "FAIL: kmcheck throttle"; echo "$out" | tail -n 30; exit 1; }
