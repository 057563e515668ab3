#!/usr/bin/env python3
"""Write-to-searchable latency, per node.

Writes N posts one after another through nginx; after each 2xx it polls BOTH app nodes'
search directly (not through nginx) for the post's unique word and records, per node, the
time from the 2xx to the post showing up. Prints p50/p95/p99/max per node.

    python3 infra/bench/write_to_search.py --writes 200      (make bench-freshness N=200)

Ports come from infra/ports.env. Traffic goes to 127.0.0.1 only.
"""
import argparse
import random
import string
import sys
import threading
import time
import urllib.parse

from api import call, ports, sign_up


def request(method, url, body=None, token=None, timeout=5):
    status, data, _ = call(method, url, body, token, timeout)
    return status, data


def found(node_url, word, post_id):
    q = urllib.parse.quote(word)
    _, body = request("GET", f"{node_url}/api/v1.0/posts/search?q={q}&size=5")
    return any(hit["id"] == post_id for hit in body["data"]["results"]["content"])


def wait_visible(node_url, word, post_id, t0, out, timeout_s):
    while True:
        if found(node_url, word, post_id):
            out.append(time.perf_counter() - t0)
            return
        if time.perf_counter() - t0 > timeout_s:
            out.append(float("inf"))
            return
        time.sleep(0.002)


def pct(sorted_vals, p):
    if not sorted_vals:
        return float("nan")
    i = min(len(sorted_vals) - 1, max(0, int(round(p / 100.0 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writes", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds before a write counts as never visible")
    args = ap.parse_args()
    env = ports()
    api = f"http://127.0.0.1:{env['NGINX_PORT']}/api/v1.0"
    nodes = {"node1": f"http://127.0.0.1:{env['NODE1_PORT']}", "node2": f"http://127.0.0.1:{env['NODE2_PORT']}"}
    lat = {n: [] for n in nodes}
    _, _, token = sign_up(nodes["node1"], "fresh")
    print(f"writing {args.writes} posts through nginx, polling both nodes' search directly", file=sys.stderr)
    for i in range(args.writes):
        word = "fr" + "".join(random.choices(string.ascii_lowercase, k=10))
        status, body = request("POST", f"{api}/posts", {"title": f"신선도 측정 {i} {word}", "content": f"{word} 본문 {i}"}, token)
        t0 = time.perf_counter()
        if status != 201:
            sys.exit(f"write {i} answered {status}")
        pid = body["data"]["id"]
        threads = [threading.Thread(target=wait_visible, args=(url, word, pid, t0, lat[n], args.timeout))
                   for n, url in nodes.items()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if (i + 1) % 20 == 0:
            print(f"  {i + 1}/{args.writes}", file=sys.stderr)
    print(f"write-to-searchable over {args.writes} sequential writes (ms, from the 2xx to visible in that node's search)")
    print(f"{'node':6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} {'never':>6}")
    for n, vals in lat.items():
        never = sum(1 for v in vals if v == float("inf"))
        s = sorted(v * 1000 for v in vals if v != float("inf"))
        print(f"{n:6} {pct(s, 50):8.1f} {pct(s, 95):8.1f} {pct(s, 99):8.1f} {max(s) if s else float('nan'):8.1f} {never:6d}")
    if any(v == float("inf") for vals in lat.values() for v in vals):
        sys.exit(1)


if __name__ == "__main__":
    main()
