#!/usr/bin/env python3
"""Writes docs/evaluation.md and its charts (docs/eval/*.png, drawn by build/host/kov-plot) from the
results sim/eval/run measured and keeps (docs/eval/results.json). Every number in the document comes
from that file, and every judgement in its text ("within noise", "faster", which object led) is
computed from it: the prose changes when the data does (tests/py/test_report.py checks that).
    report.py RESULTS.json [--text-only]   (--text-only: print the text, draw and write nothing)"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_found import improvement_section, revealed_section  # noqa: E402
from report_lib import DOCS, Doc  # noqa: E402
from report_overhead import (STATES, costs_section, metrics_section, noinstr_section,  # noqa: E402
                             overhead_section, traffic_section)
from report_truth import (correctness_section, peer_section, pmc5_section, sampling_section,  # noqa: E402
                          validation_section)
from report_web import concurrency_section, surge_section, timeline_section  # noqa: E402

STATES_FOR_TEST = STATES   # the monitoring states, for tests/py/test_report.py
SECTIONS = [overhead_section, metrics_section, noinstr_section, costs_section, traffic_section,
            concurrency_section, timeline_section, surge_section, validation_section, correctness_section,
            sampling_section, pmc5_section, revealed_section, improvement_section, peer_section]


def header(R, d):
    d.w("# KOV on real workloads: the evaluation of the thesis's chapter 4, redone\n")
    d.w("This document is written by `make eval` (`sim/eval/run`, then `sim/eval/report.py`) from the raw "
        "results kept beside it, `docs/eval/results.json`; `make eval-report` writes it again from that file "
        "alone. The stages and what they ran on:\n")
    rows = []
    for name, s in sorted(R.get("stages", {}).items(), key=lambda x: x[1].get("started", "")):
        rows.append("| %s | %s | `%s` | %.1f | %.1f |" % (name, s.get("started", "-"), s.get("build", "-"),
                                                        s.get("host", {}).get("load", 0), s.get("minutes", 0)))
    if rows:
        d.w("| stage | started | build | host load average | minutes |\n|---|---|---|---|---|\n" + "\n".join(rows))
        d.w(build_differences(R))
    host = R.get("host", {})
    d.w("\nThe host: %s cores, %s. **Statistics:** every figure is the median of its runs (5 unless a table "
        "says otherwise), written `median [min-max]`; a figure with one value had all its runs alike. Two "
        "figures are called different only when their ranges do not overlap, otherwise the difference is "
        "**within noise**: with 5 runs a side, two samples of one distribution give disjoint ranges with "
        "probability 1/126. Charts show the median with the range as error bars.\n"
        % (host.get("cpus", "-"), host.get("qemu", "QEMU")))
    d.w("""## What the machine is, and what it cannot tell

* The target is QEMU's pseries machine with PowerPC 970 CPUs. Unless a section says otherwise it is the
  **serial machine**: one TCG thread for all CPUs, which take turns, so lock waits come in slices of QEMU's
  round-robin period (milliseconds). Section 9 (and `docs/case-study.md`) also uses the
  **parallel machine**, a host thread per CPU, where contention is real.
* httpd is measured by ApacheBench on the host in wall-clock time and carries the shared host's noise. jbb
  runs under `-icount`, where the machine's clock advances one nanosecond per instruction: its transactions
  per virtual second are transactions per instruction, free of the host's load.
* Under QEMU only instructions (PM_INST_CMPL, in PMC5, which undercounts: section 12) and cycles (virtual
  time) count. Instruction samples and KOV's lock statistics stand for the 970's larx/stcx events, the
  software MMU-miss events (SW_HPT_MISS, SW_SLB_MISS) for its TLB events; branch mispredictions cannot be
  measured.
* The thesis's thresholds: 100,000 for lock contention and TLB misses, 10,000,000 instructions and
  100,000,000 cycles for IPC; 10x and 100x divide them by 10 and 100.
""")


def build_differences(R):
    """What differs between the builds the stages ran on (git, where it knows them); "-dirty" marks
    uncommitted changes when a stage started."""
    import subprocess
    builds = []
    for s in sorted(R.get("stages", {}).values(), key=lambda x: x.get("started", "")):
        b = s.get("build", "").replace("-dirty", "")
        if b and b not in builds:
            builds.append(b)
    said = []
    for a, b in zip(builds, builds[1:]):
        p = subprocess.run(["git", "diff", "--name-only", a, b], cwd=os.path.dirname(os.path.abspath(__file__)),
                           capture_output=True, text=True)
        if p.returncode == 0:
            files = [f for f in p.stdout.split() if f]
            code = [f for f in files if not f.startswith("docs/")]
            said.append("`%s` to `%s`: %s" % (a, b, ("%d files, %s" % (len(files), ", ".join(code[:8]) + (
                " ..." if len(code) > 8 else ""))) if code else "only documents (%s)" % ", ".join(files[:6])))
    dirty = any("-dirty" in s.get("build", "") for s in R.get("stages", {}).values())
    out = ""
    if said:
        out += "\nBetween the builds: %s.\n" % "; ".join(said)
    if dirty:
        out += ("\nA build marked `-dirty` had uncommitted changes when its stage started (runs from before "
                "2026-11-29 14:00 counted the evaluation's own charts and screenshots among them).\n")
    return out


def limits(R, d):
    missing = [name for name, key in (("Table 4.3 (instrumentation compiled out)", "noinstr"),
                                      ("the SURGE-like sessions", "surge"),
                                      ("the correctness micro-benchmarks", "correctness"),
                                      ("PMC5's share", "pmc5"), ("the concurrency sweep", "concurrency"),
                                      ("the timeline", "timeline"), ("the comparison with Linux perf", "peer"))
               if not R.get(key)]
    d.w("## 17. What is not measured\n")
    items = ["* Branch mispredictions (QEMU has neither a predictor nor the event).",
             "* The thesis's Apache created its child processes as the first requests arrived, and its Figure "
             "4.2 found the contention of that phase; httpd's threads and connection slots exist from the start, "
             "so its runs have no such phase to show."]
    if missing:
        items.append("* Not in these results: %s." % ", ".join(missing))
    d.w("\n".join(items) + "\n")


def build(R, draw=True):
    """The document's text from results R; charts are drawn when `draw`."""
    d = Doc(draw)
    header(R, d)
    for section in SECTIONS:
        section(R, d)
    limits(R, d)
    return d.text()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: report.py RESULTS.json [--text-only]")
    R = json.load(open(sys.argv[1]))
    if "--text-only" in sys.argv[2:]:
        print(build(R, draw=False))
        return
    os.makedirs(os.path.join(DOCS, "eval"), exist_ok=True)
    text = build(R)
    with open(os.path.join(DOCS, "evaluation.md"), "w") as out:
        out.write(text)
    print("report: docs/evaluation.md written")


if __name__ == "__main__":
    main()
