# shellcheck shell=bash
# Prometheus and the exporters (node, mysqld x2, redis multi-target, nginx); then Alertmanager,
# its receiver and mtail (alerting.sh).
monitoring_start() {
  if ! running prometheus; then
    alerting_render_configs "$CONF" >>"$LOGS/prometheus.log" 2>&1 \
      || { tail -5 "$LOGS/prometheus.log" >&2; die "promtool rejects the Prometheus config or its rules"; }
    mkdir -p "$VAR/prometheus"
    start_bg prometheus prometheus --config.file="$CONF/prometheus.yml" --storage.tsdb.path="$VAR/prometheus" \
      --storage.tsdb.retention.time=7d --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" --web.enable-lifecycle
  fi
  running node-exporter || start_bg node-exporter prometheus-node-exporter \
    --web.listen-address="127.0.0.1:$NODE_EXPORTER_PORT" --no-collector.systemd
  local role port
  for role in primary replica; do
    port=$([ "$role" = primary ] && echo "$MYSQLD_EXPORTER_PRIMARY_PORT" || echo "$MYSQLD_EXPORTER_REPLICA_PORT")
    running "mysqld-exporter-$role" && continue
    (umask 077; printf '[client]\nuser=exporter\npassword=%s\nhost=127.0.0.1\nport=%s\n' \
      "$DB_EXPORTER_PASSWORD" "$(db_port "$role")" >"$CONF/mysqld-exporter-$role.cnf")
    start_bg "mysqld-exporter-$role" prometheus-mysqld-exporter --config.my-cnf="$CONF/mysqld-exporter-$role.cnf" \
      --collect.binlog_size --web.listen-address="127.0.0.1:$port"
  done
  running redis-exporter || start_bg redis-exporter prometheus-redis-exporter -redis.addr= \
    -web.listen-address="127.0.0.1:$REDIS_EXPORTER_PORT"
  running nginx-exporter || start_bg nginx-exporter prometheus-nginx-exporter \
    -nginx.scrape-uri="http://127.0.0.1:$NGINX_STATUS_PORT/stub_status" -web.listen-address="127.0.0.1:$NGINX_EXPORTER_PORT"
  alerting_start
}

prometheus_ready() { http_ok "http://127.0.0.1:$PROMETHEUS_PORT/-/ready"; }
monitoring_wait() {
  wait_for "Prometheus" 30 prometheus prometheus_ready
  wait_for "node exporter" 20 node-exporter port_open "$NODE_EXPORTER_PORT"
  wait_for "mysqld exporter (primary)" 20 mysqld-exporter-primary port_open "$MYSQLD_EXPORTER_PRIMARY_PORT"
  wait_for "mysqld exporter (replica)" 20 mysqld-exporter-replica port_open "$MYSQLD_EXPORTER_REPLICA_PORT"
  wait_for "redis exporter" 20 redis-exporter port_open "$REDIS_EXPORTER_PORT"
  wait_for "nginx exporter" 20 nginx-exporter port_open "$NGINX_EXPORTER_PORT"
  alerting_wait
}
