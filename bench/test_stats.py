#!/usr/bin/python3
"""Tests of bench/stats.py.

    python3 -m unittest bench/test_stats.py
    python3 bench/test_stats.py

The exact p-values are checked against a brute-force enumeration of every
subset, against textbook values and, when SciPy is installed (it is not
needed), against scipy.stats. The plot tests, of stats.strip_plot and of bench/report's
plots, need matplotlib.
"""
import collections
import itertools
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import unittest
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

try:
    import numpy
    import scipy.stats
except ImportError:
    scipy = None
try:
    import matplotlib
except ImportError:
    matplotlib = None


def brute_force(a, b):
    """(U, p) of the two-sided test by enumerating all C(m+n, m) subsets of
    the pooled midranks, in exact fractions"""
    pooled = list(a) + list(b)
    srt = sorted(pooled)
    # midrank of v: (first 1-indexed position + last) / 2
    rank = {v: Fraction(srt.index(v) + 1 + len(srt) - srt[::-1].index(v), 2)
            for v in pooled}
    ranks = [rank[v] for v in pooled]
    m, big_n = len(a), len(pooled)
    mean = Fraction(m * (big_n + 1), 2)
    obs = abs(sum(ranks[:m]) - mean)
    hits = total = 0
    for sub in itertools.combinations(range(big_n), m):
        total += 1
        hits += abs(sum(ranks[i] for i in sub) - mean) >= obs
    u = sum(ranks[:m]) - Fraction(m * (m + 1), 2)
    return u, Fraction(hits, total)


class MedianCI(unittest.TestCase):
    def test_n12(self):
        xs = [12, 3, 7, 1, 9, 11, 2, 5, 10, 4, 8, 6]
        lo, hi, cov = stats.median_ci(xs)
        self.assertEqual((lo, hi), (3, 10))  # k = 3: [x_3, x_10]
        self.assertAlmostEqual(cov, 0.9614, places=4)
        self.assertEqual(cov, 1 - 2 * 79 / 4096)  # P(Bin(12) <= 2) = 79/4096

    def test_n20(self):
        lo, hi, cov = stats.median_ci(range(1, 21))
        self.assertEqual((lo, hi), (6, 15))
        self.assertAlmostEqual(cov, 0.9586, places=4)

    def test_n6_smallest_at_95(self):
        self.assertEqual(stats.median_ci([5, 1, 4, 2, 6, 3]), (1, 6, 1 - 2 / 64))

    def test_n5_too_few(self):
        # no k qualifies: [min, max] with its own coverage, below 0.95
        lo, hi, cov = stats.median_ci([4, 2, 9, 7, 5])
        self.assertEqual((lo, hi), (2, 9))
        self.assertEqual(cov, 1 - 2 / 32)
        self.assertLess(cov, 0.95)

    def test_n1_and_empty(self):
        self.assertEqual(stats.median_ci([3.5]), (3.5, 3.5, 0.0))
        with self.assertRaises(statistics.StatisticsError):
            stats.median_ci([])

    def test_conf(self):
        # 99 %: P(Bin(12) <= 1) = 13/4096 <= 0.005 < P(<= 2)
        self.assertEqual(stats.median_ci(range(1, 13), 0.99)[:2], (2, 11))
        # 99 % needs n >= 8
        self.assertEqual(stats.median_ci(range(7), 0.99), (0, 6, 1 - 2 / 128))
        self.assertEqual(stats.median_ci(range(8), 0.99)[:2], (0, 7))
        self.assertGreaterEqual(stats.median_ci(range(8), 0.99)[2], 0.99)

    def test_coverage_at_least_conf(self):
        for n in range(6, 80):
            lo, hi, cov = stats.median_ci(range(n))
            self.assertGreaterEqual(cov, 0.95)
            self.assertLessEqual(lo, hi)
            # one step narrower would fall below 95 %
            k = lo + 1
            tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
            self.assertLess(1 - 2 * tail, 0.95)

    def test_median(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 2, 3]), 2.5)


