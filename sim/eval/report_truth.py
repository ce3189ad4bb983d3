"""The report's accuracy sections: KOV against the workloads' own truth on both kinds of machine,
the thesis's correctness micro-benchmarks (its section 4.4), the sampling rate's effect on the
ranking (section 4.3.1), and PMC5's undercount, which every instruction figure carries."""
import re

from report_lib import heading, num, point, spread, summary, table


def validation_section(R, d):
    lb, jbb = R.get("validation_lockbench"), R.get("validation_jbb")
    if not heading(d, "9. KOV against the truth, on both kinds of machine", lb):
        return
    d.w("Each ground-truth workload times its own lock waits with the timebase around every lock call whose "
        "first try failed (lockbench; jbb's warehouses); KOV's figure is its lock statistics' wait for the same "
        "objects (`kovctl lockstat`) and its ranking (`kovctl top --metric spinlock`). lockbench passes when "
        "every contention and trylock failure is counted exactly, the hot object is first, and each object "
        "with at least 10 waits is within 1% of the truth (0.5% in total). The serial machine's CPUs take "
        "turns on one host thread; the parallel machine's run at once (4 CPUs on this host's 2 cores).\n")
    rows, hot = [], {}   # hot: (machine, pattern) -> the hot object's waits summary
    for machine in ("serial", "parallel"):
        for pattern in ("long", "many", "trylock", "random", "single"):
            runs = [v for v in lb if v["machine"] == machine and v["workload"] == "lockbench " + pattern]
            if not runs:
                continue
            worst = [float(m.group(1)) for m in (re.search(r"worst (?:error )?([0-9.]+)%", v["line"]) for v in runs) if m]
            total = [float(m.group(1)) for m in (re.search(r"total ([0-9.]+)%", v["line"]) for v in runs) if m]
            waits = [int(m.group(1)) for m in (re.search(r"obj\d+\* [0-9.]+/(\d+)", v["line"]) for v in runs) if m]
            hot[machine, pattern] = summary(waits)
            rows.append([machine, pattern, "%d of %d" % (sum(v["ok"] for v in runs), len(runs)),
                         spread(summary(worst), 2, "%") if worst else ("none: one thread" if pattern == "single" else "-"),
                         spread(summary(total), 2, "%") if total else "-",
                         spread(summary(waits)) if waits else "-",
                         "; ".join(v["line"].split(": ", 1)[-1][:80] for v in runs if not v["ok"]) or ""])
    d.w(table(["machine", "pattern", "passed", "worst object error", "total error", "waits of the hot object",
               "failures"], rows))
    ratios = []
    for pattern in ("long", "many", "trylock", "random"):
        a, b = hot.get(("parallel", pattern)), hot.get(("serial", pattern))
        if a and b and b["median"]:
            ratios.append((pattern, a["median"] / b["median"]))
    if ratios:
        d.w("\n%s: the hot object's waits on the parallel machine over those on the serial one (medians): %s.\n" % (
            "The same patterns wait more often in every case where the CPUs really run at once"
            if all(r > 1 for _, r in ratios) else "The two machines compared",
            ", ".join("%s %sx" % (p, num(r, 1)) for p, r in ratios)))
    if jbb:
        rows = []
        for machine in ("serial", "parallel"):
            runs = [v for v in jbb if v["machine"] == machine]
            if not runs:
                continue
            errs, tot, hot_first, waits = [], [], 0, []
            for v in runs:
                truth, kov = v["truth"], v["kov"]
                for c, t in truth.items():
                    if t[2] >= 40 and t[1]:
                        errs.append(100.0 * abs(kov.get(c, 0) - t[1]) / t[1])
                    waits.append(t[2])
                tt = sum(t[1] for t in truth.values())
                if tt:
                    tot.append(100.0 * abs(sum(kov.get(c, 0) for c in truth) - tt) / tt)
                hot = [c for c, t in truth.items() if t[0] == 0]
                objs = v["top"].get("objects", [])
                hot_first += bool(hot and objs and objs[0].get("coid") == hot[0])
            rows.append([machine, len(runs), "%d of %d" % (hot_first, len(runs)), len(errs),
                         spread(summary(errs), 2, "%"), spread(summary(tot), 2, "%"), spread(summary(waits))])
        d.w("\njbb, 4 warehouses, one of them hot (62.5% of the transactions), 5 s per run. Objects with fewer than 40 "
            "waits are left out of the per-object error:\n")
        d.w(table(["machine", "runs", "hot warehouse first", "warehouse-runs with 40+ waits", "per-warehouse error",
                   "total error", "waits per warehouse"], rows))
    d.w("")


