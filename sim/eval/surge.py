#!/usr/bin/env python3
"""sim/eval/surge.py: a SURGE-like session workload for httpd, driven by httperf --wsesslog.

SURGE (Barford and Crovella, SIGMETRICS 1998) models web users. httpd makes SURGE's file set
itself (`--workload httpd:surge=N`, sim/workloads/httpd/surge.c: lognormal body, Pareto tail,
fixed seed) and lists it in /surge/index ("K SIZE" a line), which this module reads instead of
generating the sizes a second time. From SURGE's other distributions, with a fixed seed, it
writes an httperf session log:

  popularity      Zipf, alpha 1, over the N files; which file has which rank is a random
                  permutation (SURGE assumes no tie between a file's size and its popularity)
  requests/page   1 base file + embedded objects, floor of a Pareto (alpha 2.43, k 1) variate
                  (so at least one; at most EMBED_MAX); the embedded objects go out as one
                  httperf burst once the base file has come, as a browser fetches them
  pages/session   SURGE's users never stop, so a session is our slice of one: geometric, mean
                  PAGES_MEAN pages (the user leaves after each page with probability 1/mean)
  think time      between pages: Pareto (alpha 1.5, k 1 s), capped at THINK_MAX_S, then
                  multiplied by THINK_SCALE (0.05): the emulated machine serves about 50 times
                  slower than the hardware SURGE's numbers come from, so its users think 50
                  times faster to offer the same load per user. The output says so.

Left out of SURGE: temporal locality (its stack-distance model; here each reference is an
independent Zipf draw) and the Weibull "active OFF" gaps between embedded objects.

One user. httperf starts sessions open-loop, `rate` per second, each session one user's visit:
its pages one after the other, each page's embedded objects as a burst, a think time after each
page but the last, on keep-alive connections of its own. SURGE's user equivalents (the thesis's
5..60 threads per client) are closed loops instead: a fixed number of users, each always in a
page or a think. The two meet through Little's law: users active at once = session rate x mean
session lifetime, which run() reports as "users". A thesis point of T threads is thus a rate of
about T / lifetime; the lifetime is the session's think time ("think_s_per_session", known from
the log) plus the time its pages take to arrive, which grows with the load.

As a module: run(host, port, sessions, rate, seconds, seed=1, ...) -> dict (see run()).
As a command: python3 sim/eval/surge.py HOST PORT [--sessions N] [--rate R] [--seconds S]
[--seed K] [--timeout T] [--think-scale F] [--pages P] [--exact] prints run()'s dict as JSON.
Needs Debian's python3 and httperf (scripts/setup installs both). Boot httpd with keepalive=10
or more (`--workload httpd:surge=2000:keepalive=10`): a scaled think time reaches 5 s, and a
connection httpd closes while its user thinks costs a connreset error and a new connection.
"""
import argparse
import bisect
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile

ZIPF_ALPHA = 1.0
EMBED_ALPHA, EMBED_K, EMBED_MAX = 2.43, 1.0, 50
THINK_ALPHA, THINK_K, THINK_MAX_S = 1.5, 1.0, 100.0
THINK_SCALE = 0.05
PAGES_MEAN, PAGES_MAX = 5, 50
SCALE_NOTE = ("think times are SURGE's Pareto(1.5, 1 s) multiplied by %g: the emulated machine "
              "is about 50 times slower than hardware")


def fetch_sizes(host, port, timeout=30.0):
    """The file set's sizes, sizes[K] for /surge/K, from httpd's /surge/index."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", "/surge/index")
        resp = conn.getresponse()
        body = resp.read()
    finally:
        conn.close()
    if resp.status != 200:
        raise RuntimeError("GET /surge/index: %d (was httpd started with surge=N?)" % resp.status)
    sizes = []
    for line in body.decode("ascii").splitlines():
        k, size = (int(f) for f in line.split())
        if k != len(sizes) or size < 0:
            raise RuntimeError("/surge/index: line %r out of order" % line)
        sizes.append(size)
    if not sizes:
        raise RuntimeError("/surge/index lists no file")
    return sizes


def pareto(rng, alpha, k):
    """A Pareto variate by inverse CDF: k U^(-1/alpha), U uniform in (0, 1]."""
    return k * (1.0 - rng.random()) ** (-1.0 / alpha)


def make_sessions(nfiles, sessions, seed=1, pages_mean=PAGES_MEAN, think_scale=THINK_SCALE):
    """`sessions` sessions over files 0..nfiles-1: each a list of pages (base, [embedded], think),
    think in seconds after the page (None after the last)."""
    rng = random.Random(seed)
    by_rank = list(range(nfiles))
    rng.shuffle(by_rank)
    cum, total = [], 0.0
    for r in range(1, nfiles + 1):
        total += r ** -ZIPF_ALPHA
        cum.append(total)

    def pick():
        return by_rank[min(bisect.bisect_left(cum, rng.random() * total), nfiles - 1)]

    out = []
    for _ in range(sessions):
        npages = 1
        while npages < PAGES_MAX and rng.random() >= 1.0 / pages_mean:
            npages += 1
        pages = []
        for p in range(npages):
            embedded = min(int(pareto(rng, EMBED_ALPHA, EMBED_K)), EMBED_MAX)
            think = None
            if p < npages - 1:
                think = round(min(pareto(rng, THINK_ALPHA, THINK_K), THINK_MAX_S) * think_scale, 3)
            pages.append((pick(), [pick() for _ in range(embedded)], think))
        out.append(pages)
    return out


def session_log(sessions):
    """The sessions in httperf's --wsesslog format."""
    lines = ["# SURGE-like sessions (sim/eval/surge.py)"]
    for pages in sessions:
        for base, embedded, think in pages:
            lines.append("/surge/%d" % base + ("" if think is None else " think=%.3f" % think))
            lines.extend("\t/surge/%d" % e for e in embedded)
        lines.append("")
    return "\n".join(lines) + "\n"