class MannWhitney(unittest.TestCase):
    def assert_brute(self, a, b):
        u, p = stats.mann_whitney(a, b)
        bu, bp = brute_force(a, b)
        self.assertEqual(u, bu, (a, b))
        self.assertAlmostEqual(p, float(bp), places=12, msg=(a, b))

    def test_textbook_separated(self):
        u, p = stats.mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        self.assertEqual(u, 0)
        self.assertAlmostEqual(p, 2 / 252, places=12)
        self.assertAlmostEqual(p, 0.00794, places=5)
        u, p = stats.mann_whitney([6, 7, 8, 9, 10], [1, 2, 3, 4, 5])
        self.assertEqual(u, 25)
        self.assertAlmostEqual(p, 2 / 252, places=12)

    def test_textbook_small(self):
        # m = n = 3, no overlap: 2 of the C(6, 3) = 20 subsets are as extreme
        self.assertAlmostEqual(stats.mann_whitney([1, 2, 3], [4, 5, 6])[1], 0.1)
        # m = n = 4, U = 1: P(U <= 1) = 2/70 (U = 0 and U = 1 one way each)
        self.assertAlmostEqual(stats.mann_whitney([1, 2, 3, 5], [4, 6, 7, 8])[1], 4 / 70)

    def test_ties_brute_force(self):
        self.assert_brute([1, 2, 2, 3], [2, 3, 3, 4, 5])
        self.assert_brute([0, 0, 1, 1], [1, 1, 2, 2, 2])
        self.assert_brute([7, 7, 7, 8], [7, 9, 9, 9, 9])
        rng = random.Random(20240601)
        for _ in range(40):
            m, n = rng.randint(1, 6), rng.randint(1, 7)
            vals = rng.randint(1, 4)
            a = [rng.randrange(vals) for _ in range(m)]
            b = [rng.randrange(vals) + rng.choice([0, 0.5]) for _ in range(n)]
            self.assert_brute(a, b)

    def test_identical(self):
        self.assertEqual(stats.mann_whitney([3, 3, 3], [3, 3, 3, 3]), (6.0, 1.0))
        a = [1.5, 2.5, 9, 4]
        self.assertEqual(stats.mann_whitney(a, list(a))[1], 1.0)

    def test_one_value_each(self):
        self.assertEqual(stats.mann_whitney([1], [2]), (0.0, 1.0))

    def test_empty(self):
        with self.assertRaises(ValueError):
            stats.mann_whitney([], [1, 2])

    def test_speed_48_ties(self):
        rng = random.Random(7)
        a = [rng.randrange(5) for _ in range(48)]
        b = [rng.randrange(5) + 1 for _ in range(48)]
        t = time.perf_counter()
        u, p = stats.mann_whitney(a, b)
        self.assertLess(time.perf_counter() - t, 2.0)
        self.assertTrue(0 <= p <= 1)

    def test_speed_60(self):
        rng = random.Random(8)
        a = [rng.random() for _ in range(60)]
        b = [rng.random() for _ in range(60)]
        t = time.perf_counter()
        stats.mann_whitney(a, b)
        self.assertLess(time.perf_counter() - t, 2.0)

    def test_symmetric(self):
        rng = random.Random(9)
        a = [rng.randrange(6) for _ in range(20)]
        b = [rng.randrange(6) for _ in range(31)]
        ua, pa = stats.mann_whitney(a, b)
        ub, pb = stats.mann_whitney(b, a)
        self.assertEqual(ua + ub, 20 * 31)
        self.assertAlmostEqual(pa, pb, places=12)

    @unittest.skipUnless(scipy, "SciPy is not installed")
    def test_scipy_no_ties(self):
        rng = random.Random(10)
        for m, n in [(5, 5), (9, 14), (30, 30), (60, 60)]:
            a = [rng.gauss(0, 1) for _ in range(m)]
            b = [rng.gauss(0.4, 1) for _ in range(n)]
            u, p = stats.mann_whitney(a, b)
            ref = scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")
            self.assertEqual(u, ref.statistic)
            self.assertAlmostEqual(p, ref.pvalue, places=9)

    @unittest.skipUnless(scipy, "SciPy is not installed")
    def test_scipy_permutation_ties(self):
        rng = random.Random(11)
        for m, n in [(6, 7), (8, 6)]:
            a = [rng.randrange(4) for _ in range(m)]
            b = [rng.randrange(4) + 1 for _ in range(n)]
            big_n = m + n

            def dist(x, y, axis):
                # |R - E[R]| of x, for batches of resamples along axis
                x, y = numpy.moveaxis(x, axis, -1), numpy.moveaxis(y, axis, -1)
                r = scipy.stats.rankdata(numpy.concatenate([x, y], axis=-1), axis=-1)
                k = x.shape[-1]
                return abs(r[..., :k].sum(axis=-1) - k * (big_n + 1) / 2)

            ref = scipy.stats.permutation_test((a, b), dist, vectorized=True,
                                               permutation_type="independent",
                                               alternative="greater", n_resamples=numpy.inf)
            self.assertAlmostEqual(stats.mann_whitney(a, b)[1], ref.pvalue, places=9)


