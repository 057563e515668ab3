"""Shared by the write benches (freshness.py, write_cost.py): keep-alive HTTP calls, the bench's
page, and the open loop that issues writes at a fixed rate.

Every bench page is the same small one (a title of three words, a body of four: about 40
characters), created through nginx by a user of api.sign_up, so the benches' figures describe
the same write."""
import http.client
import json
import random
import string
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import api  # noqa: F401  (puts infra/lib, where ports_env lives, on the path)
from ports_env import where  # noqa: E402

WORKERS = 32  # writes in flight at most; the open loop queues the rest


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
                conn = self.conns[port] = http.client.HTTPConnection(where(port), port, timeout=10)
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


def run_tag():
    """A tag for this run's pages, so that two runs' pages differ."""
    return "fr" + "".join(random.choices(string.ascii_lowercase, k=8))


def create(nginx, token, run, i):
    """Creates the i-th bench page of run RUN through nginx: (status, parsed body)."""
    return CLIENT.call(nginx, "POST", "/api/v1.0/posts",
                       {"title": f"신선도 {run} {i}", "content": f"{run} 측정용 본문 {i}"}, token)


def loadavg():
    """The 1, 5 and 15 minute load averages, as printed by /proc/loadavg."""
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[:3]


def open_loop(rate, warm, total, write, timed_start):
    """Issues write(i, timed) for i in range(warm + total) at RATE per second on WORKERS threads,
    open loop: each write is issued at its planned time, whatever the previous ones did. The
    first WARM are the warm-up (timed False); timed_start() is called just before the first
    timed one is issued. Returns once every write has returned."""
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for i in range(warm + total):
            if i == warm:
                timed_start()
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(write, i, i >= warm)
            if (i + 1) % max(1, int(rate * 10)) == 0:
                print(f"  {i + 1}/{warm + total} issued{' (warm-up)' if i < warm else ''}", file=sys.stderr)
