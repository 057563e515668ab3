#!/usr/bin/env python3
"""What one create costs in CPU, per process of the stack: the marginal cost, idle left out.

    python3 infra/bench/write_cost.py --rate 100 --seconds 60 --idle 30 --warmup 20
    (make bench-write-cost RATE=100 SECONDS=60 IDLE=30 WARMUP=20)

1. Idle: IDLE seconds with no load; the CPU seconds of every process of the stack (stackstats,
   /proc of the pid files and what they forked) give each one's idle CPU per second: Prometheus
   scrapes, exporters, Kafka's and Connect's loops, timers, GC.
2. Warm-up: WARMUP seconds of creates at RATE, not measured.
3. Window: RATE creates per second for SECONDS (open loop, the same page and client as
   bench-freshness: writes.py), through nginx, with nothing polling the nodes. Then the drain:
   the window goes on until both nodes' search shows the last writes (so the indexing of every
   write is in it), asking each node at most every DRAIN_POLL seconds.
4. Per process: marginal CPU-ms per write = (window CPU - idle CPU/s x window seconds) / writes
   acknowledged. The stack total leaves this client out; it is printed apart. Also the gross
   figure (window CPU / writes, what bench-freshness reports, with its polling in), and per node
   the indexer thread's stages (hanwiki_indexer_stage_seconds: batches, i.e. refreshes, per
   second and ms per batch).

Figures are also appended as one JSON line to var/bench/write-cost.jsonl (commit, time,
parameters), so runs can be compared. docs/bench/write-cost.md explains the method.

Ports come from infra/ports.env. The stack must be up (make up).
"""
import argparse
import datetime
import http.client
import json
import math
import os
import subprocess
import sys
import threading
import time
from collections import namedtuple

import jfr
from api import ports, sign_up
from ports_env import ROOT, where  # noqa: E402
from stackstats import cpu_delta, cpu_seconds, gauge_of, scrape, timer_of
from writes import CLIENT, WORKERS, create, loadavg, open_loop, run_tag

CLIENT_ROW = "bench client"  # stackstats' name for this process
MONITORING_ROW = "monitoring"
MONITORING = {"prometheus", "alertmanager", "alert-receiver", "mtail"}  # and every "*exporter*"
# The pipeline of a write, in its order; a run without one of these is not measuring it.
PIPELINE = ("node1", "node2", "mariadb-primary", "mariadb-replica", "kafka", "connect",
            "redis-shard1", "redis-shard2", "redis-shard3", "redis-auth", "nginx")
ORDER = PIPELINE + ("public-entry", MONITORING_ROW)
STAGES = ("apply", "refresh", "listeners", "commit")
EVENTS = ("applied", "stale", "unchanged", "skipped")
DRAIN_POLL = 0.05

Write = namedtuple("Write", "id version sent acked")


def row_of(component):
    """The table row a process is counted in: monitoring together, every other one by name."""
    return MONITORING_ROW if component in MONITORING or "exporter" in component else component


def grouped(cpu):
    """{row: CPU seconds} from {component: CPU seconds}."""
    out = {}
    for component, secs in cpu.items():
        out[row_of(component)] = out.get(row_of(component), 0.0) + secs
    return out


def costs(idle_cpu, idle_seconds, window_cpu, window_seconds, writes):
    """{row: {"idle_cpu_per_s", "window_cpu_s", "marginal_ms_per_write"}} for every row measured in
    both windows: the CPU a write adds to each process over what it spends anyway."""
    out = {}
    for row, secs in window_cpu.items():
        if row not in idle_cpu:
            continue
        rate = idle_cpu[row] / idle_seconds
        out[row] = {"idle_cpu_per_s": rate, "window_cpu_s": secs,
                    "marginal_ms_per_write": 1000 * (secs - rate * window_seconds) / writes}
    return out


def stack_total(table):
    """The same three figures summed over the stack: every row but this client's."""
    keys = ("idle_cpu_per_s", "window_cpu_s", "marginal_ms_per_write")
    return {k: sum(v[k] for row, v in table.items() if row != CLIENT_ROW) for k in keys}


def ordered(rows):
    """Rows in the pipeline's order, then the others by name, this client last."""
    rank = {row: i for i, row in enumerate(ORDER)}
    return sorted(rows, key=lambda r: (r == CLIENT_ROW, rank.get(r, len(ORDER)), r))


