"""The chaos scenarios: how each fault is injected and healed, and what must hold (issue 16).

A scenario's expectation is judged on the requests sent from the fault's start to the end of
the run (during + after): ERRORS are answers that are neither the mix's correct answer nor a
refusal the scenario documents (e.g. 503 AUTH_UNAVAILABLE for a signed-in write while the auth
Redis is down); max_error_rate bounds them. Every scenario also requires: no acknowledged write
lost, zero index differences after heal, and recovery (errors and documented refusals back to zero, indexes converged)
within the budget. Alerts are reported (fired / resolved after how long), not judged: most have
`for: 1m`, so a fault held for less than about 90 s may heal before its alert fires."""
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CTL = os.path.join(ROOT, "infra", "ctl.sh")


def ctl(*args):
    subprocess.run(["bash", CTL, *args], check=True, stdout=subprocess.DEVNULL)


def pid_of(env, component):
    with open(os.path.join(env["VAR"], "run", f"{component}.pid")) as f:
        return int(f.read().strip())


def signal_component(env, component, sig):
    os.kill(pid_of(env, component), sig)


WRITES = ("create", "edit")


def _purge_binlog_behind_connect(env):
    """Connect down, 20 s of writes, then the binlog holding them rotated and purged: when Connect
    returns, its stored offset points into a binlog that is gone."""
    from load_prepare import primary_sql  # infra/bench: rows of an answer on the primary, as root
    ctl("kill", "connect")
    time.sleep(20)
    primary_sql(env, "FLUSH BINARY LOGS")
    newest = primary_sql(env, "SHOW MASTER STATUS")[0][0]
    # MariaDB keeps a file a binlog dump thread (the replica, the archiver) still reads: they
    # move to the new file within moments of the rotation, so purge until only it is left.
    deadline = time.time() + 15
    while True:
        try:
            primary_sql(env, f"PURGE BINARY LOGS TO '{newest}'")
        except subprocess.CalledProcessError:
            pass  # MariaDB may refuse while a connected replica has yet to read a file: again
        left = [row[0] for row in primary_sql(env, "SHOW BINARY LOGS")]
        if len(left) == 1 or time.time() > deadline:
            break
        time.sleep(0.5)
    if len(left) != 1:
        raise SystemExit(f"could not purge the binlogs before {newest}: still there {left}")


def log_size(env, name):
    """The size of var/log/NAME now: where a later log_lines_since starts reading."""
    path = os.path.join(env["VAR"], "log", name)
    return os.path.getsize(path) if os.path.exists(path) else 0


