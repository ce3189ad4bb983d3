"""The evaluation's report states only what its data supports: fed results in which an outcome is
reversed, its text must change with them (sim/eval/report.py). Runs on the host, no target."""
import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim", "eval"))
import report  # noqa: E402


def runs(*tps):
    return [{"tps": t, "throttle_factor": 1, "scans": None, "window_s": 3} for t in tps]


def http_runs(*rps):
    return [{"rps": r, "inst_per_req": 20000.0, "p50": 1.0, "p90": 2.0, "p99": 3.0, "failed": 0} for r in rps]


def top(coid, share=50.0):
    return {"samples": 1000, "no_object": 10, "method": "measured",
            "objects": [{"rank": 1, "class": "Warehouse", "coid": coid, "share": share, "wait_us": 1000.0,
                         "contentions": 40, "samples": 500, "process": "jbb"}]}


def results():
    states = [s for s, _ in report.STATES_FOR_TEST]
    return {
        "stages": {"jbb_overhead": {"started": "2026-11-29 12:00 UTC", "build": "abc", "host": {"load": 1.0},
                                    "minutes": 1.0}},
        "host": {"cpus": 2, "qemu": "QEMU emulator version 10.0.2"},
        "jbb_overhead": {"rounds": 5, "runs": dict({s: runs(100, 101, 102, 103, 104) for s in states},
                                                   x10=runs(80, 81, 82, 83, 84))},
        "httpd_overhead": {"seconds": 4, "c": 16, "rounds": 5,
                           "runs": {s: {"keepalive": http_runs(1000, 1010, 1020, 1030, 1040),
                                        "close": http_runs(500, 505, 510, 515, 520)} for s in states}},
        "improvement": {"before": {"icount_tps": [100, 100, 100], "wall_tps": [50, 51, 52, 53, 54],
                                   "spinlock": top("0x1"), "samples": top("0x1")},
                        "after": {"icount_tps": [120, 121, 122], "wall_tps": [60, 61, 62, 63, 64],
                                  "spinlock": top("0x1", 10.0), "samples": top("0x1", 20.0)}},
        "timeline": [{"run": 1, "load_start": 2.0, "load_end": 12.0, "ab": {"complete": 100, "rps": 10},
                      "windows": [{"start": 0, "end": 1, "answered": True, "locks": [
                          {"lock": "0xa", "kind": "sleep", "class": "FileCache", "coid": "0x5", "wait_us": 9e5},
                          {"lock": "0xb", "kind": "spin", "class": "WorkQueue", "coid": "0x6", "wait_us": 1e5}]}]}],
    }


def text(R):
    return report.build(R, draw=False)


class ReportFollowsTheData(unittest.TestCase):
    def test_improvement_reversed(self):
        R = results()
        self.assertIn("under `-icount` more transactions per instruction", text(R))
        R["improvement"]["after"]["icount_tps"] = [80, 81, 82]
        out = text(R)
        self.assertIn("under `-icount` fewer transactions per instruction", out)
        self.assertNotIn("more transactions per instruction", out)

    def test_improvement_within_noise(self):
        R = results()
        R["improvement"]["after"]["wall_tps"] = [52, 53, 54, 55, 56]
        self.assertIn("in wall-clock time within noise", text(R))

    def test_time_not_instructions_said_only_when_so(self):
        R = results()
        R["improvement"]["locks=fine"] = {"icount_tps": [100, 100, 100], "wall_tps": [50, 51, 52, 53, 54],
                                          "spinlock": top("0x1"), "samples": top("0x1")}
        R["improvement"]["locks=fine"]["spinlock"]["objects"][0]["wait_us"] = 100.0
        self.assertIn("a lock's wait costs time, not instructions", text(R))
        R["improvement"]["locks=fine"]["icount_tps"] = [130, 131, 132]
        self.assertNotIn("a lock's wait costs time, not instructions", text(R))

    def test_compiled_out_judged_against_layout(self):
        R = results()
        R["noinstr"] = {"workload": "jbb", "normal": [90000] * 5, "same-code": [90027] * 5,
                        "no-call-instr": [90009] * 5, "no-lock-instr": [90225] * 5, "no-instr": [90230] * 5}
        out = text(R)
        self.assertRegex(out, r"\| invocation counting compiled out \|[^\n]*\| 0.01% \| within the layout's effect \|")
        self.assertRegex(out, r"\| lock statistics compiled out \|[^\n]*\| 0.25% \| beyond the layout's effect \|")
        R["noinstr"]["same-code"] = [90300] * 5
        self.assertRegex(text(R), r"\| lock statistics compiled out \|[^\n]*\| 0.25% \| within the layout's effect \|")

    def test_overhead_cost_or_noise(self):
        R = results()
        self.assertIn("sampling at 10x (10k): jbb ", text(R))
        self.assertRegex(text(R), r"sampling at 10x \(10k\): jbb [0-9.]+% \[[0-9.]+-[0-9.]+\] of the unmonitored rate, "
                                  r"beyond the runs' spread")
        R["jbb_overhead"]["runs"]["x10"] = runs(99, 101, 102, 103, 105)
        self.assertIn("sampling at 10x (10k): jbb within noise of monitoring off", text(R))

    def test_timeline_leader_follows_the_waits(self):
        R = results()
        self.assertIn("the lock that waited most was FileCache 0x5", text(R))
        R2 = copy.deepcopy(R)
        R2["timeline"][0]["windows"][0]["locks"][1]["wait_us"] = 5e6
        self.assertIn("the lock that waited most was WorkQueue 0x6", text(R2))

    def test_missing_results_are_said(self):
        out = text(results())
        self.assertIn("Not in these results:", out)
        self.assertIn("Table 4.3 (instrumentation compiled out)", out)


if __name__ == "__main__":
    unittest.main()
