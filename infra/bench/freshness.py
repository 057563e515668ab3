#!/usr/bin/env python3
"""Write-to-searchable freshness at a fixed write rate, per node.

Writes through nginx at RATE writes/s for SECONDS (open loop: each write is issued at its
planned time, whatever the previous one did); 80% create a post, 20% edit one of the posts
created in this run. After each 2xx the (id, version) is handed to one poller per node,
which asks that node directly, every 10 ms, which versions its search currently sees
(GET /internal/index/versions, the same searcher the search endpoint uses). The time from
the 2xx to the node seeing that version is recorded. Prints p50/p95/p99/max per node; then the
writes' own latency and the time from the request sent to visible (what a writer waits in all).

A warm-up of WARMUP seconds at the same rate comes first and is not timed: a node that has
just started needs about a minute of JIT compilation before it keeps up (docs/bench/freshness.md
reports both). Also printed, for the timed part: each node's own histogram of row commit ->
searchable (hanwiki_indexer_visibility_lag_seconds, which leaves this client's polling out),
and the CPU seconds every process of the stack spent, to show where the machine's time went.

    python3 infra/bench/freshness.py --rate 100 --seconds 60    (make bench-freshness RATE=100 SECONDS=60 WARMUP=10)

Ports come from infra/ports.env. Traffic goes to 127.0.0.1 only.
"""
import argparse
import os
import random
import sys
import threading
import time

from api import ports, sign_up
from ports_env import where  # noqa: E402
from stats import percentile as pct
from stackstats import cpu_delta, cpu_seconds, gauge_of, node_timer, scrape, timer_delta, timer_of
from writes import CLIENT, create, loadavg, open_loop, run_tag

INF = float("inf")


