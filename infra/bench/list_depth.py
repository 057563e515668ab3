#!/usr/bin/env python3
"""Times GET /posts at increasing depth through nginx: one warm client, keep-alive, R requests
per page (default 200), p50 and p99 in milliseconds. Run by infra/bench/list_depth.sh."""
import argparse
import http.client
import statistics
import time

from api import ports
from stats import percentile as pct


def timed(conn, path):
    t0 = time.perf_counter()
    conn.request("GET", path)
    r = conn.getresponse()
    r.read()
    if r.status != 200:
        raise SystemExit(f"{path} answered {r.status}")
    return (time.perf_counter() - t0) * 1000



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    args = ap.parse_args()
    conn = http.client.HTTPConnection("127.0.0.1", int(ports()["NGINX_PORT"]), timeout=10)
    cases = [(f"all, page {p}", f"/api/v1.0/posts?size=20&page={p}") for p in (0, 10, 100, 250, 500)]
    cases += [(f"category 7, page {p}", f"/api/v1.0/posts?categoryId=7&size=20&page={p}") for p in (0, 10, 50, 80)]
    for _, path in cases:
        for _ in range(30):
            timed(conn, path)
    print(f"GET /posts, {args.requests} requests per row after 30 warm-up requests, one client through nginx (ms)")
    print(f"{'case':24} {'p50':>7} {'p99':>7} {'mean':>7}")
    for name, path in cases:
        values = [timed(conn, path) for _ in range(args.requests)]
        print(f"{name:24} {pct(values, 50):7.2f} {pct(values, 99):7.2f} {statistics.mean(values):7.2f}")


if __name__ == "__main__":
    main()
