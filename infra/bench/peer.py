#!/usr/bin/env python3
"""make bench-peer: OpenSearch 3.8.0 (analysis-nori) side by side with our search (issue 14 item 5).

infra/bench/peer.sh starts the OpenSearch node (infra/bench/peer/, in-process, 127.0.0.1 only)
and runs this script against it and against our running stack. Steps, in one run:

1. an index equivalent to ours (index_body): Nori in MIXED decompounding with our user
   dictionary and our part-of-speech stop tags, lower case; title (boost 2.5 at query time) and
   body (offsets indexed, as ours: snippets from postings), categoryId keyword, createdAt date
   (recency: distance_feature, pivot 365 days, weight 0.6), popularity bucket as a rank_feature
   (saturation, pivot 24, weight 2.5: the same shape as our PopularityQuery);
2. the same corpus our benchmarks use (infra/corpus/corpus.py, same seed and DOCS), bulk loaded
   and timed up to the final refresh;
3. query classes of the search bench (rare < 0.1%, medium 0.5-5%, high 10-40% of pages, two-term
   AND high+medium, phrase of two adjacent words of a page, medium word + category filter),
   words from the corpus word lists classed by their document frequency measured on the
   OpenSearch index (same pages as ours);
4. closed-loop HTTP load at increasing concurrency, our stack and OpenSearch alternating at each
   level, the same requests in the same order: top 10 with a body snippet and the category
   facet counts on both sides (our API always returns both). Every request's query text is
   unique within TTL (trailing spaces vary), so our search cache never answers: engine vs engine;
5. write -> searchable: OpenSearch with refresh_interval 1 s (a document indexed, then searched
   for every 10 ms until a search finds it) and ours (infra/bench/freshness.py at the same rate).

Writes the generated section of docs/bench/peer.md and docs/bench/peer-qps.png.
"""
import argparse
import http.client
import json
import math
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "corpus"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import corpus  # noqa: E402
from stats import percentile as pct  # noqa: E402
from load_prepare import candidates  # noqa: E402  (query words: the load suite's log-spaced draw)

INDEX = "posts"
# Lucene's default stop tags minus IC and MAG, plus VCP, VCN, VX, NNB: KoreanAnalysis.STOP_TAGS.
STOP_TAGS = ["EP", "EF", "EC", "ETN", "ETM", "JKS", "JKC", "JKG", "JKO", "JKB", "JKV", "JKQ", "JX", "JC", "MAJ", "MM", "SP", "SSC", "SSO", "SC", "SE", "XPN", "XSA", "XSN", "XSV",
             "UNA", "NA", "VSV", "VCP", "VCN", "VX", "NNB"]
TITLE_BOOST = 2.5           # Ranking.TITLE_BOOST
POPULARITY_WEIGHT = 2.5     # Ranking.POPULARITY_WEIGHT
POPULARITY_PIVOT = 24       # Ranking.POPULARITY_PIVOT
RECENCY_WEIGHT = 0.6        # Ranking.RECENCY_WEIGHT
CLASSES = ("rare", "medium", "high", "two-term AND", "phrase", "category filter")
BEGIN, END = "<!-- peer:begin (written by make bench-peer) -->", "<!-- peer:end -->"


def user_dictionary_rules():
    path = os.path.join(ROOT, "app", "src", "main", "resources", "search", "user-dictionary.txt")
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]


def index_body(rules):
    """Settings and mapping of the OpenSearch index equivalent to ours (PostFields, KoreanAnalysis)."""
    return {
        "settings": {
            "number_of_shards": 1, "number_of_replicas": 0, "refresh_interval": "1s",
            "analysis": {
                "tokenizer": {"ko": {"type": "nori_tokenizer", "decompound_mode": "mixed",
                                     "discard_punctuation": True, "user_dictionary_rules": rules}},
                "filter": {"ko_pos": {"type": "nori_part_of_speech", "stoptags": STOP_TAGS}},
                "analyzer": {"ko": {"type": "custom", "tokenizer": "ko",
                                    "filter": ["ko_pos", "nori_readingform", "lowercase"]}},
            },
        },
        "mappings": {
            "dynamic": "strict",
            "properties": {
                "id": {"type": "keyword"},
                "title": {"type": "text", "analyzer": "ko"},
                "content": {"type": "text", "analyzer": "ko", "index_options": "offsets"},
                "categoryId": {"type": "keyword"},
                "createdAt": {"type": "date"},
                "viewCount": {"type": "long", "index": False},
                "likeCount": {"type": "long", "index": False},
                "popularity": {"type": "rank_feature"},
            },
        },
    }


