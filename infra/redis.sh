#!/usr/bin/env bash
# Controls one Redis process: infra/redis.sh start|stop|kill NAME
# NAME: redis-shard1 | redis-shard2 | redis-shard3 | redis-auth. Used by chaos drills and tests.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
cmd="${1:-}"; name="${2:-}"
redis_instances | cut -d: -f1 | grep -qx "$name" || die "usage: infra/redis.sh start|stop|kill redis-shard1|redis-shard2|redis-shard3|redis-auth"
port=$(redis_instances | grep "^$name:" | cut -d: -f2)
case "$cmd" in
  start) redis_start; wait_for "Redis $name" 20 "$name" redis_ping "$port" ;;
  stop)  stop "$name" 20 ;;
  kill)  f=$(pidfile "$name"); [ -f "$f" ] && { kill -KILL "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; } ;;
  *) die "usage: infra/redis.sh start|stop|kill NAME" ;;
esac
