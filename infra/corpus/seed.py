#!/usr/bin/env python3
"""Generates the corpus and loads it into the primary: `make seed DOCS=N`.

    python3 infra/corpus/seed.py --docs 1000000 [--workers 2] [--seed 42] [--wait-index]

Pages come from corpus.py (deterministic: page i of a given seed and DOCS is always the same
page). They are written straight into the primary with one LOAD DATA LOCAL INFILE per chunk of
2,000 pages (one transaction each), as root on the primary's unix socket. From there they
travel like any write: binlog -> Debezium -> Kafka -> every node indexes them itself (the
nodes switch to bulk mode while they catch up). Re-running is safe and resumes: pages already
present (counted by their seeded authors) are not generated again.

With --wait-index it then follows both nodes until each has indexed every live post, and
prints the timings the benchmark note needs: generated+loaded, indexed on both nodes.
"""
import argparse
import collections
import json
import multiprocessing
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))

import corpus  # noqa: E402
import ports_env  # noqa: E402
from ports_env import where  # noqa: E402

COLUMNS = "title, content, category_id, author_id, version, created_at, updated_at"


def env():
    return ports_env.load()


class Primary:
    """One long-lived `mariadb` client on the primary's socket: statements in, markers out."""

    def __init__(self, e):
        self.socket = os.path.join(e["VAR"], "mariadb", "primary", "mysqld.sock")
        if not os.path.exists(self.socket):
            sys.exit(f"the primary is not running ({self.socket} is missing): run 'make up' first")
        self.db = e["MARIADB_DATABASE"]
        self.proc = subprocess.Popen(
            ["mariadb", "--no-defaults", "-uroot", f"--socket={self.socket}", "--local-infile=1", "--unbuffered", "-N", "-B", self.db],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self.marker = 0

    def run(self, sql):
        """Runs statements and returns the output lines before the completion marker."""
        self.marker += 1
        tag = f"__done_{self.marker}__"
        self.proc.stdin.write(sql.rstrip().rstrip(";") + f";\nSELECT '{tag}';\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the mariadb client stopped (exit {self.proc.poll()}) while running: {sql[:200]}")
            line = line.rstrip("\n")
            if line == tag:
                return lines
            lines.append(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def timestamp(epoch):
    t = time.gmtime(epoch)
    micros = int((epoch - int(epoch)) * 1_000_000)
    return f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d} {t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}.{micros:06d}"


_generator = None


def _init_worker(seed, total):
    global _generator
    _generator = corpus.Generator(seed, total)


def _make_chunk(k):
    """Worker: chunk k as TSV bytes ready for LOAD DATA (pages, and their counters by position in
    the chunk: they live in post_counters, ADR 0080), plus its page count and text bytes."""
    pages = _generator.chunk(k)
    out, counters = [], []
    text_bytes = 0
    for n, p in enumerate(pages):
        created = timestamp(p.created)
        out.append("\t".join((escape(p.title), escape(p.content), str(p.category_id), str(p.author_id),
                              "1", created, created)))
        counters.append(f"{n}\t{p.views}\t{p.likes}")
        text_bytes += len(p.title.encode("utf-8")) + len(p.content.encode("utf-8"))
    return k, ("\n".join(out) + "\n").encode("utf-8"), ("\n".join(counters) + "\n").encode(), len(pages), text_bytes


def bar(done, total, started, text_bytes, label):
    elapsed = max(1e-6, time.time() - started)
    frac = done / total if total else 1
    width = 30
    filled = int(width * frac)
    rate = done / elapsed
    eta = (total - done) / rate if rate > 0 else 0
    sys.stderr.write(f"\r  {label} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} pages "
                     f"{text_bytes / 1e6:,.0f} MB  {rate:,.0f} pages/s  {elapsed:,.0f}s elapsed  ETA {eta:,.0f}s ")
    sys.stderr.flush()


def ensure_authors(db):
    rows = []
    for i in range(1, corpus.AUTHORS + 1):
        uid = corpus.AUTHOR_ID_BASE + i
        rows.append(f"({uid}, 'corpus{i:05d}', '작가{i:05d}', NULL, '2019-01-01 00:00:00.000000')")
    for start in range(0, len(rows), 500):
        db.run("INSERT IGNORE INTO users (id, username, nickname, password_hash, created_at) VALUES "
               + ",".join(rows[start:start + 500]))


def existing_pages(db):
    lo, hi = corpus.AUTHOR_ID_BASE + 1, corpus.AUTHOR_ID_BASE + corpus.AUTHORS
    return int(db.run(f"SELECT COUNT(*) FROM posts WHERE author_id BETWEEN {lo} AND {hi}")[0])


def load(args, e):
    db = Primary(e)
    ensure_authors(db)
    have = existing_pages(db)
    total = args.docs
    if have >= total:
        print(f"  the corpus already has {have:,} pages (>= {total:,}): nothing to load", file=sys.stderr)
        db.close()
        return 0, 0, 0.0
    first_chunk = have // corpus.CHUNK
    if have % corpus.CHUNK:
        sys.exit(f"{have} corpus pages is not a whole number of chunks of {corpus.CHUNK}: was DOCS changed between runs?")
    chunks = list(range(first_chunk, corpus.chunks_for(total)))
    tmp = os.path.join(e["VAR"], "corpus")
    os.makedirs(tmp, exist_ok=True)
    db.run("SET SESSION foreign_key_checks = 0, unique_checks = 0")
    print(f"  loading pages {have:,}..{total:,} (seed {args.seed}) with {args.workers} generator process(es)", file=sys.stderr)
    started = time.time()
    loaded, text_bytes = 0, 0
    with multiprocessing.Pool(args.workers, initializer=_init_worker, initargs=(args.seed, total)) as pool:
        pending = collections.deque()
        it = iter(chunks)
        for k in it:
            pending.append(pool.apply_async(_make_chunk, (k,)))
            if len(pending) >= 2 * args.workers:
                break
        while pending:
            k, data, counts, n, nbytes = pending.popleft().get()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.apply_async(_make_chunk, (nxt,)))
            path = os.path.join(tmp, f"chunk-{k:06d}.tsv")
            with open(path, "wb") as f:
                f.write(data)
            before = int(db.run("SELECT COALESCE(MAX(id), 0) FROM posts")[0])
            db.run(f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE posts CHARACTER SET utf8mb4 "
                   f"FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' ({COLUMNS})")
            os.remove(path)
            # One LOAD DATA takes consecutive ids in file order (nobody else writes during a seed):
            # the n-th page of the chunk is first + n. Checked, not assumed.
            first, last = (int(v) for v in db.run(f"SELECT MIN(id), MAX(id) FROM posts WHERE id > {before}")[0].split("\t"))
            if last - first + 1 != n:
                sys.exit(f"chunk {k}: {n} pages took ids {first}..{last}; another writer interleaved, counters not loaded")
            with open(path, "wb") as f:
                f.write(counts)
            db.run(f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE post_counters FIELDS TERMINATED BY '\\t' "
                   f"(@n, view_count, like_count) SET post_id = {first} + @n, version = 1")
            os.remove(path)
            loaded += n
            text_bytes += nbytes
            bar(have + loaded, total, started, text_bytes, "generate+load")
    elapsed = time.time() - started
    sys.stderr.write("\n")
    db.close()
    print(f"  generated and loaded {loaded:,} pages ({text_bytes / 1e6:,.0f} MB of text) in {elapsed:,.1f} s", file=sys.stderr)
    return loaded, text_bytes, elapsed


