# shellcheck shell=bash
# Prometheus (host M) and the exporters: a node exporter on every host, a mysqld exporter
# beside each database, the redis exporter (multi-target, on M) and the nginx exporter beside
# nginx. Each binds its host's address; Prometheus scrapes them across the hosts' links. Then
# Alertmanager, its receiver and mtail (alerting.sh).
# The hosts that run a node exporter: every host, or one in the local topology (one address).
node_exporter_hosts() { if hosts_mode; then echo "${NODE_EXPORTER_HOSTS//,/ }"; else echo "${NODE_EXPORTER_HOSTS%%,*}"; fi; }

monitoring_start() {
  if ! running prometheus; then
    alerting_render_configs "$CONF" >>"$LOGS/prometheus.log" 2>&1 \
      || { tail -5 "$LOGS/prometheus.log" >&2; die "promtool rejects the Prometheus config or its rules"; }
    mkdir -p "$VAR/prometheus"; as_service_user prometheus "$VAR/prometheus"
    secret_file prometheus "$CONF/prometheus.yml"
    start_bg prometheus $(on PROMETHEUS) $(run_as prometheus) prometheus --config.file="$CONF/prometheus.yml" --storage.tsdb.path="$VAR/prometheus" \
      --storage.tsdb.retention.time=7d --web.listen-address="$PROMETHEUS_ADDR:$PROMETHEUS_PORT" --web.enable-lifecycle
  fi
  local h
  for h in $(node_exporter_hosts); do
    running "node-exporter-$(host_lower "$h")" || start_bg "node-exporter-$(host_lower "$h")" $(on_host "$h") \
      $(run_as prometheus) prometheus-node-exporter --web.listen-address="$(host_addr "$h"):$NODE_EXPORTER_PORT" --no-collector.systemd
  done
  local role comp
  for role in primary replica; do
    comp="MYSQLD_EXPORTER_${role^^}"
    running "mysqld-exporter-$role" && continue
    (umask 077; printf '[client]\nuser=exporter\npassword=%s\nhost=%s\nport=%s\n' \
      "$DB_EXPORTER_PASSWORD" "$(db_addr "$role")" "$(db_port "$role")" >"$CONF/mysqld-exporter-$role.cnf")
    secret_file prometheus "$CONF/mysqld-exporter-$role.cnf"
    start_bg "mysqld-exporter-$role" $(on "$comp") $(run_as prometheus) prometheus-mysqld-exporter --config.my-cnf="$CONF/mysqld-exporter-$role.cnf" \
      --collect.binlog_size --web.listen-address="$(addr_of "$comp"):$(eval echo "\$${comp}_PORT")"
  done
  # Credentials in its environment (not on the command line, which every user can read).
  running redis-exporter || start_bg redis-exporter $(on REDIS_EXPORTER) $(run_as prometheus) env REDIS_USER=exporter \
    REDIS_PASSWORD="$REDIS_EXPORTER_PASSWORD" prometheus-redis-exporter -redis.addr= \
    -web.listen-address="$REDIS_EXPORTER_ADDR:$REDIS_EXPORTER_PORT"
  running nginx-exporter || start_bg nginx-exporter $(on NGINX_EXPORTER) $(run_as prometheus) prometheus-nginx-exporter \
    -nginx.scrape-uri="http://127.0.0.1:$NGINX_STATUS_PORT/stub_status" -web.listen-address="$NGINX_EXPORTER_ADDR:$NGINX_EXPORTER_PORT"
  alerting_start
}

prometheus_ready() { http_ok "http://$PROMETHEUS_ADDR:$PROMETHEUS_PORT/-/ready"; }
monitoring_wait() {
  wait_for "Prometheus" 30 prometheus prometheus_ready
  local name host addr port check
  while IFS='|' read -r name host addr port check; do
    case "$name" in *-exporter*) wait_for "$name" 20 "$name" $check ;; esac
  done < <(components)
  alerting_wait
}
