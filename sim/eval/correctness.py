#!/usr/bin/env python3
"""The thesis's section 4.4, "Correctness of measurements", redone on KOV as one table.

Each row runs a micro-benchmark whose answer is known on the target (sim/run --icount --run,
deterministic instruction-counted time), `runs` times, parses the program's own output (the
truth it computes and what the monitor reported) and gives the error against the truth:

    {"thesis", "metric", "kov_benchmark", "runs", "expected", "measured", "error_pct",
     "bound_pct", "ok", "status", "why", ...}

`measured` and `error_pct` are {"median", "min", "max"} over the runs. `bound_pct` is the bound
the QEMU tests use (tests/qemu/...); `bound_source` says where it comes from. `relies_on_pmc5`
marks figures read through QEMU's PMC5 (PM_INST_CMPL), which counts only part of the executed
instructions in call-heavy code: label them with pmc5()'s shares. A row whose
hardware event does not count under QEMU is "cannot run under QEMU", its reason read from the
event catalogue the boot probe built (kmcheck catalogue), never a number it did not measure.

    python3 sim/eval/correctness.py [--runs N] [--out FILE.json] [--pmc5]

`run(runs=5, log=print)` returns the rows; `pmc5(runs=3)` the share of executed instructions
QEMU's PMC5 (PM_INST_CMPL) counts, on a loop-heavy and a call-heavy program: every figure read
through PMC5 carries that bias.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASURED = "measured"
CANNOT = "cannot run under QEMU"
BOOT_TIMEOUT_S = 400


class BenchmarkFailed(RuntimeError):
    """A boot that did not give the lines a row parses."""


def boot(program, args, cpus=None):
    """Runs PROGRAM ARGS on a fresh target under -icount; returns its console output."""
    cmd = [os.path.join(ROOT, "sim", "run"), "--icount", "--timeout", str(BOOT_TIMEOUT_S)]
    if cpus:
        cmd += ["--cpus", str(cpus)]
    cmd += ["--run", program] + [str(a) for a in args]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=BOOT_TIMEOUT_S + 30)
    return p.stdout.decode("utf-8", "replace").replace("\r", "")


_outputs = {}


def boot_once(run_index, program, args, cpus=None):
    """boot(), shared by the rows that parse the same run (run_index: which of their runs)."""
    key = (run_index, program, tuple(str(a) for a in args), cpus)
    if key not in _outputs:
        _outputs[key] = boot(program, args, cpus)
    return _outputs[key]


def fields(out, prefix, having=""):
    """The key=value pairs of the first output line starting with PREFIX (and holding HAVING),
    as ints when they are."""
    for line in out.splitlines():
        if line.startswith(prefix) and having in line:
            pairs = re.findall(r"(\w+)=(\S+)", line[len(prefix):])
            return {k: int(v) if re.fullmatch(r"\d+", v) else v for k, v in pairs}
    raise BenchmarkFailed("no line %r in the output:\n%s" % (prefix, tail(out)))


def tail(out, n=15):
    return "\n".join(out.splitlines()[-n:])


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def error_pct(expected, measured):
    return 100.0 * (measured - expected) / expected if expected else float(measured != expected) * 100


def row(thesis, metric, benchmark, bound, bound_source):
    return {"thesis": thesis, "metric": metric, "kov_benchmark": benchmark, "runs": 0,
            "expected": None, "measured": None, "error_pct": None, "bound_pct": bound,
            "bound_source": bound_source, "ok": None, "status": MEASURED, "why": None,
            "relies_on_pmc5": False}


def measure(r, runs, log, one_run):
    """Fills row R from ONE_RUN(i) for i < RUNS -> (expected, measured[, extra-ok]).

    ok: every run's |error| within the bound (and its extra check, when it gives one)."""
    expected, measured, errors, ok = [], [], [], True
    for i in range(runs):
        t0 = time.time()
        result = one_run(i)
        e, m = result[0], result[1]
        extra_ok = result[2] if len(result) > 2 else True
        expected.append(e)
        measured.append(m)
        errors.append(error_pct(e, m))
        ok = ok and extra_ok and abs(errors[-1]) <= r["bound_pct"] + 1e-9
        log("  %s run %d/%d: expected %s measured %s (%.1f s)" %
            (r["metric"], i + 1, runs, e, m, time.time() - t0))
    r["runs"] = runs
    r["expected"] = expected[0] if len(set(expected)) == 1 else spread(expected)
    r["measured"] = spread(measured)
    r["error_pct"] = {k: round(v, 4) for k, v in spread(errors).items()}
    r["ok"] = ok
    return r


