#!/usr/bin/env bash
# make bench-search: the in-process search benchmark (app/src/bench/java/.../SearchBench.java)
# over node1's index. If that index holds fewer than BENCH_DOCS pages (default 1,000,000), the
# corpus is generated and loaded first (make seed) and the script waits until both nodes have
# indexed it. Writes the generated section of docs/bench/search.md.
#   BENCH_DOCS=N  corpus size to benchmark (default 1000000)
#   QUERIES=N     distinct queries per class (default 100)   ROUNDS=N  timed passes (default 3)
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
docs="${BENCH_DOCS:-1000000}"
have=$(curl -fsS --max-time 5 "http://$NODE1_ADDR:$NODE1_PORT/internal/index/stats" 2>/dev/null \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["numDocs"])' 2>/dev/null || echo 0)
if [ "$have" -lt "$docs" ]; then
  log "node1 holds $have pages, fewer than $docs: generating and loading the corpus first"
  python3 infra/corpus/seed.py --docs "$docs" --wait-index --report "$VAR/seed-report.jsonl"
fi
prepare_test_classes
log "benchmarking (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
# The same heap and GC as a node (infra/lib/app.sh), so figures transfer to the running service.
test_java -Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=50 \
  dev.hanwiki.search.SearchBench --root . --index "${INDEX:-$HANWIKI_VAR/node1/index}" \
  --queries "${QUERIES:-100}" --rounds "${ROUNDS:-3}" --out docs/bench/search.md