def drain_set(writes):
    """The writes whose visibility on a node proves that it has applied every write of the run.
    The posts topic has one partition (infra/templates/kafka-plan.txt) in binlog order, and a node
    applies and refreshes it in that order: a write acknowledged before another was sent committed
    before it. So of the write sent last, L, every write acknowledged before L was sent comes
    first; those still in flight then (at most WORKERS, L among them) may come after it."""
    if not writes:
        return []
    last = max(writes, key=lambda w: w.sent)
    return [w for w in writes if w.acked >= last.sent]


def indexer_view(samples):
    """What a node's indexer has done so far, from one scrape: {"uptime_s", "events",
    "stages": {stage: {"count", "sum"}}}."""
    return {"uptime_s": gauge_of(samples, "process_uptime_seconds"),
            "events": math.fsum(v for e in EVENTS
                                if not math.isnan(v := gauge_of(samples, f"hanwiki_indexer_events_{e}_total"))),
            "stages": {s: timer_of(samples, "hanwiki_indexer_stage_seconds", stage=s) for s in STAGES}}


def stage_split(before, after, seconds, writes):
    """{"events_per_write", "stages": {stage: {"per_s", "ms_each", "busy_share"}}} between two
    indexer_view()s SECONDS apart: batches per second, ms per batch, share of the indexer thread."""
    out = {}
    for stage in STAGES:
        b, a = before["stages"].get(stage, {}), after["stages"].get(stage, {})
        n, s = a.get("count", 0.0) - b.get("count", 0.0), a.get("sum", 0.0) - b.get("sum", 0.0)
        out[stage] = {"per_s": n / seconds, "ms_each": 1000 * s / n if n else float("nan"),
                      "busy_share": s / seconds}
    return {"events_per_write": (after["events"] - before["events"]) / writes, "stages": out}


def wait_visible(nodes, pending, timeout):
    """Asks each node {name: port} which versions its search sees until it shows every
    (id, version) of PENDING; returns the seconds it took. Exits when TIMEOUT passes first."""
    start, told = time.perf_counter(), 0.0
    left = {name: dict(pending) for name in nodes}
    while any(left.values()):
        for name, port in nodes.items():
            if not left[name]:
                continue
            ids = ",".join(str(i) for i in left[name])
            try:
                status, body = CLIENT.call(port, "GET", f"/internal/index/versions?ids={ids}")
            except (OSError, http.client.HTTPException):
                status, body = None, None
            seen = body["data"] if status == 200 else {}
            left[name] = {i: v for i, v in left[name].items() if seen.get(str(i), -1) < v}
        waited = time.perf_counter() - start
        if not any(left.values()):
            break
        if waited > timeout:
            raise SystemExit(f"after {timeout:g} s the nodes still do not show the last writes: "
                             + ", ".join(f"{n} misses {len(v)}" for n, v in left.items() if v)
                             + " (is the indexer or Connect down? make status)")
        if waited - told >= 2:
            told = waited
            print(f"  drain: {waited:.0f} s, still missing: "
                  + ", ".join(f"{n} {len(v)}" for n, v in left.items()), file=sys.stderr)
        time.sleep(DRAIN_POLL)
    return time.perf_counter() - start