# ---- rows the QEMU PMU cannot give: the reason is the catalogue's ----

# The 970 events each thesis benchmark counted (common/monitor/ppc970_pmu.c).
THESIS_EVENTS = [
    ("(1) successful lock acquisition rate", "store-conditional successes (stwcx./stdcx.)",
     ["PM_STCX_PASS", "PM_STCX_FAIL"]),
    ("(2) spin-lock contention", "load-reserve (larx) instructions", ["PM_LARX_LSU0"]),
    ("(3) branch mispredictions with hinted loops", "branch mispredictions",
     ["PM_BR_MPRED_CR", "PM_BR_MPRED_TA"]),
    ("(4) TLB misses, one per new 4 KB page touched", "TLB misses",
     ["PM_DTLB_MISS", "PM_ITLB_MISS"]),
]


def catalogue(events):
    """{event: {counts, samples, basis, why}} from the catalogue the boot probe built."""
    out = boot("kmcheck", ["catalogue"] + events)
    status = {}
    for line in out.splitlines():
        m = re.match(r"kmcheck: catalogue (\S+) counts=(\d) samples=(\d) basis=(\S+) why=(.*)$", line)
        if m:
            status[m.group(1)] = {"counts": m.group(2) == "1", "samples": m.group(3) == "1",
                                  "basis": m.group(4), "why": m.group(5)}
    missing = [e for e in events if e not in status]
    if missing:
        raise BenchmarkFailed("the catalogue has no %s:\n%s" % (missing, tail(out)))
    return status


def pmu_rows(log):
    """Thesis rows (1)-(4): hardware events. Where the catalogue says an event does not count
    here, the row cannot run and says why in the catalogue's words; KOV's software stand-ins
    have rows of their own."""
    status = catalogue([e for _, _, evs in THESIS_EVENTS for e in evs])
    rows = []
    for thesis, metric, evs in THESIS_EVENTS:
        r = row(thesis, metric, "kmcheck catalogue " + " ".join(evs), None, None)
        dead = [e for e in evs if not status[e]["counts"]]
        if dead:
            r["status"] = CANNOT
            r["why"] = "QEMU's PMU does not count %s: the event catalogue says \"%s\"" % (
                ", ".join(dead), status[dead[0]]["why"])
        else:
            r["why"] = "%s count here (basis %s) but KOV has no benchmark with a known count " \
                       "for them yet" % (", ".join(evs), status[evs[0]]["basis"])
        log("  %s: %s" % (thesis, r["why"]))
        rows.append(r)
    return rows


# ---- rows measured on the target ----

def lock_acquisitions(runs, log, threads=3, iterations=200):
    """(1), KOV's stand-in: a monitored sleep lock's acquisitions as lock statistics count them
    (the contended path and full counting; no PMU event) against sleepbench's THREADS x
    ITERATIONS. The extra check: waiters seen reach THREADS - 1, one queue observation per
    contention (the thesis's (6) queue check, on the same run)."""
    r = row("(1) successful lock acquisition rate (KOV: counted in software)",
            "lock acquisitions counted by lock statistics",
            "kmcheck locks %d %d" % (threads, iterations), 0.0, "tests/qemu/km_sampling.sh: exact")

    def once(i):
        f = fields(boot_once(i, "kmcheck", ["locks", threads, iterations]), "kmcheck: locks ")
        queue_ok = f["qlen_max"] == threads - 1 and f["qlen_samples"] == f["contentions"]
        return threads * iterations, f["acquisitions"], queue_ok
    return measure(r, runs, log, once)


def sleep_queue(runs, log, threads=3, iterations=200):
    """(6) sleep-lock instrumentation: threads queuing on a sleep lock (a futex on the kernel's
    BlockedThreadQueues); the most waiters the lock statistics saw queued at once must be
    THREADS - 1 (every other thread), with one queue observation per contention."""
    r = row("(6) sleep-lock instrumentation: threads queuing on BlockedThreadQueues",
            "most waiters seen queued on the monitored mutex",
            "kmcheck locks %d %d" % (threads, iterations), 0.0,
            "tests/qemu/km_sampling.sh: qlen_max == threads - 1")

    def once(i):
        f = fields(boot_once(i, "kmcheck", ["locks", threads, iterations]), "kmcheck: locks ")
        return threads - 1, f["qlen_max"], f["qlen_samples"] == f["contentions"]
    return measure(r, runs, log, once)


