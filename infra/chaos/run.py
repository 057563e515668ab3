#!/usr/bin/env python3
"""Chaos scenarios under load, with a verdict (issue 16; docs/chaos/README.md).

    make chaos                       lists the scenarios
    make chaos SCENARIO=node-kill    runs one; SCENARIO=all runs every scenario in order
    settings: RATE (100 req/s), HOLD (60 s), BASELINE (20 s), AFTER (30 s), BUDGET (180 s; binlog-purged
    and primary-restore, whose recovery re-reads every post, get 3 s more per 1,000 posts);
    a fault waits until every node has been up 120 s (--node-warm: a restarted node is cold)

One run: (1) checks the stack is steady (indexes agree with the primary); (2) starts the load
(infra/chaos/loadgen.py: the community mix at RATE req/s, open model, through nginx's public
entry) with a ledger of every acknowledged write in var/chaos/<run>/ledger.jsonl; (3) waits
BASELINE s (and for 10 s without errors, until both nodes have been up 120 s and until no node
has more than 1 thread waiting for a core, at most 90 s more); (4) injects the fault, holds it HOLD s, heals it;
(5) keeps the load on for at least AFTER s and until errors are back to zero and both indexes
agree with the primary (apart from the last 3 s of writes, still in flight through the change
stream), at most BUDGET s; (6) stops the load and checks: every ledger entry in the primary with
its version and content hash and in both indexes, verify-index at zero, the alerts the webhook
receiver got (var/alerts/received.jsonl). Writes docs/chaos/<scenario>.md, .json and .png
(DOCS=dir elsewhere) and exits 1 when the verdict is FAIL.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "infra"))
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))
sys.path.insert(0, os.path.join(ROOT, "infra", "bench"))
import checks  # noqa: E402
import ports_env  # noqa: E402
import verify_index  # noqa: E402
from loadgen import Load  # noqa: E402
from scenarios import BY_NAME, SCENARIOS  # noqa: E402
import report  # noqa: E402


def log(msg):
    print(f"[chaos {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Run:
    def __init__(self, env, scenario, args):
        self.env, self.s, self.args = env, scenario, args
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        self.dir = os.path.join(env["VAR"], "chaos", f"{scenario.name}-{stamp}")
        os.makedirs(self.dir, exist_ok=True)
        self.events = {}
        self.loadavg_start = list(os.getloadavg())
        self.cpu_waiting_at_fault = {}

    def addr(self, component):
        return ports_env.addr(self.env, component)

    def mark(self, name):
        self.events[name] = time.time()
        log(name)


def prepare(env):
    """Query words, post ids and 8 writer tokens, from the load suite's provisioning
    (infra/bench/load_prepare.py into var/chaos/load/, so k6's var/load/ is left alone). On a
    small database (after the ITs) it may find no word of some frequency class: then the words
    are the corpus' candidates unclassed, and the writers are signed up here."""
    import random
    import api
    import load_prepare
    d = os.path.join(env["VAR"], "chaos", "load")
    os.makedirs(d, exist_ok=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "infra", "bench", "load_prepare.py"), "--accounts", "8",
                        "--prefix", "chaosw", "--dir", d], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with open(os.path.join(d, "targets.json")) as f:
        ids = json.load(f)["ids"]
    if r.returncode == 0:
        with open(os.path.join(d, "queries.json")) as f:
            classes = json.load(f)["classes"]
        words = [w for c in ("rare", "medium", "high") for w in classes[c]]
        with open(os.path.join(d, "accounts.json")) as f:
            tokens = [a["token"] for a in json.load(f)]
    else:
        log(f"load_prepare: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}; "
            f"using the corpus' words unclassed")
        words = load_prepare.candidates(random.Random(14), 150)
        node = f"http://{ports_env.addr(env, 'NODE1')}:{env['NODE1_PORT']}"
        tokens = [api.sign_up(node, prefix="chaosw")[2] for _ in range(8)]
    if not words or not ids:
        raise SystemExit("no query words or post ids: seed the stack first (make seed)")
    return words, ids, tokens


def steady(env, wait):
    _, results = verify_index.check(env)
    t0 = time.monotonic()
    while not verify_index.clean(results) and time.monotonic() - t0 < wait:
        time.sleep(2)
        _, results = verify_index.check(env)
    return verify_index.clean(results), results


