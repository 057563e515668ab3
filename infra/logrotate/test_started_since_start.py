#!/usr/bin/env python3
"""started_since_start (infra/lib/common.sh), the log half of a readiness check such as
kafka_ready, across a restart and a rotation (make check-monitoring).

A long-lived dev stack once reported Kafka "not healthy": the log-rotator had truncated
var/log/kafka.log, and with it the "Kafka Server started" line the check looked for. A log
emptied by the rotator holds no start header either, so the check believes the port then; a
start in progress (the header start_bg writes, not yet followed by the line) is still not
started, even when an earlier run's line is above it.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = "[KafkaRaftServer nodeId=1] Kafka Server started (kafka.server.KafkaRaftServer)"
HEADER = "\n=== kafka start 2026-12-07T16:00:00Z ===\n"


class StartedSinceStart(unittest.TestCase):
    def setUp(self):
        self.logs = tempfile.mkdtemp(prefix="hanwiki-started-test.")
        self.addCleanup(shutil.rmtree, self.logs)

    def started(self, content):
        if content is not None:
            with open(os.path.join(self.logs, "kafka.log"), "w") as f:
                f.write(content)
        run = subprocess.run(["bash", "-c", '. "$1/infra/lib/common.sh" && LOGS="$2" started_since_start kafka "$3"',
                              "check", ROOT, self.logs, "Kafka Server started"])
        return run.returncode == 0

    def test_a_start_followed_by_its_line_is_started(self):
        self.assertTrue(self.started(HEADER + "booting\n" + LINE + "\nmore\n"))

    def test_a_start_not_yet_followed_by_its_line_is_not(self):
        self.assertFalse(self.started(HEADER + "booting\n"))

    def test_a_restart_is_not_started_by_the_line_of_the_run_before(self):
        self.assertFalse(self.started(HEADER + LINE + "\n" + HEADER + "booting\n"))

    def test_a_log_the_rotator_emptied_is_started(self):
        self.assertTrue(self.started(""))
        self.assertTrue(self.started("[2026-12-07] INFO a line written after the rotation\n"))

    def test_no_log_is_not_started(self):
        self.assertFalse(self.started(None))

    def test_another_components_header_is_not_a_start(self):
        self.assertTrue(self.started("\n=== connect start 2026-12-07T16:00:00Z ===\n" + LINE + "\n"))


if __name__ == "__main__":
    unittest.main()
