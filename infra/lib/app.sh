# shellcheck shell=bash
# The two app nodes. Each has its own Lucene index under var/nodeN/index and its own
# Kafka consumer group, so each indexes every change itself; neither talks to the other.
APP_JAR() { echo "$HANWIKI_ROOT/app/target/hanwiki.jar"; }
node_port() { local v="NODE${1}_PORT"; echo "${!v}"; }
node_addr() { local v="NODE${1}_ADDR"; echo "${!v}"; }
node_management_port() { local v="NODE${1}_MANAGEMENT_PORT"; echo "${!v}"; }
# Who may call node N's actuator and /internal: its own host, host M and the machine (tests,
# operators); never the other service host (docs/security.md).
node_operators() {
  printf '127.0.0.1/32,%s/32,%s/32,%s/32\n' "$(node_addr "$1")" "$PROMETHEUS_ADDR" "$MACHINE_ADDR"
}

# node_addr_of / node_port_of SERVICE: where a node reaches SERVICE (MARIADB_PRIMARY,
# REDIS_SHARD1, KAFKA, ...): directly, or, with HANWIKI_VIA_PROXY=1 in the environment of the
# start, through the chaos scenario latency-100ms's proxy (infra/chaos/latency.sh). Kafka through
# the proxy is its KAFKA_PROXIED listener, the one advertised at the proxy.
node_addr_of() { if [ -n "${HANWIKI_VIA_PROXY:-}" ]; then printf '%s\n' "$TOXIPROXY_ADDR"; else addr_of "$1"; fi; }
node_port_of() {
  if [ -z "${HANWIKI_VIA_PROXY:-}" ]; then local p="${1}_PORT"; printf '%s\n' "${!p}"
  elif [ "$1" = KAFKA ]; then proxy_port KAFKA_PROXIED
  else proxy_port "$1"; fi
}
node_link() { printf '%s:%s\n' "$(node_addr_of "$1")" "$(node_port_of "$1")"; }