def popularity_bucket(views, likes):
    """A bounded, monotone popularity value >= 1 (rank_feature needs positive values)."""
    return 1.0 + math.log2(1 + views + 10 * likes) * 2


def page_doc(i, page):
    return {"id": str(i), "title": page.title, "content": page.content, "categoryId": str(page.category_id),
            "createdAt": int(page.created * 1000), "viewCount": page.views, "likeCount": page.likes,
            "popularity": popularity_bucket(page.views, page.likes)}


def os_query(q, category=None, now_ms=None):
    """Our query language's meaning for the bench's queries: every word required, each in the
    title (boosted) or the body; "a b" a phrase; plus the two ranking boosts; top 10, a body
    snippet, category facet counts."""
    q = q.strip()
    if q.startswith('"') and q.endswith('"'):
        text = q.strip('"')
        required = [{"bool": {"should": [{"match_phrase": {"title": {"query": text, "boost": TITLE_BOOST}}},
                                         {"match_phrase": {"content": text}}]}}]
    else:
        required = [{"bool": {"should": [{"match": {"title": {"query": w, "operator": "and", "boost": TITLE_BOOST}}},
                                         {"match": {"content": {"query": w, "operator": "and"}}}]}}
                    for w in q.split()]
    boolean = {"must": required,
               "should": [{"rank_feature": {"field": "popularity", "boost": POPULARITY_WEIGHT,
                                            "saturation": {"pivot": POPULARITY_PIVOT}}},
                          {"distance_feature": {"field": "createdAt", "origin": now_ms or "now",
                                                "pivot": "365d", "boost": RECENCY_WEIGHT}}]}
    if category is not None:
        boolean["filter"] = [{"term": {"categoryId": str(category)}}]
    return {"size": 10, "query": {"bool": boolean},
            "_source": ["id", "title", "categoryId", "createdAt", "viewCount", "likeCount"],
            "highlight": {"fields": {"content": {"fragment_size": 160, "number_of_fragments": 1}}},
            "aggs": {"categories": {"terms": {"field": "categoryId", "size": 30}}}}


def ours_path(q, category=None):
    params = {"q": q, "size": 10}
    if category is not None:
        params["categoryId"] = category
    return "/api/v1.0/posts/search?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def phrase_of(content, rng):
    """Two adjacent words of a page (punctuation dropped), or None."""
    words = re.findall(r"\w+", content)
    if len(words) < 2:
        return None
    i = rng.randrange(len(words) - 1)
    return f'"{words[i]} {words[i + 1]}"'


# --- HTTP ------------------------------------------------------------------------------------

class Client(threading.local):
    """One keep-alive connection per thread and target."""

    def __init__(self):
        self.conns = {}

    def request(self, target, method, path, body=None, timeout=30):
        host, port = target
        conn = self.conns.get(target)
        if conn is None:
            conn = self.conns[target] = http.client.HTTPConnection(host, port, timeout=timeout)
        data = None if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
        headers = {"Content-Type": "application/x-ndjson" if path.startswith("/_bulk") else "application/json"} if data else {}
        try:
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            del self.conns[target]
            raise
        return r.status, raw


CLIENT = Client()


def os_call(os_t, method, path, body=None):
    status, raw = CLIENT.request(os_t, method, path, body)
    if status >= 300:
        raise RuntimeError(f"OpenSearch {method} {path}: {status} {raw[:500]!r}")
    return json.loads(raw) if raw else None


# --- steps -----------------------------------------------------------------------------------

