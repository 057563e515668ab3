#!/usr/bin/env python3
"""Does every node's index agree with the database?

Compares the live posts of the PRIMARY (id, version) with each app node's index
(GET /internal/index/ids on the node's own port) and prints, per node:
  missing  live in the database, absent from the index
  stale    in both, but the index holds another version
  ghost    in the index, but deleted or absent in the database
Exit code 0 only when every count is zero on every node. With --wait S it re-checks until
the counts are zero or S seconds have passed (use it right after a drill, while the nodes
are still catching up).

    python3 infra/verify_index.py [--wait 30]        (make verify-index)
"""
import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))
import ports_env  # noqa: E402
from ports_env import where  # noqa: E402


def env():
    return ports_env.load()


def database_posts(e):
    sock = os.path.join(e["VAR"], "mariadb", "primary", "mysqld.sock")
    out = subprocess.run(
        ["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B", "-e",
         f"SELECT id, version FROM {e['MARIADB_DATABASE']}.posts WHERE deleted_at IS NULL"],
        check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        pid, version = line.split("\t")
        rows[int(pid)] = int(version)
    return rows


def index_posts(port):
    with urllib.request.urlopen(f"http://{where(port)}:{port}/internal/index/ids", timeout=120) as r:
        docs = json.load(r)["data"]
    index, dupes = {}, 0
    for d in docs:
        if d["id"] in index:
            dupes += 1
        index[d["id"]] = d["version"]
    return index, dupes


def compare(db, index):
    missing = sum(1 for i in db if i not in index)
    stale = sum(1 for i, v in db.items() if i in index and index[i] != v)
    ghost = sum(1 for i in index if i not in db)
    return missing, stale, ghost


def check(e):
    db = database_posts(e)
    results = {}
    for n in (1, 2):
        try:
            index, dupes = index_posts(e[f"NODE{n}_PORT"])
            results[f"node{n}"] = (len(index), *compare(db, index), dupes)
        except OSError as err:
            results[f"node{n}"] = err
    return len(db), results


def clean(results):
    return all(not isinstance(r, OSError) and r[1:] == (0, 0, 0, 0) for r in results.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wait", type=float, default=0, help="re-check for up to this many seconds")
    args = ap.parse_args()
    e = env()
    start = time.monotonic()
    while True:
        t0 = time.monotonic()
        live, results = check(e)
        if clean(results) or time.monotonic() - start >= args.wait:
            break
        time.sleep(1)
    print(f"database: {live} live posts (checked in {time.monotonic() - t0:.1f} s)")
    print(f"{'node':6} {'indexed':>9} {'missing':>8} {'stale':>6} {'ghost':>6} {'dupes':>6}")
    for node, r in results.items():
        if isinstance(r, OSError):
            print(f"{node:6} unreachable: {r}")
        else:
            print(f"{node:6} {r[0]:9d} {r[1]:8d} {r[2]:6d} {r[3]:6d} {r[4]:6d}")
    ok = clean(results)
    print("index and database agree" if ok else "DIFFERENCES FOUND")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
