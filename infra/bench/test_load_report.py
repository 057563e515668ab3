"""Unit tests of the load report's judgements (make test-load-report): the breakpoint's last good
rate, the drift verdicts and the per-endpoint table, on series made here."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_report as lr  # noqa: E402


def samples(per_second, latency_ms, failed_share=lambda sec: 0.0, seconds=300, endpoints=("search", "list")):
    """A k6 run: per_second(sec) requests in second sec, each latency_ms(sec) long; every
    1/failed_share-th one a 503."""
    s = object.__new__(lr.Samples)
    t, ms, ep, st, ok = [], [], [], [], []
    for sec in range(seconds):
        n = int(per_second(sec))
        fail_every = int(1 / failed_share(sec)) if failed_share(sec) > 0 else 0
        for i in range(n):
            t.append(1000.0 + sec + i / n)
            ms.append(latency_ms(sec))
            ep.append(i % len(endpoints))
            bad = fail_every and i % fail_every == 0
            st.append(503 if bad else 200)
            ok.append(not bad)
    s.t, s.ms, s.ep = np.array(t), np.array(ms), np.array(ep)
    s.status, s.ok = np.array(st), np.array(ok)
    s.endpoints, s.vus = list(endpoints), []
    return s


class BreakpointTest(unittest.TestCase):

    def test_last_good_rate_is_the_window_before_latency_crosses_100_ms(self):
        # 10 -> 310 req/s over 300 s; latency 20 ms until second 200 (rate 210), then 150 ms.
        s = samples(lambda sec: 10 + sec, lambda sec: 20.0 if sec < 200 else 150.0)
        rows, broke, last_good = lr.breakpoint(s)
        self.assertAlmostEqual(broke["t"], 1200.0)
        self.assertGreater(broke["p95"], 100)
        self.assertAlmostEqual(last_good, 10 + 194.5, delta=1)  # the 190-199 s window's mean rate

    def test_errors_over_a_tenth_of_a_percent_break_it_too(self):
        s = samples(lambda sec: 100, lambda sec: 5.0, failed_share=lambda sec: 0.01 if sec >= 100 else 0.0)
        _, broke, last_good = lr.breakpoint(s)
        self.assertAlmostEqual(broke["t"], 1100.0)
        self.assertGreater(broke["errors"], lr.ERROR_LIMIT)
        self.assertAlmostEqual(last_good, 100, delta=1)

    def test_a_crossing_in_the_last_partial_window_breaks_it(self):
        # k6 aborts on its thresholds, so the run ends inside the window that crossed: 95 s, the
        # errors start at 92 s (the 90-99 s window holds 5 s of requests, 500 of them).
        s = samples(lambda sec: 100, lambda sec: 5.0, failed_share=lambda sec: 0.05 if sec >= 92 else 0.0, seconds=95)
        _, broke, last_good = lr.breakpoint(s)
        self.assertIsNotNone(broke)
        self.assertAlmostEqual(broke["t"], 1090.0)
        self.assertAlmostEqual(last_good, 100, delta=1)

    def test_a_run_that_never_breaks_reports_its_top_rate(self):
        s = samples(lambda sec: 10 + sec, lambda sec: 5.0)
        _, broke, last_good = lr.breakpoint(s)
        self.assertIsNone(broke)
        self.assertGreater(last_good, 290)

    def test_windows_with_too_few_requests_do_not_break_it(self):
        # 2 req/s at 500 ms: 20 requests per window, under the 50 a verdict needs.
        s = samples(lambda sec: 2, lambda sec: 500.0)
        _, broke, _ = lr.breakpoint(s)
        self.assertIsNone(broke)


class DriftTest(unittest.TestCase):
    hours = np.arange(0, 2 * 3600, 60.0)

    def test_a_growing_heap_drifts(self):
        v = 200e6 + (self.hours / 3600) * 30e6 + np.random.default_rng(1).normal(0, 2e6, len(self.hours))
        fit, text = lr.drift(self.hours, v, 0.10, "bytes")
        self.assertTrue(text.startswith("drifting"), text)
        self.assertAlmostEqual(fit[0] * 3600, 30e6, delta=3e6)

    def test_a_noisy_flat_heap_is_stable(self):
        v = 200e6 + np.random.default_rng(2).normal(0, 10e6, len(self.hours))
        _, text = lr.drift(self.hours, v, 0.10, "bytes")
        self.assertTrue(text.startswith("stable"), text)

    def test_consumer_lag_uses_an_absolute_limit(self):
        _, grows = lr.drift(self.hours, self.hours / 3, 1000.0, "records", "absolute")  # +2,400 over the run
        _, flat = lr.drift(self.hours, np.full(len(self.hours), 5000.0), 1000.0, "records", "absolute")
        self.assertTrue(grows.startswith("drifting"), grows)
        self.assertTrue(flat.startswith("stable"), flat)

    def test_short_runs_are_not_judged(self):
        t = np.arange(0, 600, 5.0)
        fit, text = lr.drift(t, t, 0.10, "bytes")
        self.assertIsNone(fit)
        self.assertIn("too short", text)



class CacheHits(unittest.TestCase):
    def test_hits_are_l1_and_l2_over_all_reads_per_region_across_a_restart(self):
        t = np.array([0.0, 1.0, 2.0])
        rows = lr.cache_hits([
            ("search l1", t, np.array([100.0, 130.0, 160.0])),
            ("search origin", t, np.array([50.0, 70.0, 10.0])),  # reset: 20, then 10 after the restart
            ("post l2", t, np.array([0.0, 5.0, 5.0])),
        ])
        self.assertEqual([r[0] for r in rows], ["post", "search"])
        self.assertEqual(rows[1][1], {"l1": 60.0, "origin": 30.0})
        self.assertAlmostEqual(rows[1][2], 60 / 90)
        self.assertEqual(rows[0][2], 1.0)

class EndpointTableTest(unittest.TestCase):

    def test_counts_percentiles_and_statuses_per_endpoint(self):
        s = samples(lambda sec: 10, lambda sec: float(sec % 100 + 1), failed_share=lambda sec: 0.1, seconds=100)
        rows = {r["endpoint"]: r for r in lr.endpoint_table(s, 100.0)}
        self.assertEqual(rows["search"]["count"] + rows["list"]["count"], 1000)
        self.assertEqual(rows["**all**"]["failed"], 100)
        self.assertAlmostEqual(rows["**all**"]["p50"], 50.5, delta=1)
        self.assertIn("503: 100", rows["search"]["statuses"])


class OverloadTest(unittest.TestCase):

    def test_shed_503s_are_apart_from_the_admitted_latency(self):
        # 600 req/s for 60 s, every second request shed (503, expected in this profile), 20 ms each.
        s = samples(lambda sec: 600, lambda sec: 20.0, failed_share=lambda sec: 0.5, seconds=60)
        s.ok[:] = True  # the overload profile expects its 503s
        s.ms[s.status == 503] = 2.0
        figs, rows = lr.overload(s)
        self.assertEqual(figs["shed"], 18000)
        self.assertAlmostEqual(figs["shed_share"], 0.5, delta=0.001)
        self.assertAlmostEqual(figs["admitted_p95"], 20.0)
        self.assertAlmostEqual(figs["shed_p95"], 2.0)
        self.assertEqual(figs["failed_other"], 0)
        self.assertTrue(lr.overload_verdict(figs)[0])
        self.assertAlmostEqual(rows[0]["admitted_rate"], 300, delta=1)

    def test_a_slow_admitted_p95_or_a_request_over_a_second_or_another_failure_is_not_held(self):
        s = samples(lambda sec: 100, lambda sec: 150.0, seconds=30)
        self.assertFalse(lr.overload_verdict(lr.overload(s)[0])[0])
        s = samples(lambda sec: 100, lambda sec: 10.0, seconds=30)
        s.ms[5] = 1500.0
        figs, _ = lr.overload(s)
        self.assertEqual(figs["over_1s"], 1)
        self.assertFalse(lr.overload_verdict(figs)[0])
        s = samples(lambda sec: 100, lambda sec: 10.0, seconds=30)
        s.status[7], s.ok[7] = 500, False
        figs, _ = lr.overload(s)
        self.assertEqual(figs["failed_other"], 1)
        self.assertFalse(lr.overload_verdict(figs)[0])


def histogram(classes):
    """jcmd GC.class_histogram's text for {class: (instances, bytes)}."""
    rows = [" num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------"]
    for i, (name, (n, b)) in enumerate(sorted(classes.items(), key=lambda kv: -kv[1][1]), 1):
        rows.append(f"{i:4d}: {n:13d} {b:14d}  {name} (java.base@25.0.3)")
    rows.append(f"Total {sum(n for n, _ in classes.values()):13d} {sum(b for _, b in classes.values()):14d}")
    return "123:\n" + "\n".join(rows) + "\n"


