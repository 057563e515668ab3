#!/usr/bin/env python3
"""The cache, measured through the running stack (make bench-cache).

1. Hit-path latency per tier, end to end over HTTP on the nodes' own ports: for each of N fresh
   posts, a read on node 1 (L1 and L2 miss: the origin, the replica), then on node 2 (L2 hit),
   then on node 2 again (L1 hit). The nodes' counters check which tier really answered.
2. Throughput of the cached detail path through nginx: P client processes, one keep-alive
   connection each, reading a hot set of posts for S seconds.
3. Hit rates per region under a mixed load through nginx: readers (70% detail over a skewed hot
   set, 15% first list pages, 15% searches) plus a writer at W writes/s (half edits, half new
   posts), from the nodes' counters (hanwiki_cache_gets_total by tier).
Load goes to 127.0.0.1 only. Prints the figures and the load average before and after."""
import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import secrets
import threading
import time
import urllib.parse

from api import call, ports, sign_up
from ports_env import where  # noqa: E402
from stats import percentile as pct

WORDS = ["서울", "부산", "한강", "경복궁", "김치", "여행", "역사", "음악", "영화", "축구",
         "제주", "바다", "산책", "커피", "도서관", "지하철", "야구", "날씨", "시장", "궁궐"]


def conn(port):
    return http.client.HTTPConnection(where(port), port, timeout=15)


def get(c, path):
    t0 = time.perf_counter()
    c.request("GET", "/api/v1.0" + path)
    r = c.getresponse()
    r.read()
    return r.status, (time.perf_counter() - t0) * 1000



def counters(env):
    """{(region, tier): count} summed over both nodes."""
    out = {}
    line = re.compile(r'^hanwiki_cache_gets_total\{([^}]*)\} (\S+)$', re.M)
    for node in ("NODE1", "NODE2"):
        c = http.client.HTTPConnection(where(env[node + "_MANAGEMENT_PORT"]), int(env[node + "_MANAGEMENT_PORT"]), timeout=15)
        c.request("GET", "/actuator/prometheus")
        body = c.getresponse().read().decode()
        for labels, value in line.findall(body):
            region = re.search(r'region="([^"]+)"', labels).group(1)
            tier = re.search(r'tier="([^"]+)"', labels).group(1)
            out[(region, tier)] = out.get((region, tier), 0) + float(value)
    return out


def delta(after, before):
    return {k: after.get(k, 0) - before.get(k, 0) for k in after}


def create_posts(base, token, n, label):
    ids = []
    for i in range(n):
        title = f"{label} {random.choice(WORDS)} {random.choice(WORDS)} {secrets.token_hex(3)}"
        status, body, _ = call("POST", f"{base}/api/v1.0/posts",
                               {"title": title, "content": f"{random.choice(WORDS)} 본문 {i} " * 20,
                                "categoryId": random.randint(1, 30)}, token=token)
        if status != 201:
            raise SystemExit(f"create answered {status}: {body}")
        ids.append(body["data"]["id"])
        if (i + 1) % 100 == 0:
            print(f"  created {i + 1}/{n}", flush=True)
    return ids


def tiers(env, ids):
    n1, n2 = conn(int(env["NODE1_PORT"])), conn(int(env["NODE2_PORT"]))
    lat = {"origin": [], "l2": [], "l1": []}
    before = counters(env)
    for pid in ids:
        for tier, c in (("origin", n1), ("l2", n2), ("l1", n2)):
            status, ms = get(c, f"/posts/{pid}")
            if status != 200:
                raise SystemExit(f"GET /posts/{pid} answered {status}")
            lat[tier].append(ms)
    seen = delta(counters(env), before)
    print(f"\n1. Hit-path latency, detail, {len(ids)} fresh posts, one keep-alive client per node (ms):")
    print(f"   {'tier':8} {'p50':>7} {'p90':>7} {'p99':>7}")
    for tier in ("l1", "l2", "origin"):
        print(f"   {tier:8} {pct(lat[tier], 50):7.2f} {pct(lat[tier], 90):7.2f} {pct(lat[tier], 99):7.2f}")
    print(f"   answered by (counters): l1 {seen.get(('post', 'l1'), 0):.0f}, l2 {seen.get(('post', 'l2'), 0):.0f}, "
          f"origin {seen.get(('post', 'origin'), 0):.0f} (expected {len(ids)} each)")


