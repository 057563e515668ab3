"""Unit tests of bench-write-cost's arithmetic (infra/bench/write_cost.py): marginal CPU per write
per process, the idle subtraction, totals without the client, which writes prove a node caught
up, the indexer's stage split; and the shared pieces it stands on (stackstats' process tree and
metric parsing, writes.open_loop). No stack, no processes, well under a second.

    cd infra/bench && python3 -m unittest test_write_cost      (make test-write-cost; part of make test-tools)
"""
import threading
import time
import unittest

import stackstats
import write_cost as wc
from writes import open_loop


class Costs(unittest.TestCase):
    def test_marginal_is_the_window_cpu_above_the_idle_rate_per_write(self):
        # 3 CPU-s in 30 idle s = 0.1 CPU-s/s; 60 s window: 6 of its 12 CPU-s would have been spent anyway.
        table = wc.costs({"node1": 3.0}, 30, {"node1": 12.0}, 60, 1000)
        self.assertAlmostEqual(table["node1"]["idle_cpu_per_s"], 0.1)
        self.assertAlmostEqual(table["node1"]["window_cpu_s"], 12.0)
        self.assertAlmostEqual(table["node1"]["marginal_ms_per_write"], 6.0)

    def test_idle_is_subtracted_for_the_whole_window_drain_included(self):
        # 60 s of creates + 2 s of drain: the idle rate is taken off for 62 s, not 60.
        table = wc.costs({"kafka": 3.0}, 30, {"kafka": 12.0}, 62, 1000)
        self.assertAlmostEqual(table["kafka"]["marginal_ms_per_write"], 5.8)

    def test_a_process_that_only_idles_costs_nothing_per_write(self):
        table = wc.costs({"prometheus": 1.5}, 30, {"prometheus": 3.1}, 62, 6000)
        self.assertAlmostEqual(table["prometheus"]["marginal_ms_per_write"], 0.0)

    def test_a_process_missing_from_one_part_is_left_out(self):
        table = wc.costs({"node1": 1.0}, 30, {"node1": 2.0, "node2": 5.0}, 60, 100)
        self.assertEqual(set(table), {"node1"})


class StackTotal(unittest.TestCase):
    def test_the_client_is_not_part_of_the_stack(self):
        table = wc.costs({"node1": 3.0, "node2": 1.5, wc.CLIENT_ROW: 0.3},
                         30, {"node1": 12.0, "node2": 9.0, wc.CLIENT_ROW: 7.0}, 60, 1000)
        total = wc.stack_total(table)
        self.assertAlmostEqual(total["idle_cpu_per_s"], 0.15)
        self.assertAlmostEqual(total["window_cpu_s"], 21.0)
        self.assertAlmostEqual(total["marginal_ms_per_write"], 6.0 + 6.0)

    def test_the_total_is_the_sum_of_the_rows(self):
        table = wc.costs({"a": 1.0, "b": 2.0, "c": 0.0}, 10, {"a": 3.0, "b": 5.0, "c": 1.0}, 20, 500)
        total = wc.stack_total(table)
        self.assertAlmostEqual(total["marginal_ms_per_write"],
                               sum(v["marginal_ms_per_write"] for v in table.values()))


class Rows(unittest.TestCase):
    def test_monitoring_is_one_row_every_other_process_its_own(self):
        rows = wc.grouped({"prometheus": 1.0, "node-exporter-a": 0.5, "mysqld-exporter-primary": 0.25,
                           "alertmanager": 0.125, "mtail": 0.0625, "nginx": 2.0, wc.CLIENT_ROW: 4.0})
        self.assertEqual(rows, {wc.MONITORING_ROW: 1.9375, "nginx": 2.0, wc.CLIENT_ROW: 4.0})

    def test_pipeline_order_then_others_by_name_client_last(self):
        rows = [wc.CLIENT_ROW, "zz", "nginx", "node2", "binlog-archiver", wc.MONITORING_ROW, "node1"]
        self.assertEqual(wc.ordered(rows),
                         ["node1", "node2", "nginx", wc.MONITORING_ROW, "binlog-archiver", "zz", wc.CLIENT_ROW])


class DrainSet(unittest.TestCase):
    def test_the_last_sent_and_whatever_was_still_in_flight_then(self):
        W = wc.Write
        early = W(1, 1, sent=0.0, acked=1.0)     # answered before the last one was sent: committed before it
        slow = W(2, 1, sent=0.5, acked=3.0)      # still in flight when the last one was sent
        last = W(3, 1, sent=2.0, acked=2.5)
        after = W(4, 1, sent=1.5, acked=2.0)     # answered exactly when the last one was sent: kept
        self.assertEqual(sorted(w.id for w in wc.drain_set([early, slow, last, after])), [2, 3, 4])

    def test_nothing_written_nothing_to_wait_for(self):
        self.assertEqual(wc.drain_set([]), [])


