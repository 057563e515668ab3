# shellcheck shell=bash
# Four Redis processes: three cache shards (no persistence, LRU) and the token blacklist
# (AOF, noeviction). Each has its own folder under var/redis/<port>.
redis_instances() { printf 'redis-shard1:%s:cache\nredis-shard2:%s:cache\nredis-shard3:%s:cache\nredis-auth:%s:auth\n' \
  "$REDIS_SHARD1_PORT" "$REDIS_SHARD2_PORT" "$REDIS_SHARD3_PORT" "$REDIS_AUTH_PORT"; }

# Memory cap of each cache shard (the autocomplete keys of a million titles take ~390 MiB per
# shard, twice that during a rebuild; ADR 0039). Override: REDIS_CACHE_MAXMEMORY=2gb make up.
REDIS_CACHE_MAXMEMORY="${REDIS_CACHE_MAXMEMORY:-1gb}"

redis_start() {
  local name port kind dir
  while IFS=: read -r name port kind; do
    running "$name" && continue
    dir="$VAR/redis/$port"; mkdir -p "$dir"
    REDIS_PORT="$port" REDIS_DIR="$dir" REDIS_CACHE_MAXMEMORY="$REDIS_CACHE_MAXMEMORY" render "$HANWIKI_ROOT/infra/templates/redis-$kind.conf" "$CONF/$name.conf"
    start_bg "$name" redis-server "$CONF/$name.conf"
  done < <(redis_instances)
}

redis_ping() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; }

redis_wait() {
  local name port kind
  while IFS=: read -r name port kind; do wait_for "Redis $name" 20 "$name" redis_ping "$port"; done < <(redis_instances)
}