def load_corpus(os_t, docs, seed):
    """Bulk loads pages 0..docs-1 (corpus.Generator chunks) with 2 senders; returns timings."""
    os_call(os_t, "PUT", f"/{INDEX}/_settings", {"index": {"refresh_interval": "-1"}})
    gen = corpus.Generator(seed, docs)
    text_bytes = 0
    started = time.time()
    gen_seconds = 0.0

    def send(body):
        out = os_call(os_t, "POST", "/_bulk", body)
        if out.get("errors"):
            bad = next(i for i in out["items"] if i["index"].get("error"))
            raise RuntimeError(f"bulk error: {bad}")

    with ThreadPoolExecutor(2) as pool:
        futures = []
        for k in range(corpus.chunks_for(docs)):
            t = time.time()
            pages = gen.chunk(k)
            lines = []
            for j, page in enumerate(pages):
                i = k * corpus.CHUNK + j
                text_bytes += len(page.title.encode()) + len(page.content.encode())
                lines.append(json.dumps({"index": {"_index": INDEX, "_id": str(i)}}))
                lines.append(json.dumps(page_doc(i, page), ensure_ascii=False))
            body = ("\n".join(lines) + "\n").encode()
            gen_seconds += time.time() - t
            futures.append(pool.submit(send, body))
            while sum(1 for f in futures if not f.done()) > 2:
                time.sleep(0.01)
            print(f"\r  OpenSearch: {min(docs, (k + 1) * corpus.CHUNK):,} / {docs:,} pages sent", end="", file=sys.stderr)
        for f in futures:
            f.result()
    os_call(os_t, "PUT", f"/{INDEX}/_settings", {"index": {"refresh_interval": "1s"}})
    os_call(os_t, "POST", f"/{INDEX}/_refresh")
    total = time.time() - started
    count = os_call(os_t, "GET", f"/{INDEX}/_count")["count"]
    print(file=sys.stderr)
    return {"seconds": total, "generator_seconds": gen_seconds, "text_mb": text_bytes / 1e6, "count": count}


def df(os_t, word):
    return os_call(os_t, "POST", f"/{INDEX}/_count", {"query": {"match": {"content": {"query": word, "operator": "and"}}}})["count"]




