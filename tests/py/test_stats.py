"""The evaluation's statistics (sim/eval/stats.py): medians with their ranges, and a difference
called real only when two ranges are disjoint."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim", "eval"))
import stats  # noqa: E402


class Stats(unittest.TestCase):
    def test_summary_leaves_out_missing_runs(self):
        self.assertEqual(stats.summary([3, None, 1, 2]), {"median": 2, "min": 1, "max": 3, "n": 3})
        self.assertIsNone(stats.summary([None, None]))

    def test_differs_needs_disjoint_ranges(self):
        a, b = stats.summary([1, 2, 3]), stats.summary([3, 4, 5])
        self.assertFalse(stats.differs(a, b))            # they touch at 3: within noise
        self.assertTrue(stats.differs(a, stats.summary([3.5, 4, 5])))
        self.assertIsNone(stats.differs(a, stats.summary([9])))   # one run has no spread

    def test_ratio_carries_both_spreads(self):
        r = stats.ratio(stats.summary([90, 100, 110]), stats.summary([50, 50, 100]))
        self.assertEqual((r["median"], r["min"], r["max"]), (2.0, 0.9, 2.2))
        self.assertIsNone(stats.ratio(stats.summary([1]), stats.summary([0])))


if __name__ == "__main__":
    unittest.main()