# node_start N: starts app node N in its host. HANWIKI_NODE_JAVA_OPTS (in the environment of the
# start) adds JVM options, for an experiment or a diagnosis (a GC log, a heap dump on OOM).
node_start() {
  local n="$1" port; port=$(node_port "$n")
  running "node$n" && return 0
  [ -f "$(APP_JAR)" ] || die "app/target/hanwiki.jar is missing: run 'make build' (or 'make up')"
  [ -n "${JWT_SECRET:-}" ] || die "JWT_SECRET is missing from $VAR/secrets.env (delete the file to regenerate it)"
  mkdir -p "$VAR/node$n"; as_service_user hanwiki "$VAR/node$n"
  # The jar, with the AOT cache when this build has one (infra/lib/aot.sh).
  local jvm_args; jvm_args=$(aot_java_args); local -a jar_args; mapfile -t jar_args <<<"$jvm_args"
  # Secrets travel in the environment (readable by the owner only), not on the command line
  # (readable by every user through ps).
  start_bg "node$n" $(on "NODE$n") $(run_as hanwiki) env \
    HANWIKI_DATASOURCE_PRIMARY_PASSWORD="$DB_APP_PASSWORD" \
    HANWIKI_DATASOURCE_REPLICA_PASSWORD="$DB_READONLY_PASSWORD" \
    SPRING_FLYWAY_PASSWORD="$DB_MIGRATE_PASSWORD" \
    HANWIKI_AUTH_JWTSECRET="$JWT_SECRET" \
    HANWIKI_CACHE_USERNAME=hanwiki HANWIKI_CACHE_PASSWORD="$REDIS_APP_PASSWORD" \
    HANWIKI_AUTH_BLACKLIST_USERNAME=hanwiki HANWIKI_AUTH_BLACKLIST_PASSWORD="$REDIS_APP_PASSWORD" \
    HANWIKI_CDC_USERNAME=hanwiki HANWIKI_CDC_PASSWORD="$KAFKA_APP_PASSWORD" \
    "$(select_jdk)/bin/java" -Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=50 \
    -XX:+ExitOnOutOfMemoryError --enable-native-access=ALL-UNNAMED \
    ${HANWIKI_NODE_JAVA_OPTS:-} \
    "${jar_args[@]}" \
    --server.port="$port" \
    --server.address="$(node_addr "$n")" \
    --management.server.port="$(node_management_port "$n")" \
    --management.server.address="$(node_addr "$n")" \
    --hanwiki.exposure.operators="$(node_operators "$n")" \
    --hanwiki.exposure.trusted-proxies="127.0.0.1/32,$NGINX_ADDR/32,$MACHINE_ADDR/32" \
    --hanwiki.node.id="node$n" \
    --hanwiki.datasource.primary.url="jdbc:mysql://$(node_link MARIADB_PRIMARY)/$MARIADB_DATABASE" \
    --hanwiki.datasource.primary.username=hanwiki_app \
    --hanwiki.datasource.replica.url="jdbc:mysql://$(node_link MARIADB_REPLICA)/$MARIADB_DATABASE" \
    --hanwiki.datasource.replica.username=hanwiki_ro \
    --spring.flyway.url="jdbc:mysql://$(node_link MARIADB_PRIMARY)/$MARIADB_DATABASE" \
    --spring.flyway.user=hanwiki_migrate \
    --hanwiki.search.index-path="$VAR/node$n/index" \
    --hanwiki.search.analysis-dir="$HANWIKI_ROOT/app/src/main/resources/search" \
    --hanwiki.cdc.bootstrap-servers="$(node_link KAFKA)" \
    --hanwiki.cdc.posts-topic="$CDC_POSTS_TOPIC" \
    --hanwiki.cdc.group-id="hanwiki-indexer-node$n" \
    --hanwiki.cache.shards[0].name=shard-1 --hanwiki.cache.shards[0].port="$(node_port_of REDIS_SHARD1)" \
    --hanwiki.cache.shards[0].host="$(node_addr_of REDIS_SHARD1)" \
    --hanwiki.cache.shards[1].name=shard-2 --hanwiki.cache.shards[1].port="$(node_port_of REDIS_SHARD2)" \
    --hanwiki.cache.shards[1].host="$(node_addr_of REDIS_SHARD2)" \
    --hanwiki.cache.shards[2].name=shard-3 --hanwiki.cache.shards[2].port="$(node_port_of REDIS_SHARD3)" \
    --hanwiki.cache.shards[2].host="$(node_addr_of REDIS_SHARD3)" \
    --hanwiki.auth.blacklist.host="$(node_addr_of REDIS_AUTH)" \
    --hanwiki.auth.blacklist.port="$(node_port_of REDIS_AUTH)" \
    ${TRUSTED_LOAD_GENERATORS:+--hanwiki.limits.trusted-addresses="$TRUSTED_LOAD_GENERATORS"}
}

