"""The report's overhead sections: the thesis's Table 4.1 (every monitoring state), 4.2 (each
metric alone), 4.3 (instrumentation compiled out), 4.4 (instrumentation costs) and 4.5 (the
monitor's action against its data traffic)."""
import re

from report_lib import compare, heading, num, pct_of, runs_of, spread, summary, table

STATES = [("off", "monitoring off"), ("count", "PMU counting only"),
          ("thesis", "sampling at the thesis's thresholds (100k)"), ("x10", "sampling at 10x (10k)"),
          ("x100", "sampling at 100x (1k)"), ("locks", "lock statistics streamed"),
          ("fulllocks", "full lock counting"), ("calls", "invocation counting on")]


def httpd_runs(ho, state, kind, key):
    return runs_of(ho["runs"].get(state, {}).get(kind, []), key)


def jbb_runs(jo, state):
    return runs_of(jo["runs"].get(state, []), "tps")


def factors(runs):
    got = sorted({r.get("throttle_factor") for r in runs if r.get("throttle_factor")})
    return ("x" + ", x".join(str(f) for f in got)) if got else "no factor recorded"


def cost_words(s, base):
    """"costs 3.1% [2.0-4.2%]" or "within noise of monitoring off", from two tps summaries."""
    judged = compare(s, base)
    if judged == "within noise":
        return "within noise of monitoring off"
    if judged == "higher":
        return "faster than monitoring off by more than the runs' spread (%s of it)" % pct_of(s, base)
    if judged == "lower":
        return "%s of the unmonitored rate, beyond the runs' spread" % pct_of(s, base)
    return "%s of the unmonitored rate (%s)" % (pct_of(s, base), judged)


def overhead_section(R, d):
    ho, jo = R.get("httpd_overhead"), R.get("jbb_overhead")
    if not heading(d, "1. Overhead of monitoring (Table 4.1 redone)", ho and jo):
        return
    b_k, b_c, b_j = httpd_runs(ho, "off", "keepalive", "rps"), httpd_runs(ho, "off", "close", "rps"), jbb_runs(jo, "off")
    i_k = httpd_runs(ho, "count", "keepalive", "inst_per_req")
    rows, bars = [], {"httpd keep-alive": [], "httpd close": [], "jbb (instructions)": []}
    for state, label in STATES:
        k, c, j = httpd_runs(ho, state, "keepalive", "rps"), httpd_runs(ho, state, "close", "rps"), jbb_runs(jo, state)
        fails = sum((r.get("failed") or 0) for kind in ("keepalive", "close") for r in ho["runs"].get(state, {}).get(kind, []))
        rows.append([label, spread(k), pct_of(k, b_k), pct_of(httpd_runs(ho, state, "keepalive", "inst_per_req"), i_k),
                     spread(c), pct_of(c, b_c), spread(j), pct_of(j, b_j), fails])
        for name, s, base in (("httpd keep-alive", k, b_k), ("httpd close", c, b_c), ("jbb (instructions)", j, b_j)):
            r = summary([x / base["median"] * 100 for x in (s and [s["median"], s["min"], s["max"]] or [])]) if base else None
            bars[name].append("%.2f:%.2f:%.2f" % (r["median"], r["min"], r["max"]) if r and s["n"] > 1 else
                              "%.2f" % (r["median"] if r else 0))
    d.w("httpd: ApacheBench for %d s per run with keep-alive and without (close), `-c %d`; jbb: transactions "
        "per virtual second under `-icount` (the median of 3 per-second reports per run). %d runs per state for "
        "httpd and %d for jbb, the states in a rotating order each round, all on one machine each. Each cell: "
        "median [min-max]; percentages are of the unmonitored runs, their range the quotient of the two ranges. "
        "Instructions per request are counted by the PMU (PMC5, see section 12) over the same seconds; nothing "
        "counts with monitoring off, so they are relative to PMU counting only.\n"
        % (ho["seconds"], ho["c"], ho["rounds"], jo["rounds"]))
    d.w(table(["state", "httpd keep-alive req/s", "% of off", "instr./request vs counting", "httpd close req/s",
               "% of off", "jbb tps (virtual)", "% of off", "failed requests"], rows))
    spec = ("title Throughput in each monitoring state, %% of monitoring off (median, bars: min-max)\nkind bars\n"
            "ylabel %% of unmonitored\ncategories %s\nhline 100\n" % "|".join(s for s, _ in STATES))
    for name, vals in bars.items():
        spec += "series %s|%s\n" % (name, "|".join(vals))
    d.w("\n![overhead](%s)\n" % d.plot("overhead", spec))
    lines = []
    for state, label in STATES[1:]:
        j = jbb_runs(jo, state)
        lines.append("* %s: jbb %s; httpd keep-alive %s, close %s." % (
            label, cost_words(j, b_j), cost_words(httpd_runs(ho, state, "keepalive", "rps"), b_k),
            cost_words(httpd_runs(ho, state, "close", "rps"), b_c)))
    d.w("Judged by the runs' ranges (jbb's are instruction counts; httpd's are wall-clock and carry the shared "
        "host's load, its unmonitored keep-alive rate ranging %s):\n" % spread(b_k))
    d.w("\n".join(lines))
    d.w("\nAt 100x the monitor's cost bound lengthened the periods by %s at the end of jbb's runs (%s in httpd's)."
        " The thesis's Table 4.1 (overhead per benchmark, %%):\n"
        % (factors(jo["runs"].get("x100", [])), factors(ho["runs"].get("x100", {}).get("keepalive", []))))
    d.w(table(["workload", "PMU", "soft. instrumentation", "data traffic and scan", "total"],
              [["ApacheBench", "1.25", "2.28", "2.05", "5.58"], ["SURGE", "1.03", "2.11", "2.06", "5.20"],
               ["SPECjbb2000", "2.97", "2.17", "2.31", "7.45"], ["Average", "1.75", "2.19", "2.14", "6.08"]]))
    d.w("")