class Indexer(unittest.TestCase):
    SAMPLES = [
        ("process_uptime_seconds", {"node": "node1"}, 700.0),
        ("hanwiki_indexer_events_applied_total", {}, 100.0),
        ("hanwiki_indexer_events_unchanged_total", {}, 80.0),
        ("hanwiki_indexer_events_stale_total", {}, 0.0),
        ("hanwiki_indexer_events_skipped_total", {}, 0.0),
        ("hanwiki_indexer_stage_seconds_count", {"stage": "apply"}, 10.0),
        ("hanwiki_indexer_stage_seconds_sum", {"stage": "apply"}, 0.5),
        ("hanwiki_indexer_stage_seconds", {"stage": "refresh", "quantile": "0.5"}, 9.0),
        ("hanwiki_indexer_stage_seconds_count", {"stage": "refresh"}, 10.0),
        ("hanwiki_indexer_stage_seconds_sum", {"stage": "refresh"}, 2.0),
        ("hanwiki_indexer_stage_seconds_max", {"stage": "refresh"}, 9.0),
    ]

    def test_one_scrape_gives_each_stage_apart(self):
        view = wc.indexer_view(self.SAMPLES)
        self.assertEqual(view["uptime_s"], 700.0)
        self.assertEqual(view["events"], 180.0)
        self.assertEqual(view["stages"]["apply"], {"count": 10.0, "sum": 0.5})
        self.assertEqual(view["stages"]["refresh"], {"count": 10.0, "sum": 2.0})
        self.assertEqual(view["stages"]["commit"], {})

    def test_refreshes_per_second_and_ms_each(self):
        before = {"events": 180.0, "stages": {"refresh": {"count": 10.0, "sum": 2.0}}}
        after = {"events": 1980.0, "stages": {"refresh": {"count": 1630.0, "sum": 50.6}}}
        split = wc.stage_split(before, after, 60, 1000)
        self.assertAlmostEqual(split["events_per_write"], 1.8)
        refresh = split["stages"]["refresh"]
        self.assertAlmostEqual(refresh["per_s"], 27.0)
        self.assertAlmostEqual(refresh["ms_each"], 30.0)
        self.assertAlmostEqual(refresh["busy_share"], 0.81)
        self.assertEqual(split["stages"]["commit"]["per_s"], 0.0)
        self.assertIsNone(wc.finite(split["stages"]["commit"]["ms_each"]))


class Metrics(unittest.TestCase):
    def test_prometheus_text_is_read_with_its_tags(self):
        text = ('# HELP hanwiki_indexer_stage_seconds Time the indexer thread spends per batch\n'
                '# TYPE hanwiki_indexer_stage_seconds summary\n'
                'hanwiki_indexer_stage_seconds_count{application="hanwiki",node="node1",stage="refresh",} 1630.0\n'
                'hanwiki_indexer_stage_seconds{node="node1",quantile="0.5",stage="apply",} 0.0012\n'
                'process_uptime_seconds 700.5\n')
        self.assertEqual(stackstats.parse(text), [
            ("hanwiki_indexer_stage_seconds_count", {"application": "hanwiki", "node": "node1", "stage": "refresh"}, 1630.0),
            ("hanwiki_indexer_stage_seconds", {"node": "node1", "quantile": "0.5", "stage": "apply"}, 0.0012),
            ("process_uptime_seconds", {}, 700.5)])

    def test_a_timer_keeps_its_slo_buckets_count_and_sum_not_inf(self):
        samples = [("hanwiki_indexer_visibility_lag_seconds_bucket", {"le": "0.25"}, 40.0),
                   ("hanwiki_indexer_visibility_lag_seconds_bucket", {"le": "1.0"}, 90.0),
                   ("hanwiki_indexer_visibility_lag_seconds_bucket", {"le": "+Inf"}, 100.0),
                   ("hanwiki_indexer_visibility_lag_seconds_count", {}, 100.0),
                   ("hanwiki_indexer_visibility_lag_seconds_sum", {}, 31.5),
                   ("hanwiki_indexer_visibility_lag_seconds_max", {}, 2.0)]
        self.assertEqual(stackstats.timer_of(samples, "hanwiki_indexer_visibility_lag_seconds"),
                         {0.25: 40.0, 1.0: 90.0, "count": 100.0, "sum": 31.5})
        self.assertEqual(stackstats.gauge_of(samples, "hanwiki_indexer_visibility_lag_seconds_max"), 2.0)


class ProcessTree(unittest.TestCase):
    def test_a_process_counts_what_it_forked_but_not_another_pid_files_process(self):
        cpu = {1: 0.5, 2: 2.0, 3: 100.0, 5: 0.25}
        kids = {1: [2, 3], 2: [4, 5], 3: [], 5: []}

        def read(pid):
            if pid not in cpu:
                raise FileNotFoundError(pid)  # 4 exited between the listing and the read
            return cpu[pid]

        self.assertEqual(stackstats.tree_cpu(1, roots={1, 3}, cpu=read, children=kids.get), 2.75)


class OpenLoop(unittest.TestCase):
    def test_warm_up_first_then_the_timed_writes_after_the_mark(self):
        calls, lock, marked = [], threading.Lock(), threading.Event()

        def write(i, timed):
            with lock:
                calls.append((i, timed, marked.is_set()))

        def mark():
            time.sleep(0.05)  # a write issued before the mark would run meanwhile
            marked.set()

        open_loop(5000, 3, 5, write, mark)
        self.assertEqual([c[:2] for c in sorted(calls)], [(0, False), (1, False), (2, False),
                                                         (3, True), (4, True), (5, True), (6, True), (7, True)])
        self.assertTrue(all(seen for _, timed, seen in calls if timed), "every timed write comes after the mark")


if __name__ == "__main__":
    unittest.main()