def sleep_log(runs, log, per_cpu=3, rounds=3000, cpus=4):
    """(6) sleep-lock log: with PER_CPU threads on each of CPUS CPUs taking a logged mutex
    ROUNDS times, every logged wait (ENQUEUE) must have its wake-up (DEQUEUE), the queue never
    going negative (locktest checks the order), none lost, and the totals exact. locktest does
    not match each wake-up's thread ID to its wait's: the thesis's thread-ID check is not here."""
    r = row("(6) sleep-lock instrumentation: queue events (waits and wake-ups)",
            "logged wake-ups (DEQUEUE) against logged waits (ENQUEUE)",
            "locktest %d %d (--cpus %d)" % (per_cpu, rounds, cpus), 0.0,
            "tests/qemu/locktest.sh: waits == wake-ups, 0 lost")

    def once(i):
        out = boot("locktest", [per_cpu, rounds], cpus=cpus)
        m = re.search(r"^locktest: sleep-lock log: (\d+) events \((\d+) lost\), (\d+) waits, "
                      r"(\d+) wake-ups", out, re.M)
        if not m:
            raise BenchmarkFailed("no sleep-lock log line:\n" + tail(out))
        exact = re.search(r"^locktest: .* expected \d+: exact", out, re.M) is not None
        return int(m.group(3)), int(m.group(4)), exact and m.group(2) == "0"
    return measure(r, runs, log, once)


def invocations(runs, log, calls=20000):
    """(7) invocation counting: five objects called in one loop of CALLS turns, object k every
    (k+1)-th turn, the first four counted (the DREF hook's per-method cells, which the KM's
    scan reports), the fifth not. measured: the four counts summed; error: that sum's; the
    extra check: every object's count exact, the uncounted one 0."""
    r = row("(7) invocation counting: several objects invoked in a loop",
            "calls counted per object (sum of 4 counted objects)",
            "drefbench objects %d" % calls, 0.0, "tests/qemu/drefbench.sh: exact")

    def once(i):
        out = boot("drefbench", ["objects", calls])
        objs = re.findall(r"^drefbench: object (\d+) counted (\d+) expected (\d+)$", out, re.M)
        if len(objs) != 5:
            raise BenchmarkFailed("drefbench printed %d objects:\n%s" % (len(objs), tail(out)))
        exact = all(c == e for _, c, e in objs)
        return (sum(int(e) for _, _, e in objs), sum(int(c) for _, c, _ in objs), exact)
    return measure(r, runs, log, once)


def dependent_adds_ipc(runs, log, thousands=20000):
    """(5) IPC of a dependent chain of adds (ipcbench): instructions over cycles of one group.
    Under -icount QEMU's cycles are virtual ns, one per executed instruction, so 1 is expected
    of any program: this checks that the two counters are read and paired over the same slices,
    not a processor's IPC. Instructions are PMC5's (see pmc5())."""
    r = row("(5) IPC: a dependent chain of adds has IPC 1", "PM_INST_CMPL / PM_CYC (x1000)",
            "kmcheck ipc %d" % thousands, 1.0, "tests/qemu/km_sampling.sh: within 1%")
    r["relies_on_pmc5"] = True

    def once(i):
        f = fields(boot("kmcheck", ["ipc", thousands]), "kmcheck: ipc ")
        return 1000, f["instructions"] * 1000 // f["cycles"]
    return measure(r, runs, log, once)


def cycles_per_second(runs, log, ms=1000):
    """(5) cycles over one second against the clock rate: PM_CYC over MS ms of the timebase
    clock. QEMU's cycle counter runs at a nominal 1 GHz of its virtual clock (not a 970's
    clock), so the expected count is the elapsed ns."""
    r = row("(5) cycles over one second against the clock rate", "PM_CYC over %d ms" % ms,
            "kmcheck clock %d" % ms, 1.0, "none in tests/qemu; 1% set here")

    def once(i):
        f = fields(boot("kmcheck", ["clock", ms]), "kmcheck: clock ")
        return f["elapsed_ns"], f["cycles"]
    return measure(r, runs, log, once)


