#!/usr/bin/env python3
"""Autocomplete latency through nginx (make bench-autocomplete): one client on one keep-alive
connection, warm (200 unmeasured calls), R measured calls over prefixes cut from the titles
the stack holds: raw (1-3 characters), jamo (a syllable still being typed) and chosung (2-3
initials), shuffled. Prints p50/p90/p99 overall and per prefix kind, and how many answers
came from Redis or the index fallback (X-Autocomplete-Source). Load goes to 127.0.0.1 only."""
import argparse
import http.client
import json
import random
import statistics
import sys
import time
import urllib.parse

from api import ports
from stats import percentile as pct

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"


def initial(c):
    return INITIALS[(ord(c) - 0xAC00) // (21 * 28)] if 0xAC00 <= ord(c) <= 0xD7A3 else None


def prefixes(title, rng):
    out = [("raw", title[:rng.randint(1, 3)])]
    word = title.split(" ")[0]
    if len(word) >= 2 and all(initial(c) for c in word[:2]):
        out.append(("jamo", word[:1] + initial(word[1])))
        out.append(("chosung", "".join(initial(c) for c in word[:min(3, len(word))])))
    return out


def titles(conn, want):
    found, page = [], 0
    while len(found) < want:
        conn.request("GET", f"/api/v1.0/posts?page={page}&size=50")
        r = conn.getresponse()
        body = json.loads(r.read())
        content = body["data"]["content"]
        found += [p["title"] for p in content]
        if body["data"].get("last", True) or not content:
            break
        page += 1
    return found



def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--titles", type=int, default=2000)
    ap.add_argument("--json", help="write the figures here as JSON")
    args = ap.parse_args()
    rng = random.Random(7)
    conn = http.client.HTTPConnection("127.0.0.1", ports()["NGINX_PORT"], timeout=15)
    pool = [p for t in titles(conn, args.titles) for p in prefixes(t, rng)]
    if not pool:
        sys.exit("no titles on the stack: make seed first")
    rng.shuffle(pool)

    def ask(prefix):
        t0 = time.perf_counter()
        conn.request("GET", "/api/v1.0/posts/autocomplete?prefix=" + urllib.parse.quote(prefix))
        r = conn.getresponse()
        r.read()
        took = (time.perf_counter() - t0) * 1000
        if r.status != 200:
            raise SystemExit(f"prefix {prefix!r}: HTTP {r.status}")
        return took, r.getheader("X-Autocomplete-Source", "?")

    for i in range(200):
        ask(pool[i % len(pool)][1])
    by_kind, sources, all_ms = {}, {}, []
    for i in range(args.requests):
        kind, prefix = pool[i % len(pool)]
        ms, source = ask(prefix)
        all_ms.append(ms)
        by_kind.setdefault(kind, []).append(ms)
        sources[source] = sources.get(source, 0) + 1
    rows = {"all": all_ms, **by_kind}
    print(f"{'prefixes':<10} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    figures = {}
    for name, xs in rows.items():
        figures[name] = {"n": len(xs), "p50": pct(xs, 50), "p90": pct(xs, 90), "p99": pct(xs, 99), "mean": statistics.mean(xs)}
        f = figures[name]
        print(f"{name:<10} {f['n']:>6} {f['p50']:>8.2f} {f['p90']:>8.2f} {f['p99']:>8.2f} {f['mean']:>8.2f}")
    print("answered by: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"latency": figures, "sources": sources}, fh)


if __name__ == "__main__":
    main()