def verdict(r):
    bound = r.get("bound_pct")
    if bound is None:
        return "passed" if r.get("ok") else "FAILED"
    if bound == 0:
        return "exact" if r.get("ok") else "NOT EXACT"
    return ("within %s%%" if r.get("ok") else "OUTSIDE %s%%") % num(bound, 2)


def correctness_section(R, d):
    rows = R.get("correctness")
    if not heading(d, "10. The thesis's correctness micro-benchmarks (its section 4.4)", rows):
        return
    out = []
    for r in rows:
        for key in ("measured", "error_pct"):
            if isinstance(r.get(key), dict):
                r[key] = dict(r[key], n=r[key].get("n", r.get("runs", 1)))
        if r.get("status") != "measured":
            out.append([r["thesis"], r.get("metric", ""), r.get("kov_benchmark", "-"), "-", "-", "-",
                        "cannot run under QEMU: %s" % r.get("why", ""), "-"])
            continue
        err = r.get("error_pct")
        out.append([r["thesis"], r.get("metric", ""), "`%s`" % r.get("kov_benchmark", ""),
                    num(r.get("expected")) if r.get("expected") is not None else "-",
                    spread(r.get("measured")), spread(err, 3, "%") if err else "-",
                    verdict(r), r.get("bound_source") or "-"])
    d.w("Each row runs a micro-benchmark whose answer is known (under `-icount`, %s runs each) and compares "
        "what the monitor reported with it; the last column says where its bound comes from.\n"
        % max(r.get("runs") or 0 for r in rows))
    d.w(table(["thesis", "metric", "KOV's benchmark", "expected", "measured", "error", "verdict", "bound from"], out))
    d.w("")


def pmc5_section(R, d):
    rows = R.get("pmc5")
    if not heading(d, "12. QEMU's instruction counter (PMC5) and what relies on it", rows):
        return
    d.w("Every instructions-per-request figure and every instruction-sample share comes from PM_INST_CMPL, "
        "which QEMU counts in PMC5. Under `-icount` the instructions really executed are known, so the share "
        "PMC5 counts can be measured:\n")
    d.w(table(["program", "executed", "counted by PMC5", "share"],
              [[r["program"], num(r.get("executed")), num(r.get("counted")), "%s%%" % num(r.get("share_pct"), 1)]
               for r in rows]))
    shares = [r["share_pct"] for r in rows if r.get("share_pct") is not None]
    if shares:
        d.w("\nThe share ranges from %s%% to %s%% with the kind of code%s. Instructions per request (sections 1 "
            "and 6) and instruction-sample shares rely on PMC5; jbb's transactions per virtual second do not "
            "(virtual time counts every instruction).\n"
            % (num(min(shares), 1), num(max(shares), 1),
               ": instruction figures from PMC5 are lower bounds whose shortfall depends on the code, and sample "
               "shares can lean toward the code PMC5 counts best" if max(shares) - min(shares) > 5 else
               ", so PMC5's figures can be taken as they are"))