def log_lines_since(env, name, since, *words):
    """Lines of var/log/NAME written after offset `since` holding any of `words` (stripped), or
    None when the log is missing. A log rotated meanwhile (copytruncate) is read whole."""
    path = os.path.join(env["VAR"], "log", name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        f.seek(since if os.path.getsize(path) >= since else 0)
        return [l.strip() for l in f if any(w in l for w in words)]


WATCHDOG_LOG = "cdc-watchdog.log"


def _watchdog_log_size(env, run):
    return log_size(env, WATCHDOG_LOG)


def _watchdog_resnapshotted(env, since, run):
    """The recovery was the watchdog's new snapshot (not a purge that missed, as a first run did)."""
    lines = log_lines_since(env, WATCHDOG_LOG, since, "re-snapshot")
    if lines is None:
        return False, "no CDC watchdog log (var/log/cdc-watchdog.log): is the cdc-watchdog component running?"
    done = any("re-snapshot started" in l for l in lines)
    return done, ("the CDC watchdog (infra/cdc/connector_watchdog.py) logged: " + " / ".join(lines)
                  if lines else "the CDC watchdog took no new snapshot (var/log/cdc-watchdog.log)")


# --- 100 ms on the links to MariaDB, Redis and Kafka: the nodes restarted onto a TCP proxy -------
LATENCY = os.path.join(ROOT, "infra", "chaos", "latency.sh")


def latency(*args):
    subprocess.run(["bash", LATENCY, *args], check=True, stdout=subprocess.DEVNULL)


def _onto_proxies(env, run):
    """Before the load: both nodes restarted (drained) onto the proxies, no latency yet, so the
    baseline is measured through the same proxies as the fault."""
    latency("setup")


def _off_proxies(env):
    """Always, after the run or its failure: the nodes back on the direct links, the proxy stopped."""
    latency("teardown")


def _proxied_links(env, state, run):
    return True, ("the nodes reached MariaDB (primary, replica) and the four Redis through toxiproxy "
                  "on host M for the whole run, and Kafka through its listener advertised on the proxy; "
                  "the fault added 100 ms to every answer on those links")


def _start_connect_tolerant(env):
    try:
        ctl("start", "connect")
    except subprocess.CalledProcessError:
        pass  # the connector may fail to resume: the verdict says so (indexes never converge)


def write_refused_with(*codes):
    """A write answered 503 with one of these problem codes is the documented refusal."""
    return lambda s: s[1] in WRITES and s[2] == 503 and s[5] in codes


@dataclass
class Scenario:
    name: str
    title: str
    expectation: str
    inject: Callable
    heal: Callable
    max_error_rate: float = 0.0
    max_wait_s: Optional[float] = None        # worst latency allowed from fault start to the end
    refused_fast_s: Optional[float] = None    # documented refusals must answer within this
    allowed: Callable = lambda s: False       # sample -> a documented refusal, not an error
    alerts: tuple = ()
    runbook: str = ""
    judged: bool = True                       # False: the service is knowingly down (report only)
    budget_per_1k_posts_s: float = 0.0        # recovery re-reads every post: budget + this per 1,000 posts
    before: Optional[Callable] = None         # env, run -> state for after
    after: Optional[Callable] = None          # env, state, run -> (ok, text)
    cleanup: Optional[Callable] = None        # env: undoes `before`, also when the run fails
    notes: list = field(default_factory=list)


# --- auth Redis: a token revoked before the outage must stay revoked after it --------------------
def _revoke_one(env, run):
    import api  # infra/bench
    node = f"http://{run.addr('NODE1')}:{env['NODE1_PORT']}"
    _, _, token = api.sign_up(node, prefix="chaosrv")
    status, _, _ = api.call("POST", f"{node}/api/v1.0/auth/logout", token=token)
    if status not in (200, 204):
        raise SystemExit(f"logout answered {status}")
    return token


def _revoked_stays_revoked(env, token, run):
    import api
    node = f"http://{run.addr('NODE1')}:{env['NODE1_PORT']}"
    for _ in range(20):
        status, body, _ = api.call("GET", f"{node}/api/v1.0/auth/me", token=token)
        if status != 503:
            break
        time.sleep(0.5)
    return status == 401, f"a token revoked before the outage, after it: GET /auth/me answered {status} (want 401)"


# --- the primary's data disk full: its data directory moved onto a small filesystem, filled ----
DISK = os.path.join(ROOT, "infra", "chaos", "disk.sh")


def disk(*args):
    subprocess.run(["bash", DISK, *args], check=True, stdout=subprocess.DEVNULL)


PRIMARY_LOG = "mariadb-primary.log"


def _onto_small_disk(env, run):
    """Before the load: the primary restarted onto its own small filesystem (infra/chaos/disk.sh)."""
    disk("setup")
    return log_size(env, PRIMARY_LOG)


def _off_small_disk(env):
    """Always, after the run or its failure: the data directory back on the machine's filesystem."""
    disk("teardown")


def _nothing_corrupt(env, since, run):
    """The fault bit (MariaDB met the full disk), and left nothing damaged: every table of the app
    checks OK on the primary, and the replica still applies the primary's changes without error."""
    from load_prepare import db_sql, primary_sql
    # Paths in the log line relative to the checkout, so the committed verdict names no machine.
    full = [l.replace(ROOT + "/", "") for l in log_lines_since(env, PRIMARY_LOG, since, "Disk is full", "No space left") or []]
    tables = [r[0] for r in primary_sql(env, "SELECT table_name FROM information_schema.tables "
                                             "WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'")]
    checked = primary_sql(env, "CHECK TABLE " + ", ".join(f"`{t}`" for t in tables))
    bad = [r for r in checked if r[2] in ("error", "warning") or (r[2] == "status" and r[3] != "OK")]
    replica = db_sql(env, "SHOW ALL SLAVES STATUS", "replica", named=True)
    status = replica[0] if replica else {}
    io, sql = status.get("Slave_IO_Running"), status.get("Slave_SQL_Running")
    ok = bool(full) and not bad and io == "Yes" and sql == "Yes"
    return ok, (f"MariaDB met the full disk ({len(full)} log lines, first: {full[0][:160] if full else 'none'}); "
                f"CHECK TABLE on the primary: {len(tables) - len(bad)}/{len(tables)} tables OK"
                + (f", not OK: {bad}" if bad else "")
                + f"; replica IO {io}, SQL {sql}" + (f", last error: {status.get('Last_Error')}" if status.get("Last_Error") else ""))


# --- primary lost: restored from the base backup and the streamed binlog archive (ADR 0054) ------
BACKUP = os.path.join(ROOT, "infra", "backup.sh")


def backup(*args):
    """infra/backup.sh ARGS; its last output line (the restore's "recovery point GTID ...")."""
    out = subprocess.run(["bash", BACKUP, *args], check=True, stdout=subprocess.PIPE, text=True).stdout
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def _base_backup(env, run):
    """A base backup taken during the baseline, as an operator's nightly one would be."""
    t = time.time()
    backup("full")
    return {"base_s": time.time() - t}


def _restore(env):
    t = time.time()
    _restore.point = backup("restore")
    _restore.took = time.time() - t


def _recovery_point(env, state, run):
    return True, (f"base backup {state['base_s']:.0f} s during the baseline; restore (copy back, archive "
                  f"replayed, replica re-seeded, new snapshot, indexes rebuilt) {_restore.took:.0f} s; "
                  f"{_restore.point}")


SCENARIOS = [
    Scenario("node-stop", "app node 2 stopped gracefully (drained), then started",
             "0 errors: nginx drains the node before SIGTERM; it rejoins once caught up",
             lambda env: ctl("stop", "node2"), lambda env: ctl("start", "node2"),
             alerts=("AppNodeDown",), runbook="node-stop-and-crash.md"),
    Scenario("node-kill", "app node 2 SIGKILLed (a crash), then started",
             "errors only for requests in flight at the kill: < 0.1%",
             lambda env: ctl("kill", "node2"), lambda env: ctl("start", "node2"),
             max_error_rate=0.001, alerts=("AppNodeDown",), runbook="node-stop-and-crash.md"),
    Scenario("cache-shard-crash", "Redis cache shard 2 SIGKILLed, then started",
             "its keys are misses served from the origin: 0 errors",
             lambda env: ctl("kill", "redis-shard2"), lambda env: ctl("start", "redis-shard2"),
             alerts=("CacheShardDown",), runbook="cache-shard-down.md"),
    Scenario("replica-crash", "the MariaDB replica SIGKILLed, then started",
             "reads move to the primary: 0 errors",
             lambda env: ctl("kill", "mariadb-replica"), lambda env: ctl("start", "mariadb-replica"),
             alerts=("ReplicaDown",), runbook="replica-down.md"),
    Scenario("kafka-crash", "the Kafka broker SIGKILLed, then started",
             "writes keep being acknowledged (0 errors); search freshness stops, then catches up",
             lambda env: ctl("kill", "kafka"), lambda env: ctl("start", "kafka"),
             alerts=("KafkaBrokerDown", "IndexerStopped", "DebeziumConnectorNotRunning"), runbook="cdc.md"),
    Scenario("connect-crash", "Kafka Connect (Debezium) SIGKILLed, then started",
             "writes keep being acknowledged (0 errors); search freshness stops, then catches up",
             lambda env: ctl("kill", "connect"), lambda env: ctl("start", "connect"),
             alerts=("KafkaConnectDown", "DebeziumConnectorNotRunning"), runbook="cdc.md"),
    Scenario("auth-redis-crash", "the auth Redis (token blacklist) SIGKILLed, then started",
             "signed-in writes refused with 503 AUTH_UNAVAILABLE, anonymous reads 0 errors, "
             "a token revoked before stays revoked after",
             lambda env: ctl("kill", "redis-auth"), lambda env: ctl("start", "redis-auth"),
             allowed=write_refused_with("AUTH_UNAVAILABLE"), refused_fast_s=3.0,
             alerts=("AuthRedisDown",), runbook="auth-redis-down.md",
             before=_revoke_one, after=_revoked_stays_revoked),
    Scenario("primary-restart", "the MariaDB primary stopped (clean shutdown), then started",
             "writes refused fast (< 3 s) with 503 DATABASE_UNAVAILABLE, reads 0 errors, nothing "
             "acknowledged lost; replica and CDC resume by themselves",
             lambda env: ctl("stop", "mariadb-primary"), lambda env: ctl("start", "mariadb-primary"),
             allowed=write_refused_with("DATABASE_UNAVAILABLE", "SERVICE_UNAVAILABLE"), refused_fast_s=3.0,
             alerts=("PrimaryDown",), runbook="primary-down.md"),
    Scenario("node-hung", "app node 2 frozen (SIGSTOP), then resumed (SIGCONT)",
             "< 0.1% errors and no request waits more than 3 s (a hung node is detected quickly, "
             "not after the read timeout)",
             lambda env: signal_component(env, "node2", signal.SIGSTOP),
             lambda env: signal_component(env, "node2", signal.SIGCONT),
             max_error_rate=0.001, max_wait_s=3.0, alerts=("AppNodeDown",), runbook="node-hung.md"),
    Scenario("latency-100ms", "100 ms added to every answer on the links from both nodes to MariaDB (primary, "
             "replica), Redis (cache shards, auth) and Kafka, through toxiproxy; then removed",
             "every feature works (0 errors); latency rises by a bounded amount: no request waits more than 3 s",
             lambda env: latency("add", "100"), lambda env: latency("remove"),
             max_wait_s=3.0, runbook="slow-links.md", before=_onto_proxies, after=_proxied_links,
             cleanup=_off_proxies),
    Scenario("host-b-isolate", "host B's network link cut (node 2, replica, shards 2-3, Kafka, Connect), then restored",
             "host A keeps serving: reads from node 1 (replica reads fall back to the primary, shard "
             "2-3 keys are misses), writes acknowledged by the primary; search freshness stops until "
             "the heal; errors < 0.1% (requests in flight on host B at the cut)",
             lambda env: ctl("isolate", "B"), lambda env: ctl("heal", "B"),
             max_error_rate=0.001, alerts=("HostDown",), runbook="host-down.md"),
    Scenario("shards-kafka", "all three Redis cache shards and Kafka SIGKILLed together, then started",
             "service continues from the origin: 0 errors; freshness catches up after",
             lambda env: [ctl("kill", c) for c in ("redis-shard1", "redis-shard2", "redis-shard3", "kafka")],
             lambda env: [ctl("start", c) for c in ("kafka", "redis-shard1", "redis-shard2", "redis-shard3")],
             alerts=("CacheShardDown", "KafkaBrokerDown"), runbook="cache-shard-down.md"),
    Scenario("host-a-isolate", "host A's network link cut (nginx, node 1, primary, shard 1, auth Redis), then restored",
             "no service: the public entry (nginx) is on host A. Judged only on what follows the "
             "heal: errors back to zero, nothing acknowledged lost, indexes converge",
             lambda env: ctl("isolate", "A"), lambda env: ctl("heal", "A"),
             judged=False, alerts=("HostDown",), runbook="host-down.md"),
    Scenario("binlog-purged", "Connect killed, 20 s of writes, the binlog holding them purged, Connect started",
             "writes acknowledged throughout (0 errors); the CDC watchdog sees the task fail on the "
             "purged position and takes a new snapshot; the indexes converge",
             _purge_binlog_behind_connect, _start_connect_tolerant,
             alerts=("KafkaConnectDown", "DebeziumConnectorNotRunning"), runbook="cdc.md",
             before=_watchdog_log_size, after=_watchdog_resnapshotted,
             # The new snapshot re-reads every post and both nodes re-index it at low priority
             # under the load: about 1.6 s per 1,000 posts measured (112k posts, session 9).
             budget_per_1k_posts_s=3.0),
    Scenario("disk-full", "the MariaDB primary's data disk filled (its data directory on a filesystem of its "
             "own for the run), then space freed",
             "writes refused with a clear 503 (WRITE_NOT_CONFIRMED: the primary held the commit, which "
             "may complete later; DATABASE_FULL: InnoDB could not grow a table and refused the write; "
             "then DATABASE_UNAVAILABLE while writes pause) within 2.5 s, reads 0 "
             "errors, no request waits more than 3 s; nothing corrupt (CHECK TABLE, replica applying), "
             "nothing acknowledged lost; writes resume once space is back (MariaDB retries a full disk "
             "once a minute)",
             lambda env: disk("fill"), lambda env: disk("free"),
             allowed=write_refused_with("WRITE_NOT_CONFIRMED", "DATABASE_FULL", "DATABASE_UNAVAILABLE"),
             refused_fast_s=2.5,
             max_wait_s=3.0, alerts=("DiskFull",), runbook="disk-full.md",
             before=_onto_small_disk, after=_nothing_corrupt, cleanup=_off_small_disk),
    Scenario("primary-restore", "the MariaDB primary SIGKILLed and its data directory lost, then restored "
             "from the base backup and the binlog archive (make restore)",
             "no service while the restore runs (it stops both nodes); every acknowledged write is back "
             "(the archive streams every committed transaction), the replica re-seeded, indexes converge",
             lambda env: backup("lose-primary"), _restore,
             judged=False, alerts=("PrimaryDown",), runbook="backup-restore.md",
             before=_base_backup, after=_recovery_point,
             # The nodes rebuild their indexes from a new snapshot of every post (see binlog-purged).
             budget_per_1k_posts_s=3.0),
]

BY_NAME = {s.name: s for s in SCENARIOS}
