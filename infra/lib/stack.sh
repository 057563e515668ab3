# shellcheck shell=bash
# Loads every component library. The order of COMPONENTS is the start order; down.sh
# stops them in reverse.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
for _lib in hosts logrotate mariadb redis kafka aot app nginx monitoring alerting backup; do
  . "$HANWIKI_ROOT/infra/lib/$_lib.sh"
done
unset _lib

# name|host|address|port|health check (a command that succeeds when the component is healthy).
# Host and address come from ports.env's placement (addr_of); `-` for the machine itself.
components() { components_table | sed '/^$/d'; }
components_table() {
  cat <<EOT
log-rotator|-|-|-|log_rotator_ready
mariadb-primary|$MARIADB_PRIMARY_HOST|$MARIADB_PRIMARY_ADDR|$MARIADB_PRIMARY_PORT|db_ping primary
mariadb-replica|$MARIADB_REPLICA_HOST|$MARIADB_REPLICA_ADDR|$MARIADB_REPLICA_PORT|replica_healthy
redis-shard1|$REDIS_SHARD1_HOST|$REDIS_SHARD1_ADDR|$REDIS_SHARD1_PORT|redis_ping REDIS_SHARD1
redis-shard2|$REDIS_SHARD2_HOST|$REDIS_SHARD2_ADDR|$REDIS_SHARD2_PORT|redis_ping REDIS_SHARD2
redis-shard3|$REDIS_SHARD3_HOST|$REDIS_SHARD3_ADDR|$REDIS_SHARD3_PORT|redis_ping REDIS_SHARD3
redis-auth|$REDIS_AUTH_HOST|$REDIS_AUTH_ADDR|$REDIS_AUTH_PORT|redis_ping REDIS_AUTH
binlog-archiver|$BINLOG_ARCHIVER_HOST|$BINLOG_ARCHIVER_ADDR|-|binlog_archiver_healthy
kafka|$KAFKA_HOST|$KAFKA_ADDR|$KAFKA_PORT|kafka_ready
connect|$CONNECT_HOST|$CONNECT_ADDR|$CONNECT_PORT|connector_running
cdc-watchdog|$CDC_WATCHDOG_HOST|$CDC_WATCHDOG_ADDR|-|cdc_watchdog_healthy
node1|$NODE1_HOST|$NODE1_ADDR|$NODE1_PORT|node_ready 1
node2|$NODE2_HOST|$NODE2_ADDR|$NODE2_PORT|node_ready 2
nginx|$NGINX_HOST|$NGINX_ADDR|$NGINX_PORT|port_open $NGINX_ADDR $NGINX_PORT
$(hosts_mode && echo "public-entry|-|127.0.0.1|$NGINX_PORT|port_open 127.0.0.1 $NGINX_PORT")
prometheus|$PROMETHEUS_HOST|$PROMETHEUS_ADDR|$PROMETHEUS_PORT|prometheus_ready
$(for h in $(node_exporter_hosts); do echo "node-exporter-$(host_lower "$h")|$h|$(host_addr "$h")|$NODE_EXPORTER_PORT|port_open $(host_addr "$h") $NODE_EXPORTER_PORT"; done)
mysqld-exporter-primary|$MYSQLD_EXPORTER_PRIMARY_HOST|$MYSQLD_EXPORTER_PRIMARY_ADDR|$MYSQLD_EXPORTER_PRIMARY_PORT|port_open $MYSQLD_EXPORTER_PRIMARY_ADDR $MYSQLD_EXPORTER_PRIMARY_PORT
mysqld-exporter-replica|$MYSQLD_EXPORTER_REPLICA_HOST|$MYSQLD_EXPORTER_REPLICA_ADDR|$MYSQLD_EXPORTER_REPLICA_PORT|port_open $MYSQLD_EXPORTER_REPLICA_ADDR $MYSQLD_EXPORTER_REPLICA_PORT
redis-exporter|$REDIS_EXPORTER_HOST|$REDIS_EXPORTER_ADDR|$REDIS_EXPORTER_PORT|port_open $REDIS_EXPORTER_ADDR $REDIS_EXPORTER_PORT
nginx-exporter|$NGINX_EXPORTER_HOST|$NGINX_EXPORTER_ADDR|$NGINX_EXPORTER_PORT|port_open $NGINX_EXPORTER_ADDR $NGINX_EXPORTER_PORT
mtail|$MTAIL_HOST|$MTAIL_ADDR|$MTAIL_PORT|mtail_ready
alert-receiver|$ALERT_RECEIVER_HOST|$ALERT_RECEIVER_ADDR|$ALERT_RECEIVER_PORT|alert_receiver_ready
alertmanager|$ALERTMANAGER_HOST|$ALERTMANAGER_ADDR|$ALERTMANAGER_PORT|alertmanager_ready
EOT
}
# The names of the components on HOST.
components_on() { components | awk -F'|' -v h="$1" '$1 != "" && $2 == h {print $1}'; }
