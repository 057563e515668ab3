#!/usr/bin/env bash
# Offline checks of the monitoring, no process started (make check-monitoring; make test runs
# it before the stack starts):
#   promtool check config   on the rendered prometheus.yml (and so its rules)
#   promtool test rules     the unit tests of every alert (grafana/prometheus/tests/)
#   check_rules.py          every alert has a firing and a quiet test, a severity, a summary and a runbook
#   amtool check-config     on the rendered alertmanager.yml
#   amtool config routes    each severity reaches its receiver
#   dashboards.py --lint    every dashboard's structure, variables, runbook links and PromQL syntax
#   mtail --one_shot        the nginx log program counts a sample log as expected
#   test_alertmanager.py    the real Alertmanager on free ports: routing, grouping, inhibition (~15 s)
#   test_rotation.py        the stack's log-rotator keeps a log that is being written bounded (~10 s)
#   test_started_since_start.py  a readiness check that reads a log survives the rotator emptying it
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$HANWIKI_ROOT/infra/lib/alerting.sh"
for tool in promtool amtool; do
  command -v "$tool" >/dev/null || die "$tool is missing: run make install (Debian packages prometheus, prometheus-alertmanager)"
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
alerting_render_configs "$tmp"
(cd "$HANWIKI_ROOT/grafana/prometheus" && promtool test rules tests/*.yml)
/usr/bin/python3 "$HANWIKI_ROOT/infra/monitoring/check_rules.py" "$HANWIKI_ROOT/grafana/prometheus/rules.yml" \
  "$HANWIKI_ROOT/grafana/prometheus/tests/rules_test.yml" "$HANWIKI_ROOT"
/usr/bin/python3 "$HANWIKI_ROOT/infra/monitoring/dashboards.py" --lint
route() {  # route EXPECTED_RECEIVER LABEL=VALUE...
  local want="$1"; shift
  amtool config routes test --config.file="$tmp/alertmanager.yml" --verify.receivers="$want" "$@" >/dev/null 2>&1 \
    || die "alertmanager routes $* to $(amtool config routes test --config.file="$tmp/alertmanager.yml" "$@" 2>/dev/null), not $want"
}
route page severity=page alertname=AuthRedisDown
route ticket severity=ticket alertname=CacheShardDown
route heartbeat severity=heartbeat alertname=Watchdog
route ticket alertname=SomethingWithoutSeverity
counts=$(mtail -progs "$HANWIKI_ROOT/infra/monitoring/mtail" -logs "$HANWIKI_ROOT/infra/monitoring/mtail/testdata/nginx-access.log" \
  -one_shot -logtostderr 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin)
print(*(int(d[k][0]["LabelValues"][0]["Value"]["Value"]) for k in ("hanwiki_nginx_requests_total","hanwiki_nginx_upstream_failures_total")))')
[ "$counts" = "6 2" ] || die "mtail's nginx program counted '$counts' (requests, upstream failures) in the sample log, not '6 2'"
python3 "$HANWIKI_ROOT/infra/monitoring/test_alertmanager.py"
command -v logrotate >/dev/null || die "logrotate is missing: run make install (Debian package logrotate)"
python3 "$HANWIKI_ROOT/infra/logrotate/test_rotation.py"
python3 "$HANWIKI_ROOT/infra/logrotate/test_started_since_start.py"
ok "monitoring checks passed (prometheus config, rule unit tests, alertmanager config, routes and inhibition, log rotation)"
