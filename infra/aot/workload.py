#!/usr/bin/env python3
"""The training workload of the nodes' AOT cache (infra/aot/train.sh, ADR 0101).

While node N runs with -XX:AOTCacheOutput, this drives the code a node runs in production
through it directly (not through nginx): searches with and without a category and on later
pages, autocomplete, lists, details, sign-up and login, creates and edits (which the node's
indexer then reads back from the change topic and analyses), revisions and diffs, likes, and
requests the API refuses (4xx answers are code paths too). The JVM records which classes
were loaded and linked and which methods ran hot; the cache it writes at its exit lets the
next start skip that work.

Pages it creates are deleted at the end (the delete path trains too), so the wiki keeps no
trace of the training but the revisions table's history of deleted pages.

    python3 infra/aot/workload.py --node 1 --seconds 60 --rate 40

Prints progress every 10 s and a summary by endpoint. Exits 1 when any request was answered
5xx or not at all (a broken node trains a cache of its failure paths), 0 otherwise.
Traffic goes to the node's own address from infra/ports.env only.
"""
import argparse
import collections
import os
import random
import secrets
import sys
import threading
import time
from urllib.parse import quote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
from api import ports, sign_up  # noqa: E402
from ports_env import where  # noqa: E402
from writes import CLIENT  # noqa: E402

# Everyday words (search terms, autocomplete prefixes, page text): the index holds pages of them.
WORDS = ["서울", "여행", "경복궁", "한옥", "역사", "음식", "김치", "바다", "도서관", "학교",
         "음악", "영화", "커피", "기차", "대학교", "축제", "날씨", "공원", "시장", "박물관"]


class Trainer:
    def __init__(self, port, token):
        self.port, self.token = port, token
        self.lock = threading.Lock()
        self.counts = collections.Counter()   # (endpoint, status)
        self.pages = []                       # [id, version] of pages created here
        self.categories = []

    def call(self, endpoint, method, path, body=None, auth=False):
        try:
            status, payload = CLIENT.call(self.port, method, path, body, self.token if auth else None)
        except OSError:
            status, payload = 0, None
        with self.lock:
            self.counts[endpoint, status] += 1
        return status, payload

    def text(self, n):
        return " ".join(" ".join(random.choices(WORDS, k=3)) + "." for _ in range(n))

    def one(self):
        r = random.random()
        word = random.choice(WORDS)
        cat = f"&categoryId={random.choice(self.categories)}" if self.categories and random.random() < 0.3 else ""
        if r < 0.30:
            q = word if random.random() < 0.7 else f"{word} {random.choice(WORDS)}"
            self.call("search", "GET", f"/api/v1.0/posts/search?q={quote(q)}&page={random.choice([0, 0, 1, 3])}{cat}")
        elif r < 0.45:
            self.call("autocomplete", "GET", f"/api/v1.0/posts/autocomplete?prefix={quote(word[:random.randint(1, 2)])}")
        elif r < 0.58:
            self.call("list", "GET", f"/api/v1.0/posts?page={random.randint(0, 5)}{cat}")
        elif r < 0.68:
            target = self.pick()
            self.call("detail", "GET", f"/api/v1.0/posts/{target[0] if target else 1}")
        elif r < 0.78:
            body = {"title": f"{word} {random.choice(WORDS)} {secrets.token_hex(2)}", "content": self.text(random.randint(3, 12))}
            if cat:
                body["categoryId"] = int(cat.split("=")[1])
            status, payload = self.call("create", "POST", "/api/v1.0/posts", body, auth=True)
            if status == 201:
                with self.lock:
                    self.pages.append([payload["data"]["id"], payload["data"]["version"]])
        elif r < 0.86:
            target = self.pick()
            if target:
                status, payload = self.call("edit", "PUT", f"/api/v1.0/posts/{target[0]}",
                                            {"title": f"{word} 수정 {secrets.token_hex(2)}", "content": self.text(4),
                                             "version": target[1]}, auth=True)
                if status == 200:
                    with self.lock:
                        target[1] = payload["data"]["version"]
        elif r < 0.92:
            target = self.pick()
            if target:
                self.call("revisions", "GET", f"/api/v1.0/posts/{target[0]}/revisions")
                if target[1] > 1:
                    self.call("diff", "GET", f"/api/v1.0/posts/{target[0]}/diff?from={target[1] - 1}&to={target[1]}")
        elif r < 0.96:
            target = self.pick()
            if target:
                self.call("like", "POST", f"/api/v1.0/posts/{target[0]}/like", auth=True)
        else:
            # Refusals: validation, not found, an unsigned write.
            self.call("refused", "POST", "/api/v1.0/posts", {"title": "", "content": "x"}, auth=True)
            self.call("refused", "GET", "/api/v1.0/posts/999999999999")
            self.call("refused", "POST", "/api/v1.0/posts", {"title": "t", "content": "c"})

    def pick(self):
        with self.lock:
            return random.choice(self.pages) if self.pages else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--node", type=int, default=1, choices=(1, 2))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rate", type=float, default=40, help="requests per second (open loop)")
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args()

    env = ports()
    port = int(env[f"NODE{args.node}_PORT"])
    base = f"http://{where(port)}:{port}"
    _, _, token = sign_up(base, prefix="aot")
    trainer = Trainer(port, token)
    status, payload = trainer.call("categories", "GET", "/api/v1.0/categories")
    if status == 200:
        trainer.categories = [c["id"] for c in payload["data"]][:20]
    print(f"training workload: {args.rate:g} requests/s for {args.seconds:g} s on node{args.node} ({base})", file=sys.stderr)

    start = time.perf_counter()
    total = int(args.rate * args.seconds)
    issued = iter(range(total))
    issue_lock = threading.Lock()

    def worker():
        while True:
            with issue_lock:
                i = next(issued, None)
            if i is None:
                return
            delay = start + i / args.rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            trainer.one()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.threads)]
    for t in threads:
        t.start()
    next_report = start + 10
    while any(t.is_alive() for t in threads):
        time.sleep(0.2)
        if time.perf_counter() >= next_report:
            next_report += 10
            print(f"  {time.perf_counter() - start:4.0f} s: {sum(trainer.counts.values())} requests", file=sys.stderr)

    for page_id, _ in list(trainer.pages):
        trainer.call("delete", "DELETE", f"/api/v1.0/posts/{page_id}", auth=True)

    by_endpoint = collections.defaultdict(collections.Counter)
    for (endpoint, status), n in trainer.counts.items():
        by_endpoint[endpoint][status] += n
    bad = 0
    for endpoint in sorted(by_endpoint):
        statuses = by_endpoint[endpoint]
        bad += sum(n for s, n in statuses.items() if s == 0 or s >= 500)
        print(f"  {endpoint:12} " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())), file=sys.stderr)
    took = time.perf_counter() - start
    print(f"training workload: {sum(trainer.counts.values())} requests in {took:.0f} s, "
          f"{len(trainer.pages)} pages created and deleted, {bad} answered 5xx or not at all", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