def finite(value):
    """VALUE with every nan or infinity (a stage that never ran, a gauge not found) as None, for JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def require_stack(cpu, env):
    missing = [c for c in PIPELINE if c not in cpu]
    if missing:
        raise SystemExit(f"the stack is not up: no live process for {', '.join(missing)} "
                         f"(pid files in {os.path.join(env['VAR'], 'run')}); start it with make up")


def git_commit():
    """(commit, dirty) of the checkout this script runs from."""
    def git(*a):
        return subprocess.run(["git", "-C", ROOT, *a], capture_output=True, text=True, timeout=30).stdout.strip()
    try:
        return git("rev-parse", "HEAD"), bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, default=100, help="creates per second")
    ap.add_argument("--seconds", type=float, default=60, help="seconds of measured creates")
    ap.add_argument("--idle", type=float, default=30, help="seconds without load first, for each process's idle CPU")
    ap.add_argument("--warmup", type=float, default=20, help="seconds of creates at the same rate, not measured")
    ap.add_argument("--drain-timeout", type=float, default=120,
                    help="seconds the nodes may take to show the last writes after the window")
    ap.add_argument("--jfr", action="store_true",
                    help="JFR on both nodes from the end of the warm-up to the end of the window (costs "
                         "them about 1-2%% more CPU); prints where each node's CPU went (jfr.py)")
    args = ap.parse_args()
    if args.rate <= 0 or args.rate * args.seconds < 1 or args.idle < 1 or args.warmup < 0:
        ap.error("need RATE > 0, RATE x SECONDS >= 1 write, IDLE >= 1 and WARMUP >= 0")
    env = ports()
    nginx = int(env["NGINX_PORT"])
    nodes = {name: int(env[f"{name.upper()}_PORT"]) for name in ("node1", "node2")}
    require_stack(cpu_seconds(), env)
    node1 = f"http://{where(env['NODE1_PORT'])}:{env['NODE1_PORT']}"
    try:
        for port in nodes.values():
            scrape(port)  # the indexer's metrics are read around the window: fail now, not then
        _, _, token = sign_up(node1, prefix="cost")
    except OSError as e:
        raise SystemExit(f"a node does not answer ({e}); is the stack up? make status")
    run = run_tag()
    warm, total = int(args.rate * args.warmup), int(args.rate * args.seconds)

    print(f"idle: {args.idle:g} s without load, for each process's idle CPU", file=sys.stderr)
    load_before, idle_before, t = loadavg(), cpu_seconds(), time.perf_counter()
    while (left := t + args.idle - time.perf_counter()) > 0:
        time.sleep(min(10, left))
        if left > 10:
            print(f"  idle {time.perf_counter() - t:.0f}/{args.idle:g} s", file=sys.stderr)
    idle_after = cpu_seconds()
    idle_seconds = time.perf_counter() - t
    load_idle = loadavg()

    acked, failed, lock = [], {"warm-up": [], "timed": []}, threading.Lock()
    timed_ids = set()

    def write(i, timed):
        sent = time.perf_counter()
        try:
            status, body = create(nginx, token, run, i)
        except (OSError, http.client.HTTPException) as e:
            status, body = e.__class__.__name__, None
        done = time.perf_counter()
        with lock:
            if status in (200, 201):
                acked.append(Write(body["data"]["id"], body["data"]["version"], sent, done))
                if timed:
                    timed_ids.add(body["data"]["id"])
            else:
                failed["timed" if timed else "warm-up"].append(status)

    at = {}

    def timed_start():
        # Scrapes first, so that reading the nodes' metrics is not in the window.
        at.update(indexer={n: indexer_view(scrape(p)) for n, p in nodes.items()}, load=loadavg())
        at.update(cpu=cpu_seconds(), t=time.perf_counter())

    print(f"{warm} warm-up + {total} measured creates at {args.rate:g}/s through nginx; nothing polls the nodes",
          file=sys.stderr)
    if args.jfr:
        # Started now with a delay (jcmd takes a second, which the open loop must not wait for).
        recording = jfr.start(env, nodes, f"write-cost-{run}", delay=args.warmup)
    open_loop(args.rate, warm, total, write, timed_start)
    send_seconds = time.perf_counter() - at["t"]
    load_window = loadavg()
    writes = len(timed_ids)
    if not writes:
        raise SystemExit(f"no measured create was acknowledged ({len(failed['timed'])} failed: "
                         f"{sorted(set(map(str, failed['timed'])))[:5]}); is the stack healthy? make status")
    last = drain_set(acked)
    print(f"drain: waiting until both nodes show the last {len(last)} writes (the ones in flight at the end; "
          f"at most {WORKERS})", file=sys.stderr)
    drain_seconds = wait_visible(nodes, {w.id: w.version for w in last}, args.drain_timeout)
    window_after = cpu_seconds()
    window_seconds = time.perf_counter() - at["t"]
    indexer_after = {n: indexer_view(scrape(p)) for n, p in nodes.items()}
    profiles = jfr.stop(env, recording, f"write-cost-{run}") if args.jfr else []

    idle_cpu, window_cpu = dict(cpu_delta(idle_before, idle_after)), dict(cpu_delta(at["cpu"], window_after))
    odd = sorted(c for c, s in list(idle_cpu.items()) + list(window_cpu.items()) if s < 0)
    apart = sorted(set(idle_cpu) ^ set(window_cpu))
    table = costs(grouped(idle_cpu), idle_seconds, grouped(window_cpu), window_seconds, writes)
    stack = stack_total(table)
    stack["gross_ms_per_write"] = 1000 * stack["window_cpu_s"] / writes
    indexer = {n: {"uptime_s": at["indexer"][n]["uptime_s"],
                   **stage_split(at["indexer"][n], indexer_after[n], window_seconds, writes)} for n in nodes}

    print(f"load average (1/5/15 min) before the idle part: {' '.join(load_before)}; at its end: "
          f"{' '.join(load_idle)}; when the measured creates started: {' '.join(at['load'])}; "
          f"when they ended: {' '.join(load_window)}")
    print(f"creates: {writes} acknowledged, {len(failed['timed'])} failed "
          f"({len(failed['warm-up'])} of {warm} in the warm-up); {writes / send_seconds:.1f}/s achieved "
          f"(asked {args.rate:g}/s); window {window_seconds:.1f} s = {send_seconds:.1f} s of creates "
          f"+ {drain_seconds:.2f} s until both nodes showed the last ones; idle part {idle_seconds:.1f} s")
    print("node uptime when the window started: "
          + ", ".join(f"{n} {v['uptime_s']:.0f} s" for n, v in indexer.items())
          + " (a node in its first minutes is still JIT-compiling)")
    print(f"CPU per process; marginal = (window CPU - idle CPU/s x {window_seconds:.1f} s) / {writes} writes")
    print(f"{'process':26} {'idle ms/s':>10} {'window CPU-s':>13} {'marginal ms/write':>18}")

    def line(name, v):
        print(f"{name:26} {1000 * v['idle_cpu_per_s']:10.1f} {v['window_cpu_s']:13.2f} {v['marginal_ms_per_write']:18.2f}")

    for row in ordered(table):
        if row != CLIENT_ROW:
            line(row, table[row])
    line("stack (without the client)", stack)
    if CLIENT_ROW in table:
        line(f"{CLIENT_ROW} (apart)", table[CLIENT_ROW])
    print(f"gross (stack window CPU / writes, idle in; bench-freshness also counts its client and its polling): "
          f"{stack['gross_ms_per_write']:.2f} CPU-ms per write")
    if odd:
        print(f"warning: negative CPU for {', '.join(odd)}: restarted during the run? their figures mean nothing")
    if apart:
        print(f"note: left out, not running in both parts: {', '.join(apart)}")
    print("indexer thread per node over the window (hanwiki_indexer_stage_seconds; one batch = one refresh):")
    print(f"{'node':6} {'events/write':>12} {'stage':>10} {'per s':>8} {'ms each':>8} {'busy':>7}")
    for n, v in indexer.items():
        for k, stage in enumerate(STAGES):
            s = v["stages"][stage]
            head = f"{n:6} {v['events_per_write']:12.2f}" if k == 0 else " " * 19
            print(f"{head} {stage:>10} {s['per_s']:8.1f} {s['ms_each']:8.2f} {100 * s['busy_share']:6.1f}%")

    if profiles:
        print(f"\nJFR over the window (from the end of the warm-up): {' '.join(profiles)}")
        print(jfr.summarise(next(iter(recording.values()))[0], profiles))

    commit, dirty = git_commit()
    record = {
        "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": commit, "dirty": dirty, "topology": env["HANWIKI_TOPOLOGY"],
        "params": {"rate": args.rate, "seconds": args.seconds, "idle": args.idle, "warmup": args.warmup},
        "writes": {"acked": writes, "failed": len(failed["timed"]), "warmup_failed": len(failed["warm-up"]),
                   "achieved_per_s": writes / send_seconds},
        "seconds": {"idle": idle_seconds, "creates": send_seconds, "drain": drain_seconds, "window": window_seconds},
        "loadavg": {"before": load_before, "idle_end": load_idle, "window_start": at["load"], "window_end": load_window},
        "stack": stack, "client": table.get(CLIENT_ROW),
        "rows": {row: table[row] for row in ordered(table) if row != CLIENT_ROW},
        "indexer": indexer,
        "components": {"idle_cpu_s": idle_cpu, "window_cpu_s": window_cpu},
    }
    path = os.path.join(env["VAR"], "bench", "write-cost.jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(finite(record), ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n")
    print(f"appended to {path}")
    sys.exit(1 if failed["timed"] else 0)


if __name__ == "__main__":
    main()