def node_stats(port):
    with urllib.request.urlopen(f"http://{where(port)}:{port}/internal/index/stats", timeout=5) as r:
        return json.load(r)["data"]


def live_posts(e):
    db = Primary(e)
    n = int(db.run("SELECT COUNT(*) FROM posts WHERE deleted_at IS NULL")[0])
    db.close()
    return n


def wait_index(e, started):
    want = live_posts(e)
    ports = {1: e["NODE1_PORT"], 2: e["NODE2_PORT"]}
    done_at = {}
    print(f"  waiting for both nodes to index {want:,} live posts", file=sys.stderr)
    while len(done_at) < 2:
        parts = []
        for n, port in ports.items():
            try:
                s = node_stats(port)
                docs = s["numDocs"]
            except Exception as ex:  # a node restarting or busy: keep waiting
                docs, s = -1, {"phase": f"unreachable ({ex.__class__.__name__})"}
            if docs >= want and n not in done_at:
                done_at[n] = time.time()
            parts.append(f"node{n} {max(docs, 0):,} ({s.get('phase', '?')})")
        sys.stderr.write(f"\r  indexed: {'  '.join(parts)}  {time.time() - started:,.0f}s   ")
        sys.stderr.flush()
        if len(done_at) < 2:
            time.sleep(2)
    sys.stderr.write("\n")
    return {n: t - started for n, t in done_at.items()}, want


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--docs", type=int, default=2000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    p.add_argument("--wait-index", action="store_true", help="then wait until both nodes have indexed every post")
    p.add_argument("--report", help="append the timings as one JSON line to this file")
    args = p.parse_args()
    e = env()
    t0 = time.time()
    loaded, text_bytes, load_s = load(args, e)
    result = {"docs": args.docs, "loaded": loaded, "text_mb": round(text_bytes / 1e6, 1),
              "generate_load_s": round(load_s, 1), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))}
    if args.wait_index:
        per_node, want = wait_index(e, t0)
        total_s = max(per_node.values())
        result.update({"live_posts": want, "indexed_node1_s": round(per_node[1], 1), "indexed_node2_s": round(per_node[2], 1),
                       "total_s": round(total_s, 1)})
        print(f"  {loaded:,} pages generated+loaded in {load_s / 60:.1f} min; indexed on both nodes "
              f"{total_s / 60:.1f} min after the start (node1 {per_node[1] / 60:.1f} min, node2 {per_node[2] / 60:.1f} min)",
              file=sys.stderr)
    if args.report:
        with open(args.report, "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