class CensusTest(unittest.TestCase):
    MB = 1_000_000

    def points(self, *mb):
        return [(1000.0 + 1800 * i, int(v * self.MB)) for i, v in enumerate(mb)]

    def test_start_up_data_in_the_first_census_does_not_hide_growth_after_it(self):
        # 84 MB at the first census (start-up data), then 76 and a steady rise: +10.5% from the second.
        verdict, text = lr.census_verdict(self.points(84, 76, 80, 84))
        self.assertEqual("growing", verdict, text)
        self.assertIn("rose in 2 of 2 periods", text)

    def test_a_sawtooth_and_the_data_growth_of_the_run_are_stable(self):
        self.assertEqual("stable", lr.census_verdict(self.points(84, 76, 78.8, 77, 78.5))[0])
        self.assertEqual("stable", lr.census_verdict(self.points(84, 76, 77, 78, 79))[0])  # +3.9% < 5%

    def test_one_jump_between_falls_is_not_a_trend(self):
        self.assertEqual("stable", lr.census_verdict(self.points(80, 76, 90, 85, 82))[0])

    def test_fewer_than_four_censuses_are_not_judged(self):
        verdict, text = lr.census_verdict(self.points(84, 76, 90))
        self.assertIsNone(verdict)
        self.assertIn("too few censuses", text)

    def test_parse_reads_the_total_and_folds_lambdas_of_one_site(self):
        text = histogram({"[B": (10, 1000), "a.B$$Lambda/0x00000000580032a0": (2, 32),
                          "a.B$$Lambda/0x0000000058003970": (1, 16)})
        live, instances, classes = lr.parse_histogram(text)
        self.assertEqual((1048, 13), (live, instances))
        self.assertEqual((3, 48), classes["a.B$$Lambda"])
        with self.assertRaises(ValueError):
            lr.parse_histogram("12345:\nnot a histogram\n")

    def test_read_census_pairs_rows_and_files_and_the_section_names_what_grew(self):
        import tempfile
        with tempfile.TemporaryDirectory() as run:
            d = os.path.join(run, "census")
            os.makedirs(d)
            sizes = [{"[B": (10, 5000), "x.Keep": (1, 100)}, {"[B": (10, 4000), "x.Keep": (1, 100)},
                     {"[B": (10, 4000), "x.Keep": (1, 100), "x.Leak": (50, 800)},
                     {"[B": (10, 4000), "x.Keep": (1, 100), "x.Leak": (100, 1600)}]
            with open(os.path.join(d, "census.csv"), "w", encoding="utf-8") as f:
                f.write("time,node,live_bytes,instances,took_s\n")
                for i, c in enumerate(sizes):
                    f.write(f"{1300 + 1800 * i}.0,node1,{sum(b for _, b in c.values())},0,0.7\n")
            for i, c in enumerate(sizes):
                with open(os.path.join(d, f"node1-{300 + 1800 * i:06d}.txt"), "w", encoding="utf-8") as f:
                    f.write(histogram(c))
            census = lr.read_census(run)
            self.assertEqual([5100, 4100, 4900, 5700], [live for _, live, _ in census["node1"]])
            text = "\n".join(lr.census_section(census, start=1000.0))
            self.assertIn("| node | census 1 | census 2 | census 3 | census 4 |", text)
            self.assertIn("| node1 | 5.10 kB at 5 min | 4.10 kB at 35 min | 4.90 kB at 65 min | 5.70 kB at 95 min |", text)
            self.assertIn("from census 2 (35 min) to 4 (95 min)", text)
            self.assertIn("| `x.Leak` | +1.60 kB | +100 |", text)
            self.assertNotIn("x.Keep", text)
            os.remove(os.path.join(d, "node1-005700.txt"))
            with self.assertRaises(SystemExit):
                lr.read_census(run)