METRIC_STATES = [("m_samples", "instruction samples: objects, spin-lock code (the thesis: lock contention)", "0.86"),
                 ("locks", "KOV's lock statistics (the thesis: successful lock acquisitions)", "0.68"),
                 ("m_mmu", "software MMU misses (the thesis: TLB misses)", "1.20"),
                 ("m_ipc", "IPC: instructions sampled (10M), cycles counted", "0.24"),
                 ("thesis", "all at once (the thesis: simultaneous)", "2.97")]


def metrics_section(R, d):
    jo = R.get("jbb_overhead")
    if not heading(d, "2. Each metric alone (Table 4.2 redone)", jo and "m_samples" in jo["runs"]):
        return
    base = jbb_runs(jo, "off")
    rows = []
    for state, label, thesis in METRIC_STATES:
        s = jbb_runs(jo, state)
        cost = summary([100 - x for x in [100.0 * v / base["median"] for v in
                                          [r["tps"] for r in jo["runs"][state] if r.get("tps")]]]) if base else None
        rows.append([label, spread(s), spread(cost, 2, "%"), compare(s, base, "faster", "slower"), thesis + "%"])
    rows.append(["branch mispredictions", "-", "-", "cannot be measured: QEMU has no branch predictor and its "
                 "PMU no such event", "0.28%"])
    d.w("jbb under `-icount`, each metric configured alone at the thesis's thresholds with a client taking the "
        "data, %d runs each beside monitoring off (%s tps). The cost is against the unmonitored median, its range "
        "from the state's runs; \"against off\" judges the two ranges. The thesis's column is its SPECjbb2000 row.\n"
        % (jo["rounds"], spread(base)))
    d.w(table(["metric", "jbb tps (virtual)", "cost", "against off", "thesis (SPECjbb2000)"], rows))
    d.w("")