def requested(sessions):
    """Every file the sessions ask for, in order, once per request."""
    return [f for pages in sessions for base, emb, _ in pages for f in [base] + emb]


def _floats(pattern, text):
    m = re.search(pattern, text, re.M)
    return [float(g) for g in m.groups()] if m else None


def parse_httperf(text):
    """httperf's closing statistics (and its RS lines, with --print-reply) as a dict."""
    d = {}
    v = _floats(r"^Total: connections (\d+) requests (\d+) replies (\d+) test-duration ([\d.]+) s", text)
    if v is None:
        raise RuntimeError("no statistics in httperf's output:\n" + text[-2000:])
    d["connections"], d["requests"], d["replies"] = (int(x) for x in v[:3])
    d["duration_s"] = v[3]
    v = _floats(r"^Connection rate: [\d.]+ conn/s \([\d.]+ ms/conn, <=(\d+) concurrent", text)
    d["concurrent_connections_max"] = int(v[0]) if v else None
    v = _floats(r"^Connection time \[ms\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+) "
                r"median ([\d.]+) stddev ([\d.]+)", text) or [0.0] * 5
    ct = dict(zip(("min", "avg", "max", "median", "stddev"), v))
    ct["connect"] = (_floats(r"^Connection time \[ms\]: connect ([\d.]+)", text) or [0.0])[0]
    d["connection_time_ms"] = ct
    d["requests_per_s"] = (_floats(r"^Request rate: ([\d.]+) req/s", text) or [0.0])[0]
    d["replies_per_s"] = round(d["replies"] / d["duration_s"], 3) if d["duration_s"] else 0.0
    v = _floats(r"^Reply rate \[replies/s\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+) "
                r"stddev ([\d.]+) \((\d+) samples\)", text)
    d["reply_rate_samples"] = None
    if v:
        d["reply_rate_samples"] = dict(zip(("min", "avg", "max", "stddev"), v[:4]), samples=int(v[4]))
    v = _floats(r"^Reply time \[ms\]: response ([\d.]+) transfer ([\d.]+)", text) or [0.0, 0.0]
    d["reply_time_ms"] = {"response": v[0], "transfer": v[1]}
    d["reply_status"] = {k: int(n) for k, n in re.findall(r"(\dxx)=(\d+)", text)}
    errors = {}
    for line in re.findall(r"^Errors: (.*)$", text, re.M):
        errors.update({k: int(n) for k, n in re.findall(r"([a-z-]+) (\d+)", line)})
    d["errors"] = errors
    d["net_io_kb_s"] = (_floats(r"^Net I/O: ([\d.]+) KB/s", text) or [0.0])[0]
    rs = re.findall(r"^RS\d+: header (\d+) content (\d+) footer (\d+)", text, re.M)
    if rs:
        d["header_bytes"] = sum(int(h) for h, _, _ in rs)
        d["content_bytes"] = sum(int(c) for _, c, _ in rs)
        d["bytes_received"] = sum(int(h) + int(c) + int(f) for h, c, f in rs)
        d["bytes_exact"] = True
    else:   # averages to 0.1 byte: exact to within 0.05 bytes a reply
        v = _floats(r"^Reply size \[B\]: header ([\d.]+) content ([\d.]+) footer ([\d.]+) "
                    r"\(total ([\d.]+)\)", text) or [0.0] * 4
        d["header_bytes"] = round(v[0] * d["replies"])
        d["content_bytes"] = round(v[1] * d["replies"])
        d["bytes_received"] = round(v[3] * d["replies"])
        d["bytes_exact"] = False
    v = _floats(r"^Session rate \[sess/s\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+) "
                r"stddev ([\d.]+) \((\d+)/(\d+)\)", text)
    if v:
        d["session_rate"] = dict(zip(("min", "avg", "max", "stddev"), v[:4]))
        d["sessions_completed"], d["sessions_started"] = int(v[4]), int(v[5])
    else:
        d["session_rate"], d["sessions_completed"], d["sessions_started"] = None, 0, 0
    d["sessions_failed"] = d["sessions_started"] - d["sessions_completed"]
    d["session_lifetime_s"] = (_floats(r"^Session lifetime \[s\]: ([\d.]+)", text) or [0.0])[0]
    d["session_failtime_s"] = (_floats(r"^Session failtime \[s\]: ([\d.]+)", text) or [0.0])[0]
    d["connections_per_session"] = (_floats(r"^Session: avg ([\d.]+) connections", text) or [0.0])[0]
    return d


