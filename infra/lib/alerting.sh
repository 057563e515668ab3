# shellcheck shell=bash
# Alerting and the metrics the alerts added (docs/adr/0065-alert-design.md): Alertmanager, the
# webhook receiver it delivers to (var/alerts/received.jsonl), mtail over nginx's access log,
# and the JMX exporter agent kafka.sh puts into the Kafka and Connect JVMs. monitoring.sh
# calls alerting_start / alerting_wait; infra/monitoring/check.sh renders the configs only.
# Every address comes from `addr_of` (infra/ports.env).

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

# X_ADDR for every component the monitoring templates name, and the node exporter targets
# (one per host; the one local exporter, host "local", in the local topology) as a YAML list.
alerting_export_addrs() {
  local v h cfgs=""
  for v in $(compgen -A variable | grep -E '^[A-Z0-9_]+_HOST$'); do
    [[ "${!v}" =~ ^[A-Z]$ ]] && export "${v%_HOST}_ADDR=$(host_addr "${!v}")"
  done
  if [ "$HANWIKI_TOPOLOGY" = local ]; then
    cfgs="{targets: ['127.0.0.1:$NODE_EXPORTER_PORT'], labels: {host: 'local'}}"
  else
    for h in ${NODE_EXPORTER_HOSTS//,/ }; do
      cfgs="$cfgs${cfgs:+, }{targets: ['$(host_addr "$h"):$NODE_EXPORTER_PORT'], labels: {host: '$h'}}"
    done
  fi
  export NODE_EXPORTER_STATIC_CONFIGS="[$cfgs]"
}

# Renders prometheus.yml and alertmanager.yml into DIR and checks them (promtool, amtool).
alerting_render_configs() {
  local dir="$1"
  alerting_export_addrs
  render "$HANWIKI_ROOT/grafana/prometheus/prometheus.yml" "$dir/prometheus.yml"
  promtool check config "$dir/prometheus.yml" || { echo "promtool rejects $dir/prometheus.yml or its rules" >&2; return 1; }
  alertmanager_render_config "$dir"
}

# Renders alertmanager.yml alone into DIR and checks it (amtool). Starting Alertmanager must not
# re-render prometheus.yml: render replaces the file with a root-owned one until secret_file hands
# it over, and a Prometheus that was started a moment before and reads its config in that window
# exits with "permission denied" (seen on 2 of about 10 `make up`s).
alertmanager_render_config() {
  local dir="$1"
  alerting_export_addrs
  render "$HANWIKI_ROOT/infra/templates/alertmanager.yml" "$dir/alertmanager.yml"
  amtool check-config "$dir/alertmanager.yml" || { echo "amtool rejects $dir/alertmanager.yml" >&2; return 1; }
}

alerting_start() {
  mkdir -p "$LOGS" "$CONF"
  # Debian's python3: the one on root's PATH may live under /root, which the service user cannot read.
  mkdir -p "$VAR/alerts"; as_service_user prometheus "$VAR/alerts"
  running alert-receiver || start_bg alert-receiver $(on ALERT_RECEIVER) $(run_as prometheus) /usr/bin/python3 "$HANWIKI_ROOT/infra/monitoring/alert_receiver.py" \
    --addr "$(addr_of ALERT_RECEIVER)" --port "$ALERT_RECEIVER_PORT" --out "$VAR/alerts/received.jsonl"
  if ! running alertmanager; then
    alertmanager_render_config "$CONF" >>"$LOGS/alertmanager.log" 2>&1 \
      || { tail -5 "$LOGS/alertmanager.log" >&2; die "amtool rejects the Alertmanager config"; }
    mkdir -p "$VAR/alertmanager"; as_service_user prometheus "$VAR/alertmanager"
    secret_file prometheus "$CONF/alertmanager.yml"
    # --cluster.listen-address= : one Alertmanager, no gossip port.
    start_bg alertmanager $(on ALERTMANAGER) $(run_as prometheus) prometheus-alertmanager --config.file="$CONF/alertmanager.yml" \
      --storage.path="$VAR/alertmanager" --web.listen-address="$(addr_of ALERTMANAGER):$ALERTMANAGER_PORT" \
      --cluster.listen-address=
  fi
  touch "$LOGS/nginx-access.log"
  running mtail || start_bg mtail $(on MTAIL) $(run_as prometheus) mtail -progs "$HANWIKI_ROOT/infra/monitoring/mtail" -logs "$LOGS/nginx-access.log" \
    -address "$(addr_of MTAIL)" -port "$MTAIL_PORT" -logtostderr
}

alertmanager_ready() { http_ok "http://$(addr_of ALERTMANAGER):$ALERTMANAGER_PORT/-/ready"; }
alert_receiver_ready() { http_ok "http://$(addr_of ALERT_RECEIVER):$ALERT_RECEIVER_PORT/healthz"; }
mtail_ready() { http_ok "http://$(addr_of MTAIL):$MTAIL_PORT/metrics"; }
alerting_wait() {
  wait_for "alert receiver" 20 alert-receiver alert_receiver_ready
  wait_for "Alertmanager" 30 alertmanager alertmanager_ready
  wait_for "mtail" 20 mtail mtail_ready
}
