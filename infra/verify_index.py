#!/usr/bin/env python3
"""Does every node's index agree with the database?

Compares the live posts of the PRIMARY with each app node's index and prints, per node:
  missing  live in the database, absent from the index
  stale    in both, but the index holds another version
  ghost    in the index, but deleted or absent in the database
  content  in both at the same version, but the index holds other text: the digest of title,
           content and category (IndexedContent.digest in the app, SHA2 of the same bytes in
           SQL here) differs
  dupes    an id the index holds twice
Versions come from GET /internal/index/ids (one scan); digests from GET
/internal/index/digests?ids=... in chunks of CHUNK, read only once the versions agree (they
cost a stored-document read per post). Exit code 0 only when every count is zero on every
node. With --wait S it re-checks until the counts are zero or S seconds have passed (use it
right after a drill, while the nodes are still catching up).

    python3 infra/verify_index.py [--wait 30] [--versions-only]        (make verify-index)
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

CHUNK = 500  # ids per digest request: the query string stays well under the 8 KB header limit
COLUMNS = ("indexed", "missing", "stale", "ghost", "content", "dupes")

# The app's IndexedContent.digest: SHA-256 (hex) of title, content and category id (empty when
# none), each followed by a newline, in UTF-8 (the columns are utf8mb4).
DIGEST_SQL = ("SHA2(CONCAT(title, CHAR(10 USING utf8mb4), content, CHAR(10 USING utf8mb4), "
              "IFNULL(category_id, ''), CHAR(10 USING utf8mb4)), 256)")


def database_posts(e):
    """{id: (version, digest)} of the primary's live posts."""
    sock = os.path.join(e["VAR"], "mariadb", "primary", "mysqld.sock")
    out = subprocess.run(
        ["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B", "-e",
         f"SELECT id, version, {DIGEST_SQL} FROM {e['MARIADB_DATABASE']}.posts WHERE deleted_at IS NULL"],
        check=True, capture_output=True, text=True, timeout=300).stdout
    rows = {}
    for line in out.splitlines():
        pid, version, digest = line.split("\t")
        rows[int(pid)] = (int(version), digest)
    return rows


def get(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return json.load(r)["data"]


def index_versions(base):
    """({id: version}, duplicates) of every live document of the node's index."""
    index, dupes = {}, 0
    for d in get(f"{base}/internal/index/ids"):
        if d["id"] in index:
            dupes += 1
        index[d["id"]] = d["version"]
    return index, dupes


def index_digests(base, ids):
    """{id: digest} as the node's search shows them, asked CHUNK ids at a time."""
    ids = sorted(ids)
    digests = {}
    for i in range(0, len(ids), CHUNK):
        chunk = ",".join(str(x) for x in ids[i:i + CHUNK])
        digests.update({int(k): v for k, v in get(f"{base}/internal/index/digests?ids={chunk}").items()})
    return digests


def compare(db, index):
    """(missing, stale, ghost) of the versions; db maps id -> (version, digest), index id -> version."""
    missing = sum(1 for i in db if i not in index)
    stale = sum(1 for i, (v, _) in db.items() if i in index and index[i] != v)
    ghost = sum(1 for i in index if i not in db)
    return missing, stale, ghost


def same_version(db, index):
    """Ids held at the database's version: the ones whose content can be compared."""
    return [i for i, (v, _) in db.items() if index.get(i) == v]


def content_differences(db, digests, ids):
    """Ids of {ids} whose indexed digest differs from the database's (absent counts as different)."""
    return sorted(i for i in ids if digests.get(i) != db[i][1])


def check_node(db, base, with_content):
    """(indexed, missing, stale, ghost, content, dupes); content is None when not compared."""
    index, dupes = index_versions(base)
    missing, stale, ghost = compare(db, index)
    content = None
    if with_content and (missing, stale, ghost, dupes) == (0, 0, 0, 0):
        ids = same_version(db, index)
        content = len(content_differences(db, index_digests(base, ids), ids))
    return len(index), missing, stale, ghost, content, dupes


def check(e, with_content=True):
    db = database_posts(e)
    results = {}
    for n in (1, 2):
        port = e[f"NODE{n}_PORT"]
        try:
            results[f"node{n}"] = check_node(db, f"http://{where(port)}:{port}", with_content)
        except OSError as err:
            results[f"node{n}"] = err
    return len(db), results


def clean(results, with_content=True):
    def ok(r):
        missing, stale, ghost, content, dupes = r[1:]
        return (missing, stale, ghost, dupes) == (0, 0, 0, 0) and (content == 0 or not with_content)
    return all(not isinstance(r, OSError) and ok(r) for r in results.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wait", type=float, default=0, help="re-check for up to this many seconds")
    ap.add_argument("--versions-only", action="store_true", help="skip the content digests (faster at 1M posts)")
    args = ap.parse_args()
    with_content = not args.versions_only
    e = ports_env.load()
    start = time.monotonic()
    while True:
        t0 = time.monotonic()
        live, results = check(e, with_content)
        if clean(results, with_content) or time.monotonic() - start >= args.wait:
            break
        time.sleep(1)
    print(f"database: {live} live posts (checked in {time.monotonic() - t0:.1f} s)")
    print(f"{'node':6} " + " ".join(f"{c:>8}" for c in COLUMNS))
    for node, r in results.items():
        if isinstance(r, OSError):
            print(f"{node:6} unreachable: {r}")
        else:
            print(f"{node:6} " + " ".join(f"{'-' if v is None else v:>8}" for v in r))
    ok = clean(results, with_content)
    print("index and database agree" + ("" if with_content else " (versions only)") if ok else "DIFFERENCES FOUND")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
