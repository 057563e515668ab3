#!/usr/bin/env bash
# The latency proxy of the chaos scenario latency-100ms (issue 16, scenario 10). This kernel has
# no sch_netem, so `tc ... netem delay` cannot slow a link: a TCP proxy does (toxiproxy, built
# from its Go module, TOXIPROXY_VERSION). It runs on host M (TOXIPROXY_HOST); each service the
# nodes use is proxied at its own port + 10000 on M, and the nodes are restarted onto the proxies.
#   infra/chaos/latency.sh setup       build toxiproxy if needed, start it, create the proxies,
#                                      restart node2 then node1 (drained) onto them
#   infra/chaos/latency.sh add [MS]    MS (100) of latency on every proxy, on the answers
#                                      (downstream: each request/answer round trip gains MS)
#   infra/chaos/latency.sh remove      the latency off again (the proxies stay)
#   infra/chaos/latency.sh teardown    restart node2 then node1 onto the direct addresses, stop
#                                      toxiproxy
# Proxied: MariaDB primary and replica, the three Redis cache shards, the auth Redis and Kafka.
# A Kafka client bootstraps through the address it is given, then connects to the broker's
# advertised listener: the nodes bootstrap at the broker's PROXIED listener, which is advertised
# at the proxy (infra/templates/kafka-server.properties), so they stay on it.
set -euo pipefail
. "$(dirname "$0")/../lib/stack.sh"
ensure_secrets

SERVICES="MARIADB_PRIMARY MARIADB_REPLICA REDIS_SHARD1 REDIS_SHARD2 REDIS_SHARD3 REDIS_AUTH KAFKA_PROXIED"
TOXIPROXY="$TOOLS/bin/toxiproxy-server-$TOXIPROXY_VERSION"
API="http://$TOXIPROXY_ADDR:$TOXIPROXY_PORT"

api() { curl -fsS --max-time 5 "$@"; }
proxy_name() { printf '%s\n' "$1" | tr 'A-Z_' 'a-z-'; }

toxiproxy_build() {
  [ -x "$TOXIPROXY" ] && return 0
  command -v go >/dev/null || die "go is needed to build toxiproxy $TOXIPROXY_VERSION"
  log "building toxiproxy $TOXIPROXY_VERSION (go install; about a minute the first time)"
  local gobin; gobin=$(mktemp -d)
  GOBIN="$gobin" GOFLAGS=-mod=mod nice -n 10 go install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" >&2
  mkdir -p "$TOOLS/bin"; mv "$gobin/server" "$TOXIPROXY"; rmdir "$gobin"
}

setup() {
  toxiproxy_build
  if ! running toxiproxy; then
    # shellcheck disable=SC2046
    start_bg toxiproxy $(on TOXIPROXY) "$TOXIPROXY" -host "$TOXIPROXY_ADDR" -port "$TOXIPROXY_PORT"
  fi
  wait_for "toxiproxy" 20 toxiproxy http_ok "$API/version"
  local s a p
  for s in $SERVICES; do
    a="${s}_ADDR"; p="${s}_PORT"
    api -o /dev/null -X DELETE "$API/proxies/$(proxy_name "$s")" 2>/dev/null || true
    api -o /dev/null -X POST "$API/proxies" -H 'Content-Type: application/json' \
      -d "{\"name\":\"$(proxy_name "$s")\",\"listen\":\"$TOXIPROXY_ADDR:$(proxy_port "$s")\",\"upstream\":\"${!a}:${!p}\",\"enabled\":true}" \
      || die "toxiproxy refused the proxy for $s"
  done
  ok "toxiproxy $TOXIPROXY_VERSION on host $TOXIPROXY_HOST ($API): $(echo "$SERVICES" | wc -w) proxies"
  HANWIKI_VIA_PROXY=1 bash "$HANWIKI_ROOT/infra/ctl.sh" restart node2
  HANWIKI_VIA_PROXY=1 bash "$HANWIKI_ROOT/infra/ctl.sh" restart node1
  ok "both nodes reach MariaDB and Redis through the proxy"
}

add() {
  local ms="${1:-100}" s
  for s in $SERVICES; do
    api -o /dev/null -X POST "$API/proxies/$(proxy_name "$s")/toxics" -H 'Content-Type: application/json' \
      -d "{\"name\":\"latency\",\"type\":\"latency\",\"stream\":\"downstream\",\"attributes\":{\"latency\":$ms,\"jitter\":0}}" \
      || die "toxiproxy refused the latency on $s"
  done
  ok "$ms ms latency on every proxied link"
}

remove() {
  local s
  for s in $SERVICES; do
    api -o /dev/null -X DELETE "$API/proxies/$(proxy_name "$s")/toxics/latency" || warn "no latency to remove on $s"
  done
  ok "latency removed"
}

# Best effort, each step whatever the one before did: it also runs after a failed scenario.
teardown() {
  local failed=0
  bash "$HANWIKI_ROOT/infra/ctl.sh" restart node2 || failed=1
  bash "$HANWIKI_ROOT/infra/ctl.sh" restart node1 || failed=1
  stop toxiproxy 10 || failed=1
  [ "$failed" = 0 ] || die "teardown incomplete: check make status (a node may still be on the proxy)"
  ok "both nodes back on the direct links; toxiproxy stopped"
}

case "${1:-}" in
  setup) setup ;;
  add) add "${2:-100}" ;;
  remove) remove ;;
  teardown) teardown ;;
  *) die "usage: infra/chaos/latency.sh setup|add [MS]|remove|teardown" ;;
esac
