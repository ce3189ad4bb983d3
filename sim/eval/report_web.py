"""The report's web sections: ApacheBench at rising concurrency (the thesis's Figure 4.1), the
timeline of one run at concurrency 70 with each object's lock wait (Figures 4.2 and 4.3), and the
SURGE-like sessions (Figure 4.4)."""
from report_lib import heading, num, point, runs_of, scaled, spread, table

COLUMNS = [("rps", "requests/s", 0), ("p99", "p99 ms", 1), ("ipc", "instr. per emulated cycle", 4),
           ("mmu_per_kinst", "MMU misses per 1,000 instr.", 3), ("spin_wait_pct", "spin wait, % of CPU time", 2),
           ("sleep_waiters", "threads in sleep waits", 2), ("acquisitions_per_s", "httpd lock acquisitions/s", 0),
           ("contentions_per_s", "contentions/s", 0)]


def trend(levels, data, key, digits=2, at="-c"):
    """How the median of `key` goes over the levels: "rises", "falls" or "stays within 20%" from
    the first to the last level, and where it peaks; `at` names a level ("-c 70", "rate 20")."""
    pts = [(x, s["median"]) for x, s in ((x, runs_of(data[x], key)) for x in levels) if s]
    if len(pts) < 2:
        return "has too few points"
    (x0, first), (x1, last) = pts[0], pts[-1]
    peak = max(pts, key=lambda p: p[1])
    if last > first * 1.2 or last < first / 1.2:
        way = "%s from %s at %s %d to %s at %s %d" % ("rises" if last > first else "falls", num(first, digits), at, x0,
                                                    num(last, digits), at, x1)
    else:
        way = "stays within 20%% of %s" % num(first, digits)
    return "%s (highest median %s at %s %d)" % (way, num(peak[1], digits), at, peak[0])


def concurrency_section(R, d):
    cs = R.get("concurrency")
    if not heading(d, "6. ApacheBench from concurrency 10 to 150 (Figure 4.1 redone)", cs):
        return
    levels = cs["levels"]
    data = {c: cs["data"][str(c)] for c in levels}
    rows = [[c] + [spread(runs_of(data[c], k), digits) for k, _, digits in COLUMNS] +
            [sum((r.get("failed") or 0) for r in data[c])] for c in levels]
    d.w("httpd on %d CPUs, ApacheBench `-k` for %d s per run at each concurrency, %d runs per level in rotating "
        "order, monitored as the thesis's GUI did (instructions, cycles and the software MMU misses counted, "
        "lock statistics streamed to a client, httpd's own locks fully counted). The thesis's five metrics as "
        "far as QEMU counts them: IPC is instructions per emulated cycle (QEMU's cycles are virtual time), MMU "
        "misses stand for its TLB misses, branch mispredictions cannot be counted. Median [min-max]:\n"
        % (cs["cpus"], cs["seconds"], cs["runs"]))
    d.w(table(["-c"] + [label for _, label, _ in COLUMNS] + ["failed"], rows))
    for name, keys in (("concurrency-throughput", [("rps", "requests/s")]),
                       ("concurrency-locks", [("spin_wait_pct", "spin wait % of CPU"),
                                              ("sleep_waiters", "threads in sleep waits")])):
        spec = "title httpd against ApacheBench's concurrency (median, bars: min-max)\nkind lines\nxlabel -c\n"
        spec += "ylabel %s\n" % " / ".join(label for _, label in keys)
        for k, label in keys:
            pts = [point(c, runs_of(data[c], k)) for c in levels]
            spec += "series %s|%s\n" % (label, "|".join(p for p in pts if p))
        d.w("\n![%s](%s)\n" % (name, d.plot(name, spec)))
    d.w("Read from the medians: the request rate %s; the spin wait %s; the threads in sleep waits %s; the "
        "instructions per emulated cycle %s.\n" % tuple(
            trend(levels, data, k, digits) for k, digits in (("rps", 0), ("spin_wait_pct", 2), ("sleep_waiters", 2),
                                                              ("ipc", 4))))


KERNEL_LOCKS = {}   # lock address -> the kernel variable that points at it (timeline_section)


def lock_label(l):
    if l.get("class") and l["class"] != "-":
        return "%s %s" % (l["class"], l.get("coid", ""))
    if l.get("lock") in KERNEL_LOCKS:
        return "lwIP %s lock" % ("core" if KERNEL_LOCKS[l["lock"]] == "lock_tcpip_core" else "heap")
    return l.get("name") or l.get("lock")


