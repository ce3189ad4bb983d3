"""The report's findings: what KOV showed on httpd and jbb, and the improvement it led to, judged
by the runs' spread."""
from ksyms import kernel_symbol
from report_lib import compare, heading, num, pct_of, spread, summary, table

# A lock ranked on fewer contentions than this could swap places with its neighbours in another
# run: its row says so.
FEW_CONTENTIONS = 10


def top_rows(t, n=6, wait=False, named=None):
    """Table rows of a kovctl top answer; `named` maps kernel heap lock addresses to the kernel
    variables that point at them (read through QEMU's monitor)."""
    rows = []
    for o in t.get("objects", [])[:n]:
        name = o.get("label", o.get("class", "?"))
        if wait:
            where = o.get("coid", "-")
            if o.get("class") == "(no object)" and o.get("lock"):
                # The name it had in the build that measured it; results from before names
                # were kept are named from build/kov.elf.
                sym = (o["symbol"] if "symbol" in o else kernel_symbol(int(o["lock"], 16))) \
                    if o.get("pid") == 0 else None
                var = (named or {}).get(int(o["lock"], 16))
                where = "`%s`%s" % (o["lock"], " (%s)" % sym if sym else
                                    " (kernel heap: *%s)" % var if var else " (kernel heap)")
            few = isinstance(o.get("contentions"), int) and o["contentions"] < FEW_CONTENTIONS
            rows.append([o["rank"], name, where, o.get("process", "-"), "%.1f%%" % o["share"],
                         num(o.get("wait_us", 0) / 1000.0, 1),
                         "%s%s" % (o.get("contentions", "-"), " (too few to rank by)" if few else "")])
        else:
            rows.append([o["rank"], name, o.get("coid", "-"), o.get("process", "-"), "%.1f%%" % o["share"],
                         o.get("samples", "-")])
    return rows


def revealed_section(R, d):
    ht = R.get("httpd_top")
    d.w("## 13. What KOV revealed (one run each)\n")
    if ht:
        d.w("### httpd under ApacheBench -k -c 64\n")
        s = ht["PM_INST_CMPL"]
        d.w("By instruction samples (%d samples, %d of them in no object: kernel code outside any object's "
            "method, mostly the TCP/IP stack and the system calls):\n" % (s["samples"], s["no_object"]))
        d.w(table(["rank", "object", "COID", "process", "share", "samples"], top_rows(s)))
        named = {int(p, 16): v for v, p in R.get("httpd_kernel_locks", {}).items() if p}
        for metric, what in (("spinlock", "spin-lock wait"), ("lockwait", "sleep-lock wait")):
            t = ht[metric]
            d.w("\nBy %s (%s):\n" % (what, t.get("method", "")))
            d.w(table(["rank", "object or lock", "COID / lock", "process", "share", "wait ms", "contentions"],
                      top_rows(t, 5, wait=True, named=named)))
        ls = R.get("httpd_lockstat", {}).get("locks", [])
        if ls:
            lk = ls[0]
            kl = R.get("httpd_kernel_locks", {})
            named = [v for v, p in kl.items() if p and lk.get("lock") and int(p, 16) == int(lk["lock"], 16)]
            d.w("\n`kovctl lockstat` gives the first as the %s lock `%s` of the %s, %d contended acquisitions in "
                "4 s, %s ms waited. %s\n"
                % (lk.get("kind"), lk.get("lock"), lk.get("process"), lk.get("contentions", 0),
                   num(lk.get("wait_us", 0) / 1000.0), (
                       "Reading the kernel variable `%s` through QEMU's monitor shows that it is lwIP's %s." % (
                           named[0], "TCP/IP core lock: every socket call takes it (`LWIP_TCPIP_CORE_LOCKING`)"
                           if named[0] == "lock_tcpip_core" else "heap lock")) if named else
                   "It is neither of lwIP's two sleep locks (the core lock and the heap lock)."))
        v = R.get("httpd_viewer", {})
        if v.get("taken"):
            d.w("\n![the viewer on httpd](%s)\n\nThe viewer after 12 s on the loaded target, HttpListener "
                "selected.\n" % v["file"])
    imp = R.get("improvement")
    if imp and "before" in imp:
        c = imp["before"]
        d.w("### jbb (as found)\n")
        d.w("By spin-lock wait:\n")
        d.w(table(["rank", "object or lock", "COID / lock", "process", "share", "wait ms", "contentions"],
                  top_rows(c["spinlock"], 5, wait=True)))
        d.w("\nBy instruction samples:\n")
        d.w(table(["rank", "object", "COID", "process", "share", "samples"], top_rows(c["samples"], 6)))
        if c.get("viewer") and c["viewer"].get("taken"):
            d.w("\n![the viewer on jbb](%s)\n\nThe viewer with the hot Warehouse selected: its share of the "
                "samples over time and its code hot spots.\n" % c["viewer"]["file"])
    d.w("")


