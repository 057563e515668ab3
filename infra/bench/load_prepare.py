#!/usr/bin/env python3
"""Everything a k6 run needs, made before it starts (infra/k6.sh calls this; see docs/bench/load/README.md).

Writes into DIR (default var/load/):
  accounts.json  N load accounts (k6u0001...), each with a fresh token: logged in on the app nodes'
                 own ports (sign-up the first time), alternating nodes, never through nginx: nginx
                 limits /auth/login and /auth/signup per client address, and provisioning must not
                 spend (or depend on) that budget. The accounts persist in the database across runs.
  queries.json   search words by measured document frequency in the running index: candidate words
                 from the corpus' own word lists (infra/corpus/data), each searched once on node 1
                 and classed by its share of the pages, with the search bench's classes (SearchBench):
                 rare < 0.1%, medium 0.5-5%, high 10-40%. A page has exactly one category, so the
                 sum of a search's category facets is its match count (exact for small sets,
                 estimated from a bounded sample for huge ones: good enough to class a word).
                 Reused while the live page count is within 10% of the one it was measured on.
  targets.json   a random sample of live post ids from the primary (detail, like and diff targets).
  pages.json     500 pages made by the seed's own generator (infra/corpus, another seed): what a
                 create sends with PAGES=corpus, so that new pages hold words as the corpus does
                 (by default a create's body is made of the query words themselves).
"""
import argparse
import concurrent.futures
import json
import os
import random
import secrets
import subprocess
import sys
import time
import urllib.parse

from api import call, ports

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import ports_env  # noqa: E402

CORPUS_DATA = os.path.join(os.path.dirname(HERE), "corpus", "data")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "corpus"))
import corpus  # noqa: E402
CLASSES = ("rare", "medium", "high")


def node_urls(env):
    return [f"http://{ports_env.addr(env, n)}:{env[n + '_PORT']}" for n in ("NODE1", "NODE2")]


def primary_sql(env, sql):
    """Runs SQL as root on the primary's unix socket (as infra/corpus/seed.py does); rows as lists."""
    return db_sql(env, sql, "primary")


def db_sql(env, sql, role, named=False):
    """Runs SQL as root on the unix socket of the primary or the replica; rows as lists, or as
    dicts by column name when named."""
    sock = os.path.join(env["VAR"], "mariadb", role, "mysqld.sock")
    if not os.path.exists(sock):
        sys.exit(f"the {role} is not running ({sock} is missing): run 'make up' first")
    out = subprocess.run(["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-B",
                          *([] if named else ["-N"]), env["MARIADB_DATABASE"], "-e", sql],
                         check=True, capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if line]
    return [dict(zip(rows[0], r)) for r in rows[1:]] if named and rows else rows


# --- accounts ------------------------------------------------------------------------------

def token_cookie(headers):
    for cookie in headers.get_all("Set-Cookie") or []:
        name, _, rest = cookie.partition("=")
        if name.strip() == "token":
            return rest.split(";", 1)[0]
    return None


def account(node, username, password):
    """Logs one account in on a node (signs it up first if it does not exist); returns its token."""
    for _ in range(5):
        status, body, headers = call("POST", f"{node}/api/v1.0/auth/login", {"username": username, "password": password})
        if status == 200:
            return token_cookie(headers)
        if status == 401:
            status, body, headers = call("POST", f"{node}/api/v1.0/auth/signup",
                                         {"username": username, "nickname": "부하" + username[3:], "password": password})
            if status == 201:
                return token_cookie(headers)
            if status == 409:
                # Taken by an account with another password (var/ was wiped, the database was not).
                raise SystemExit(f"{username} exists with another password: remove var/load/secret.txt's "
                                 f"accounts from the users table or set LOAD_ACCOUNT_PREFIX")
        time.sleep(0.5)  # 503 while a node restarts: try again
    raise SystemExit(f"could not log in {username}: {status} {body}")


def provision_accounts(env, out_dir, n, prefix):
    secret_file = os.path.join(out_dir, "secret.txt")
    if not os.path.exists(secret_file):
        with open(secret_file, "w", encoding="ascii") as f:
            f.write("Load-" + secrets.token_urlsafe(12) + "\n")
    password = open(secret_file, encoding="ascii").read().strip()
    nodes = node_urls(env)
    names = [f"{prefix}{i:04d}" for i in range(1, n + 1)]
    t0 = time.time()
    # Two at a time: each login costs an Argon2id hash on a node; more only queues on the two cores.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tokens = list(pool.map(lambda i: account(nodes[i % 2], names[i], password), range(n)))
    accounts = [{"username": u, "password": password, "token": t} for u, t in zip(names, tokens)]
    with open(os.path.join(out_dir, "accounts.json"), "w", encoding="utf-8") as f:
        json.dump(accounts, f)
    print(f"  {n} accounts logged in on the nodes' own ports in {time.time() - t0:.1f} s", file=sys.stderr)


# --- queries -------------------------------------------------------------------------------

