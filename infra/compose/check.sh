#!/usr/bin/env bash
# make check-compose: validates the compose deployment without a Docker engine
# (docs/adr/0061-compose-validated-in-the-build.md). Fails on the first problem:
#   1. compose/ is what infra/compose/render.py makes from ports.env, versions.env and the
#      templates right now (drift: a port or placement changed in one place only);
#   2. `docker-compose config` accepts every host file (the pinned compose CLI, built from its
#      Go module once), with compose/hosts.env.example as the operator's compose/.env;
#   3. what compose would deploy matches ports.env (infra/compose/verify.py), and runs Kafka as
#      hardened and watched as natively (infra/compose/check_kafka.py: SASL/SCRAM listeners, the
#      authorizer and the ACLs, a login for every Kafka client, JMX agents behind the scrape targets);
#   4. `nginx -t` accepts the rendered container config exactly as the container writes it, with
#      hanwiki-a/-b/-m resolvable through a throwaway /etc/hosts in a private mount namespace;
#   5. `promtool check config` accepts the rendered Prometheus config and its rules, laid out
#      as the container mounts them; `amtool check-config` the Alertmanager config;
#   6. Grafana's provisioning as compose mounts it: every ${VAR} its datasources use is set in the
#      grafana service, both datasources (Prometheus, Alertmanager) are there, the dashboard
#      provider's path is where grafana/dashboards is mounted, and that folder holds dashboards only.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
work=$(mktemp -d "${TMPDIR:-/tmp}/hanwiki-compose-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 infra/compose/render.py --check

cli=$(bash infra/compose/compose_cli.sh)
envfile=compose/hosts.env.example
args=()
for f in compose/host-*.yml; do
  h=${f#compose/host-}; h=${h%.yml}; h=${h^^}
  "$cli" --env-file "$envfile" -f "$f" config --quiet || die "docker-compose config rejects $f"
  "$cli" --env-file "$envfile" -f "$f" config --format json >"$work/host-$h.json"
  args+=("$h=$work/host-$h.json")
done
ok "docker-compose $COMPOSE_VERSION config accepts ${#args[@]} host files"
python3 infra/compose/verify.py "${args[@]}"
python3 infra/compose/check_kafka.py "${args[@]}" || die "compose runs Kafka less hardened or less watched than natively (above)"

# nginx: the entry script renders the config as it does in the container, into a throwaway prefix.
nginx_conf=$(ls compose/host-*/nginx.conf)
mkdir -p "$work/nginx"
HANWIKI_NGINX_PREFIX="$work/nginx" HANWIKI_NGINX_DRAIN_DIR="$work/nginx-drain" HANWIKI_NGINX_CONF_IN="$nginx_conf" \
  sh compose/init/nginx-entry.sh render
set -a; . "$envfile"; set +a
{ echo "127.0.0.1 localhost"; for h in A B M; do v="HOST_${h}_ADDR"; echo "${!v} hanwiki-${h,,}"; done; } >"$work/hosts"
unshare -m sh -c 'mount --bind "$1" /etc/hosts && nginx -t -q -p "$2/" -c "$2/nginx.conf" -e "$2/logs/early-error.log"' \
  sh "$work/hosts" "$work/nginx" || die "nginx -t rejects $nginx_conf"
ok "nginx -t accepts $nginx_conf (upstreams resolved through the example addresses)"

# Prometheus: the config beside grafana/ as in the container (/etc/hanwiki), rules included.
prom=$(ls compose/host-*/prometheus.yml)
mkdir -p "$work/prometheus"
cp "$prom" "$work/prometheus/prometheus.yml"
ln -s "$HANWIKI_ROOT/grafana" "$work/prometheus/grafana"
promtool check config "$work/prometheus/prometheus.yml" >"$work/promtool.out" 2>&1 \
  || { cat "$work/promtool.out" >&2; die "promtool rejects $prom"; }
ok "promtool accepts $prom and its rules"
am=$(ls compose/host-*/alertmanager.yml)
if command -v amtool >/dev/null; then
  amtool check-config "$am" >"$work/amtool.out" 2>&1 || { cat "$work/amtool.out" >&2; die "amtool rejects $am"; }
  ok "amtool accepts $am"
fi

# Grafana: the provisioning and the dashboards, as host M's grafana service mounts them.
python3 - "$work"/host-*.json <<'PY' || die "Grafana's provisioning does not fit compose (above)"
import glob, json, os, re, sys
svc = next(s for f in sys.argv[1:] for s in json.load(open(f))["services"].values() if s["image"].startswith("grafana/"))
env, errors = svc.get("environment") or {}, []
mounts = {v["target"]: os.path.relpath(v["source"]) for v in svc.get("volumes", []) if v.get("type") == "bind"}
kinds = set()
for f in glob.glob("grafana/provisioning/datasources/*.yml"):
    text = open(f).read()
    kinds |= set(re.findall(r"^\s+type: (\S+)", text, re.M))
    errors += ["%s uses ${%s}, which the grafana service does not set" % (f, v) for v in re.findall(r"\$\{(\w+)\}", text) if v not in env]
errors += ["no %s datasource is provisioned" % k for k in ("prometheus", "alertmanager") if k not in kinds]
if mounts.get("/etc/grafana/provisioning") != "grafana/provisioning":
    errors.append("grafana/provisioning is not mounted at /etc/grafana/provisioning")
for f in glob.glob("grafana/provisioning/dashboards/*.yml"):
    for path in re.findall(r"^\s+path: (\S+)", open(f).read(), re.M):
        if mounts.get(path) != "grafana/dashboards":
            errors.append("%s reads dashboards from %s, where grafana/dashboards is not mounted" % (f, path))
for f in glob.glob("grafana/dashboards/*"):
    d = json.load(open(f)) if f.endswith(".json") else {}
    if not (d.get("uid") and d.get("title") and d.get("panels")):
        errors.append("%s is not a Grafana dashboard (uid, title, panels), but Grafana loads every file there" % f)
for e in errors:
    print("grafana: " + e, file=sys.stderr)
print("grafana: %d dashboards, datasources %s, provisioning mounted as compose runs it" % (len(glob.glob("grafana/dashboards/*.json")), sorted(kinds)))
sys.exit(1 if errors else 0)
PY

# docs/deploy.md: every repository file it tells an operator to run or edit exists, and every
# script it runs inside a container (/hanwiki/X) is mounted there by a host file (not a longer path
# that merely contains /hanwiki/, such as the image's /opt/hanwiki/build-id).
missing=""
for p in $(grep -oE '(infra|compose)/[A-Za-z0-9_./-]+[A-Za-z0-9_]' docs/deploy.md | sort -u); do
  case "$p" in compose/.env | compose/secrets | compose/secrets/*) continue ;; esac
  [ -e "$p" ] || missing="$missing $p"
done
for p in $(grep -oE '(^|[^A-Za-z0-9_.-])/hanwiki/[A-Za-z0-9_.-]+' docs/deploy.md | sed -E 's#^[^/]+##' | sort -u); do
  grep -q ":$p:ro" compose/host-*.yml || missing="$missing $p(not mounted)"
done
[ -z "$missing" ] || die "docs/deploy.md names what the repository does not have:$missing"
ok "docs/deploy.md: every file and container script it names exists"
