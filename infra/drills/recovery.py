#!/usr/bin/env python3
"""Recovery drill: a component stops for DOWN seconds under writes; how long after it comes back
do both nodes' indexes agree with the database again?

1. signs up a writer and starts writing through nginx at RATE writes/s (60% create, 25% edit,
   15% delete of posts it created), counting 2xx answers and refusals;
2. stops COMPONENT (connect | kafka | node1 | node2) gracefully with infra/ctl.sh, keeps writing
   for DOWN seconds, then stops writing and starts the component again (ctl.sh start returns
   once it is healthy; for Connect, once the connector task runs);
3. from the moment the component is back (ctl.sh start returned), re-runs the checker of
   `make verify-index` every 0.5 s until every node shows zero missing / stale / ghost posts.

Prints the time the restart took and the time from the return to zero differences; exits non-zero
when the nodes did not converge within --budget seconds (default 30, the issue's target).

    python3 infra/drills/recovery.py --component connect --down 60   (make drill-recovery COMPONENT=connect DOWN=60)

Traffic goes to 127.0.0.1 only; ports come from infra/ports.env.
"""
import argparse
import os
import random
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
sys.path.insert(0, os.path.dirname(HERE))
from api import call, ports, sign_up  # noqa: E402
from ports_env import where  # noqa: E402
import verify_index  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


class Writer(threading.Thread):
    """Open-loop writes at a fixed rate from a few threads; remembers what it created."""

    def __init__(self, nginx, token, rate):
        super().__init__(daemon=True, name="drill-writer")
        self.base, self.token, self.rate = f"http://127.0.0.1:{nginx}/api/v1.0", token, rate
        self.stop, self.lock = threading.Event(), threading.Lock()
        self.posts, self.ok, self.refused = {}, 0, {}

    def one(self, i):
        with self.lock:
            target = random.choice(list(self.posts)) if self.posts and random.random() < 0.4 else None
            version = self.posts.pop(target) if target is not None else None
        try:
            if target is None:
                status, body, _ = call("POST", f"{self.base}/posts",
                                       {"title": f"복구 훈련 {i}", "content": f"장애 중 쓰기 {i}"}, self.token)
            elif random.random() < 0.375:
                status, body, _ = call("DELETE", f"{self.base}/posts/{target}", token=self.token)
            else:
                status, body, _ = call("PUT", f"{self.base}/posts/{target}",
                                       {"title": f"복구 훈련 {i} 고침", "content": f"고친 본문 {i}", "version": version},
                                       self.token)
        except OSError as e:
            status, body = type(e).__name__, None
        with self.lock:
            if status in (200, 201, 204):
                self.ok += 1
                if body and isinstance(body.get("data"), dict) and "version" in body["data"]:
                    self.posts[body["data"]["id"]] = body["data"]["version"]
            else:
                self.refused[status] = self.refused.get(status, 0) + 1
                if target is not None and status != 404:
                    self.posts[target] = version

    def run(self):
        start, i = time.monotonic(), 0
        workers = []
        while not self.stop.is_set():
            delay = start + i / self.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            t = threading.Thread(target=self.one, args=(i,), daemon=True)
            t.start()
            workers.append(t)
            workers = [w for w in workers if w.is_alive()]
            i += 1
        for w in workers:
            w.join(15)


def ctl(action, component):
    subprocess.run(["bash", os.path.join(ROOT, "infra", "ctl.sh"), action, component], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--component", required=True, choices=["connect", "kafka", "node1", "node2"])
    ap.add_argument("--down", type=float, default=60, help="seconds the component stays stopped")
    ap.add_argument("--rate", type=float, default=20, help="writes per second during the outage")
    ap.add_argument("--budget", type=float, default=30, help="seconds allowed from the return to zero differences")
    args = ap.parse_args()
    env = ports()
    e = verify_index.env()
    live, results = verify_index.check(e)
    if not verify_index.clean(results):
        raise SystemExit(f"the indexes disagree with the database before the drill: {results}")
    _, _, token = sign_up(f"http://{where(env['NODE1_PORT'])}:{env['NODE1_PORT']}", prefix="drill")
    writer = Writer(int(env["NGINX_PORT"]), token, args.rate)
    writer.start()
    time.sleep(3)
    print(f"drill: {args.component} stopped for {args.down:g} s under {args.rate:g} writes/s", file=sys.stderr)
    t_stop = time.monotonic()
    ctl("stop", args.component)
    time.sleep(max(0.0, args.down - (time.monotonic() - t_stop)))
    writer.stop.set()
    writer.join(20)
    t_start = time.monotonic()
    ctl("start", args.component)
    t_back = time.monotonic()
    print(f"  {args.component} back after {t_back - t_start:.1f} s of start-up; checking the indexes", file=sys.stderr)
    while True:
        live, results = verify_index.check(e)
        if verify_index.clean(results) or time.monotonic() - t_back > args.budget + 90:
            break
        time.sleep(0.5)
    converged = time.monotonic() - t_back
    ok = verify_index.clean(results)
    print(f"recovery drill: component={args.component} down={args.down:g}s writes: {writer.ok} acknowledged, "
          f"refused {writer.refused or 0}")
    print(f"  start-up (ctl.sh start until healthy): {t_back - t_start:.1f} s")
    print(f"  from its return to verify-index zeros on both nodes: "
          f"{converged:.1f} s{'' if ok else ' (NOT converged)'} (budget {args.budget:g} s)")
    for node, r in results.items():
        if isinstance(r, OSError):
            print(f"  {node}: unreachable ({r})")
        else:
            print(f"  {node}: {r[0]} docs, missing {r[1]}, stale {r[2]}, ghost {r[3]}, duplicate {r[4]}")
    print(f"  database: {live} live posts; load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} "
          f"{os.getloadavg()[2]:.1f}")
    sys.exit(0 if ok and converged <= args.budget else 1)


if __name__ == "__main__":
    main()
