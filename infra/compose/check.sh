#!/usr/bin/env bash
# make check-compose: validates the compose deployment without a Docker engine
# (docs/adr/0061-compose-validated-in-the-build.md). Fails on the first problem:
#   1. compose/ is what infra/compose/render.py makes from ports.env, versions.env and the
#      templates right now (drift: a port or placement changed in one place only);
#   2. `docker-compose config` accepts every host file (the pinned compose CLI, built from its
#      Go module once), with compose/hosts.env.example as the operator's compose/.env;
#   3. what compose would deploy matches ports.env (infra/compose/verify.py);
#   4. `nginx -t` accepts the rendered container config exactly as the container writes it, with
#      hanwiki-a/-b/-m resolvable through a throwaway /etc/hosts in a private mount namespace;
#   5. `promtool check config` accepts the rendered Prometheus config and its rules, laid out
#      as the container mounts them; `amtool check-config` the Alertmanager config.
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

# docs/deploy.md: every repository file it tells an operator to run or edit exists, and every
# script it runs inside a container (/hanwiki/X) is mounted there by a host file.
missing=""
for p in $(grep -oE '(infra|compose)/[A-Za-z0-9_./-]+[A-Za-z0-9_]' docs/deploy.md | sort -u); do
  case "$p" in compose/.env | compose/secrets | compose/secrets/*) continue ;; esac
  [ -e "$p" ] || missing="$missing $p"
done
for p in $(grep -oE '/hanwiki/[A-Za-z0-9_.-]+' docs/deploy.md | sort -u); do
  grep -q ":$p:ro" compose/host-*.yml || missing="$missing $p(not mounted)"
done
[ -z "$missing" ] || die "docs/deploy.md names what the repository does not have:$missing"
ok "docs/deploy.md: every file and container script it names exists"
