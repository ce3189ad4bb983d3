"""The evaluation's stages that need more than one build or program: jbb on builds with KOV's
software instrumentation compiled out (the thesis's Table 4.3; `make instr-variants`), the
thesis's correctness micro-benchmarks and PMC5's share (sim/eval/correctness.py), and KOV's
cost per sample beside Linux perf's on the same machine (`make peer-bench`)."""
import os
import re
import subprocess

from machine import QUICK, ROUNDS, TOP, log, operation_costs

VARIANTS = ["build", "build/no-call-instr", "build/no-lock-instr", "build/no-instr", "build/same-code"]
JBB_TRANSACTIONS = 50000 if QUICK else 200000


def jbb_tps(build):
    """jbb's transactions per virtual second under -icount on the kernel image in `build`."""
    p = subprocess.run([os.path.join(TOP, "sim", "run"), "--build", os.path.join(TOP, build), "--icount",
                        "--cpus", "4", "--timeout", "280", "--append", "dci=off", "--run", "jbb",
                        "transactions=%d" % JBB_TRANSACTIONS], cwd=TOP, capture_output=True, text=True, timeout=300)
    m = re.search(r"^jbb: (\d+) transactions in (\d+) ms: (\d+) tps", p.stdout.replace("\r", ""), re.M)
    return int(m.group(3)) if m else None


def noinstr_stage(R):
    """jbb under -icount on the normal build and on each build with instrumentation compiled out,
    EVAL_ROUNDS runs each in rotating order."""
    missing = [v for v in VARIANTS if not os.path.exists(os.path.join(TOP, v, "kov.bin"))]
    if missing:
        raise RuntimeError("no kernel image in %s: make instr-variants" % ", ".join(missing))
    runs = {v: [] for v in VARIANTS}
    for r in range(ROUNDS):
        for v in VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]:
            runs[v].append(jbb_tps(v))
            log("noinstr round %d %-22s %s tps" % (r + 1, v, runs[v][-1]))
    # What each operation costs without the hooks, beside section 4's figures with them.
    R["noinstr_ops"] = operation_costs("build/no-instr")
    R["noinstr"] = {"workload": "jbb transactions=%d, 4 CPUs" % JBB_TRANSACTIONS,
                    "normal": runs["build"], "no-call-instr": runs["build/no-call-instr"],
                    "no-lock-instr": runs["build/no-lock-instr"], "no-instr": runs["build/no-instr"],
                    "same-code": runs["build/same-code"]}


def correctness_stage(R):
    import correctness
    R["correctness"] = correctness.run(runs=1 if QUICK else 5, log=log)
    R["pmc5"] = correctness.pmc5(runs=1 if QUICK else 3)


def peer_rows(text):
    """The rows of tools/peer-bench/run's table: {row: {"kov", "linux", "kov_n", "linux_n"}}."""
    rows = {}
    for m in re.finditer(r"^(\S.*?)\s{2,}([0-9.]+)\s+([0-9.]+)\s+[0-9.]+\s+(\d+)\s+(\d+)\s*$", text, re.M):
        rows[re.sub(r"\s*\(.*$", "", m.group(1)).strip()] = {
            "kov": float(m.group(2)), "linux": float(m.group(3)), "kov_n": int(m.group(4)),
            "linux_n": int(m.group(5))}
    m = re.search(r"^\s+bytes per sample sent\s+([0-9.]+)\s+([0-9.]+)", text, re.M)
    if m:
        rows["bytes per sample sent"] = {"kov": float(m.group(1)), "linux": float(m.group(2))}
    return rows


def peer_stage(R):
    """make peer-bench EVAL_ROUNDS times: KOV's and Linux perf's instructions per sample on the same
    emulated POWER8 under -icount, the interrupt path and end to end."""
    runs, text = [], ""
    for r in range(ROUNDS):
        p = subprocess.run(["make", "--no-print-directory", "peer-bench"], cwd=TOP, capture_output=True, text=True,
                           timeout=900)
        path = os.path.join(TOP, "build", "peer", "peer-bench.txt")
        if p.returncode != 0 or not os.path.exists(path):
            raise RuntimeError("make peer-bench failed: %s" % (p.stdout + p.stderr)[-1500:])
        text = open(path).read()
        runs.append(peer_rows(text))
        log("peer run %d: %s" % (r + 1, runs[-1]))
    R["peer"] = {"runs": runs, "table": text}
