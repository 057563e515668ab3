#!/usr/bin/env python3
"""The Debezium connector's watchdog (the "cdc-watchdog" component, on host M).

Kafka Connect never restarts a failed task by itself, and Debezium's `snapshot.mode=when_needed`
does not notice, on MariaDB, that the binlog position it stored was purged (it asks for purged
GTIDs; MariaDB keeps no such list): the task fails with error 1236 and search freshness stops
until an operator acts (docs/runbooks/cdc.md). This process does what that runbook says, every
INTERVAL seconds:

- a task FAILED because its stored binlog position is gone -> `infra/backup.sh resnapshot`
  (connector stopped, its offsets deleted, resumed: it reads every post again, then streams);
- a connector or task FAILED for any other reason -> restart the failed parts through Connect's
  REST API, backing off (30 s, doubling up to 10 min) while they keep failing, so a fault that
  persists (a poison configuration, the primary gone) is retried slowly rather than hammered.

Once the connector has run for STABLE_S (60 s) after an action, the incident is over: the next
failure is met at once again, with the first back-off.

Every action is logged with the failure's first trace line. Nothing is done while the connector
is RUNNING, PAUSED or STOPPED (an operator's stop is respected), or while Connect cannot be asked.
"""
import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Optional

# What a task's trace says when the position it resumes from is no longer on the server.
PURGED = (
    "Could not find GTID state requested by slave in any binlog files",  # MariaDB, error 1236
    "Could not find first log file name in binary log index file",        # file+position offset
    "purged binary logs containing GTIDs",                                # MySQL, error 1236
    "but this is no longer available on the server",                      # Debezium's own check
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the infra scripts' colours, out of this log

FIRST_BACKOFF_S = 30.0
MAX_BACKOFF_S = 600.0
# A resnapshot is one action for a while: the connector re-reads every post first.
RESNAPSHOT_COOLDOWN_S = 300.0
# Running this long after an action ends the incident: a failure after it is a new one, met at
# once and with the first back-off again. A task that fails within it keeps backing off.
STABLE_S = 60.0


@dataclass
class Action:
    kind: str            # "restart" or "resnapshot"
    reason: str


@dataclass
class Memory:
    """What the watchdog remembers between looks: when it may act next and how long it waits."""
    next_allowed: float = 0.0
    backoff: float = FIRST_BACKOFF_S
    healthy_since: Optional[float] = None


def failures(status: dict) -> list:
    """(part, trace) for the connector and each task that is FAILED."""
    found = []
    connector = status.get("connector") or {}
    if connector.get("state") == "FAILED":
        found.append(("connector", connector.get("trace") or ""))
    for task in status.get("tasks") or []:
        if task.get("state") == "FAILED":
            found.append((f"task {task.get('id')}", task.get("trace") or ""))
    return found


def describe(status: Optional[dict]) -> str:
    """One line for the log: the connector's and each task's state."""
    if status is None:
        return "Connect cannot be asked"
    tasks = ", ".join(f"task {t.get('id')} {t.get('state')}" for t in status.get("tasks") or []) or "no tasks"
    return f"connector {(status.get('connector') or {}).get('state')}, {tasks}"


def resnapshot_failed(now: float, memory: Memory) -> None:
    """The re-snapshot command failed (Connect slow to answer, say): try again soon, not after the cooldown."""
    memory.next_allowed = now + FIRST_BACKOFF_S


def first_line(trace: str) -> str:
    line = next((l.strip() for l in trace.splitlines() if l.strip()), "no trace")
    return line[:300]


def decide(status: Optional[dict], now: float, memory: Memory) -> Optional[Action]:
    """The action to take now for this status, if any; updates memory for the next look."""
    if status is None:
        return None  # Connect cannot be asked: its own alert and restart are another matter
    failed = failures(status)
    if not failed:  # running, or stopped or paused by an operator
        if memory.healthy_since is None:
            memory.healthy_since = now
        if now - memory.healthy_since >= STABLE_S:
            memory.backoff = FIRST_BACKOFF_S
            memory.next_allowed = 0.0
        return None
    memory.healthy_since = None
    if now < memory.next_allowed:
        return None
    purged = [(part, trace) for part, trace in failed if any(p in trace for p in PURGED)]
    if purged:
        part, trace = purged[0]
        memory.next_allowed = now + RESNAPSHOT_COOLDOWN_S
        said = next(p for p in PURGED if p in trace)
        return Action("resnapshot", f"{part}: its binlog position was purged (\"{said}\")")
    part, trace = failed[0]
    memory.next_allowed = now + memory.backoff
    memory.backoff = min(memory.backoff * 2, MAX_BACKOFF_S)
    return Action("restart", f"{part} FAILED ({first_line(trace)})")


class Connect:
    """Connect's REST API through curl and the stack's curl config (URL and basic auth)."""

    def __init__(self, url: str, connector: str, curl_config: str):
        self.base = f"{url}/connectors/{connector}"
        self.curl_config = curl_config

    def _curl(self, *args) -> subprocess.CompletedProcess:
        return subprocess.run(["curl", "-K", self.curl_config, "-sS", "--max-time", "5", *args],
                              capture_output=True, text=True)

    def status(self) -> Optional[dict]:
        r = self._curl("-f", f"{self.base}/status")
        if r.returncode != 0:
            return None
        try:
            return json.loads(r.stdout)
        except ValueError:
            return None

    def restart_failed(self) -> str:
        r = self._curl("-X", "POST", "-o", "/dev/null", "-w", "%{http_code}",
                       f"{self.base}/restart?includeTasks=true&onlyFailed=true")
        return r.stdout.strip() or r.stderr.strip()


def log(message: str) -> None:
    print(time.strftime("%Y-%m-%dT%H:%M:%S%z"), message, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="Kafka Connect's REST address, http://host:port")
    ap.add_argument("--connector", required=True)
    ap.add_argument("--curl-config", required=True, help="curl config with Connect's credentials")
    ap.add_argument("--backup-script", required=True, help="infra/backup.sh: its 'resnapshot' takes a new snapshot")
    ap.add_argument("--heartbeat", required=True, help="file rewritten after every look (the health check reads its age)")
    ap.add_argument("--interval", type=float, default=10.0, help="seconds between looks (10)")
    args = ap.parse_args(argv)

    connect = Connect(args.url, args.connector, args.curl_config)
    memory = Memory()
    log(f"watching connector {args.connector} at {args.url} every {args.interval:g} s")
    last_seen = None
    while True:
        try:
            status = connect.status()
            seen = describe(status)
            if seen != last_seen:  # the first look, and every change
                log(seen)
                last_seen = seen
            action = decide(status, time.monotonic(), memory)
            if action and action.kind == "resnapshot":
                log(f"re-snapshot: {action.reason}")
                try:
                    done = subprocess.run(["bash", args.backup_script, "resnapshot"], capture_output=True,
                                          text=True, timeout=600)
                    code, out = done.returncode, done.stderr or done.stdout
                except subprocess.TimeoutExpired:
                    code, out = -1, "no answer within 600 s"
                tail = ANSI.sub("", out).strip().splitlines()[-1:] or [""]
                if code != 0:
                    resnapshot_failed(time.monotonic(), memory)
                log(f"re-snapshot {'started' if code == 0 else 'FAILED (exit %d)' % code}: {tail[0]}")
            elif action:
                log(f"restart: {action.reason}; Connect answered {connect.restart_failed()} "
                    f"(next restart no sooner than {memory.next_allowed - time.monotonic():.0f} s)")
            with open(args.heartbeat, "w", encoding="utf-8") as f:
                f.write(seen + "\n")
        except Exception as e:  # one bad answer must not end the watch
            log(f"look failed: {type(e).__name__}: {e}")
        time.sleep(args.interval)


if __name__ == "__main__":
    sys.exit(main())