def nodes_warm_at(env, warm_s):
    """When the most recently started node has been up warm_s (its pid file is written at start).

    A node restarted less than that ago is still compiling its hot paths (JIT): on two shared cores
    its first minute at 100 req/s sheds on its own, so a fault is not injected before then
    (SCENARIO=all: shards-kafka, right after the node restarts of node-stop and node-kill, shed 19
    requests at load 6-11 that warm nodes do not)."""
    started = []
    for n in ("node1", "node2"):
        try:
            started.append(os.stat(os.path.join(env["VAR"], "run", f"{n}.pid")).st_mtime)
        except OSError:
            pass
    return max(started, default=0) + warm_s


def cpu_waiting(env):
    """Each node's threads waiting for a core, averaged over its limiter's last window (the gauge
    hanwiki_overload_cpu_waiting_threads its overload limit reads, ADR 0093); None where a node
    does not answer."""
    import math
    import stackstats
    out = {}
    for n in ("node1", "node2"):
        try:
            w = stackstats.node_gauge(env[n.upper() + "_PORT"], "hanwiki_overload_cpu_waiting_threads")
            out[n] = None if math.isnan(w) else w
        except (OSError, ValueError):
            out[n] = None
    return out


def cpu_busy(waiting, limit):
    """True while a node's CPU queue is over limit (0: the gate is off)."""
    return limit > 0 and any(w is not None and w > limit for w in waiting.values())


def errors_since(load, s, t):
    return [x for x in list(load.samples) if x[0] >= t and not x[4] and not s.allowed(x)]


def run_one(env, s, args, data):
    run = Run(env, s, args)
    ok, results = steady(env, 60)
    if not ok:
        raise SystemExit(f"{s.name}: the indexes disagree with the primary before the fault: {results}")
    if s.budget_per_1k_posts_s:
        from load_prepare import primary_sql
        posts = int(primary_sql(env, "SELECT COUNT(*) FROM posts")[0][0])
        args = argparse.Namespace(**vars(args))
        args.budget += s.budget_per_1k_posts_s * posts / 1000
        log(f"recovery budget {args.budget:.0f} s: its recovery re-reads all {posts} posts")
    try:
        state = s.before(env, run) if s.before else None
        return fault_and_verdict(env, s, args, data, run, state)
    finally:
        if s.cleanup:
            s.cleanup(env)


