# shellcheck shell=bash
# Prometheus, Alertmanager and the alert webhook receiver, the exporters (node, mysqld x2,
# redis multi-target, nginx, mtail over nginx's access log), and the JMX exporter agent that
# kafka.sh puts into the Kafka and Connect JVMs. Every address comes from `addr_of`
# (infra/ports.env); docs/adr/0065-alert-design.md says why the alerts look as they do.

JMX_AGENT_JAR() { echo "$TOOLS/jmx_prometheus_javaagent-$JMX_EXPORTER_VERSION.jar"; }
# jmx_agent kafka|connect: the -javaagent option that serves that JVM's metrics on
# KAFKA_METRICS_PORT / CONNECT_METRICS_PORT (nothing if install.sh has not fetched the agent).
jmx_agent() {
  local comp="${1^^}" port_var="${1^^}_METRICS_PORT"
  [ -f "$(JMX_AGENT_JAR)" ] || { warn "no JMX exporter agent at $(JMX_AGENT_JAR): $1 runs without metrics"; return 0; }
  mkdir -p "$CONF"
  cp "$HANWIKI_ROOT/infra/monitoring/jmx-$1.yml" "$CONF/jmx-$1.yml"
  printf -- '-javaagent:%s=%s:%s:%s\n' "$(JMX_AGENT_JAR)" "$(addr_of "$comp")" "${!port_var}" "$CONF/jmx-$1.yml"
}