def noinstr_section(R, d):
    ni = R.get("noinstr")
    if not heading(d, "3. Instrumentation compiled out (Table 4.3 redone)", ni):
        return
    base, same = summary(ni.get("normal", [])), summary(ni.get("same-code", []))
    # A deterministic run shows no noise; the code's layout can still move the figure: the same
    # code under another build id says by how much.
    layout = abs(same["median"] / base["median"] - 1) * 100 if base and same else None
    rows = []
    for name, label, thesis in (("no-call-instr", "invocation counting compiled out", "2.17"),
                                ("no-lock-instr", "lock statistics compiled out", "<0.01"),
                                ("no-instr", "both compiled out", "-")):
        s = summary(ni.get(name, []))
        diff = abs(s["median"] / base["median"] - 1) * 100 if s and base else None
        judged = "-" if diff is None or layout is None else (
            "within the layout's effect" if diff <= layout else "beyond the layout's effect")
        rows.append([label, spread(s), pct_of(base, s, 2), "%s%%" % num(diff, 2) if diff is not None else "-", judged, thesis])
    d.w("jbb under `-icount` (%s), the normal build against builds with KOV's software instrumentation compiled "
        "out (`make instr-variants`), %d runs each; the normal build did %s tps. \"Normal as %% of it\" is the cost "
        "of the disabled hooks; the thesis's column is its SPECjbb2000 overhead in %%.\n"
        % (ni.get("workload", "jbb"), base["n"] if base else 0, spread(base)))
    if same:
        d.w("The runs under `-icount` repeat (nearly) exactly, so they show no noise; the code's layout can still "
            "move the figure. The same code in another image, only its build id's text changed, did %s tps: "
            "%s%% from the normal build. A variant's difference is judged against that.\n"
            % (spread(same), num(layout, 2)))
    d.w(table(["build", "jbb tps (virtual)", "normal as % of it", "difference", "judged", "thesis (%)"], rows))
    ops = " ".join(sum((R.get("noinstr_ops") or {}).values(), []))
    spin = re.search(r"spin_lock\+spin_unlock uncontended ([0-9.]+) instructions", ops)
    mutex = re.search(r"mutex_lock\+mutex_unlock uncontended ([0-9.]+) instructions", ops)
    call = re.search(r"clustered object ([0-9.]+)", ops)
    if spin or mutex or call:
        d.w("\nPer operation without the hooks (`-icount`, build/no-instr): a spin lock and unlock %s instructions, "
            "a mutex lock and unlock %s, a clustered-object call %s; section 4 gives the same with the hooks "
            "present and disabled.\n" % tuple(m.group(1) if m else "-" for m in (spin, mutex, call)))
    d.w("")


def costs_section(R, d):
    co = R.get("costs")
    if not heading(d, "4. Cost of the software instrumentation (Table 4.4 redone)", co):
        return
    runs = co if isinstance(co, list) else [co]

    def figure(prog, pattern, group=1):
        xs = []
        for r in runs:
            m = re.search(pattern, " ".join(r.get(prog, [])))
            xs.append(float(m.group(group)) if m else None)
        return summary(xs)
    plain = figure("drefbench", r"plain indirect ([0-9.]+)")
    off = figure("drefbench", r"clustered object \(counting off\) ([0-9.]+)")
    on = figure("drefbench", r"counting on ([0-9.]+)")
    mutex = figure("lockbench", r"mutex_lock\+mutex_unlock uncontended ([0-9.]+) instructions")
    mutex_full = figure("lockbench", r"fully counted \(mutex_monitor\) ([0-9.]+)")
    spin = figure("lockbench", r"uncontended ([0-9.]+) instructions")
    spin_full = figure("lockbench", r"fully counted \(every acquisition and hold\) ([0-9.]+)")

    def over(a, b):
        return "%+.0f%%" % (100 * (a["median"] / b["median"] - 1)) if a and b and b["median"] else "-"
    rows = [["DREF (thesis) / a clustered-object call (KOV)", "51.4%", "250.5%",
             "%s instructions, %s over a plain indirect call (%s)" % (spread(off, 2), over(off, plain), spread(plain, 2)),
             "%s instructions, %s over counting off" % (spread(on, 2), over(on, off))],
            ["BlockedThreadQueues (thesis) / mutex lock+unlock (KOV)", "2.3%", "10.5%",
             "%s instructions" % spread(mutex, 2), "%s instructions fully counted, %s" % (spread(mutex_full, 2), over(mutex_full, mutex))],
            ["spin lock+unlock (KOV only)", "-", "-", "%s instructions" % spread(spin, 2),
             "%s instructions fully counted, %s" % (spread(spin_full, 2), over(spin_full, spin))]]
    d.w("Instructions per operation under `-icount` (drefbench, `lockbench cost`), %d runs, beside the thesis's "
        "overhead of its instrumentation on the instrumented operation:\n" % len(runs))
    d.w(table(["code instrumented", "thesis: disabled", "thesis: enabled", "KOV: disabled", "KOV: enabled"], rows))
    d.w("")


