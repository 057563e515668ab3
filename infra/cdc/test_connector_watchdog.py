"""Unit tests of the connector watchdog's decisions (no Connect needed): make test-tools."""
import unittest

import connector_watchdog as w

MARIADB_PURGED = ("org.apache.kafka.connect.errors.ConnectException: An exception occurred in the change event "
                  "producer. This connector will be stopped.\n\tat io.debezium...\nCaused by: "
                  "com.github.shyiko.mysql.binlog.network.ServerException: Could not find GTID state requested by "
                  "slave in any binlog files. Probably the slave state is too old and required binlog files have "
                  "been purged.")


def status(connector="RUNNING", task="RUNNING", trace=""):
    t = {"id": 0, "state": task, "worker_id": "198.18.0.3:18083"}
    if task == "FAILED":
        t["trace"] = trace
    return {"name": "hanwiki-mariadb", "connector": {"state": connector}, "tasks": [t]}


class DecideTest(unittest.TestCase):

    def test_a_running_connector_is_left_alone(self):
        self.assertIsNone(w.decide(status(), 0, w.Memory()))

    def test_an_operators_stop_or_pause_is_respected(self):
        self.assertIsNone(w.decide(status("STOPPED", "RUNNING"), 0, w.Memory()))
        self.assertIsNone(w.decide(status("PAUSED", "PAUSED"), 0, w.Memory()))

    def test_connect_unreachable_is_not_acted_on(self):
        self.assertIsNone(w.decide(None, 0, w.Memory()))

    def test_a_purged_binlog_position_takes_a_new_snapshot_once(self):
        memory = w.Memory()
        action = w.decide(status(task="FAILED", trace=MARIADB_PURGED), 0, memory)
        self.assertEqual("resnapshot", action.kind)
        self.assertIn("purged", action.reason)
        # still FAILED on the next look (the snapshot is starting): not a second one
        self.assertIsNone(w.decide(status(task="FAILED", trace=MARIADB_PURGED), 10, memory))
        # after the cooldown, a position still purged is worth another try
        again = w.decide(status(task="FAILED", trace=MARIADB_PURGED), w.RESNAPSHOT_COOLDOWN_S + 1, memory)
        self.assertEqual("resnapshot", again.kind)

    def test_a_failed_resnapshot_is_tried_again_soon(self):
        memory = w.Memory()
        purged = status(task="FAILED", trace=MARIADB_PURGED)
        self.assertEqual("resnapshot", w.decide(purged, 0, memory).kind)
        w.resnapshot_failed(5, memory)  # Connect did not answer in time
        self.assertIsNone(w.decide(purged, 5 + w.FIRST_BACKOFF_S - 1, memory))
        self.assertEqual("resnapshot", w.decide(purged, 5 + w.FIRST_BACKOFF_S, memory).kind)

    def test_the_reason_quotes_the_purge_message_not_the_generic_first_line(self):
        action = w.decide(status(task="FAILED", trace=MARIADB_PURGED), 0, w.Memory())
        self.assertIn('"Could not find GTID state requested by slave in any binlog files"', action.reason)

    def test_the_log_line_names_every_state(self):
        self.assertEqual("connector RUNNING, task 0 FAILED", w.describe(status(task="FAILED", trace="x")))
        self.assertEqual("Connect cannot be asked", w.describe(None))

    def test_debeziums_own_purged_message_counts_too(self):
        trace = ("ConnectException: The connector is trying to read binlog starting at ... but this is no longer "
                 "available on the server. Reconfigure the connector to use a snapshot when needed.")
        self.assertEqual("resnapshot", w.decide(status(task="FAILED", trace=trace), 0, w.Memory()).kind)

    def test_another_failure_is_restarted_with_a_growing_back_off(self):
        memory = w.Memory()
        failed = status(task="FAILED", trace="org.apache.kafka.connect.errors.ConnectException: boom\n\tat x")
        first = w.decide(failed, 0, memory)
        self.assertEqual("restart", first.kind)
        self.assertIn("task 0 FAILED (org.apache.kafka.connect.errors.ConnectException: boom)", first.reason)
        self.assertIsNone(w.decide(failed, w.FIRST_BACKOFF_S - 1, memory))
        self.assertEqual("restart", w.decide(failed, w.FIRST_BACKOFF_S, memory).kind)
        # the second wait is twice the first
        self.assertIsNone(w.decide(failed, 3 * w.FIRST_BACKOFF_S - 1, memory))
        self.assertEqual("restart", w.decide(failed, 3 * w.FIRST_BACKOFF_S, memory).kind)

    def test_the_back_off_is_capped_and_starts_over_once_running_steadily(self):
        memory = w.Memory()
        failed = status(connector="FAILED", task="RUNNING")
        now = 0.0
        for _ in range(10):
            now = memory.next_allowed
            self.assertIsNotNone(w.decide(failed, now, memory))
        self.assertEqual(w.MAX_BACKOFF_S, memory.backoff)
        # running for a moment only (it fails again within STABLE_S): still backing off
        self.assertIsNone(w.decide(status(), now, memory))
        self.assertIsNone(w.decide(failed, now + 10, memory))
        self.assertEqual(w.MAX_BACKOFF_S, memory.backoff)
        # running steadily: the next failure is a new incident, restarted at once
        self.assertIsNone(w.decide(status(), now + 20, memory))
        self.assertIsNone(w.decide(status(), now + 20 + w.STABLE_S, memory))
        self.assertEqual(w.FIRST_BACKOFF_S, memory.backoff)
        self.assertEqual("restart", w.decide(failed, now + 30 + w.STABLE_S, memory).kind)

    def test_a_second_purge_after_a_recovery_gets_its_own_snapshot(self):
        memory = w.Memory()
        purged = status(task="FAILED", trace=MARIADB_PURGED)
        self.assertEqual("resnapshot", w.decide(purged, 0, memory).kind)
        self.assertIsNone(w.decide(status(), 20, memory))          # the snapshot runs
        self.assertIsNone(w.decide(status(), 20 + w.STABLE_S, memory))
        # purged again (a chaos drill, a long Connect outage) well within the first's cooldown
        self.assertEqual("resnapshot", w.decide(purged, 30 + w.STABLE_S, memory).kind)

    def test_the_first_trace_line_names_the_failure(self):
        self.assertEqual("no trace", w.first_line(""))
        self.assertEqual("a", w.first_line("\n  a\n b"))


if __name__ == "__main__":
    unittest.main()
