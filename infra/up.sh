#!/usr/bin/env bash
# Brings up the whole Hanwiki topology natively (see docs/architecture.md): hosts A, B and M
# as network namespaces (infra/lib/hosts.sh; HANWIKI_TOPOLOGY=local puts everything on
# 127.0.0.1 instead), installs what is missing, starts every process inside its host with a
# pid file and a log under var/, waits until each is healthy, and prints what runs where.
# Running it twice is harmless: components already running are left alone.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
T0=$SECONDS
step() { log "$* (+$((SECONDS - T0))s)"; }

[ "${HANWIKI_SKIP_INSTALL:-}" = 1 ] || bash "$HANWIKI_ROOT/infra/install.sh"
ensure_secrets
mkdir -p "$RUN" "$LOGS" "$CONF"
# A stack started in the other topology must be stopped first (its processes bind elsewhere).
if [ -f "$RUN/topology" ] && [ "$(cat "$RUN/topology")" != "$HANWIKI_TOPOLOGY" ] && [ -n "$(ls "$RUN"/*.pid 2>/dev/null)" ]; then
  die "a stack in the '$(cat "$RUN/topology")' topology is running: 'make down' first (or HANWIKI_TOPOLOGY=$(cat "$RUN/topology"))"
fi
echo "$HANWIKI_TOPOLOGY" >"$RUN/topology"
# Every log under var/log stays bounded (logrotate with copytruncate, every 30 s).
log_rotator_start
if hosts_mode; then
  hosts_up
  step "hosts A ($HOST_A_ADDR), B ($HOST_B_ADDR), M ($HOST_M_ADDR) up as network namespaces"
fi

step "starting Kafka (slowest, so first), MariaDB x2 and Redis x4"
kafka_start
mariadb_start primary
mariadb_start replica
redis_start
mariadb_wait primary
mariadb_wait replica
mariadb_setup_primary
mariadb_setup_replica
wait_for "replication" 30 mariadb-replica replica_healthy
binlog_archiver_start
redis_wait
step "MariaDB primary+replica replicating, Redis x4 up"

kafka_wait
kafka_plan
step "Kafka up"
connect_start
node_restart_if_stale 1
node_restart_if_stale 2
# A node that starts now stays out of nginx until it is ready (caught up with the change stream).
running node1 || nginx_drain 1 0
running node2 || nginx_drain 2 0
node_start 1
node_start 2
nginx_start
monitoring_start
connect_wait
connector_register
connector_wait
cdc_watchdog_start
wait_for "CDC watchdog" 20 cdc-watchdog cdc_watchdog_healthy
step "Kafka Connect up, Debezium connector RUNNING, its watchdog watching"
node_wait 1
node_wait 2
nginx_wait
# Ready: back into nginx's pool (also a node stopped earlier with ctl.sh, which drained it).
nginx_undrain 1
nginx_undrain 2
monitoring_wait
step "app nodes ready, nginx and Prometheus up"
if [ "$(db_sql primary "SELECT COUNT(*) FROM $MARIADB_DATABASE.posts")" = 0 ]; then
  log "empty database: seeding the demo pages through the API"
  python3 "$HANWIKI_ROOT/infra/demo/seed.py"
fi
# A new build (or JVM) has no AOT cache yet: train one, so that nodes start twice as fast
# (ADR 0101; HANWIKI_AOT=0 runs without).
if aot_enabled && ! aot_trained; then
  bash "$HANWIKI_ROOT/infra/aot/train.sh"
  step "AOT cache trained"
fi

cat <<EOT

Hanwiki is up ($((SECONDS - T0)) s, topology: $HANWIKI_TOPOLOGY). What runs where:
  Pages (nginx)      http://localhost:$NGINX_PORT/   (search, read, edit, history: web/public)
  API (nginx)        http://localhost:$NGINX_PORT/api/v1.0   (nginx itself: host $NGINX_HOST $NGINX_ADDR:$NGINX_PORT)
  app node 1 / 2     host $NODE1_HOST $NODE1_ADDR:$NODE1_PORT   host $NODE2_HOST $NODE2_ADDR:$NODE2_PORT   (actuator on :$NODE1_MANAGEMENT_PORT / :$NODE2_MANAGEMENT_PORT)
  MariaDB            primary host $MARIADB_PRIMARY_HOST $MARIADB_PRIMARY_ADDR:$MARIADB_PRIMARY_PORT   replica host $MARIADB_REPLICA_HOST $MARIADB_REPLICA_ADDR:$MARIADB_REPLICA_PORT   (database $MARIADB_DATABASE)
  Redis              cache shards $REDIS_SHARD1_ADDR:$REDIS_SHARD1_PORT $REDIS_SHARD2_ADDR:$REDIS_SHARD2_PORT $REDIS_SHARD3_ADDR:$REDIS_SHARD3_PORT   token blacklist $REDIS_AUTH_ADDR:$REDIS_AUTH_PORT
  Kafka / Connect    $KAFKA_ADDR:$KAFKA_PORT   http://$CONNECT_ADDR:$CONNECT_PORT/connectors/$CONNECTOR/status (user $CONNECT_REST_USER, password CONNECT_REST_PASSWORD in var/secrets.env)
  Prometheus         http://$PROMETHEUS_ADDR:$PROMETHEUS_PORT   (host $PROMETHEUS_HOST)
  state and logs     $VAR   (make status: every process with its host and address; make logs; make down)

Try it (writes need a signed-in user; the token travels in the cookie jar):
  curl -s -c hanwiki.cookies localhost:$NGINX_PORT/api/v1.0/auth/signup -H 'Content-Type: application/json' \\
       -d '{"username":"traveler1","nickname":"여행자","password":"Seoul-2025"}'
  curl -s -b hanwiki.cookies localhost:$NGINX_PORT/api/v1.0/posts -H 'Content-Type: application/json' \\
       -d '{"title":"서울 여행","content":"경복궁과 북촌 한옥마을을 걸었다.","categoryId":26}'
  curl -s -G localhost:$NGINX_PORT/api/v1.0/posts/search --data-urlencode q=경복궁
EOT