def sampling_section(R, d):
    sp = R.get("sampling")
    if not heading(d, "11. Sampling rate: stability of the top objects against cost (section 4.3.1 redone)", sp):
        return
    base = summary(sp["base_tps"])
    rows_in = sp["rows"]
    # The reference ranking: the highest rate whose runs lost no sample, all its runs pooled.
    clean = [r for r in rows_in if all(not x.get("lost") for x in r["runs"])]
    ref_row = clean[0] if clean else rows_in[-1]

    def pooled(row):
        share = {}
        for x in row["runs"]:
            for o in x["top"]:
                share[o["coid"]] = share.get(o["coid"], 0) + o["share"] / len(row["runs"])
        return sorted(share, key=share.get, reverse=True)
    ref = pooled(ref_row)[:5]
    rows, ov, agree = [], [], []
    for r in rows_in:
        xs = r["runs"]
        cost = summary([100.0 * (1 - x["tps"] / base["median"]) for x in xs if x.get("tps")]) if base else None
        shared = summary([len(set(o["coid"] for o in x["top"][:5]) & set(ref)) for x in xs])
        first = sum(1 for x in xs if x["top"] and x["top"][0]["coid"] == ref[0])
        four = sum(1 for x in xs if set(o["coid"] for o in x["top"][:4]) == set(ref[:4]))
        factors = sorted({x.get("throttle_factor") for x in xs if x.get("throttle_factor")})
        rows.append(["{:,}".format(r["threshold"]), spread(summary([x["samples"] for x in xs])),
                     spread(summary([x.get("lost") for x in xs])), spread(cost, 1, "%"), spread(shared),
                     "%d of %d" % (first, len(xs)), "%d of %d" % (four, len(xs)),
                     ", ".join("x%s" % f for f in factors) or "-"])
        ov.append(point(r["threshold"], cost))
        agree.append(point(r["threshold"], summary([20.0 * len(set(o["coid"] for o in x["top"][:5]) & set(ref))
                                                    for x in xs])))
    d.w("jbb under `-icount`, instruction samples only, 6 s (wall) per run, %d runs per threshold in rotating "
        "order; the overhead is against the unmonitored runs between them (%s tps). The reference ranking is "
        "the highest rate at which no run lost a sample (%s), its runs' shares pooled: %s.\n"
        % (sp.get("runs", 1), spread(base), "{:,}".format(ref_row["threshold"]), ", ".join(ref)))
    d.w(table(["threshold", "samples", "lost", "overhead", "top 5 shared with the reference",
               "reference's first object first", "reference's first four, in any order", "throttle factors"], rows))
    spec = ("title jbb: overhead and top-5 agreement against the sampling threshold (median, bars: min-max)\n"
            "kind lines\nlogx\nxlabel instructions per sample (threshold)\nylabel %\n")
    spec += "series overhead %%|%s\n" % "|".join(p for p in ov if p)
    spec += "series top-5 shared with the reference, %%|%s\n" % "|".join(p for p in agree if p)
    d.w("\n![sampling rate](%s)\n" % d.plot("sampling", spec))
    held = [r["threshold"] for r in rows_in if all(x["top"] and x["top"][0]["coid"] == ref[0] for x in r["runs"])]
    d.w("The reference's first object was first in every run at %s. The thesis chose 100,000 for spin-lock "
        "contention after seeing its top objects hold from 10k to 100k and degrade at 1M (its Figure 4.8).\n"
        % (("thresholds " + ", ".join("{:,}".format(t) for t in held)) if held else "no threshold"))


def peer_section(R, d):
    pr = R.get("peer")
    if not heading(d, "16. KOV's cost per sample beside Linux perf's", pr):
        return
    runs = pr["runs"]
    order = ["plain", "call chain of 1 frame", "call chain of 16 frames", "end to end", "bytes per sample sent"]
    names = sorted(runs[0], key=lambda n: order.index(n) if n in order else len(order)) if runs else []
    rows = []
    for n in names:
        kov = summary([r.get(n, {}).get("kov") for r in runs])
        linux = summary([r.get(n, {}).get("linux") for r in runs])
        ratio = summary([r[n]["kov"] / r[n]["linux"] for r in runs if n in r and r[n].get("linux")])
        rows.append([n, spread(kov, 1 if "bytes" in n else 0), spread(linux, 1 if "bytes" in n else 0),
                     spread(ratio, 2)])
    head = [l for l in pr.get("table", "").splitlines()[2:5]]
    d.w("`make peer-bench`, %d runs: Debian's Linux with perf and KOV on the same emulated machine, each "
        "measuring its own cost per sample the same way (the extra `-icount` virtual time of a sampled user "
        "loop over the samples taken; end to end, over the samples delivered off the machine through the same "
        "NIC). Median [min-max]:\n\n```\n%s\n```\n" % (len(runs), "\n".join(head)))
    d.w(table(["per sample", "KOV", "Linux", "KOV / Linux"], rows))
    tail = pr.get("table", "").split("\n\n", 2)
    d.w("\nThe last run's notes, as the bench printed them:\n\n```\n%s\n```\n" % (tail[-1].strip() if tail else ""))
