#!/usr/bin/env bash
# Controls one Redis process of the stack: infra/redis.sh start|stop|kill NAME
#   NAME is redis-shard1..3 or redis-auth (the token blacklist)
#   stop   graceful (SIGTERM: redis-auth syncs its AOF first)
#   kill   SIGKILL, as a crash would
# Used by operators and by the integration tests (auth fails closed while redis-auth is down).
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
usage() { die "usage: infra/redis.sh start|stop|kill redis-shard1|redis-shard2|redis-shard3|redis-auth"; }
cmd="${1:-}"; name="${2:-}"
port=$(redis_instances | awk -F: -v n="$name" '$1 == n {print $2}')
[ -n "$port" ] || usage
ensure_secrets
case "$cmd" in
  start) redis_start; wait_for "Redis $name" 20 "$name" redis_ping "$port" ;;
  stop)  stop "$name" 20 ;;
  kill)  kill_now "$name" ;;
  *) usage ;;
esac