def run(host, port, sessions, rate, seconds, seed=1, timeout=5.0, think_scale=THINK_SCALE,
        pages_mean=PAGES_MEAN, exact=False, sizes=None):
    """Runs `sessions` SURGE-like sessions (distinct ones, from `seed`) against httpd at
    host:port, started `rate` per second by httperf --wsesslog=sessions,0,LOG --rate rate
    --timeout timeout (seconds httperf waits for each reply before the session fails). After
    `seconds` httperf is interrupted (SIGINT: it still prints what it measured) and the dict says
    "interrupted": True. exact: httperf prints every reply's size (--print-reply=header) and the
    byte counts are exact, not averages times replies. sizes: the file set's sizes if known
    (else read from /surge/index).

    Returns a dict: sessions_requested, sessions_started (fewer if interrupted),
    sessions_completed, sessions_failed, session_rate (min avg max stddev), session_lifetime_s,
    session_failtime_s, connections_per_session, users (Little's law: sessions at once),
    connections, requests, replies, duration_s, requests_per_s, replies_per_s,
    reply_rate_samples (httperf's 5-second samples, or None), reply_time_ms (response
    transfer), connection_time_ms (min avg max median stddev connect),
    concurrent_connections_max, reply_status, errors (by httperf's kind, and total),
    bytes_received, header_bytes, content_bytes, bytes_exact, net_io_kb_s, planned_requests,
    planned_content_bytes, think_s_per_session, files, rate, seed, think_scale, note,
    interrupted, command."""
    if sizes is None:
        sizes = fetch_sizes(host, port)
    sess = make_sessions(len(sizes), sessions, seed, pages_mean, think_scale)
    wanted = requested(sess)
    fd, log = tempfile.mkstemp(prefix="surge-", suffix=".wsesslog")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(session_log(sess))
        cmd = ["httperf", "--hog", "--server", host, "--port", str(port),
               "--wsesslog=%d,0,%s" % (sessions, log), "--rate", str(rate),
               "--timeout", str(timeout)] + (["--print-reply=header"] if exact else [])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace")
        interrupted = False
        try:
            out, _ = proc.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            interrupted = True
            proc.send_signal(signal.SIGINT)
            try:
                out, _ = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
    finally:
        os.unlink(log)
    d = parse_httperf(out)
    d["users"] = (round(d["sessions_completed"] * d["session_lifetime_s"] / d["duration_s"], 2)
                  if d["duration_s"] else 0.0)
    d["planned_requests"] = len(wanted)
    d["planned_content_bytes"] = sum(sizes[f] for f in wanted)
    d["think_s_per_session"] = round(sum(t or 0 for p in sess for _, _, t in p) / len(sess), 3)
    d["files"] = len(sizes)
    d["sessions_requested"] = sessions
    d.update(rate=rate, seed=seed, think_scale=think_scale, note=SCALE_NOTE % think_scale,
             interrupted=interrupted, command=" ".join(cmd))
    return d


def main(argv):
    ap = argparse.ArgumentParser(description="SURGE-like sessions against httpd (surge=N) "
                                 "through httperf; prints the results as JSON")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("--sessions", type=int, default=20, help="sessions to run (default 20)")
    ap.add_argument("--rate", type=float, default=2.0, help="sessions started a second (2)")
    ap.add_argument("--seconds", type=float, default=60.0, help="stop httperf after that (60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for a reply (5)")
    ap.add_argument("--think-scale", type=float, default=THINK_SCALE)
    ap.add_argument("--pages", type=float, default=PAGES_MEAN, help="mean pages a session (5)")
    ap.add_argument("--exact", action="store_true", help="exact byte counts (--print-reply)")
    a = ap.parse_args(argv)
    d = run(a.host, a.port, a.sessions, a.rate, a.seconds, a.seed, a.timeout, a.think_scale,
            a.pages, a.exact)
    print(json.dumps(d, indent=1, sort_keys=True))
    return 0 if d["sessions_failed"] == 0 and not d["interrupted"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
