#!/usr/bin/env bash
# make bench-autocomplete: (1) latency of GET /posts/autocomplete through nginx, (2) Redis memory
# per million titles. Figures go to docs/bench/autocomplete.md by hand, with this output.
#   BENCH_DOCS=N  pages the stack should hold for the latency run (default 20000; seeded if fewer)
#   R=N           measured requests (default 2000)
#   TITLES=N      titles generated for the memory run (default 1000000)
# The memory run uses a SCRATCH redis-server on a unix socket under var/ (no TCP port, no
# maxmemory), started and stopped by this script, so the cache shards are not disturbed and
# nothing is evicted while measuring. It receives exactly the commands a rebuild sends.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
docs="${BENCH_DOCS:-20000}"
titles="${TITLES:-1000000}"
have=$(curl -fsS --max-time 5 "http://$NODE1_ADDR:$NODE1_PORT/internal/index/stats" 2>/dev/null \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["numDocs"])' 2>/dev/null || echo 0)
if [ "$have" -lt "$docs" ]; then
  log "node1 holds $have pages, fewer than $docs: loading the corpus first"
  python3 infra/corpus/seed.py --docs "$docs" --wait-index
fi
log "rebuilding the autocomplete keys from node1's index (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
started=$(date +%s.%N)
bash infra/autocomplete/rebuild.sh
log "rebuild took $(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')") s for $(curl -fsS "http://$NODE1_ADDR:$NODE1_PORT/internal/index/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["numDocs"])') pages (includes the 3 s grace before the old keys go)"

log "latency through nginx (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 infra/bench/autocomplete.py --requests "${R:-2000}"

log "memory: $titles generated titles into a scratch Redis"
prepare_test_classes
dir="$VAR/bench-autocomplete"
mkdir -p "$dir"
sock="$dir/redis.sock"
redis-server --port 0 --unixsocket "$sock" --save "" --appendonly no --dir "$dir" --daemonize no \
  >"$dir/redis.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$sock"' EXIT
for _ in $(seq 50); do [ -S "$sock" ] && redis-cli -s "$sock" ping >/dev/null 2>&1 && break; sleep 0.1; done
mem() { redis-cli -s "$sock" info memory | tr -d '\r' | sed -n "s/^$1://p"; }
before=$(mem used_memory)
t0=$(date +%s)
python3 infra/bench/autocomplete_titles.py --titles "$titles" \
  | test_java -Xmx512m dev.hanwiki.autocomplete.AutocompleteMemoryBench \
  | redis-cli -s "$sock" --pipe | tail -2
after=$(mem used_memory)
keys=$(redis-cli -s "$sock" dbsize)
python3 - "$titles" "$before" "$after" "$keys" "$(( $(date +%s) - t0 ))" "$(mem mem_fragmentation_ratio)" "$(mem used_memory_rss)" <<'PY'
import sys
titles, before, after, keys, secs, frag, rss = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7])
delta = after - before
print(f"titles {titles:,}  keys {keys:,}  used_memory delta {delta / 2**20:,.1f} MiB"
      f"  = {delta / titles:,.0f} B per title  = {delta / titles * 1e6 / 2**30:,.2f} GiB per million titles")
print(f"rss {rss / 2**20:,.1f} MiB, fragmentation ratio {frag}, load took {secs} s")
PY