def reader(port, paths, seconds, out):
    c = conn(port)
    done, lat, errors = 0, [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            status, ms = get(c, random.choice(paths))
        except (OSError, http.client.HTTPException):
            c, status, ms = conn(port), 599, 0
        except Exception as e:  # a bench bug must end the run with a message, not hang the parent
            out.put((done, errors + 1, lat))
            raise
        done += 1
        errors += status != 200
        if done % 5 == 0:
            lat.append(ms)
    out.put((done, errors, lat))


def run_readers(port, paths, procs, seconds):
    out = mp.Queue()
    workers = [mp.Process(target=reader, args=(port, paths, seconds, out)) for _ in range(procs)]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    return sum(r[0] for r in results), sum(r[1] for r in results), [x for r in results for x in r[2]]


def throughput(env, ids, procs, seconds):
    port = int(env["NGINX_PORT"])
    paths = [f"/posts/{pid}" for pid in ids[:100]]
    run_readers(port, paths, procs, 2)  # warm
    before = counters(env)
    t0 = time.perf_counter()
    done, errors, lat = run_readers(port, paths, procs, seconds)
    took = time.perf_counter() - t0
    seen = delta(counters(env), before)
    total = sum(v for (r, _), v in seen.items() if r == "post")
    print(f"\n2. Cached detail path through nginx: {procs} client processes, 100 hot posts, {seconds} s")
    print(f"   {done / took:.0f} requests/s, p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms, errors {errors}")
    if total:
        print(f"   answered by: l1 {100 * seen.get(('post', 'l1'), 0) / total:.1f}%, "
              f"l2 {100 * seen.get(('post', 'l2'), 0) / total:.1f}%, origin {100 * seen.get(('post', 'origin'), 0) / total:.1f}%")


def writer(base, token, ids, rate, stop, counts):
    versions = {}
    period = 1.0 / rate
    nxt = time.monotonic()
    while not stop.is_set():
        nxt += period
        if random.random() < 0.5:
            pid = random.choice(ids[:200])
            v = versions.get(pid)
            if v is None:
                s, body, _ = call("GET", f"{base}/api/v1.0/posts/{pid}")
                v = body["data"]["version"] if s == 200 else None
            if v is not None:
                s, body, _ = call("PUT", f"{base}/api/v1.0/posts/{pid}",
                                  {"title": f"편집 {random.choice(WORDS)} {secrets.token_hex(2)}", "content": "고침 " * 30,
                                   "categoryId": random.randint(1, 30), "version": v}, token=token)
                if s == 200:
                    versions[pid] = body["data"]["version"]
                else:
                    versions.pop(pid, None)
                counts["edits" if s == 200 else "failed"] += 1
        else:
            s, _, _ = call("POST", f"{base}/api/v1.0/posts",
                           {"title": f"새 글 {random.choice(WORDS)} {secrets.token_hex(2)}", "content": "새 본문",
                            "categoryId": random.randint(1, 30)}, token=token)
            counts["creates" if s == 201 else "failed"] += 1
        time.sleep(max(0, nxt - time.monotonic()))


def mixed(env, token, ids, procs, seconds, rate):
    port = int(env["NGINX_PORT"])
    base = f"http://{where(port)}:{port}"
    # Skewed popularity: the first posts are read far more often (Zipf-like weights).
    hot = ids[:500]
    detail = [f"/posts/{hot[min(len(hot) - 1, int(random.paretovariate(1.2)) - 1)]}" for _ in range(700)]
    lists = [f"/posts?page={random.choice([0, 0, 0, 1, 2])}&size=20" + random.choice(["", f"&categoryId={random.randint(1, 30)}"])
             for _ in range(150)]
    searches = [f"/posts/search?q={urllib.parse.quote(random.choice(WORDS))}" for _ in range(150)]
    paths = detail + lists + searches
    stop, counts = threading.Event(), {"edits": 0, "creates": 0, "failed": 0}
    before = counters(env)
    w = threading.Thread(target=writer, args=(base, token, ids, rate, stop, counts))
    w.start()
    t0 = time.perf_counter()
    done, errors, lat = run_readers(port, paths, procs, seconds)
    took = time.perf_counter() - t0
    stop.set()
    w.join()
    seen = delta(counters(env), before)
    print(f"\n3. Mixed load through nginx, {seconds} s: {procs} reader processes (70% detail, 15% lists, 15% search) "
          f"+ {rate} writes/s ({counts['edits']} edits, {counts['creates']} creates, {counts['failed']} refused)")
    print(f"   {done / took:.0f} reads/s, p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms, errors {errors}")
    print(f"   {'region':10} {'gets':>8} {'l1 %':>7} {'l2 %':>7} {'origin %':>9}")
    for region in ("post", "post-list", "search"):
        total = sum(v for (r, _), v in seen.items() if r == region)
        if total:
            print(f"   {region:10} {total:8.0f} {100 * seen.get((region, 'l1'), 0) / total:7.1f} "
                  f"{100 * seen.get((region, 'l2'), 0) / total:7.1f} {100 * seen.get((region, 'origin'), 0) / total:9.1f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=300, help="fresh posts for the tier latencies")
    ap.add_argument("--procs", type=int, default=4, help="client processes")
    ap.add_argument("--seconds", type=int, default=20, help="length of the throughput and mixed runs")
    ap.add_argument("--rate", type=float, default=10, help="writes/s during the mixed run")
    args = ap.parse_args()
    env = ports()
    node1 = f"http://{where(env['NODE1_PORT'])}:{env['NODE1_PORT']}"
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"({os.cpu_count()} cores)")
    _, _, token = sign_up(node1, "cachebench")
    print(f"creating {args.posts} posts through node 1 ...", flush=True)
    ids = create_posts(node1, token, args.posts, "캐시벤치")
    time.sleep(3)  # both nodes index them; their creation events evict nothing afterwards
    tiers(env, ids)
    throughput(env, ids, args.procs, args.seconds)
    mixed(env, token, ids, args.procs, args.seconds, args.rate)
    print(f"\nload average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
