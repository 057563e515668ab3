#!/usr/bin/env bash
# Brings up the whole Hanwiki topology natively on 127.0.0.1 (see docs/architecture.md):
# installs what is missing, starts every process with a pid file and a log under var/,
# waits until each is healthy, and prints what runs where. Running it twice is harmless:
# components already running are left alone.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
T0=$SECONDS
step() { log "$* (+$((SECONDS - T0))s)"; }

[ "${HANWIKI_SKIP_INSTALL:-}" = 1 ] || bash "$HANWIKI_ROOT/infra/install.sh"
ensure_secrets
mkdir -p "$RUN" "$LOGS" "$CONF"

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
redis_wait
step "MariaDB primary+replica replicating, Redis x4 up"

kafka_wait
kafka_topics
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
step "Kafka Connect up, Debezium connector RUNNING"
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

cat <<EOT

Hanwiki is up ($((SECONDS - T0)) s). What runs where (all on 127.0.0.1):
  Pages (nginx)      http://localhost:$NGINX_PORT/   (search, read, edit, history: web/public)
  API (nginx)        http://localhost:$NGINX_PORT/api/v1.0
  app node 1 / 2     http://127.0.0.1:$NODE1_PORT  http://127.0.0.1:$NODE2_PORT   (actuator: /actuator/health, /actuator/prometheus)
  MariaDB            primary :$MARIADB_PRIMARY_PORT   replica :$MARIADB_REPLICA_PORT   (database $MARIADB_DATABASE)
  Redis              cache shards :$REDIS_SHARD1_PORT :$REDIS_SHARD2_PORT :$REDIS_SHARD3_PORT   token blacklist :$REDIS_AUTH_PORT
  Kafka / Connect    :$KAFKA_PORT   http://127.0.0.1:$CONNECT_PORT/connectors/$CONNECTOR/status
  Prometheus         http://127.0.0.1:$PROMETHEUS_PORT
  state and logs     $VAR   (make status, make logs, make down)

Try it (writes need a signed-in user; the token travels in the cookie jar):
  curl -s -c hanwiki.cookies localhost:$NGINX_PORT/api/v1.0/auth/signup -H 'Content-Type: application/json' \\
       -d '{"username":"traveler1","nickname":"여행자","password":"Seoul-2025"}'
  curl -s -b hanwiki.cookies localhost:$NGINX_PORT/api/v1.0/posts -H 'Content-Type: application/json' \\
       -d '{"title":"서울 여행","content":"경복궁과 북촌 한옥마을을 걸었다.","categoryId":26}'
  curl -s -G localhost:$NGINX_PORT/api/v1.0/posts/search --data-urlencode q=경복궁
EOT