class HodgesLehmann(unittest.TestCase):
    def test_small(self):
        # differences 9 8 7 11 10 9
        self.assertEqual(stats.hodges_lehmann([10, 12], [1, 2, 3]), 9)
        self.assertEqual(stats.hodges_lehmann([1, 2, 3], [0]), 2)
        self.assertEqual(stats.hodges_lehmann([1, 2], [1, 2]), 0)
        # differences -1 -2 0 -1: median -1
        self.assertEqual(stats.hodges_lehmann([1, 2], [2, 3]), -1)


class Compare(unittest.TestCase):
    def test_a_greater(self):
        c = stats.compare([10, 11, 12, 13, 14, 15], [1, 2, 3, 4, 5, 6])
        self.assertEqual(c["verdict"], "a > b")
        self.assertEqual((c["n_a"], c["n_b"]), (6, 6))
        self.assertEqual((c["median_a"], c["median_b"]), (12.5, 3.5))
        self.assertAlmostEqual(c["ratio"], 12.5 / 3.5)
        self.assertEqual(c["ci_a"], (10, 15, 1 - 2 / 64))
        self.assertEqual(c["U"], 36)
        self.assertAlmostEqual(c["p"], 2 / 924)
        self.assertEqual(c["shift"], 9)

    def test_a_less(self):
        c = stats.compare([1, 2, 2, 3, 3, 3], [3, 4, 4, 5, 5, 6, 7])
        self.assertEqual(c["verdict"], "a < b")
        self.assertLess(c["p"], 0.05)

    def test_not_distinguishable(self):
        c = stats.compare([1, 5, 3, 7, 2], [2, 4, 6, 3, 5])
        self.assertEqual(c["verdict"], "not distinguishable")
        self.assertGreater(c["p"], 0.05)
        # too few runs to tell even total separation apart at 5 %
        c = stats.compare([10, 11, 12], [1, 2, 3])
        self.assertAlmostEqual(c["p"], 0.1)
        self.assertEqual(c["verdict"], "not distinguishable")
        self.assertEqual(stats.compare([10, 11, 12], [1, 2, 3], alpha=0.2)["verdict"], "a > b")

    def test_ratio_none(self):
        c = stats.compare([1, 2, 3], [0, 0, 0])
        self.assertIsNone(c["ratio"])

    def test_direction_by_medians(self):
        # many zeros on both sides: the shift is 0, the medians decide
        a = [0] * 14 + [5] * 12
        b = [0] * 26
        c = stats.compare(a, b)
        self.assertEqual(c["shift"], 0)
        self.assertLess(c["p"], 0.05)
        self.assertEqual(c["verdict"], "a > b")


class FmtCI(unittest.TestCase):
    def test_integral(self):
        self.assertEqual(stats.fmt_ci([6, 7, 7, 7, 6, 7, 7], 1), "7 [6-7]")
        self.assertEqual(stats.fmt_ci([6.0, 7.0, 7.0, 7.0, 6.0, 7.0, 7.0], 2), "7 [6-7]")

    def test_decimals(self):
        self.assertEqual(stats.fmt_ci([1, 2, 3, 4, 5, 6], 1), "3.5 [1.0-6.0]")
        self.assertEqual(stats.fmt_ci([0.25, 0.5, 1.125], 2), "0.50 [0.25-1.12]")


