#!/usr/bin/env python3
"""Search CPU per request on each node, asked directly, alternating (issue 14: where a search's CPU goes).

    python3 infra/bench/search_nodes.py [--rounds 3] [--seconds 15] [--concurrency 4] [--nodes node1,node2]
    (make bench-search-nodes [ROUNDS=] [SECONDS=] [C=] [WARMUP=])

Sends the same search-only mix to each node's own port (no nginx, no other node), one node after
the other, ROUNDS times, a closed loop of CONCURRENCY client threads for SECONDS each. Per run it
prints the node's throughput, p50/p95/p99 and **CPU-ms per search** (the node process's CPU from
/proc over the run, divided by the searches it answered). The machine's two cores are shared with
the client, MariaDB and Redis, so throughput moves with everything else; the CPU per search is the
figure to compare between two builds or two indexes (A/B: one node on each, same sitting).

The mix (fixed seed): words from the corpus' Korean frequency list at log-spaced ranks, one sixth
each of rare-to-frequent single words, two-word AND, a phrase of two words, a word with a category
filter. Every request's text is new for the whole session (leading and trailing spaces, which the
analysis drops): the search cache never answers, every request does the engine's full work.
"""
import argparse
import itertools
import os
import random
import time

import peer  # its HTTP client, request path and closed-loop level runner
from api import ports  # also puts infra/lib on the path
import ports_env  # noqa: E402
from stackstats import cpu_seconds  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORDS = os.path.join(os.path.dirname(HERE), "corpus", "data", "words-ko.tsv")


def requests(seed, n=600):
    rng = random.Random(seed)
    with open(WORDS, encoding="utf-8") as f:
        ko = [line.split("\t")[0] for line in f if not line.startswith("#")]
    ranks = sorted({int(10 ** (1 + rng.random() * 3.6)) for _ in range(n)})
    words = [ko[r] for r in ranks if r < len(ko) and len(ko[r]) >= 2]
    out = []
    for i in range(n):
        w = rng.choice(words)
        kind = i % 6
        if kind == 3:
            out.append(("two-term AND", f"{w} {rng.choice(words)}", None))
        elif kind == 4:
            out.append(("phrase", f'"{w} {rng.choice(words)}"', None))
        elif kind == 5:
            out.append(("category filter", w, rng.randint(1, 30)))
        else:
            out.append((peer.CLASSES[kind], w, None))
    return out


def unique_texts():
    """Makes peer.ours_path give every request a text never sent before in this session."""
    seq = itertools.count(int(time.time() * 1000) % 10_000_000)
    plain = peer.ours_path

    def path(q, category=None):
        k = next(seq)
        return plain(" " * (k % 97) + q.strip() + " " * ((k // 97) % 211 + 1), category)

    peer.ours_path = path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", default="node1,node2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=15)
    p.add_argument("--concurrency", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--warmup", type=int, default=20, help="untimed seconds per node first (a node just started compiles for minutes)")
    args = p.parse_args()
    env = ports()
    nodes = args.nodes.split(",")
    targets = {n: (ports_env.addr(env, n.upper()), int(env[n.upper() + "_PORT"])) for n in nodes}
    reqs = requests(args.seed)
    unique_texts()
    for n, t in targets.items():  # warm-up, untimed: JIT and page cache
        peer.run_level(t, "ours", reqs, 2, args.warmup, [0])
    print(f"search-only mix, {len(reqs)} requests, c={args.concurrency}, {args.seconds} s per run; "
          f"load average at the start {os.getloadavg()[0]:.2f}")
    print(f"{'round':>5} {'node':6} {'searches/s':>10} {'p50':>6} {'p95':>6} {'p99':>6} {'errors':>6} {'CPU-ms/search':>13} {'load':>5}")
    per = {n: [] for n in nodes}
    for r in range(1, args.rounds + 1):
        for n in (nodes if r % 2 else nodes[::-1]):
            before = cpu_seconds()
            lv = peer.run_level(targets[n], "ours", reqs, args.concurrency, args.seconds, [0])
            after = cpu_seconds()
            if n not in before or n not in after:
                raise SystemExit(f"{n} is not running (no live pid file): make up")
            ms = (after[n] - before[n]) * 1000 / max(1, lv["n"])
            per[n].append(ms)
            print(f"{r:5d} {n:6} {lv['qps']:10.1f} {lv['p50']:6.1f} {lv['p95']:6.1f} {lv['p99']:6.1f} "
                  f"{lv['errors']:6d} {ms:13.2f} {lv['load']:5.2f}", flush=True)
    for n, v in per.items():
        print(f"{n}: CPU-ms per search, mean of {len(v)} runs {sum(v) / len(v):.2f} (min {min(v):.2f}, max {max(v):.2f})")


if __name__ == "__main__":
    main()
