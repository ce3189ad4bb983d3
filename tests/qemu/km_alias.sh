# Sampling-period aliasing (issue 12) on the real image: beatbench's two objects take turns in
# a loop, A for 12000 instructions and B for 4000 (75% / 25%), sampled every T instructions
# for a sweep of T around six rounds. With the fixed reload (KM_CFG_FIXED_PERIOD) some T in
# the sweep beat against the loop: the samples pile onto one object (the sampled point moves
# by T minus the handler's counted instructions per sample, so the T that aliases depends on
# the handler; the sweep finds it). With randomized periods A's share of the samples stays near
# 75% at every T, those included. kmcheck under --icount: deterministic.
cd "$(dirname "$0")/../.."
# The sweep is a fixed amount of guest work whose wall-clock time follows the host's load: QEMU
# gets the whole of the test's time (sim/run's default of 60 s cut it short on a busy host).
out=$(timeout 112 sim/run --icount --timeout 110 --run kmcheck alias 94000 1500 500 600 251 16 2>&1); rc=$?
echo "$out" | grep -a -q "^kmcheck: alias done, 0 failures" ||
	{ echo "FAIL: kmcheck alias (exit $rc)"; echo "$out" | grep -a -E 'FAIL|^kmcheck' | tail -n 20; exit 1; }
echo "$out" | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
rep = re.search(r"^beatbench: .* A rep=(0x[0-9a-f]+) B rep=(0x[0-9a-f]+)", "\n".join(lines), re.M)
a_rep, b_rep = rep.group(1), rep.group(2)
runs = {True: {}, False: {}}
for l in lines:
    m = re.match(r"kmcheck: alias fixed=(\d) threshold=(\d+) .* objects(.*)$", l)
    if m:
        objs = dict(o.split(":") for o in m.group(3).split())
        runs[m.group(1) == "1"][int(m.group(2))] = (int(objs.get(a_rep, 0)), int(objs.get(b_rep, 0)))
expect = 0.75
share = lambda ab: ab[0] / (ab[0] + ab[1])
pooled = lambda ts, fixed: share([sum(runs[fixed][t][i] for t in ts) for i in (0, 1)])
ts = sorted(runs[True])
assert len(ts) == 251 and sorted(runs[False]) == ts, "a run is missing"
worst = max(ts, key=lambda t: abs(share(runs[True][t]) - expect))
aliased = [t for t in ts if abs(share(runs[True][t]) - expect) >= 0.2]
dev = max(abs(share(runs[False][t]) - expect) for t in ts)
print("fixed: worst T=%d A share %.1f%%; %d of %d thresholds alias (off by 20 points or more), "
      "their pooled A share %.1f%%" % (worst, 100 * share(runs[True][worst]), len(aliased), len(ts),
      100 * pooled(aliased, True) if aliased else 0))
print("randomized: at T=%d A share %.1f%%; over the aliasing thresholds %.1f%%; over all %.1f%% "
      "(%d samples); largest deviation at one T %.1f points" % (worst, 100 * share(runs[False][worst]),
      100 * pooled(aliased, False) if aliased else 0, 100 * pooled(ts, False),
      sum(sum(runs[False][t]) for t in ts), 100 * dev))
ok = True
def check(c, what):
    global ok
    print(("ok   " if c else "FAIL ") + what)
    ok = ok and c
check(len(aliased) > 0, "the fixed reload aliases at some threshold of the sweep")
check(bool(aliased) and abs(pooled(aliased, False) - expect) <= 0.05,
      "randomized, those thresholds give A 75% of the samples (within 5 points)")
check(abs(pooled(ts, False) - expect) <= 0.02, "randomized, all thresholds together: 75% within 2 points")
check(dev <= 0.2, "randomized, every threshold (about 100 samples each) within 20 points")
sys.exit(0 if ok else 1)
'
