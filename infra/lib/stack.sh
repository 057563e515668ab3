# shellcheck shell=bash
# Loads every component library. The order of COMPONENTS is the start order; down.sh
# stops them in reverse.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
for _lib in mariadb redis kafka app nginx monitoring alerting; do
  . "$HANWIKI_ROOT/infra/lib/$_lib.sh"
done
unset _lib

# name|port|health check (a command that succeeds when the component is healthy)
components() {
  cat <<EOT
mariadb-primary|$MARIADB_PRIMARY_PORT|db_ping primary
mariadb-replica|$MARIADB_REPLICA_PORT|replica_healthy
redis-shard1|$REDIS_SHARD1_PORT|redis_ping $REDIS_SHARD1_PORT
redis-shard2|$REDIS_SHARD2_PORT|redis_ping $REDIS_SHARD2_PORT
redis-shard3|$REDIS_SHARD3_PORT|redis_ping $REDIS_SHARD3_PORT
redis-auth|$REDIS_AUTH_PORT|redis_ping $REDIS_AUTH_PORT
kafka|$KAFKA_PORT|kafka_ready
connect|$CONNECT_PORT|connector_running
node1|$NODE1_PORT|node_ready 1
node2|$NODE2_PORT|node_ready 2
nginx|$NGINX_PORT|port_open $NGINX_PORT
prometheus|$PROMETHEUS_PORT|prometheus_ready
node-exporter|$NODE_EXPORTER_PORT|port_open $NODE_EXPORTER_PORT
mysqld-exporter-primary|$MYSQLD_EXPORTER_PRIMARY_PORT|port_open $MYSQLD_EXPORTER_PRIMARY_PORT
mysqld-exporter-replica|$MYSQLD_EXPORTER_REPLICA_PORT|port_open $MYSQLD_EXPORTER_REPLICA_PORT
redis-exporter|$REDIS_EXPORTER_PORT|port_open $REDIS_EXPORTER_PORT
nginx-exporter|$NGINX_EXPORTER_PORT|port_open $NGINX_EXPORTER_PORT
mtail|$MTAIL_PORT|mtail_ready
alert-receiver|$ALERT_RECEIVER_PORT|alert_receiver_ready
alertmanager|$ALERTMANAGER_PORT|alertmanager_ready
EOT
}
