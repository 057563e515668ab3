#!/usr/bin/env bash
# make bench-peer: OpenSearch 3.8.0 with analysis-nori side by side with our search (issue 14
# item 5; method and results in docs/bench/peer.md). Starts one OpenSearch node in-process
# (infra/bench/peer/, its own Maven project: its Lucene never meets the app's), runs
# infra/bench/peer.py against it and against our running stack, and stops the node on any exit
# (trap). The stack must be up (make bench-peer starts it); if node 1 holds fewer than DOCS
# pages, the same corpus is seeded first (seed.py --wait-index, timed: our index time).
#   DOCS=N        corpus pages (default 100000; the same generator and seed as make seed)
#   PEER_PORT=N   OpenSearch's HTTP port on 127.0.0.1 (default 19200; transport +100)
#   PEER_HEAP     OpenSearch's heap (default 1g)   PEER_HOME  its files (default var/peer)
#   OURS=host:port  our search API (default nginx); PEER_ARGS: more peer.py options
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
JAVA_HOME="$(select_jdk)"; export JAVA_HOME
mvn="$(ensure_maven)"
port="${PEER_PORT:-19200}"
home="${PEER_HOME:-$VAR/peer}"
cp_file="$home/classpath.txt"
mkdir -p "$home" "$LOGS"
log "building the OpenSearch peer (infra/bench/peer)"
MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q -f infra/bench/peer/pom.xml compile \
  dependency:build-classpath -Dmdep.outputFile="$cp_file" >&2
rm -rf "$home/node"
pid=""
stop_peer() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    log "stopping OpenSearch (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$home/node" "$home/opensearch.pid"
}
trap stop_peer EXIT INT TERM
"$JAVA_HOME/bin/java" -Xms"${PEER_HEAP:-1g}" -Xmx"${PEER_HEAP:-1g}" -XX:+UseG1GC \
  --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
  -cp "infra/bench/peer/target/classes:$(cat "$cp_file")" dev.hanwiki.peer.PeerNode "$home/node" "$port" \
  >"$LOGS/peer-opensearch.log" 2>&1 &
pid=$!
echo "$pid" > "$home/opensearch.pid"
for _ in $(seq 120); do
  grep -q "PEER READY" "$LOGS/peer-opensearch.log" && break
  kill -0 "$pid" 2>/dev/null || die "OpenSearch did not start: see $LOGS/peer-opensearch.log"
  sleep 1
done
grep -q "PEER READY" "$LOGS/peer-opensearch.log" || die "OpenSearch not ready after 120 s"
ok "OpenSearch 3.8.0 up on 127.0.0.1:$port (pid $pid)"
ours="${OURS:-$NGINX_ADDR:$NGINX_PORT}"
docs="${DOCS:-100000}"
ours_index=""
if [ "$ours" != none ]; then
  # Our stack must hold the same pages: seed them (timed: written -> searchable on both nodes) if missing.
  have=$(curl -fsS --max-time 5 "http://$NODE1_ADDR:$NODE1_PORT/internal/index/stats" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["numDocs"])' 2>/dev/null || echo 0)
  if [ "$have" -lt "$docs" ]; then
    log "node1 holds $have pages, fewer than $docs: generating and loading the corpus (make seed)"
    python3 infra/corpus/seed.py --docs "$docs" --wait-index --report "$home/seed-report.jsonl"
  fi
  # The time of the last seed of exactly these pages, if this script made it.
  ours_index=$(python3 - "$home/seed-report.jsonl" "$docs" <<'PY' 2>/dev/null || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if r.get("docs") == int(sys.argv[2]) and r.get("loaded") == int(sys.argv[2]) and "total_s" in r]
print(rows[-1]["total_s"] if rows else "")
PY
)
fi
# The load suite's virtualenv (matplotlib for the plot), made by infra/k6.sh the first time.
py="$(bash infra/k6.sh --venv-python)"
# shellcheck disable=SC2086
"$py" infra/bench/peer.py --os-port "$port" --docs "$docs" --ours "$ours" \
  ${ours_index:+--ours-index-seconds "$ours_index"} ${PEER_ARGS:-}