class SavedPrometheusTest(unittest.TestCase):

    def test_series_are_kept_in_the_run_so_a_redraw_needs_no_prometheus(self):
        import tempfile
        from unittest import mock
        series = [({"node": "node1"}, np.array([1.0, 2.0]), np.array([5.0, 6.0]))]
        with tempfile.TemporaryDirectory() as run:
            with mock.patch.object(lr, "prometheus", return_value=series):
                first = lr.SavedPrometheus(run, {})
                self.assertEqual([5.0, 6.0], first.query("heap", 0, 10, 5)[0][2].tolist())
                first.save()
            with mock.patch.object(lr, "prometheus", side_effect=AssertionError("asked Prometheus again")):
                again = lr.SavedPrometheus(run, {}).query("heap", 0, 10, 5)
            self.assertEqual({"node": "node1"}, again[0][0])
            self.assertEqual([1.0, 2.0], again[0][1].tolist())

    def test_a_prometheus_that_answers_nothing_saves_nothing(self):
        import tempfile
        from unittest import mock
        with tempfile.TemporaryDirectory() as run:
            with mock.patch.object(lr, "prometheus", return_value=[]):
                p = lr.SavedPrometheus(run, {})
                p.query("heap", 0, 10, 5)
                p.save()
            self.assertFalse(os.path.exists(os.path.join(run, "prometheus.json")))


if __name__ == "__main__":
    unittest.main()
