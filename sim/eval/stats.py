"""The evaluation's statistics, in one place so that the harness (sim/eval/run) and the report
(sim/eval/report.py) agree on them.

Every figure is the median of its runs, and its spread is the range of those runs (min-max).
Two figures differ only when their ranges do not overlap; otherwise the difference is "within
noise". With 5 runs a side, the chance that two samples of the same distribution give disjoint
ranges is 2 * 5! * 5! / 10! = 1/126, so a difference called real is rarely noise."""
import statistics


def values(xs):
    """The numbers among xs (runs that gave no figure are left out)."""
    return [x for x in xs if x is not None]


def summary(xs):
    """{"median", "min", "max", "n"} of the runs' figures, or None when no run gave one."""
    xs = values(xs)
    if not xs:
        return None
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def median(xs):
    s = summary(xs)
    return s["median"] if s else None


def differs(a, b):
    """Whether two summaries' ranges are disjoint: a difference beyond the runs' noise. None
    when either has no runs or only one (one run has no spread to judge by)."""
    if not a or not b or a["n"] < 2 or b["n"] < 2:
        return None
    return a["max"] < b["min"] or b["max"] < a["min"]


def ratio(a, b):
    """a / b as a summary: the median's ratio and the range's extremes (a's min over b's max
    to a's max over b's min), so that the ratio carries both runs' spread."""
    if not a or not b or not b["median"] or not b["min"] or not b["max"]:
        return None
    return {"median": a["median"] / b["median"], "min": a["min"] / b["max"],
            "max": a["max"] / b["min"], "n": min(a["n"], b["n"])}


def scaled(s, k):
    """The summary with every figure multiplied by k."""
    if not s:
        return None
    return {"median": s["median"] * k, "min": s["min"] * k, "max": s["max"] * k, "n": s["n"]}
