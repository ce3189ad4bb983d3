"""What every section of the evaluation's report shares: the runs' statistics as text, tables and
charts (drawn by build/host/kov-plot). Figures are medians with their range over the runs
(sim/eval/stats.py); the text says "within noise" when two ranges overlap."""
import os
import subprocess

from stats import differs, ratio, scaled, summary  # noqa: F401  (sections import them from here)

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCS = os.path.join(TOP, "docs")
PLOT = os.path.join(TOP, "build", "host", "kov-plot")


class Doc:
    """The document being written; charts are drawn only when `draw` (tests read the text)."""

    def __init__(self, draw=True):
        self.parts, self.draw = [], draw

    def w(self, text):
        self.parts.append(text)

    def text(self):
        return "\n".join(self.parts)

    def plot(self, name, spec):
        if self.draw:
            os.makedirs(os.path.join(TOP, "build", "eval"), exist_ok=True)
            path = os.path.join(TOP, "build", "eval", name + ".spec")
            with open(path, "w") as f:
                f.write(spec)
            subprocess.run([PLOT, path, os.path.join(DOCS, "eval", name + ".png")], check=True)
        return "eval/%s.png" % name


def heading(d, title, data):
    """Starts a section; says so and returns False when the results have nothing for it."""
    d.w("## %s\n" % title)
    if not data:
        d.w("Not measured in this run.\n")
        return False
    return True


def num(x, digits=0):
    if x is None:
        return "-"
    return ("{:,.%df}" % digits).format(x)


def spread(s, digits=0, unit=""):
    """"median [min-max]" of a summary ("-" without runs; just the value for one run)."""
    if not s:
        return "-"
    if s["n"] < 2 or s["min"] == s["max"]:
        return "%s%s%s" % (num(s["median"], digits), unit, "" if s["n"] < 2 else " (all %d alike)" % s["n"])
    sep = " to " if s["min"] < 0 else "-"   # "-0.23-0.43" would read as a range of negatives
    return "%s%s [%s%s%s]" % (num(s["median"], digits), unit, num(s["min"], digits), sep, num(s["max"], digits))


def pct_of(s, base, digits=1):
    """A summary as a percentage of a base summary, with the spread the two carry together."""
    return spread(scaled(ratio(s, base), 100.0), digits, "%")


def compare(a, b, more="higher", less="lower"):
    """How a compares with b, judged by their ranges: "within noise" or the direction."""
    d = differs(a, b)
    if d is None:
        return "not comparable (too few runs)"
    if not d:
        return "within noise"
    return more if a["median"] > b["median"] else less


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def bar_value(s):
    """A chart value with its error bar (kov-plot's V:LO:HI)."""
    if not s:
        return "0"
    return "%.3f:%.3f:%.3f" % (s["median"], s["min"], s["max"]) if s["n"] > 1 else "%.3f" % s["median"]


def point(x, s):
    if not s:
        return None
    return "%g:%s" % (x, bar_value(s))


def runs_of(xs, key):
    """The summary of one key over a list of run dicts."""
    return summary([r.get(key) for r in xs])
