"""The evaluation's web stages (sim/eval/run): ApacheBench at rising concurrency against the
thesis's five metrics (its Figure 4.1), and the timeline of one run at concurrency 70 with each
object's share of the lock wait per second (its Figures 4.2 and 4.3)."""
import json
import os
import subprocess
import threading
import time

from machine import KOVCTL, QUICK, TOKEN, Httpd, ab, kernel_pointer, kovctl, log, metrics_conf, rotated

LEVELS = [10, 30, 50, 70, 90, 110, 130, 150]
CPUS = 4


def json_of(p):
    try:
        return json.loads(p.communicate(timeout=90)[0])
    except (ValueError, subprocess.TimeoutExpired):
        return None


def collect(port, seconds):
    """kovctl counts and lockstat over the next `seconds`, in the background."""
    base = [KOVCTL, "--target", "127.0.0.1:%d" % port, "--token", TOKEN, "--timeout", "20", "--json"]
    return [subprocess.Popen(base + what + ["--seconds", str(seconds)], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
            for what in (["counts"], ["lockstat"])]


def figures(counts, locks, seconds, requests):
    """One run's metrics from kovctl's counts and lockstat and the requests answered."""
    ev = {}
    for c in (counts or {}).get("counts", []):
        if c.get("counted"):
            ev[c["event"]] = ev.get(c["event"], 0) + c["scaled"]
    ls = (locks or {}).get("locks", [])
    spin = [l for l in ls if l["kind"] == "spin"]
    sleep = [l for l in ls if l["kind"] == "sleep"]
    own = [l for l in ls if l.get("acquisitions_counted") == "all"]
    cpu_us = seconds * CPUS * 1e6
    out = {"requests": requests,
           "inst_per_req": ev["PM_INST_CMPL"] / requests if requests and "PM_INST_CMPL" in ev else None,
           "ipc": ev["PM_INST_CMPL"] / ev["PM_CYC"] if ev.get("PM_CYC") and "PM_INST_CMPL" in ev else None,
           "mmu_per_kinst": 1000.0 * (ev.get("SW_HPT_MISS", 0) + ev.get("SW_SLB_MISS", 0)) / ev["PM_INST_CMPL"]
           if ev.get("PM_INST_CMPL") else None,
           "spin_wait_pct": 100.0 * sum(l["wait_us"] for l in spin) / cpu_us if locks else None,
           # Sleeping waiters take no CPU, and many can wait at once: their wait is counted in
           # threads waiting on average, not as a share of the CPUs' time.
           "sleep_waiters": sum(l["wait_us"] for l in sleep) / (seconds * 1e6) if locks else None,
           "contentions_per_s": sum(l["contentions"] for l in ls) / seconds if locks else None,
           "acquisitions_per_s": sum(l["acquisitions"] for l in own) / seconds if locks and own else None}
    return out


def sweep(h, levels, reps, secs, load):
    """Runs load(level, rep) at each level, `reps` times in rotating order, on httpd monitored as
    the thesis's GUI watched it (Monitor state "metrics": the five metrics counted, lock statistics
    streamed to a recording client, httpd's locks fully counted), with kovctl's counts and lockstat
    over the same `secs`. load returns (figures to keep, requests answered, a line for the log).
    Returns {level: [figures of each run]}."""
    h.mon.set("metrics")
    runs = {x: [] for x in levels}
    for rep in range(reps):
        for x in rotated(levels, rep):
            pc, pl = collect(h.dci, secs)
            kept, requests, said = load(x, rep)
            f = figures(json_of(pc), json_of(pl), secs, requests)
            f.update(kept)
            runs[x].append(f)
            log("%s (run %d), spin %s%%, sleep waiters %s" % (said, rep + 1, f["spin_wait_pct"], f["sleep_waiters"]))
    h.mon.off()
    return runs


def concurrency_stage(R):
    """ApacheBench -k at concurrency 10 to 150 (the thesis's Figure 4.1), EVAL_SWEEP_RUNS runs
    per level in rotating order, monitored as the thesis did (counts and lock statistics streamed
    to a client, httpd's locks fully counted): requests/s, latency and the five metrics."""
    reps = 1 if QUICK else int(os.environ.get("EVAL_SWEEP_RUNS", "5"))
    secs = 2 if QUICK else 4
    h = Httpd(100)

    def load(c, rep):
        res = ab(h.url, 0, c, True, secs)
        return ({k: res.get(k) for k in ("rps", "p50", "p90", "p99", "failed", "complete")}, res.get("complete"),
                "concurrency %d: %s req/s" % (c, res.get("rps")))
    try:
        runs = sweep(h, LEVELS, reps, secs, load)
        R["concurrency"] = {"levels": LEVELS, "seconds": secs, "runs": reps, "cpus": CPUS,
                            "data": {str(c): runs[c] for c in LEVELS}}
    finally:
        h.mon.drop()
        h.t.stop()


def per_second(port, seconds, into, stop):
    """kovctl lockstat over consecutive 1-second windows until `stop` is set or `seconds` pass;
    each window with its start and end (host clock)."""
    t0 = time.time()
    while not stop.is_set() and time.time() - t0 < seconds:
        start = time.time()
        p = subprocess.run([KOVCTL, "--target", "127.0.0.1:%d" % port, "--timeout", "10", "--json",
                            "lockstat", "--seconds", "1"], capture_output=True, text=True, timeout=60)
        try:
            ls = json.loads(p.stdout)["locks"]
        except (ValueError, KeyError):
            ls = None
        into.append({"start": start, "end": time.time(), "answered": ls is not None, "locks": [
            {k: l.get(k) for k in ("lock", "kind", "class", "coid", "process", "name", "wait_us", "contentions",
                                   "acquisitions")} for l in (ls or []) if l.get("wait_us") or l.get("contentions")]})


def timeline_stage(R):
    """One run at concurrency 70 on a fresh machine, as the thesis's Figure 4.2 (its first run of
    ApacheBench, 5,000 requests at -c 70, whose start showed the process creation): the lock wait
    per second, by object, EVAL_TIMELINE_RUNS times on fresh machines."""
    reps = 1 if QUICK else int(os.environ.get("EVAL_TIMELINE_RUNS", "3"))
    out = []
    for rep in range(reps):
        h = Httpd(200 + rep, warm=False)
        try:
            kovctl(h.dci, "configure", metrics_conf())
            kovctl(h.dci, "start", "--streams", "counts,locks")
            seconds = 10 if QUICK else 25
            windows, stop = [], threading.Event()
            th = threading.Thread(target=per_second, args=(h.dci, seconds + 4, windows, stop), daemon=True)
            th.start()
            time.sleep(2)   # quiet seconds before the load, as before the thesis's time index 10 s
            started = time.time()
            res = ab(h.url, 0, 70, False, seconds)
            ended = time.time()
            time.sleep(2)
            stop.set()
            th.join(30)
            t0 = windows[0]["start"] if windows else started
            for w in windows:
                w["start"], w["end"] = w["start"] - t0, w["end"] - t0
            locks = {v: kernel_pointer(h.mon_path, v) for v in ("lock_tcpip_core", "mem_mutex")}
            out.append({"run": rep + 1, "load_start": started - t0, "load_end": ended - t0, "kernel_locks": locks,
                        "ab": {k: res.get(k) for k in ("rps", "complete", "failed", "p50", "p99")},
                        "windows": windows})
            log("timeline run %d: %s requests, %d windows" % (rep + 1, res.get("complete"), len(windows)))
        finally:
            h.mon.drop()
            h.t.stop()
    R["timeline"] = out


SURGE_RATES = [2, 5, 10, 20, 40, 80]   # sessions started per second


def surge_stage(R):
    """SURGE-like sessions through httperf (sim/eval/surge.py) at rising session rates, EVAL_SWEEP_RUNS
    runs per rate in rotating order, monitored as the concurrency stage is; the users active at once
    are measured (rate x session lifetime), as the thesis's threads per client were set."""
    import surge
    reps = 1 if QUICK else int(os.environ.get("EVAL_SWEEP_RUNS", "5"))
    secs = 4 if QUICK else 8
    keep = ("users", "sessions_requested", "sessions_completed", "sessions_failed", "replies_per_s",
            "reply_time_ms", "connection_time_ms", "errors", "content_bytes", "session_lifetime_s", "note",
            "interrupted")
    h = Httpd(300, warm=False, options="surge=20000:keepalive=30")
    try:
        sizes = surge.fetch_sizes("127.0.0.1", h.http)

        def load(rate, rep):
            res = surge.run("127.0.0.1", h.http, sessions=rate * secs, rate=rate, seconds=secs + 20, seed=rep + 1,
                            sizes=sizes)
            return ({k: res.get(k) for k in keep}, res.get("replies"),
                    "surge rate %d: %s users, %s replies/s, %s failed sessions" % (
                        rate, res.get("users"), res.get("replies_per_s"), res.get("sessions_failed")))
        runs = sweep(h, SURGE_RATES, reps, secs, load)
        R["surge"] = {"rates": SURGE_RATES, "seconds": secs, "runs": reps, "files": len(sizes), "cpus": CPUS,
                      "data": {str(r): runs[r] for r in SURGE_RATES}}
    finally:
        h.mon.drop()
        h.t.stop()