node_ready() { http_ok "http://$(node_addr "$1"):$(node_management_port "$1")/actuator/health/readiness"; }
# node_index_position N: "APPLIED TARGET [snapshot]" (change-topic offsets summed over
# partitions: where the node's indexer stands, and the end it must reach to be caught up;
# "snapshot" while the topic is still being filled by a snapshot of the database, which the node
# waits out too), or nothing.
node_index_position() {
  curl -fsS --max-time 2 "http://$(node_addr "$1"):$(node_port "$1")/internal/index/stats" 2>/dev/null \
    | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(sum(d["appliedOffsets"].values()), sum(d["targetOffsets"].values()), *(["snapshot"] if d.get("insideSnapshot") else []))' 2>/dev/null
}
# node_wait N [TIMEOUT_S]: waits for node N's readiness (default 120 s). A node that is
# re-indexing (rebuilt from nothing, or far behind: replaying the change topic takes time in
# proportion to the corpus) is given as long as it makes progress: while its indexer's position
# grows, the deadline stays at least NODE_STALL_S (60) ahead, and the progress is printed every
# 15 s. It fails after TIMEOUT_S without a position (not started), or NODE_STALL_S without progress.
node_wait() {
  local n="$1" deadline=$((SECONDS + ${2:-120})) stall="${NODE_STALL_S:-60}" pos last="" check=0 report=$((SECONDS + 15)) t0=$SECONDS from=""
  until node_ready "$n" >/dev/null 2>&1; do
    if ! running "node$n"; then
      tail -n 30 "$LOGS/node$n.log" >&2
      die "app node $n exited during start-up (log: $LOGS/node$n.log)"
    fi
    if [ $SECONDS -ge "$check" ]; then
      check=$((SECONDS + 2))
      pos=$(node_index_position "$n" || true)  # nothing while the node starts (set -e, pipefail)
      if [ -n "$pos" ] && [ "${pos%% *}" != "$last" ]; then
        [ -n "$last" ] && [ $((SECONDS + stall)) -gt "$deadline" ] && deadline=$((SECONDS + stall))
        last=${pos%% *}; [ -n "$from" ] || from=$last
      fi
      if [ -n "$pos" ] && [ $SECONDS -ge "$report" ]; then
        report=$((SECONDS + 15))
        local end=${pos#* } note=""
        [ "${end#* }" = snapshot ] && note="; a snapshot of the database is still streaming in: the node serves once it has all of it"
        log "node$n re-indexing: offset ${pos%% *} of ${end%% *} ($(( (last - from) / (SECONDS - t0 + 1) ))/s)$note"
      fi
    fi
    if [ $SECONDS -ge "$deadline" ]; then
      tail -n 30 "$LOGS/node$n.log" >&2
      die "app node $n (readiness) not ready: ${last:+no indexing progress for ${stall}s at offset $last, }waited $((SECONDS - t0))s (log: $LOGS/node$n.log)"
    fi
    sleep 0.2
  done
}

# A node started before the jar was rebuilt runs old code: restart it on the new jar.
node_restart_if_stale() {
  local n="$1"
  if running "node$n" && [ "$(APP_JAR)" -nt "$(pidfile "node$n")" ]; then
    log "app jar is newer than node$n: restarting it"
    nginx_drain "$n"
    stop "node$n" 40
  fi
}

# node_kill_in_commit N [TIMEOUT_S]: SIGKILL node N inside a Lucene commit, as a crash at
# the worst moment would. IndexWriter.commit() writes and fsyncs pending_segments_G, fsyncs
# every file of the commit, then renames it to segments_G: the watch below polls the index
# directory (bash builtins only, no process per check) and kills the node the moment a
# pending_segments file shows. Prints "hit pending_segments_G" when that file outlived the
# process (the commit was cut before its rename: the restart must fall back to segments_G-1
# and replay from its offsets), "missed pending_segments_G" when the commit finished first.
# Fails, leaving the node running, if no commit starts within TIMEOUT_S (default 20).
node_kill_in_commit() {
  local n="$1" timeout="${2:-20}" dir="$VAR/node$1/index" f pid pending="" p
  f=$(pidfile "node$n")
  [ -f "$f" ] && alive "$(cat "$f")" || die "node$n is not running"
  pid=$(cat "$f")
  local deadline=$((SECONDS + timeout))
  while [ -z "$pending" ]; do
    for p in "$dir"/pending_segments_*; do [ -e "$p" ] && pending="$p"; done
    [ -n "$pending" ] && break
    [ $SECONDS -lt $deadline ] || die "node$n started no index commit within ${timeout}s (are writes flowing?)"
  done
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && die "node$n (pid $pid) survived SIGKILL"
  rm -f "$f"
  if [ -e "$pending" ]; then echo "hit ${pending##*/}"; else echo "missed ${pending##*/}"; fi
}