class Poller(threading.Thread):
    """Watches one node: pending {id: (version, t_ack, t_sent)} until its search sees that version."""

    def __init__(self, name, port, every):
        super().__init__(daemon=True, name=f"poll-{name}")
        self.node, self.port, self.every = name, port, every
        self.pending, self.lock = {}, threading.Lock()
        self.latencies, self.from_sent, self.stop = [], [], threading.Event()

    def expect(self, post_id, version, t_ack, t_sent):
        with self.lock:
            # A newer version replaces an older one still pending: seeing the newer one
            # also means the older was applied, so only the newer is timed.
            self.pending[post_id] = (version, t_ack, t_sent)

    def run(self):
        while not self.stop.is_set():
            with self.lock:
                batch = list(self.pending.items())[:1000]
            if batch:
                ids = ",".join(str(i) for i, _ in batch)
                status, body = CLIENT.call(self.port, "GET", f"/internal/index/versions?ids={ids}")
                now = time.perf_counter()
                seen = body["data"] if status == 200 else {}
                with self.lock:
                    for pid, (version, t_ack, t_sent) in batch:
                        if seen.get(str(pid), -1) >= version and self.pending.get(pid) == (version, t_ack, t_sent):
                            del self.pending[pid]
                            self.latencies.append(now - t_ack)
                            self.from_sent.append(now - t_sent)
            time.sleep(self.every)

    def give_up(self):
        with self.lock:
            self.latencies.extend(INF for _ in self.pending)
            self.from_sent.extend(INF for _ in self.pending)
            self.pending.clear()



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, default=100, help="writes per second")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=10, help="seconds of untimed writes at the same rate first")
    ap.add_argument("--poll-ms", type=float, default=10, help="how often each node is asked")
    ap.add_argument("--timeout", type=float, default=15, help="seconds before a write counts as never visible")
    args = ap.parse_args()
    if args.rate <= 0 or args.rate * args.seconds < 1 or args.warmup < 0 or args.poll_ms <= 0:
        ap.error("need RATE > 0, RATE x SECONDS >= 1 write, WARMUP >= 0 and --poll-ms > 0")
    env = ports()
    nginx = int(env["NGINX_PORT"])
    pollers = [Poller(name, int(env[f"{name.upper()}_PORT"]), args.poll_ms / 1000) for name in ("node1", "node2")]
    for p in pollers:
        p.start()
    run = run_tag()
    _, _, token = sign_up(f"http://{where(env['NODE1_PORT'])}:{env['NODE1_PORT']}", prefix="fresh")
    # id -> current version, for posts of this run not being edited right now (an edit
    # names the version it starts from; two edits of one post at once would conflict).
    idle, lock, failures, write_ms = {}, threading.Lock(), [], []

    def write(i, timed):
        with lock:
            target = random.choice(list(idle)) if idle and random.random() < 0.2 else None
            version = idle.pop(target) if target is not None else None
        t_sent = time.perf_counter()
        if target is None:
            status, body = create(nginx, token, run, i)
        else:
            status, body = CLIENT.call(nginx, "PUT", f"/api/v1.0/posts/{target}",
                                       {"title": f"신선도 {run} {i} 고침", "content": f"{run} 고친 본문 {i}",
                                        "version": version}, token)
        t_ack = time.perf_counter()
        if status not in (200, 201):
            if timed:
                failures.append(status)
            return
        post = body["data"]
        with lock:
            idle[post["id"]] = post["version"]
        if timed:
            write_ms.append(1000 * (t_ack - t_sent))
            for p in pollers:
                p.expect(post["id"], post["version"], t_ack, t_sent)

    warm, total = int(args.rate * args.warmup), int(args.rate * args.seconds)
    print(f"{warm} warm-up + {total} timed writes at {args.rate:g}/s through nginx (80% create, 20% edit); "
          f"polling both nodes every {args.poll_ms:g} ms", file=sys.stderr)
    at = {}

    def timed_start():
        # The timed part starts here: snapshot what the stack has done so far.
        at.update(load=loadavg(), cpu=cpu_seconds())
        samples = {p.node: scrape(p.port) for p in pollers}  # one read of each node's metrics
        at.update(lag={n: timer_of(s, "hanwiki_indexer_visibility_lag_seconds") for n, s in samples.items()},
                  uptime={n: gauge_of(s, "process_uptime_seconds") for n, s in samples.items()},
                  t=time.perf_counter())

    open_loop(args.rate, warm, total, write, timed_start)
    load_before, cpu_before, lag_before, uptime = at["load"], at["cpu"], at["lag"], at["uptime"]
    took = time.perf_counter() - at["t"]
    deadline = time.perf_counter() + args.timeout
    while any(p.pending for p in pollers) and time.perf_counter() < deadline:
        time.sleep(0.05)
    for p in pollers:
        p.stop.set()
        p.join(5)
        p.give_up()
    cpu = cpu_delta(cpu_before, cpu_seconds())
    lags = {p.node: timer_delta(lag_before[p.node], node_timer(p.port, "hanwiki_indexer_visibility_lag_seconds"))
            for p in pollers}
    print(f"load average (1/5/15 min) when the timed part started: {' '.join(load_before)}, at its end: "
          f"{' '.join(loadavg())}")
    print("node uptime when the timed part started: "
          + ", ".join(f"{n} {u:.0f} s" for n, u in uptime.items())
          + " (a node in its first minute or two is still JIT-compiling: expect seconds, not milliseconds)")
    print(f"freshness: {total} writes in {took:.1f} s ({total / took:.1f}/s achieved), {len(failures)} failed; "
          f"ms from the 2xx to visible in that node's search")
    print(f"{'node':6} {'n':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} {'never':>6}")
    bad = bool(failures)
    for p in pollers:
        never = sum(1 for v in p.latencies if v == INF)
        s = sorted(v * 1000 for v in p.latencies if v != INF)
        bad |= never > 0
        print(f"{p.node:6} {len(s):6d} {pct(s, 50):8.1f} {pct(s, 95):8.1f} {pct(s, 99):8.1f} "
              f"{(s[-1] if s else float('nan')):8.1f} {never:6d}")
    w = sorted(write_ms)
    print(f"the writes themselves (request sent -> 2xx): p50 {pct(w, 50):.1f}, p95 {pct(w, 95):.1f}, "
          f"p99 {pct(w, 99):.1f} ms; from the request sent to visible (what the writer waits in all):")
    for p in pollers:
        s = sorted(v * 1000 for v in p.from_sent if v != INF)
        print(f"{p.node:6} {len(s):6d} {pct(s, 50):8.1f} {pct(s, 95):8.1f} {pct(s, 99):8.1f} "
              f"{(s[-1] if s else float('nan')):8.1f}")
    print("each node's own count, row commit -> searchable (hanwiki_indexer_visibility_lag_seconds, "
          "every change it applied in the timed part):")
    print(f"{'node':6} {'changes':>8} {'<=250ms':>8} {'<=500ms':>8} {'<=1s':>8} {'mean ms':>8}")
    for node, d in lags.items():
        n = d.get("count", 0)
        share = lambda le: f"{100 * d.get(le, 0) / n:7.1f}%" if n else "     n/a"  # noqa: E731
        mean = 1000 * d.get("sum", 0) / n if n else float("nan")
        print(f"{node:6} {int(n):8d} {share(0.25)} {share(0.5)} {share(1.0)} {mean:8.1f}")
    busy = sum(s for _, s in cpu)
    print(f"CPU seconds spent during the timed part ({took:.0f} s of wall time, {os.cpu_count()} cores = {os.cpu_count() * took:.0f} CPU-s "
          f"available): {busy:.1f} by the stack and this client; per write {1000 * busy / total:.1f} CPU-ms")
    for name, secs in cpu:
        if secs >= 0.05:
            print(f"  {name:26} {secs:7.1f} s  {100 * secs / busy:5.1f}%")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
