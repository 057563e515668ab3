#!/usr/bin/env python3
"""Time budgets of the integration tests, scaled to the corpus the running stack holds.

Most tests work on posts of their own and take the same time on any corpus. A few drills redo
work over the whole corpus: a node rebuilt from nothing replays every post (NodeRecoveryIT), a
restore snapshots and re-indexes every post (BackupRestoreIT), an autocomplete rebuild rewrites
every title's keys (AutocompleteIT). Their waits, the per-test timeout and the whole run's
timeout grow with the corpus, at rates measured on this 2-core machine with a margin of about
two for a machine busy with a build:

  re-indexing    a node replays 250-380 posts/s while both nodes index at once
                 (`make seed DOCS=300000 WAIT=1`, load average ~9): budgeted at INDEX_RATE
  autocomplete   a rebuild wrote 304,803 titles in 82 s, 3,700 titles/s (`make
                 autocomplete-rebuild` on a 300k stack, load average 4): budgeted at TITLE_RATE

Prints the Maven arguments (system properties the tests read through it.Budgets, and the two
timeouts); `make it` and `make test` pass them after the stack is up. Without a running
primary the script fails: the budgets are meaningless without the stack they describe.

  python3 infra/it_budgets.py            -Dit.budget.index=... (and the same in words on stderr)
  python3 infra/it_budgets.py --explain  only the words
  python3 infra/it_budgets.py --posts N  for N live posts, without asking the primary
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import ports_env  # noqa: E402

INDEX_RATE = 150          # posts/s a node is budgeted to re-index
TITLE_RATE = 1000         # titles/s an autocomplete rebuild is budgeted to write
INDEX_BASE_S = 180        # as on an empty stack: a node's start, the connector's snapshot start
AUTOCOMPLETE_BASE_S = 120 # as on an empty stack: the rebuild's lock, version switch, clean-up
TEST_BASE_S = 600         # any test method on an empty stack (the fixed 10 min before)
RUN_BASE_S = 2700         # the whole IT run on an empty stack (the fixed 45 min before)
# Corpus-wide work in one test method: at most a restore and an autocomplete rebuild, each twice
# over (a restore re-indexes on both nodes at once). In one run: a node rebuild and a restore
# (index), two or three autocomplete rebuilds (two asked for, one after a shard came back empty).
TEST_INDEX_TIMES, TEST_AUTOCOMPLETE_TIMES = 2, 2
RUN_INDEX_TIMES, RUN_AUTOCOMPLETE_TIMES = 3, 4


def live_posts(e):
    sock = os.path.join(e["VAR"], "mariadb", "primary", "mysqld.sock")
    if not os.path.exists(sock):
        sys.exit("it_budgets: the primary is not running (%s is missing): make up" % sock)
    out = subprocess.run(
        ["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B", "-e",
         f"SELECT COUNT(*) FROM {e['MARIADB_DATABASE']}.posts WHERE deleted_at IS NULL"],
        check=True, capture_output=True, text=True, timeout=120).stdout
    return int(out.strip())


def budgets(posts):
    """Seconds: each budget is its empty-stack value plus the corpus-wide work at the rates above."""
    reindex, rewrite = posts // INDEX_RATE, posts // TITLE_RATE
    return {"index": INDEX_BASE_S + reindex,
            "autocomplete": AUTOCOMPLETE_BASE_S + rewrite,
            "test": TEST_BASE_S + TEST_INDEX_TIMES * reindex + TEST_AUTOCOMPLETE_TIMES * rewrite,
            "run": RUN_BASE_S + RUN_INDEX_TIMES * reindex + RUN_AUTOCOMPLETE_TIMES * rewrite}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--explain", action="store_true", help="print the counts and budgets in words")
    ap.add_argument("--posts", type=int, help="budget for this many live posts instead of asking the primary")
    args = ap.parse_args()
    posts = args.posts if args.posts is not None else live_posts(ports_env.load())
    b = budgets(posts)
    words = (f"integration-test budgets for {posts:,} live posts: re-index {b['index']} s ({INDEX_RATE}/s), "
             f"autocomplete rebuild {b['autocomplete']} s ({TITLE_RATE}/s), a test {b['test']} s, the run {b['run']} s")
    if args.explain:
        print(words)
        return 0
    print(words, file=sys.stderr)
    print(f"-Dit.budget.index={b['index']} -Dit.budget.autocomplete={b['autocomplete']} "
          f"-Dit.test.timeout={b['test']}s -Dit.fork.timeout={b['run']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