def timeline_section(R, d):
    tl = R.get("timeline")
    if not heading(d, "7. One run at concurrency 70, second by second (Figures 4.2 and 4.3 redone)", tl):
        return
    for r in tl:
        for var, addr in (r.get("kernel_locks") or {}).items():
            if addr:
                KERNEL_LOCKS["0x%016x" % int(addr, 16)] = var
    run = tl[0]
    waits = agg(run)
    top = sorted(waits, key=waits.get, reverse=True)[:4]
    total = sum(waits.values())
    spec = ("title Lock wait per second at -c 70, run 1: all locks and the four that waited most\nkind lines\n"
            "xlabel seconds (ApacheBench from %.0f to %.0f s)\nylabel threads waiting (wait s per s)\n"
            % (run["load_start"], run["load_end"]))
    series = {"all locks": []}
    series.update({name: [] for name in top})
    for w in run["windows"]:
        span = max(w["end"] - w["start"], 1e-3)
        mid = (w["start"] + w["end"]) / 2
        per = {}
        for l in w["locks"]:
            per[lock_label(l)] = per.get(lock_label(l), 0) + (l.get("wait_us") or 0)
        series["all locks"].append("%.2f:%.4f" % (mid, sum(per.values()) / span / 1e6))
        for name in top:
            series[name].append("%.2f:%.4f" % (mid, per.get(name, 0) / span / 1e6))
    for name, pts in series.items():
        spec += "series %s|%s\n" % (name[:60], "|".join(pts))
    d.w("\"lwIP core lock\" is the sleep lock `lock_tcpip_core` points at (lwIP's TCP/IP core lock), read "
        "through QEMU's monitor. " if any(v == "lock_tcpip_core" for v in KERNEL_LOCKS.values()) else "")
    d.w("A fresh machine (no warm-up), monitoring started, then ApacheBench without keep-alive at `-c 70` for "
        "the run's length; `kovctl lockstat` over back-to-back one-second windows (%d windows, %d answered). "
        "%d runs on fresh machines; the chart is the first, the table every run's shares.\n"
        % (len(run["windows"]), sum(w["answered"] for w in run["windows"]), len(tl)))
    d.w("![timeline](%s)\n" % d.plot("timeline", spec))
    rows = []
    for r in tl:
        per = agg(r)
        tot = sum(per.values())
        best = sorted(per, key=per.get, reverse=True)[:3]
        rows.append([r["run"], num(r["ab"].get("complete")), num(r["ab"].get("rps")), num(tot / 1e6, 2)] +
                    ["%s (%.0f%%)" % (b, 100.0 * per[b] / tot) if tot else "-" for b in best] +
                    ["-"] * (3 - len(best)))
    d.w(table(["run", "requests", "requests/s", "wait, s", "first", "second", "third"], rows))
    lead = [max(a, key=a.get) for a in map(agg, tl) if a]
    same = len(set(lead)) == 1
    d.w("\nOver the whole of run 1 the lock that waited most was %s (%.0f%% of %s s of waiting); %s.\n"
        % (top[0] if top else "none", 100.0 * waits[top[0]] / total if total else 0, num(total / 1e6, 2),
           ("the same lock led in all %d runs" % len(tl)) if same else
           ("the lock that led changed between runs: %s" % ", ".join(lead))))


def agg(run):
    per = {}
    for w in run["windows"]:
        for l in w["locks"]:
            per[lock_label(l)] = per.get(lock_label(l), 0) + (l.get("wait_us") or 0)
    return per


def surge_section(R, d):
    sg = R.get("surge")
    if not heading(d, "8. SURGE-like sessions (Figure 4.4 redone)", sg):
        return
    rates = sg["rates"]
    data = {r: sg["data"][str(r)] for r in rates}
    cols = [("users", "users at once", 1), ("replies_per_s", "replies/s", 0)] + COLUMNS[2:]
    rows = []
    for r in rates:
        resp = runs_of([{"v": (x.get("reply_time_ms") or {}).get("response")} for x in data[r]], "v")
        rows.append([r] + [spread(runs_of(data[r], k), digits) for k, _, digits in cols] + [spread(resp, 1)] +
                    ["%d of %d" % (sum(x.get("sessions_completed") or 0 for x in data[r]),
                                   sum(x.get("sessions_requested") or 0 for x in data[r]))])
    note = next((x.get("note") for x in data[rates[0]] if x.get("note")), "")
    d.w("httpd on %d CPUs serving SURGE's file set (%s files: lognormal sizes with a Pareto tail, capped at "
        "1 MiB), loaded by httperf's session logs (`sim/eval/surge.py`): Zipf popularity, pages with Pareto "
        "numbers of embedded objects, Pareto think times (%s). Sessions start at a fixed rate for %d s; the "
        "users at once are measured (sessions x their lifetime / duration), as the thesis set 5-60 threads per "
        "client. %d runs per rate, monitored as section 6. Median [min-max]:\n"
        % (sg["cpus"], num(sg["files"]), note, sg["seconds"], sg["runs"]))
    d.w(table(["sessions/s"] + [label for _, label, _ in cols] + ["response ms", "sessions completed"], rows))
    spec = ("title SURGE-like sessions: replies/s and spin wait against the session rate (median, bars: min-max)\n"
            "kind lines\nxlabel sessions started per second\nylabel replies/s, spin wait %% x 100\n")
    spec += "series replies/s|%s\n" % "|".join(p for p in (point(r, runs_of(data[r], "replies_per_s")) for r in rates) if p)
    spin = {r: runs_of(data[r], "spin_wait_pct") for r in rates}
    spec += "series spin wait %% x 100|%s\n" % "|".join(point(r, scaled(spin[r], 100)) for r in rates if spin[r])
    d.w("\n![surge](%s)\n" % d.plot("surge", spec))
    d.w("Read from the medians: the replies per second %s; the spin wait %s; the threads in sleep waits %s.\n"
        % tuple(trend(rates, data, k, dg, at="rate") for k, dg in (("replies_per_s", 0), ("spin_wait_pct", 2),
                                                                   ("sleep_waiters", 2))))