def classify(share, count, docs):
    """The search bench's classes (SearchBench): rare < 0.1% (and on a few pages), medium 0.5-5%, high 10-40%."""
    if share < 0.001 and count >= min(5, max(1, docs // 2000)):
        return "rare"
    if 0.005 <= share <= 0.05:
        return "medium"
    if 0.10 <= share <= 0.40:
        return "high"
    return None


def build_queries(os_t, docs, seed, per_class, rng):
    """{class: [(q, category)]}, words classed by document frequency on the OpenSearch index."""
    by = {"rare": [], "medium": [], "high": []}
    for w in dict.fromkeys(candidates(rng, 700)):
        if all(len(ws) >= 5 * per_class for ws in by.values()):
            break
        n = df(os_t, w)
        c = classify(n / docs, n, docs)
        if c and len(by[c]) < 5 * per_class:
            by[c].append(w)
    for c, ws in by.items():
        if len(ws) < 3:
            raise SystemExit(f"too few {c} words ({len(ws)}): use more DOCS")
    out = {c: [(w, None) for w in rng.sample(by[c], min(per_class, len(by[c])))] for c in ("rare", "medium", "high")}
    out["two-term AND"] = [(f"{rng.choice(by['high'])} {rng.choice(by['medium'])}", None) for _ in range(per_class)]
    out["category filter"] = [(rng.choice(by["medium"]), rng.randint(1, 30)) for _ in range(per_class)]
    gen = corpus.Generator(seed, docs)
    phrases, k = [], 0
    while len(phrases) < per_class and k < corpus.chunks_for(docs):
        for page in rng.sample(gen.chunk(k), 20):
            p = phrase_of(page.content, rng)
            if p and len(phrases) < per_class:
                phrases.append((p, None))
        k += max(1, corpus.chunks_for(docs) // 10)
    out["phrase"] = phrases
    return {c: out[c] for c in CLASSES}


def run_level(target, kind, requests, concurrency, seconds, counter):
    """Closed loop: `concurrency` threads send requests for `seconds`; latencies in ms per class."""
    lat = {c: [] for c in CLASSES}
    errors = [0]
    stop = time.time() + seconds
    lock = threading.Lock()
    n = len(requests)

    def worker():
        while time.time() < stop:
            with lock:
                i = counter[0]
                counter[0] += 1
            cls, q, cat = requests[i % n]
            q = q + " " * ((i // n) % 128)   # a query text not asked in the last n * 128 requests: no cache answers
            t = time.perf_counter()
            try:
                if kind == "os":
                    status, _ = CLIENT.request(target, "POST", f"/{INDEX}/_search", os_query(q, cat))
                else:
                    status, _ = CLIENT.request(target, "GET", ours_path(q, cat))
            except (OSError, http.client.HTTPException):
                status = 599
            ms = (time.perf_counter() - t) * 1000
            with lock:
                if status == 200:
                    lat[cls].append(ms)
                else:
                    errors[0] += 1

    t0 = time.time()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.time() - t0
    every = [x for v in lat.values() for x in v]
    return {"qps": len(every) / wall, "p50": pct(every, 50), "p95": pct(every, 95), "p99": pct(every, 99),
            "n": len(every), "errors": errors[0], "per_class": {c: (pct(v, 50), pct(v, 95)) for c, v in lat.items()},
            "load": os.getloadavg()[0]}


def os_freshness(os_t, rate, seconds):
    """Open loop: one document indexed every 1/rate s (each at its planned time); one poller asks,
    every 10 ms, which of the pending documents a search finds. Ms from the index call's answer
    to the first search that finds the document, per write."""
    tag = "".join(random.choice("bcdfghjklmnpqrstvwxz") for _ in range(8))
    pending, out, lock, done = {}, [], threading.Lock(), threading.Event()

    def writer():
        started = time.time()
        for i in range(int(rate * seconds)):
            time.sleep(max(0.0, started + i / rate - time.time()))
            doc_id = f"fresh-{tag}-{i}"
            os_call(os_t, "PUT", f"/{INDEX}/_doc/{doc_id}", {
                "id": doc_id, "title": "신선도 측정", "content": "fresh", "categoryId": "1",
                "createdAt": int(time.time() * 1000), "viewCount": 0, "likeCount": 0, "popularity": 1.0})
            with lock:
                pending[doc_id] = time.perf_counter()
        done.set()

    w = threading.Thread(target=writer)
    w.start()
    deadline = time.time() + seconds + 30
    while time.time() < deadline:
        with lock:
            ids = list(pending)
        if not ids:
            if done.is_set():
                break
            time.sleep(0.01)
            continue
        found = os_call(os_t, "POST", f"/{INDEX}/_search", {"size": len(ids), "_source": False,
                                                           "query": {"terms": {"id": ids}}})
        now = time.perf_counter()
        with lock:
            for hit in found["hits"]["hits"]:
                t = pending.pop(hit["_id"], None)
                if t is not None:
                    out.append((now - t) * 1000)
        time.sleep(0.01)
    w.join()
    return out


def ours_freshness(rate, seconds):
    cmd = [sys.executable, os.path.join(HERE, "freshness.py"), "--rate", str(rate), "--seconds", str(seconds),
           "--warmup", "5"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 180)
    return (r.stdout + r.stderr).strip()


# --- report ----------------------------------------------------------------------------------

def best_under(levels, kind, budget_ms=100):
    ok = [lv for lv in levels if lv["kind"] == kind and lv["p95"] < budget_ms and lv["errors"] == 0]
    return max(ok, key=lambda lv: lv["qps"]) if ok else None


def plot(levels, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for kind, label, color in (("ours", "Hanwiki", "tab:blue"), ("os", "OpenSearch 3.8.0", "tab:orange")):
        pts = sorted((lv["c"], lv["qps"], lv["p95"]) for lv in levels if lv["kind"] == kind)
        if not pts:
            continue
        ax.plot([p[1] for p in pts], [p[2] for p in pts], marker="o", label=label, color=color)
        for c, x, y in pts:   # in concurrency order, each point labelled with its concurrency
            ax.annotate(str(c), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.axhline(100, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("queries per second (closed loop, rising concurrency)")
    ax.set_ylabel("p95 latency, ms")
    ax.set_yscale("log")
    ax.legend()
    ax.set_title("Search: throughput vs p95, same queries, alternating")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def report(args, indexing, ours_index, queries, levels, os_fresh, ours_fresh, load_start, plotted):
    f = lambda x: "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1f}"
    md = [BEGIN, "",
          f"Run {time.strftime('%Y-%m-%d %H:%M', time.gmtime(args.started))} - {time.strftime('%H:%MZ', time.gmtime())}, "
          f"DOCS={args.docs:,} (seed {args.seed}), ours via {args.ours_label}, load average (1 min) at the start "
          f"{load_start:.1f}, {args.seconds} s per level, {args.per_class} queries per class.", ""]
    md += ["### Indexing the same pages", "",
           "| system | pages | text MB | seconds | MB/s |", "|---|---:|---:|---:|---:|",
           f"| OpenSearch (bulk, 2 senders, refresh off then on) | {indexing['count']:,} | {indexing['text_mb']:.1f} | "
           f"{indexing['seconds']:.1f} (corpus generation in the client: {indexing['generator_seconds']:.1f}) | "
           f"{indexing['text_mb'] / indexing['seconds']:.2f} |"]
    if ours_index:
        md.append(f"| Hanwiki (make seed DOCS={args.docs} WAIT=1: binlog, Debezium, Kafka, both nodes) | {args.docs:,} | "
                  f"{indexing['text_mb']:.1f} | {ours_index} | {indexing['text_mb'] / float(ours_index):.2f} |")
    md += ["", "### QPS at p95 < 100 ms (all classes mixed, same requests, alternating per level)", "",
           "| concurrency | system | QPS | p50 ms | p95 ms | p99 ms | requests | errors | load avg |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for lv in levels:
        md.append(f"| {lv['c']} | {'Hanwiki' if lv['kind'] == 'ours' else 'OpenSearch'} | {lv['qps']:.0f} | {f(lv['p50'])} | "
                  f"{f(lv['p95'])} | {f(lv['p99'])} | {lv['n']} | {lv['errors']} | {lv['load']:.1f} |")
    b_ours, b_os = best_under(levels, "ours"), best_under(levels, "os")
    ratio = (b_ours["qps"] / b_os["qps"]) if b_ours and b_os else None
    md += ["", f"Best QPS with p95 < 100 ms and no errors: **Hanwiki {f(b_ours and b_ours['qps'])}**, "
               f"**OpenSearch {f(b_os and b_os['qps'])}**, ratio **{f(ratio) if ratio else 'n/a'}x** (goal: >= 2x)."]
    md += ["", "### Per class at concurrency 1 (p50 / p95 ms)", "", "| class | Hanwiki | OpenSearch | example |", "|---|---|---|---|"]
    one = {lv["kind"]: lv for lv in levels if lv["c"] == min(x["c"] for x in levels)}
    for c in CLASSES:
        o, s = one.get("ours"), one.get("os")
        md.append(f"| {c} | {f(o and o['per_class'][c][0])} / {f(o and o['per_class'][c][1])} | "
                  f"{f(s and s['per_class'][c][0])} / {f(s and s['per_class'][c][1])} | `{queries[c][0][0]}` |")
    md += ["", "### Write -> searchable", "",
           f"OpenSearch (refresh_interval 1 s), {len(os_fresh)} writes at {args.fresh_rate}/s: p50 {f(pct(os_fresh, 50))} ms, "
           f"p95 {f(pct(os_fresh, 95))} ms, p99 {f(pct(os_fresh, 99))} ms, max {f(max(os_fresh) if os_fresh else None)} ms.", "",
           f"Hanwiki (CDC, `infra/bench/freshness.py --rate {args.fresh_rate} --seconds {args.fresh_seconds} --warmup 5`, same run):", "",
           "```", ours_fresh or "(not measured)", "```"]
    if plotted:
        md += ["", "![QPS vs p95](peer-qps.png)"]
    md += ["", END]
    return "\n".join(md)


def write_section(path, section):
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text + "\n" + section + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--os-port", type=int, required=True)
    p.add_argument("--ours", default="127.0.0.1:8080", help="host:port of our search API (nginx by default)")
    p.add_argument("--ours-label", default="nginx (both nodes)")
    p.add_argument("--docs", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--per-class", type=int, default=50)
    p.add_argument("--levels", default="1,2,4,8,16,32")
    p.add_argument("--seconds", type=int, default=15)
    p.add_argument("--fresh-rate", type=int, default=10)
    p.add_argument("--fresh-seconds", type=int, default=20)
    p.add_argument("--ours-index-seconds", default="", help="our time to index the same DOCS (from make seed WAIT=1)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "bench", "peer.md"))
    args = p.parse_args()
    args.started = time.time()
    load_start = os.getloadavg()[0]
    os_t = ("127.0.0.1", args.os_port)
    ours_t = None if args.ours == "none" else (args.ours.rsplit(":", 1)[0], int(args.ours.rsplit(":", 1)[1]))
    rng = random.Random(args.seed)

    CLIENT.request(os_t, "DELETE", f"/{INDEX}")
    os_call(os_t, "PUT", f"/{INDEX}", index_body(user_dictionary_rules()))
    print(f"indexing {args.docs:,} pages into OpenSearch (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
    indexing = load_corpus(os_t, args.docs, args.seed)
    print(f"  {indexing}", file=sys.stderr)
    queries = build_queries(os_t, args.docs, args.seed, args.per_class, rng)
    requests = [(c, q, cat) for c, qs in queries.items() for q, cat in qs]
    rng.shuffle(requests)
    sides = [("ours", ours_t), ("os", os_t)] if ours_t else [("os", os_t)]
    if ours_t:
        status, _ = CLIENT.request(ours_t, "GET", ours_path("서울"))
        if status != 200:
            raise SystemExit(f"our search answered {status} at {args.ours}: is the stack up?")
    # Warm-up (JIT, page cache), untimed.
    warm = [len(requests) * 100]   # other trailing-space variants than the timed levels' first 100 passes
    for kind, t in sides:
        run_level(t, kind, requests, 2, max(5, args.seconds // 2), warm)
    levels, counter = [], [0]
    for i, c in enumerate(int(x) for x in args.levels.split(",")):
        for kind, t in (sides if i % 2 == 0 else sides[::-1]):
            lv = run_level(t, kind, requests, c, args.seconds, counter)
            lv.update(kind=kind, c=c)
            levels.append(lv)
            print(f"  c={c:3d} {kind:4s} {lv['qps']:7.1f} qps  p50 {lv['p50']:.1f}  p95 {lv['p95']:.1f}  "
                  f"errors {lv['errors']}  load {lv['load']:.1f}", file=sys.stderr)
        if all(lv["p95"] > 300 for lv in levels[-len(sides):]):
            break
    print("write -> searchable", file=sys.stderr)
    os_fresh = os_freshness(os_t, args.fresh_rate, args.fresh_seconds)
    ours_fresh = ours_freshness(args.fresh_rate, args.fresh_seconds) if ours_t and args.fresh_seconds else ""
    plotted = plot(levels, os.path.join(os.path.dirname(args.out), "peer-qps.png"))
    section = report(args, indexing, args.ours_index_seconds, queries, levels, os_fresh, ours_fresh, load_start, plotted)
    write_section(args.out, section)
    with open(os.path.join(ROOT, "var", "peer-levels.json"), "w") as f:
        json.dump({"levels": levels, "indexing": indexing}, f, indent=1)
    print(section)


if __name__ == "__main__":
    main()