def candidates(rng, per_list):
    """Words a user would type, from the corpus' frequency lists: spread over the whole rank range."""
    out = []
    for name in ("words-ko.tsv", "words-en.tsv"):
        words = []
        with open(os.path.join(CORPUS_DATA, name), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    continue
                w = line.split("\t", 1)[0]
                if len(w) >= 2 and w.isalpha():
                    words.append(w)
        # Log-spaced ranks: frequent words are few, rare ones many; each band gets its share.
        ranks = sorted({int(len(words) ** rng.random()) for _ in range(per_list * 3)})
        rng.shuffle(ranks)
        out += [words[min(r, len(words) - 1)] for r in ranks[:per_list]]
    return out


def matches(node, word):
    q = urllib.parse.urlencode({"q": word, "size": 1})
    status, body, _ = call("GET", f"{node}/api/v1.0/posts/search?{q}")
    if status != 200:
        return None
    return sum(body["data"]["categoryFacets"].values())


def export_queries(env, out_dir, per_class, live):
    path = os.path.join(out_dir, "queries.json")
    if os.path.exists(path):
        old = json.load(open(path, encoding="utf-8"))
        if old.get("pages") and abs(old["pages"] - live) <= 0.1 * live and all(old["classes"].get(c) for c in CLASSES):
            print(f"  query list reused ({path}, measured on {old['pages']:,} pages)", file=sys.stderr)
            return
    rng = random.Random(14)
    node = node_urls(env)[0]
    # Small demo corpora have no word under 0.1% with df >= 5: there, rare means 1-3 pages.
    rare_max, rare_min = (0.001 * live, 5) if live >= 5000 else (3, 1)
    classes = {c: [] for c in CLASSES}
    measured = {}
    t0 = time.time()
    for word in candidates(rng, 900):
        if all(len(v) >= per_class for v in classes.values()):
            break
        df = matches(node, word)
        if df is None or df == 0:
            continue
        share = df / live
        cls = ("rare" if rare_min <= df <= rare_max else
               "medium" if 0.005 <= share <= 0.05 else
               "high" if 0.10 <= share <= 0.40 else None)
        if cls and len(classes[cls]) < per_class:
            classes[cls].append(word)
            measured[word] = df
    missing = [c for c in CLASSES if not classes[c]]
    if missing:
        sys.exit(f"no query word found for class(es) {missing} among the candidates ({live} pages): seed more pages")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"pages": live, "measuredAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "rule": "rare: df <= max(0.1% of pages, 3); medium: 0.5-5%; high: 10-40%",
                   "classes": classes, "df": measured}, f, ensure_ascii=False, indent=0)
    print(f"  query list measured in {time.time() - t0:.1f} s on {live:,} pages: "
          + ", ".join(f"{c} {len(v)}" for c, v in classes.items()), file=sys.stderr)


# --- targets -------------------------------------------------------------------------------

def export_targets(env, out_dir, n):
    rows = primary_sql(env, "SELECT MIN(id), MAX(id), COUNT(*) FROM posts WHERE deleted_at IS NULL")
    lo, hi, live = (int(x) for x in rows[0])
    # A random sample by id range (ORDER BY RAND() would sort a million rows).
    ids = set()
    for _ in range(4):
        probe = sorted(random.sample(range(lo, hi + 1), min(hi - lo + 1, n * 2)))
        got = primary_sql(env, "SELECT id FROM posts WHERE deleted_at IS NULL AND id IN (%s)" % ",".join(map(str, probe)))
        ids.update(int(r[0]) for r in got)
        if len(ids) >= n:
            break
    ids = sorted(ids)[:n] if len(ids) > n else sorted(ids)
    random.shuffle(ids)
    with open(os.path.join(out_dir, "targets.json"), "w", encoding="utf-8") as f:
        json.dump({"pages": live, "minId": lo, "maxId": hi, "ids": ids}, f)
    print(f"  {len(ids)} live post ids sampled of {live:,}", file=sys.stderr)
    return live


def export_pages(out_dir, n=500, seed=2026):
    """Pages as the seed makes them (bodies clipped to 20,000 characters: the seed's long tail)."""
    path = os.path.join(out_dir, "pages.json")
    if os.path.exists(path):
        return
    pages = corpus.Generator(seed, n).chunk(0)[:n]
    with open(path, "w", encoding="utf-8") as f:
        json.dump([{"title": p.title[:200], "content": p.content[:20000], "categoryId": p.category_id} for p in pages],
                  f, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--accounts", type=int, default=100)
    ap.add_argument("--per-class", type=int, default=60)
    ap.add_argument("--targets", type=int, default=5000)
    ap.add_argument("--prefix", default=os.environ.get("LOAD_ACCOUNT_PREFIX", "k6u"))
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    env = ports()
    out_dir = args.dir or os.path.join(env["VAR"], "load")
    os.makedirs(out_dir, exist_ok=True)
    live = export_targets(env, out_dir, args.targets)
    export_queries(env, out_dir, args.per_class, live)
    export_pages(out_dir)
    provision_accounts(env, out_dir, args.accounts, args.prefix)


if __name__ == "__main__":
    main()