def traffic_section(R, d):
    jo = R.get("jbb_overhead")
    if not heading(d, "5. The monitor's action against its data traffic (Table 4.5 redone)", jo and "thesis_action" in jo["runs"]):
        return
    base = jbb_runs(jo, "off")

    def cost(state):
        s = jbb_runs(jo, state)
        return summary([100.0 * (1 - r["tps"] / base["median"]) for r in jo["runs"][state] if r.get("tps")]) if s and base else None
    rows = []
    for what, action, full, thesis in (("PMU sampling at the thesis's thresholds", "thesis_action", "thesis", "2.97 / 0.55"),
                                       ("lock statistics (the objects' state)", "locks_action", "locks", "0.77 / 1.19")):
        a, f = cost(action), cost(full)
        traffic = summary([x - a["median"] for x in [r for r in ([f["median"], f["min"], f["max"]] if f else [])]]) if a and f else None
        rows.append([what, spread(a, 2, "%"), spread(f, 2, "%"), "%s%%" % num(traffic["median"], 2) if traffic else "-",
                     compare(jbb_runs(jo, full), jbb_runs(jo, action), "faster with the client", "slower with the client"), thesis])
    scan_rows = []
    for state, label in (("scan_action", "scan, a class matching nothing (action)"), ("scan", "scan, every object sent")):
        per = []
        for r in jo["runs"].get(state, []):
            if r.get("tps") and r.get("scans") and base:
                # The window's virtual time is instructions of the whole machine (1 ns each).
                lost = (1 - r["tps"] / base["median"]) * r["window_s"] * 1e9
                per.append(lost / r["scans"])
        s = summary(per)
        scan_rows.append([label, spread(summary([r.get("scans") for r in jo["runs"].get(state, [])])),
                          spread(s), "%s%%" % num(100 * s["median"] / 5e9, 4) if s else "-"])
    objects = R.get("jbb_scan_objects") or {}
    nobj = sum(len(p.get("objects", [])) for p in objects.get("processes", [])) if isinstance(objects, dict) else None
    d.w("jbb under `-icount`, %d runs per state. \"Action\": the monitor works with nobody taking the data (the "
        "daemon drains and discards it); \"with the client\": a client records the streams, as the thesis's GUI "
        "did. Costs against monitoring off (%s tps); the traffic's share is the difference of the medians. The "
        "thesis's column gives its SPECjbb2000 action / data traffic.\n" % (jo["rounds"], spread(base)))
    d.w(table(["what", "action", "with the client", "data traffic", "client against action", "thesis (%)"], rows))
    d.w("\nThe object scan is made on request, so it is measured per scan: a client asked for it back to back "
        "during each window, and the instructions jbb lost, over the scans answered, are one scan's cost. At the "
        "thesis's period (one scan every 5 s) that is the share given (the machine runs 10^9 instructions per "
        "virtual second). The scan found %s objects.\n" % (num(nobj) if nobj else "an unrecorded number of"))
    d.w(table(["scan", "scans per window", "instructions per scan", "cost at one scan per 5 s"], scan_rows))
    d.w("")
