#!/usr/bin/env python3
"""Write-to-searchable freshness at a fixed write rate, per node.

Writes through nginx at RATE writes/s for SECONDS (open loop: each write is issued at its
planned time, whatever the previous one did); 80% create a post, 20% edit one of the posts
created in this run. After each 2xx the (id, version) is handed to one poller per node,
which asks that node directly, every 5 ms, which versions its search currently sees
(GET /internal/index/versions, the same searcher the search endpoint uses). The time from
the 2xx to the node seeing that version is recorded. Prints p50/p95/p99/max per node.

    python3 infra/bench/freshness.py --rate 100 --seconds 60    (make bench-freshness RATE=100 SECONDS=60)

Ports come from infra/ports.env. Traffic goes to 127.0.0.1 only.
"""
import argparse
import http.client
import json
import random
import string
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from api import ports, sign_up

INF = float("inf")


class Client(threading.local):
    """One keep-alive HTTP connection per thread and port."""

    def __init__(self):
        self.conns = {}

    def call(self, port, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in (1, 2):
            conn = self.conns.get(port)
            if conn is None:
                conn = self.conns[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                data = json.dumps(body).encode() if body is not None else None
                conn.request(method, path, body=data, headers=headers)
                r = conn.getresponse()
                payload = r.read()
                return r.status, (json.loads(payload) if payload else None)
            except (http.client.HTTPException, OSError):
                conn.close()
                self.conns.pop(port, None)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


CLIENT = Client()


class Poller(threading.Thread):
    """Watches one node: pending {id: (version, t_ack)} until its search sees that version."""

    def __init__(self, name, port):
        super().__init__(daemon=True, name=f"poll-{name}")
        self.node, self.port = name, port
        self.pending, self.lock = {}, threading.Lock()
        self.latencies, self.stop = [], threading.Event()

    def expect(self, post_id, version, t_ack):
        with self.lock:
            # A newer version replaces an older one still pending: seeing the newer one
            # also means the older was applied, so only the newer is timed.
            self.pending[post_id] = (version, t_ack)

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
                    for pid, (version, t_ack) in batch:
                        if seen.get(str(pid), -1) >= version and self.pending.get(pid) == (version, t_ack):
                            del self.pending[pid]
                            self.latencies.append(now - t_ack)
            time.sleep(0.005)

    def give_up(self):
        with self.lock:
            self.latencies.extend(INF for _ in self.pending)
            self.pending.clear()


def pct(vals, p):
    if not vals:
        return float("nan")
    return vals[min(len(vals) - 1, max(0, int(round(p / 100.0 * len(vals) + 0.5)) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, default=100, help="writes per second")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--timeout", type=float, default=15, help="seconds before a write counts as never visible")
    args = ap.parse_args()
    env = ports()
    nginx = int(env["NGINX_PORT"])
    pollers = [Poller("node1", int(env["NODE1_PORT"])), Poller("node2", int(env["NODE2_PORT"]))]
    for p in pollers:
        p.start()
    run = "fr" + "".join(random.choices(string.ascii_lowercase, k=8))
    _, _, token = sign_up(f"http://127.0.0.1:{env['NODE1_PORT']}", prefix="fresh")
    # id -> current version, for posts of this run not being edited right now (an edit
    # names the version it starts from; two edits of one post at once would conflict).
    idle, lock, failures = {}, threading.Lock(), []

    def write(i):
        with lock:
            target = random.choice(list(idle)) if idle and random.random() < 0.2 else None
            version = idle.pop(target) if target is not None else None
        if target is None:
            status, body = CLIENT.call(nginx, "POST", "/api/v1.0/posts",
                                       {"title": f"신선도 {run} {i}", "content": f"{run} 측정용 본문 {i}"}, token)
        else:
            status, body = CLIENT.call(nginx, "PUT", f"/api/v1.0/posts/{target}",
                                       {"title": f"신선도 {run} {i} 고침", "content": f"{run} 고친 본문 {i}",
                                        "version": version}, token)
        t_ack = time.perf_counter()
        if status not in (200, 201):
            failures.append(status)
            return
        post = body["data"]
        with lock:
            idle[post["id"]] = post["version"]
        for p in pollers:
            p.expect(post["id"], post["version"], t_ack)

    total = int(args.rate * args.seconds)
    print(f"{total} writes at {args.rate:g}/s through nginx (80% create, 20% edit); polling both nodes",
          file=sys.stderr)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=32) as pool:
        for i in range(total):
            delay = start + i / args.rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(write, i)
            if (i + 1) % max(1, int(args.rate * 10)) == 0:
                print(f"  {i + 1}/{total} issued", file=sys.stderr)
    took = time.perf_counter() - start
    deadline = time.perf_counter() + args.timeout
    while any(p.pending for p in pollers) and time.perf_counter() < deadline:
        time.sleep(0.05)
    for p in pollers:
        p.stop.set()
        p.join(5)
        p.give_up()
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
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
