"""Unit tests of the chaos verdict (report.judge) on made-up samples; no stack needed.
    cd infra/chaos && python3 -m unittest test_report        (part of make test-load-report)"""
import os
import tempfile
import types
import unittest

import report
from scenarios import BY_NAME

T0 = 1_000_000.0  # the fault


def sample(t, name="search", status=200, ms=10.0, ok=True, code=None):
    return (T0 + t, name, status, ms, ok, code)


def clean_load(seconds=(-20, 60), errors=()):
    out = [sample(t + 0.5 * k) for t in range(*seconds) for k in range(2)]
    return out + list(errors)


class Judge(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.args = types.SimpleNamespace(baseline=20, budget=180, rate=100, hold=20)

    def judge(self, name, samples, converged=25.0, lost=(), in_index=None, ok_idx=True, extra=None, results=None):
        run = types.SimpleNamespace(dir=self.dir, events={"fault injected": T0, "healed": T0 + 20,
                                                          "load stopped": T0 + 60}, loadavg_start=[1, 1, 1])
        return report.judge(BY_NAME[name], run, samples, T0, T0 + 20,
                            None if converged is None else T0 + converged, list(lost),
                            in_index or {"node1": 0, "node2": 0},
                            results or {"node1": (10, 0, 0, 0, 0), "node2": (10, 0, 0, 0, 0)},
                            ok_idx, [], extra, self.args)

    def test_clean_run_passes_with_its_recovery_time(self):
        v = self.judge("cache-shard-crash", clean_load())
        self.assertTrue(v["pass"], v["reasons"])
        self.assertEqual(v["recovery_s"], 5.0)

    def test_warm_up_errors_are_shown_but_a_baseline_error_fails(self):
        run_events = {"fault injected": T0, "healed": T0 + 20, "load stopped": T0 + 60, "load started": T0 - 50}
        warm = clean_load((-50, 60), errors=[sample(-40, status=503, ok=False, code="OVERLOADED")])
        run = types.SimpleNamespace(dir=self.dir, events=run_events, loadavg_start=[1, 1, 1])
        judge = lambda samples: report.judge(BY_NAME["cache-shard-crash"], run, samples, T0, T0 + 20, T0 + 25, [],
                                             {"node1": 0, "node2": 0}, {"node1": (10, 0, 0, 0, 0), "node2": (10, 0, 0, 0, 0)},
                                             True, [], None, self.args)
        v = judge(warm)
        self.assertTrue(v["pass"], v["reasons"])
        self.assertEqual(v["windows"]["warm-up"]["errors"], 1)
        self.assertEqual(v["windows"]["before"]["errors"], 0)
        late = judge(warm + [sample(-5, status=503, ok=False, code="OVERLOADED")])
        self.assertFalse(late["pass"])
        self.assertIn("the baseline was not clean", late["reasons"][0])

    def test_a_request_in_flight_when_the_fault_came_is_judged_with_the_fault_not_the_baseline(self):
        # node-hung: a create started 0.1 s before the SIGSTOP, its answer cut off 2.5 s later
        cut = sample(-0.1, name="create", status=0, ms=2500.0, ok=False, code="IncompleteRead")
        v = self.judge("node-hung", clean_load(errors=[cut]))
        self.assertEqual(v["windows"]["before"]["errors"], 0)
        self.assertEqual(v["windows"]["during"]["errors"], 1)
        self.assertFalse([r for r in v["reasons"] if "baseline" in r], v["reasons"])
        self.assertIn("errors 1 of", v["reasons"][0])  # the fault's (this made-up load is small)
        # one that failed fast before the fault is still the baseline's
        early = sample(-0.1, name="create", status=502, ms=20.0, ok=False)
        v = self.judge("node-hung", clean_load(errors=[early]))
        self.assertIn("the baseline was not clean", v["reasons"][0])

    def test_one_error_fails_a_zero_error_scenario(self):
        v = self.judge("cache-shard-crash", clean_load(errors=[sample(5, status=502, ok=False)]))
        self.assertFalse(v["pass"])
        self.assertIn("errors 1 of", v["reasons"][0])

    def test_kill_allows_errors_under_a_tenth_of_a_percent(self):
        dense = [sample(k / 20) for k in range(-400, 1200)]  # 1200 requests from the fault on
        one = self.judge("node-kill", dense + [sample(5, "create", 503, ok=False)])
        self.assertTrue(one["pass"], one["reasons"])
        two = self.judge("node-kill", dense + [sample(5, "create", 503, ok=False), sample(6, status=0, ok=False)])
        self.assertFalse(two["pass"])

    def test_documented_refusal_is_not_an_error_but_must_be_fast(self):
        fast = sample(5, "create", 503, ms=50, ok=False, code="AUTH_UNAVAILABLE")
        v = self.judge("auth-redis-crash", clean_load(errors=[fast]))
        self.assertTrue(v["pass"], v["reasons"])
        self.assertEqual(v["from_fault"]["refused"], 1)
        slow = sample(6, "create", 503, ms=4000, ok=False, code="AUTH_UNAVAILABLE")
        self.assertFalse(self.judge("auth-redis-crash", clean_load(errors=[slow]))["pass"])
        read = sample(5, "search", 503, ok=False, code="AUTH_UNAVAILABLE")
        self.assertFalse(self.judge("auth-redis-crash", clean_load(errors=[read]))["pass"])

    def test_a_lost_write_or_an_index_difference_fails(self):
        self.assertFalse(self.judge("cache-shard-crash", clean_load(), lost=[(7, "absent")])["pass"])
        self.assertFalse(self.judge("cache-shard-crash", clean_load(), in_index={"node1": 0, "node2": 3})["pass"])
        self.assertFalse(self.judge("cache-shard-crash", clean_load(), ok_idx=False)["pass"])

    def test_index_differences_count_without_an_uncompared_content_column(self):
        # verify-index leaves content None when the versions already differed (binlog-purged run)
        v = self.judge("binlog-purged", clean_load(), ok_idx=False,
                       results={"node1": (10, 2, 1, 0, None, 0), "node2": (10, 0, 0, 0, 0, 0)})
        self.assertEqual(v["index_diffs_after_heal"], {"node1": 3, "node2": 0})
        self.assertFalse(v["pass"])

    def test_never_converged_is_not_recovered(self):
        v = self.judge("kafka-crash", clean_load(), converged=None)
        self.assertFalse(v["pass"])
        self.assertIsNone(v["recovery_s"])

    def test_a_slow_request_fails_the_hung_node_scenario(self):
        v = self.judge("node-hung", clean_load(errors=[sample(3, ms=10_000)]))
        self.assertFalse(v["pass"])
        self.assertIn("waited more than 3 s", v["reasons"][0])

    def test_recovery_counts_the_last_error_after_the_heal(self):
        samples = [x for x in clean_load(seconds=(-20, 200))] + [sample(30, status=502, ok=False)]
        v = self.judge("node-kill", samples)
        self.assertEqual(v["recovery_s"], 11.0)  # error at heal + 10 s, plus its second

    def test_report_files_are_written(self):
        v = self.judge("cache-shard-crash", clean_load())
        run = types.SimpleNamespace(dir=self.dir)
        report.write(BY_NAME["cache-shard-crash"], run, clean_load(), v,
                     types.SimpleNamespace(docs=self.dir, rate=100, hold=20))
        for ext in (".md", ".json"):
            self.assertTrue(os.path.exists(os.path.join(self.dir, "cache-shard-crash" + ext)))


class AlertTimes(unittest.TestCase):
    def test_an_alert_that_resolved_while_a_long_heal_ran_says_so(self):
        self.assertEqual(report.resolved_text(17.4), "resolved 17 s after the heal")
        self.assertEqual(report.resolved_text(-179.2), "resolved 179 s before the heal ended")


if __name__ == "__main__":
    unittest.main()


class CoolDown(unittest.TestCase):
    """The runner's gate before a fault: no node over --cpu-queue threads waiting for a core."""

    def test_a_node_over_the_limit_holds_the_fault(self):
        import run
        self.assertTrue(run.cpu_busy({"node1": 0.2, "node2": 7.7}, 1.0))
        self.assertFalse(run.cpu_busy({"node1": 0.2, "node2": 0.9}, 1.0))

    def test_an_unknown_queue_or_a_gate_set_off_does_not_hold_it(self):
        import run
        self.assertFalse(run.cpu_busy({"node1": None, "node2": None}, 1.0))
        self.assertFalse(run.cpu_busy({"node1": 9.0, "node2": 9.0}, 0))

    def test_the_page_names_the_queue_at_the_fault(self):
        self.assertEqual(report.cpu_text({"node1": 0.25, "node2": None}), "node1 0.2, node2 unknown")
        self.assertEqual(report.cpu_text({}), "not read")
