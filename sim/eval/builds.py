"""The evaluation's stages that need more than one build or program: jbb on builds with KOV's
software instrumentation compiled out (the thesis's Table 4.3; `make instr-variants`), the
thesis's correctness micro-benchmarks and PMC5's share (sim/eval/correctness.py), and the
SURGE-like sessions (sim/eval/surge.py)."""
import os
import re
import subprocess

from machine import QUICK, ROUNDS, TOP, log

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
    R["noinstr"] = {"workload": "jbb transactions=%d, 4 CPUs" % JBB_TRANSACTIONS,
                    "normal": runs["build"], "no-call-instr": runs["build/no-call-instr"],
                    "no-lock-instr": runs["build/no-lock-instr"], "no-instr": runs["build/no-instr"],
                    "same-code": runs["build/same-code"]}


def correctness_stage(R):
    import correctness
    R["correctness"] = correctness.run(runs=1 if QUICK else 5, log=log)
    R["pmc5"] = correctness.pmc5(runs=1 if QUICK else 3)