def fault_and_verdict(env, s, args, data, run, state):
    host = "127.0.0.1"
    load = Load(host, int(env["NGINX_PORT"]), args.rate, *data, os.path.join(run.dir, "ledger.jsonl"))
    run.mark("load started")
    load.start()
    # Baseline: the last BASELINE s before the fault without errors. A fresh load warms up first
    # (cold caches, the JIT; on a large corpus the first seconds may be shed as OVERLOADED): that
    # warm-up, at most 90 s (more while a node is younger than --node-warm), is reported as its
    # own window and not judged.
    time.sleep(args.baseline)
    warm_at = nodes_warm_at(env, args.node_warm)
    if warm_at > time.time():
        log(f"a node started {args.node_warm - (warm_at - time.time()):.0f} s ago: warming it under the load "
            f"until it has been up {args.node_warm:g} s")
    # Cool-down: a fault injected while the cores are still busy with earlier work (the previous
    # scenario's catch-up, a benchmark) tests that work and the fault together: the limits enter
    # the fault low and a slow dependency then sheds (latency-100ms failed at load 10, passed at
    # 0.2). So the fault also waits until no node has more than --cpu-queue threads waiting for a core.
    t_limit = max(time.time(), warm_at) + 90
    waiting = cpu_waiting(env)
    while (time.time() < warm_at or errors_since(load, s, time.time() - args.baseline)
           or cpu_busy(waiting, args.cpu_queue)) and time.time() < t_limit:
        time.sleep(1)
        waiting = cpu_waiting(env)
    if cpu_busy(waiting, args.cpu_queue):
        log(f"the CPU queue is still over {args.cpu_queue:g} after the warm-up's 90 s ({waiting}): injecting anyway")
    run.cpu_waiting_at_fault = waiting
    log(f"threads waiting for a core: {report.cpu_text(waiting)}")
    run.mark("fault injected")
    t_fault = run.events["fault injected"]
    s.inject(env)
    run.mark("fault in place")
    time.sleep(max(0.0, t_fault + args.hold - time.time()))
    run.mark("heal started")
    s.heal(env)
    run.mark("healed")
    t_healed = run.events["healed"]
    converged_at = None
    while True:
        now = time.time()
        def recent(since=now - 3):
            # Posts written from 3 s before the check began: the check reads the primary, then
            # each node, which takes tens of seconds on a large corpus; writes meanwhile differ.
            with load.lock:
                ids = {pid for pid, (_, _, t) in load.ledger.items() if t > since}
                return ids | (set(load.ledger) - set(load.free_posts))
        if converged_at is None and checks.converged_under_load(env, recent):
            converged_at = time.time()
            log(f"indexes converged {converged_at - t_healed:.1f} s after the heal")
        errs = report.unanswered_since(list(load.samples), t_healed)
        last_err = max((x[0] for x in errs), default=None)
        quiet = last_err is None or time.time() - last_err >= 10
        if converged_at and quiet and time.time() - t_healed >= args.after:
            break
        if time.time() - t_healed > args.budget:
            log("recovery budget spent")
            break
        time.sleep(2)
    run.mark("load stopped")
    load.stop()
    # Final checks, the load stopped: verify-index until zero (60 s), the ledger, the alerts.
    ok_idx, results = steady(env, 60)
    run.mark("verified")
    lost, rows = checks.ledger_lost(env, load.ledger, load.uncertain)
    in_index = checks.ledger_in_indexes(env, load.ledger, rows)
    extra = s.after(env, state, run) if s.after else None
    # Alerts: those that fired resolve within about a minute of the heal (group_interval 30 s).
    t_alert_limit = t_healed + args.alert_wait
    while True:
        got = checks.alerts(os.path.join(env["VAR"], "alerts", "received.jsonl"), s.alerts, t_fault)
        fired = {a for a, st, _ in got if st == "firing"}
        resolved = {a for a, st, _ in got if st == "resolved"}
        if fired <= resolved or time.time() > t_alert_limit:
            break
        time.sleep(3)
    verdict = report.judge(s, run, load.samples, t_fault, t_healed, converged_at, lost, in_index, results,
                           ok_idx, got, extra, args)
    report.write(s, run, load.samples, verdict, args)
    return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", nargs="?", default="")
    ap.add_argument("--rate", type=float, default=100)
    ap.add_argument("--hold", type=float, default=60)
    ap.add_argument("--baseline", type=float, default=20)
    ap.add_argument("--after", type=float, default=30)
    ap.add_argument("--budget", type=float, default=180, help="seconds after the heal to recover in")
    ap.add_argument("--node-warm", type=float, default=120,
                    help="inject no fault before every node has been up this many seconds (JIT warm-up)")
    ap.add_argument("--cpu-queue", type=float, default=1.0,
                    help="inject no fault while a node has more threads than this waiting for a core "
                         "(a cool-down after earlier work, at most 90 s; 0: off)")
    ap.add_argument("--alert-wait", type=float, default=90, help="seconds after the heal to wait for alerts to resolve")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "chaos"))
    args = ap.parse_args()
    if not args.scenario:
        print("scenarios (make chaos SCENARIO=name, or SCENARIO=all):")
        for s in SCENARIOS:
            print(f"  {s.name:18} {s.title}\n  {'':18} expect: {s.expectation}")
        return
    names = [s.name for s in SCENARIOS] if args.scenario == "all" else args.scenario.split(",")
    for n in names:
        if n not in BY_NAME:
            raise SystemExit(f"unknown scenario {n!r}: {', '.join(BY_NAME)} or all")
    env = ports_env.load()
    import api
    # This worktree's stack, not another one on the same global ports: its nginx pid file.
    try:
        with open(os.path.join(env["VAR"], "run", "nginx.pid")) as f:
            os.kill(int(f.read().strip()), 0)
    except (OSError, ValueError):
        raise SystemExit(f"this checkout's stack is not running ({env['VAR']}/run/nginx.pid): make up (and make seed) first")
    try:
        status, _, _ = api.call("GET", f"http://127.0.0.1:{env['NGINX_PORT']}/api/v1.0/categories", timeout=5)
    except OSError as e:
        raise SystemExit(f"the stack does not answer on 127.0.0.1:{env['NGINX_PORT']} ({e}): make up (and make seed) first")
    if status != 200:
        raise SystemExit(f"the stack answers {status} on /categories: not steady, no chaos run")
    data = None
    verdicts = []
    for n in names:
        data = prepare(env)  # fresh tokens per scenario (they live 30 min)
        log(f"scenario {n}: rate {args.rate:g}/s, hold {args.hold:g} s")
        v = run_one(env, BY_NAME[n], args, data)
        verdicts.append(v)
        print(report.line(v), flush=True)
        report.index(args.docs)
    sys.exit(0 if all(v["pass"] for v in verdicts) else 1)


if __name__ == "__main__":
    main()
