# shellcheck shell=bash
# Four Redis processes: three cache shards (no persistence, LRU) and the token blacklist
# (AOF, noeviction). Each has its own folder under var/redis/<port>.
# name:ports.env prefix:kind
redis_instances() { printf 'redis-shard1:REDIS_SHARD1:cache\nredis-shard2:REDIS_SHARD2:cache\nredis-shard3:REDIS_SHARD3:cache\nredis-auth:REDIS_AUTH:auth\n'; }
redis_port() { local v="${1}_PORT"; echo "${!v}"; }

# Memory cap of each cache shard (the autocomplete keys of a million titles take ~390 MiB per
# shard, twice that during a rebuild; ADR 0039). Override: REDIS_CACHE_MAXMEMORY=2gb make up.
REDIS_CACHE_MAXMEMORY="${REDIS_CACHE_MAXMEMORY:-1gb}"

redis_start() {
  local name comp kind dir port
  while IFS=: read -r name comp kind; do
    running "$name" && continue
    port=$(redis_port "$comp")
    dir="$VAR/redis/$port"; mkdir -p "$dir"; as_service_user redis "$dir"
    REDIS_PORT="$port" REDIS_ADDR="$(addr_of "$comp")" REDIS_DIR="$dir" REDIS_CACHE_MAXMEMORY="$REDIS_CACHE_MAXMEMORY" \
      render "$HANWIKI_ROOT/infra/templates/redis-$kind.conf" "$CONF/$name.conf"
    secret_file redis "$CONF/$name.conf"
    start_bg "$name" $(on "$comp") $(run_as redis) redis-server "$CONF/$name.conf"
  done < <(redis_instances)
}

# redis_ping COMPONENT (REDIS_SHARD1...): answers PONG at its address.
redis_ping() { [ "$(REDISCLI_AUTH="$REDIS_EXPORTER_PASSWORD" redis-cli --user exporter -h "$(addr_of "$1")" -p "$(redis_port "$1")" ping 2>/dev/null)" = PONG ]; }

redis_wait() {
  local name comp kind
  while IFS=: read -r name comp kind; do wait_for "Redis $name" 20 "$name" redis_ping "$comp"; done < <(redis_instances)
}