def hot_warehouse(t):
    for o in t.get("objects", []):
        if o.get("class") == "Warehouse":
            return o
    return {}


def improvement_section(R, d):
    imp = R.get("improvement")
    if not heading(d, "14. The improvement KOV led to", imp and "before" in imp):
        return
    names = [n for n in ("before", "after", "locks=fine") if n in imp]
    b = imp["before"]
    bi, bw = summary(b["icount_tps"]), summary(b["wall_tps"])
    d.w("KOV put warehouse 0 first by spin-lock wait and by samples, and the viewer put its samples in the brand "
        "check of `take_stock`: for every order line, a search of the stock entry's text for \"ORIGINAL\", under "
        "the warehouse lock. That text never changes after the stock is populated, so the answer can be computed "
        "once then (`brand=flag`). For comparison, the change one would make from the lock figures alone: the "
        "stock under 16 striped locks and the payments in a per-CPU DCounter (`locks=fine`). %d runs under "
        "`-icount` and %d in wall-clock time (the serial machine, 4 CPUs), median [min-max]:\n"
        % (bi["n"] if bi else 0, bw["n"] if bw else 0))
    hdr = ["", "as found"] + ["brand=flag" if n == "after" else n for n in names[1:]]
    rows = [["transactions per virtual second (-icount)"] +
            [spread(summary(imp[n]["icount_tps"])) for n in names],
            ["... against as found"] + ["-"] + [pct_of(summary(imp[n]["icount_tps"]), bi) for n in names[1:]],
            ["transactions per second (wall clock)"] + [spread(summary(imp[n]["wall_tps"])) for n in names],
            ["... against as found"] + ["-"] + [pct_of(summary(imp[n]["wall_tps"]), bw) for n in names[1:]],
            ["hot warehouse: spin-lock wait in 5 s"] +
            [("%s ms, %s contentions" % (num(hot_warehouse(imp[n]["spinlock"])["wait_us"] / 1000.0, 1),
                                         hot_warehouse(imp[n]["spinlock"]).get("contentions", "-")))
             if hot_warehouse(imp[n]["spinlock"]) else "not among the locks ranked" for n in names],
            ["hot warehouse: share of the instruction samples"] +
            [("%.1f%%" % hot_warehouse(imp[n]["samples"])["share"]) if hot_warehouse(imp[n]["samples"]) else
             "not among the objects ranked" for n in names]]
    d.w(table(hdr, rows))
    said = []
    for n in names[1:]:
        label = "brand=flag" if n == "after" else n
        ji = compare(summary(imp[n]["icount_tps"]), bi, "more transactions per instruction",
                     "fewer transactions per instruction")
        jw = compare(summary(imp[n]["wall_tps"]), bw, "faster", "slower")
        said.append("%s: under `-icount` %s (%s of as found); in wall-clock time %s (%s)" % (
            label, ji, pct_of(summary(imp[n]["icount_tps"]), bi), jw, pct_of(summary(imp[n]["wall_tps"]), bw)))
    d.w("\nJudged by the runs' ranges: %s.\n" % "; ".join(said))
    fine = imp.get("locks=fine")
    if fine:
        before_wait = hot_warehouse(b["spinlock"]).get("wait_us", 0)
        after_wait = hot_warehouse(fine["spinlock"]).get("wait_us", 0)
        same_work = compare(summary(fine["icount_tps"]), bi) == "within noise"
        if before_wait and after_wait < before_wait / 2 and same_work:
            d.w("The finer locks cut the hot warehouse's wait from %s ms to %s ms, yet the transactions per "
                "instruction stayed within noise: on this serial machine a waiting CPU spends few instructions "
                "(the spin loop's priority hint ends its turn), so a lock's wait costs time, not instructions. "
                "docs/case-study.md measures such changes on the parallel machine.\n"
                % (num(before_wait / 1000.0, 1), num(after_wait / 1000.0, 1)))