# The node exporter targets, one per host (hosts topology) or the one local exporter, as a
# YAML flow list for prometheus.yml; each carries its host label (HostDown, inhibition).
node_exporter_targets() {
  if [ "$HANWIKI_TOPOLOGY" = local ]; then
    printf "[{targets: ['127.0.0.1:%s'], labels: {host: local}}]" "$NODE_EXPORTER_PORT"
    return
  fi
  local h out="" sep=""
  for h in ${NODE_EXPORTER_HOSTS//,/ }; do
    out="$out$sep{targets: ['$(host_addr "$h"):$NODE_EXPORTER_PORT'], labels: {host: $h}}"; sep=", "
  done
  printf '[%s]' "$out"
}

# Exports X_ADDR for every component the monitoring templates name.
monitoring_export_addrs() {
  local c
  for c in PROMETHEUS ALERTMANAGER ALERT_RECEIVER NODE1 NODE2 MYSQLD_EXPORTER_PRIMARY MYSQLD_EXPORTER_REPLICA \
    MARIADB_PRIMARY MARIADB_REPLICA REDIS_EXPORTER REDIS_SHARD1 REDIS_SHARD2 REDIS_SHARD3 REDIS_AUTH \
    NGINX NGINX_EXPORTER MTAIL KAFKA CONNECT; do
    export "${c}_ADDR=$(addr_of "$c")"
  done
  NODE_EXPORTER_TARGETS="$(node_exporter_targets)"; export NODE_EXPORTER_TARGETS
}

# Renders prometheus.yml and alertmanager.yml into DIR and checks them (promtool, amtool);
# used by monitoring_start and by `make check-monitoring` (no process started).
monitoring_render_configs() {
  local dir="$1"
  monitoring_export_addrs
  render "$HANWIKI_ROOT/grafana/prometheus/prometheus.yml" "$dir/prometheus.yml"
  render "$HANWIKI_ROOT/infra/templates/alertmanager.yml" "$dir/alertmanager.yml"
  promtool check config "$dir/prometheus.yml" || { echo "promtool rejects $dir/prometheus.yml or its rules" >&2; return 1; }
  amtool check-config "$dir/alertmanager.yml" || { echo "amtool rejects $dir/alertmanager.yml" >&2; return 1; }
}

monitoring_start() {
  mkdir -p "$LOGS"
  if ! running prometheus || ! running alertmanager; then
    monitoring_render_configs "$CONF" >>"$LOGS/prometheus.log" 2>&1 \
      || { tail -5 "$LOGS/prometheus.log" >&2; die "promtool/amtool reject the Prometheus or Alertmanager config"; }
  fi
  if ! running alert-receiver; then
    start_bg alert-receiver python3 "$HANWIKI_ROOT/infra/monitoring/alert_receiver.py" \
      --addr "$(addr_of ALERT_RECEIVER)" --port "$ALERT_RECEIVER_PORT" --out "$VAR/alerts/received.jsonl"
  fi
  if ! running alertmanager; then
    mkdir -p "$VAR/alertmanager"
    # --cluster.listen-address= : one Alertmanager, no gossip port.
    start_bg alertmanager prometheus-alertmanager --config.file="$CONF/alertmanager.yml" \
      --storage.path="$VAR/alertmanager" --web.listen-address="$(addr_of ALERTMANAGER):$ALERTMANAGER_PORT" \
      --cluster.listen-address= --log.level=info
  fi
  if ! running prometheus; then
    mkdir -p "$VAR/prometheus"
    start_bg prometheus prometheus --config.file="$CONF/prometheus.yml" --storage.tsdb.path="$VAR/prometheus" \
      --storage.tsdb.retention.time=7d --web.listen-address="$(addr_of PROMETHEUS):$PROMETHEUS_PORT" --web.enable-lifecycle
  fi
  running node-exporter || start_bg node-exporter prometheus-node-exporter \
    --web.listen-address="127.0.0.1:$NODE_EXPORTER_PORT" --no-collector.systemd
  local role port comp
  for role in primary replica; do
    comp=$([ "$role" = primary ] && echo MYSQLD_EXPORTER_PRIMARY || echo MYSQLD_EXPORTER_REPLICA)
    port=$([ "$role" = primary ] && echo "$MYSQLD_EXPORTER_PRIMARY_PORT" || echo "$MYSQLD_EXPORTER_REPLICA_PORT")
    running "mysqld-exporter-$role" && continue
    (umask 077; printf '[client]\nuser=exporter\npassword=%s\nhost=127.0.0.1\nport=%s\n' \
      "$DB_EXPORTER_PASSWORD" "$(db_port "$role")" >"$CONF/mysqld-exporter-$role.cnf")
    # binlog_size: BinlogGrowingFast; slave_status is on by default.
    start_bg "mysqld-exporter-$role" prometheus-mysqld-exporter --config.my-cnf="$CONF/mysqld-exporter-$role.cnf" \
      --collect.binlog_size --web.listen-address="$(addr_of "$comp"):$port"
  done
  running redis-exporter || start_bg redis-exporter prometheus-redis-exporter -redis.addr= \
    -web.listen-address="$(addr_of REDIS_EXPORTER):$REDIS_EXPORTER_PORT"
  running nginx-exporter || start_bg nginx-exporter prometheus-nginx-exporter \
    -nginx.scrape-uri="http://127.0.0.1:$NGINX_STATUS_PORT/stub_status" -web.listen-address="$(addr_of NGINX_EXPORTER):$NGINX_EXPORTER_PORT"
  touch "$LOGS/nginx-access.log"
  running mtail || start_bg mtail mtail -progs "$HANWIKI_ROOT/infra/monitoring/mtail" -logs "$LOGS/nginx-access.log" \
    -address "$(addr_of MTAIL)" -port "$MTAIL_PORT" -logtostderr
}

prometheus_ready() { http_ok "http://$(addr_of PROMETHEUS):$PROMETHEUS_PORT/-/ready"; }
alertmanager_ready() { http_ok "http://$(addr_of ALERTMANAGER):$ALERTMANAGER_PORT/-/ready"; }
alert_receiver_ready() { http_ok "http://$(addr_of ALERT_RECEIVER):$ALERT_RECEIVER_PORT/healthz"; }
mtail_ready() { http_ok "http://$(addr_of MTAIL):$MTAIL_PORT/metrics"; }
monitoring_wait() {
  wait_for "Prometheus" 30 prometheus prometheus_ready
  wait_for "Alertmanager" 30 alertmanager alertmanager_ready
  wait_for "alert receiver" 20 alert-receiver alert_receiver_ready
  wait_for "node exporter" 20 node-exporter port_open "$NODE_EXPORTER_PORT"
  wait_for "mysqld exporter (primary)" 20 mysqld-exporter-primary port_open "$MYSQLD_EXPORTER_PRIMARY_PORT"
  wait_for "mysqld exporter (replica)" 20 mysqld-exporter-replica port_open "$MYSQLD_EXPORTER_REPLICA_PORT"
  wait_for "redis exporter" 20 redis-exporter port_open "$REDIS_EXPORTER_PORT"
  wait_for "nginx exporter" 20 nginx-exporter port_open "$NGINX_EXPORTER_PORT"
  wait_for "mtail" 20 mtail mtail_ready
}