@unittest.skipUnless(matplotlib, "matplotlib is not installed")
class StripPlot(unittest.TestCase):
    def test_plot(self):
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rng = random.Random(12)
        groups = [("=y", [rng.gauss(10, 1) for _ in range(12)], "tab:blue"),
                  ("=n", (rng.gauss(12, 2) for _ in range(5)), "tab:orange"),
                  ("empty", [], "tab:gray")]
        fig, ax = plt.subplots(figsize=(9, 5))
        self.assertIs(stats.strip_plot(ax, groups, "ns per page", "cost", legend=True), ax)
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()],
                         ["=y\n(n=12)", "=n\n(n=5)", "empty\n(n=0)"])
        self.assertEqual(ax.get_ylabel(), "ns per page")
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()],
                         ["=y, n = 12", "=n, n = 5"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "strip.png")
            fig.tight_layout()
            fig.savefig(path, dpi=100)
            with open(path, "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
            self.assertEqual((int.from_bytes(head[16:20], "big"),
                              int.from_bytes(head[20:24], "big")), (900, 500))
        plt.close(fig)
        # the same values give the same points
        fig2, ax2 = plt.subplots()
        stats.strip_plot(ax2, [("a", [1, 2, 3], "k")], "s")
        self.assertIsNone(ax2.get_legend())
        offsets = ax2.collections[0].get_offsets()
        self.assertTrue(all(-0.3 < x < 0.3 for x, _ in offsets))
        self.assertEqual(len({round(x, 6) for x, _ in offsets}), 3)
        plt.close(fig2)


def load_report():
    """bench/report as a module (it has no .py suffix), as bench/results-sync
    loads it"""
    import importlib.machinery
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report")
    loader = importlib.machinery.SourceFileLoader("bench_report", path)
    spec = importlib.util.spec_from_loader("bench_report", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def write_dir(d, modes=("y", "n")):
    """a small results directory of R3 (two modes, three runs each) with
    the first runs' frag.csv in frag/ and their premise samples in
    windows/, as a committed directory has them (no raw/)"""
    with open(os.path.join(d, "meta.json"), "w", encoding="utf-8") as f:
        f.write('{"modes": %s, "workloads": ["r3"], "command": "bench/run", '
                '"profile": "test", "date": "today", "machine": "test", '
                '"params": {"r3_window_mb": 32}}' % str(list(modes)).replace("'", '"'))
    os.makedirs(os.path.join(d, "frag"))
    os.makedirs(os.path.join(d, "windows"))
    with open(os.path.join(d, "samples.csv"), "w", encoding="utf-8") as f:
        f.write("run,mode,workload,point,metric,value\n")
        for run in (1, 2, 3):
            for i, m in enumerate(modes):
                f.write(f"{run},{m},r3,path=light,status,ok\n")
                f.write(f"{run},{m},r3,path=light,thp_success_pct,{40 + 5 * i + run}\n")
    head = ("t,reserve_blocks,free_kb,outside_free,free9_blocks,reserve9_blocks,unusable_o,"
            "unusable_9,extfrag_o,extfrag_9,quantity,physical,policy\n")
    for m in modes:
        with open(os.path.join(d, "frag", f"r3-pathlight-{m}-r1.csv"), "w",
                  encoding="utf-8") as f:
            f.write(head + "".join(f"{t}.0,{min(t, 5)},1000,0,4,2,0.5,0.5,-1,-1,0,0,0\n"
                                   for t in range(0, 30, 2)) + "30.0,,,,,,,,,,,,\n")
        with open(os.path.join(d, "windows", f"r3-pathlight-{m}-r1.csv"), "w",
                  encoding="utf-8") as f:
            f.write("window,t,reserve_blocks,reserve_free,reserve9,outside9\n"
                    "1,12500,5,1024,2,0\n2,15000,5,512,1,0\nend,18000,5,512,,0\n")


@unittest.skipUnless(matplotlib, "matplotlib is not installed")
class ReportPlots(unittest.TestCase):
    """bench/report's plots: layout, sizes, the committed time series"""

    @classmethod
    def setUpClass(cls):
        cls.report = load_report()

    def test_cost_grid(self):
        pts = [f"order={o} batch={b}" for o in range(5) for b in (1, 64)]
        grid = self.report.layout(sorted(pts), ["y", "n", "y-prefill"])
        self.assertEqual(len(grid), 2)
        self.assertEqual(grid[0], [f"order={o} batch=1" for o in range(5)])
        self.assertEqual(grid[1], [f"order={o} batch=64" for o in range(5)])

    def test_wrap(self):
        self.assertEqual(self.report.layout(["mb=256 threads=1", "mb=256 threads=2"], ["y", "n"]),
                         [["mb=256 threads=1", "mb=256 threads=2"]])
        grid = self.report.layout([f"p{i}" for i in range(6)], ["y", "n"])
        self.assertEqual(grid, [["p0", "p1", "p2", "p3"], ["p4", "p5", None, None]])
        # a panel wider than half of 1600 px: one a row
        self.assertEqual(len(self.report.layout(["a", "b"], [f"y-m{i}" for i in range(12)])), 2)

    def test_cost_png(self):
        modes = ["y", "n", "y-prefill"]
        data = collections.defaultdict(lambda: collections.defaultdict(list))
        rng = random.Random(3)
        for o in range(5):
            for b in (1, 64):
                for m in modes:
                    data[("cost", f"order={o} batch={b}", "alloc_ns_per_op")][m] = [
                        rng.uniform(400, 1800) for _ in range(3)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cost_alloc.png")
            self.assertTrue(self.report.bars(data, modes, "cost", "alloc_ns_per_op", "cost",
                                             "time per page (ns)", path))
            w, h = png_size(path)
            self.assertLessEqual(w, 1600)
            self.assertGreaterEqual(w, 1000)
            self.assertLess(h, 1000)

    def test_kept_series(self):
        with tempfile.TemporaryDirectory() as d:
            write_dir(d)
            # a directory of one regime may name its files without it
            os.rename(os.path.join(d, "frag", "r3-pathlight-n-r1.csv"),
                      os.path.join(d, "frag", "pathlight-n-r1.csv"))
            meta, data, _ = self.report.load(d)
            got = self.report.first_runs(d, "r3", data, meta["modes"])
            self.assertEqual([s[:3] for s in got], [("y", "path=light", 1), ("n", "path=light", 1)])
            # the row cut short is left out
            self.assertEqual(len(got[0][3]), 15)
            # a mode without its series: nothing, not a plot of some modes
            os.remove(os.path.join(d, "frag", "pathlight-n-r1.csv"))
            self.assertEqual(self.report.first_runs(d, "r3", data, meta["modes"]), [])

    def test_thp_start(self):
        with tempfile.TemporaryDirectory() as d:
            write_dir(d)
            self.assertEqual(self.report.thp_start(d, "y", "path=light", 1, None), 12.5)
            self.assertIsNone(self.report.thp_start(d, "y", "path=light", 2, None))
            raw = os.path.join(d, "raw", "r3-pathlight-y-r1")
            os.makedirs(raw)
            with open(os.path.join(raw, "output"), "w", encoding="utf-8") as f:
                f.write("BENCH workload=r3 path=light t_thp=11.3 cycles=1\n")
            self.assertEqual(self.report.thp_start(d, "y", "path=light", 1, raw), 11.3)

    def test_report_dir(self):
        """bench/report DIR on a committed directory: the time series from
        frag/, a plot whose samples are gone kept, every plot at most
        1600 px wide"""
        with tempfile.TemporaryDirectory() as d:
            write_dir(d)
            with open(os.path.join(d, "burst_reserve.png"), "wb") as f:
                f.write(b"kept")
            res = subprocess.run([sys.executable, os.path.join(os.path.dirname(
                os.path.abspath(__file__)), "report"), d], capture_output=True, text=True,
                check=False)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("burst_reserve.png: its samples are not in", res.stderr)
            with open(os.path.join(d, "results.md"), encoding="utf-8") as f:
                plots = [x for x in f.read().splitlines() if x.startswith("![")]
            self.assertEqual(plots, ["![r3_thp.png](r3_thp.png)",
                                     "![burst_reserve.png](burst_reserve.png)",
                                     "![r3_time.png](r3_time.png)",
                                     "![r3_premise.png](r3_premise.png)"])
            with open(os.path.join(d, "burst_reserve.png"), "rb") as f:
                self.assertEqual(f.read(), b"kept")
            for name in ("r3_thp.png", "r3_time.png", "r3_premise.png"):
                self.assertLessEqual(png_size(os.path.join(d, name))[0], 1600, name)


if __name__ == "__main__":
    # the project's closing line (CI counts it): N passed, N failed, N skipped
    res = unittest.main(exit=False, verbosity=2).result
    bad = len(res.failures) + len(res.errors)
    skipped = len(res.skipped)
    print(f"{res.testsRun - bad - skipped} passed, {bad} failed, {skipped} skipped")
    sys.exit(1 if bad else 0)
