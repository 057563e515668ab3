#!/usr/bin/env bash
# make bench-common-grams: what the word pairs of common terms (ADR 0024) cost and buy, in-process
# on a subset: the first DOCS pages of node1's index indexed on one thread without pairs and with
# each list in LISTS (comma-separated files; default the generated list), then the same phrase
# queries against each. Prints indexing MB/s per core, index size and phrase p50/p99 (CPU and wall).
#   DOCS=N (default 25000)  QUERIES=N (default 300)  ROUNDS=N (default 3)  LISTS=a.txt,b.txt
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
prepare_test_classes
log "benchmarking (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
test_java -Xms256m -Xmx1g -XX:+UseG1GC \
  dev.hanwiki.search.CommonGramsBench --root . --index "${INDEX:-$HANWIKI_VAR/node1/index}" \
  --docs "${DOCS:-25000}" --queries "${QUERIES:-300}" --rounds "${ROUNDS:-3}" \
  --lists "${LISTS:-app/src/main/resources/search/common-terms.txt}"