def page_misses(runs, log, pages=400):
    """(4), KOV's stand-in: the software MMU-miss event SW_HPT_MISS, sampled at every miss, over a
    first touch of PAGES new 4 KiB pages: one user-mode miss each (the page fault). The kernel's
    misses zeroing each new frame through its linear map come on top (`detail`). The extra
    check: no sample lost, and a second touch of the same pages misses none."""
    r = row("(4) TLB misses, one per new 4 KB page touched (KOV: software MMU misses)",
            "user-mode SW_HPT_MISS over a first touch of new pages", "kmcheck pages %d" % pages,
            0.0, "none in tests/qemu; exact set here (kmcheck pages checks it)")
    kernel = []

    def once(i):
        f = fields(boot("kmcheck", ["pages", pages]), "kmcheck: pages ")
        kernel.append(f["first_touch_all_misses"] - f["first_touch_user_misses"])
        clean = f["first_touch_samples"] == f["first_touch_all_misses"] and \
            f["second_touch_all_misses"] == 0
        return pages, f["first_touch_user_misses"], clean
    measure(r, runs, log, once)
    r["kernel_misses_first_touch"] = spread(kernel)
    return r


def syscall_events(runs, log, calls=1000):
    """KOV extra: the software event SW_SYSCALL counts every system call of CALLS getpid()s
    (kmcheck's own START/STOP calls come on top); the extra check: one sample per 100."""
    r = row("(extra) software events", "SW_SYSCALL over CALLS getpid() calls",
            "kmcheck sw %d" % calls, 1.0, "tests/qemu/km_sampling.sh: >= calls, samples = count/100 +-1")

    def once(i):
        f = fields(boot("kmcheck", ["sw", calls]), "kmcheck: sw ")
        return calls, f["syscalls"], abs(f["samples"] - f["syscalls"] // 100) <= 1
    return measure(r, runs, log, once)


def sample_attribution(runs, log, iterations=2000000, threshold=50021):
    """KOV extra: instruction samples of spinbench (one object) attributed to that object, as a
    share of its user samples (expected 100%). The extra check: the samples' periods add up to
    the counted instructions within one period, and spinbench's object is the top one."""
    r = row("(extra) samples attributed to the right object", "spinbench's object's share of "
            "its user samples (%)", "kmcheck spin %d %d" % (iterations, threshold), 1.0,
            "tests/qemu/km_sampling.sh: >= 99%")
    r["relies_on_pmc5"] = True

    def once(i):
        out = boot("kmcheck", ["spin", iterations, threshold])
        f = fields(out, "kmcheck: spin pid=")
        s = fields(out, "kmcheck: spin ", "period_sum=")
        rep = re.search(r"^spinbench: .* object rep=(0x[0-9a-f]+)", out, re.M)
        periods_ok = s["period_sum"] <= s["instructions"] < s["period_sum"] + threshold * 9 // 8
        right = rep is not None and f["top_object"] == rep.group(1)
        return 100.0, round(100.0 * f["top_samples"] / f["user_samples"], 3), periods_ok and right
    return measure(r, runs, log, once)


def aliasing_objects(runs, log, threshold=94000, a=1500, b=500, rounds=600, count=64, step=63):
    """KOV extra: beatbench's two objects take turns, A 75% of a 16,000-instruction loop, sampled
    with randomized periods at COUNT thresholds from THRESHOLD in steps of STEP (a sweep, as
    tests/qemu/km_alias.sh does): A's share of all the sweep's samples against 75%. The extra
    check: at every threshold within 20 points. kmcheck alias also runs each threshold with the
    fixed reload; the share furthest from 75% there is `fixed_worst_share_pct` (aliasing)."""
    r = row("(extra) samples between aliasing objects (randomized periods)",
            "object A's share of the samples over the sweep (%)", "kmcheck alias %d %d %d %d %d %d"
            % (threshold, a, b, rounds, count, step), 2.0 / 0.75,
            "tests/qemu/km_alias.sh: pooled share within 2 points of 75% (2.67% relative); "
            "each threshold within 20 points")
    fixed = []
    r["relies_on_pmc5"] = True

    def once(i):
        out = boot("kmcheck", ["alias", threshold, a, b, rounds, count, step])
        reps = re.search(r"^beatbench: .* A rep=(0x[0-9a-f]+) B rep=(0x[0-9a-f]+)", out, re.M)
        if not reps:
            raise BenchmarkFailed("no beatbench line:\n" + tail(out))
        ab = {"0": [], "1": []}
        for m in re.finditer(r"^kmcheck: alias fixed=(\d) .* objects(.*)$", out, re.M):
            objs = dict(o.split(":") for o in m.group(2).split())
            ab[m.group(1)].append((int(objs.get(reps.group(1), 0)), int(objs.get(reps.group(2), 0))))
        if len(ab["0"]) != count or len(ab["1"]) != count:
            raise BenchmarkFailed("kmcheck alias gave %d and %d of %d thresholds" %
                                  (len(ab["0"]), len(ab["1"]), count))
        share = lambda x, y: 100.0 * x / (x + y) if x + y else 0.0
        fixed.append(round(max((share(*p) for p in ab["1"]), key=lambda v: abs(v - 75)), 2))
        each_ok = all(abs(share(*p) - 75) <= 20 for p in ab["0"])
        pooled = share(sum(p[0] for p in ab["0"]), sum(p[1] for p in ab["0"]))
        return 75.0, round(pooled, 3), each_ok
    measure(r, runs, log, once)
    r["fixed_worst_share_pct"] = spread(fixed)
    return r


def multiplexed_scaling(runs, log, thousands=200000):
    """KOV extra: ipcbench's instructions counted by one group alone, then by one of two groups
    sharing the PMU 50/50, scaled by enabled/running: the scaled count against the single one."""
    r = row("(extra) multiplexed counts scaled right", "50/50 group's scaled PM_INST_CMPL",
            "kmcheck mux %d" % thousands, 2.0, "tests/qemu/km_sampling.sh: within 2%")
    r["relies_on_pmc5"] = True

    def once(i):
        f = fields(boot("kmcheck", ["mux", thousands]), "kmcheck: mux ")
        return f["single"], f["a_scaled"], f["a_running"] < f["a_enabled"]
    return measure(r, runs, log, once)


ROWS = [lock_acquisitions, dependent_adds_ipc, cycles_per_second, page_misses, sleep_queue,
        sleep_log, invocations, syscall_events, sample_attribution, aliasing_objects,
        multiplexed_scaling]


def failed_row(fn, err):
    """A row whose benchmark broke: no number, the reason."""
    doc = (fn.__doc__ or fn.__name__).split(":")[0].strip()
    r = row(doc, fn.__name__, None, None, None)
    r["ok"] = False
    r["why"] = "the benchmark failed: %s" % str(err).splitlines()[0]
    return r


def run(runs=5, log=print):
    """Every row of the table, each benchmark booted RUNS times."""
    t0 = time.time()
    _outputs.clear()
    rows = pmu_rows(log)
    for fn in ROWS:
        log("%s:" % fn.__name__)
        try:
            rows.append(fn(runs, log))
        except (BenchmarkFailed, subprocess.TimeoutExpired, KeyError, ZeroDivisionError) as e:
            log("  FAILED: %s" % e)
            rows.append(failed_row(fn, e))
    log("correctness: %d rows in %.0f s" % (len(rows), time.time() - t0))
    return rows


# ---- PMC5's bias ----

PMC5_PROGRAMS = [("ipcbench", ["20000"], "loop-heavy: one method's dependent adds"),
                 ("drefbench", [], "call-heavy: clustered-object method calls")]


def pmc5(runs=3, log=print):
    """The share of executed instructions QEMU's PMC5 (PM_INST_CMPL) counts (kmcheck pmc5, 1 CPU:
    under -icount PM_CYC is one per executed instruction). Rows {program, executed, counted,
    share_pct} with the median of RUNS runs (counted and executed of the median run)."""
    rows = []
    for program, args, kind in PMC5_PROGRAMS:
        results = []
        for i in range(runs):
            f = fields(boot("kmcheck", ["pmc5", program] + args, cpus=1), "kmcheck: pmc5 ")
            results.append((100.0 * f["counted"] / f["executed"], f["counted"], f["executed"]))
            log("  pmc5 %s run %d/%d: %.1f%%" % (program, i + 1, runs, results[-1][0]))
        results.sort()
        share, counted, executed = results[len(results) // 2]
        rows.append({"program": " ".join([program] + args), "kind": kind, "executed": executed,
                     "counted": counted, "share_pct": round(share, 2),
                     "share_pct_range": [round(results[0][0], 2), round(results[-1][0], 2)],
                     "runs": runs})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", help="write the JSON here too")
    ap.add_argument("--pmc5", action="store_true", help="also measure PMC5's share (3 runs)")
    a = ap.parse_args()
    log = lambda s: print(s, file=sys.stderr, flush=True)
    t0 = time.time()
    result = {"rows": run(a.runs, log)}
    if a.pmc5:
        result["pmc5"] = pmc5(log=log)
    result["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(result, indent=1)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
