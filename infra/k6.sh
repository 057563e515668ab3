#!/usr/bin/env bash
# make load PROFILE=smoke|load|stress|soak|spike|breakpoint|overload [MIX=community|wiki] [RATE=] [DURATION=] [VUS=]
# Runs one k6 profile of k6/load.js against BASE_URL (nginx) and writes its report:
#   1. k6 ($K6_VERSION, built once from its Go module into var/tools/bin) and the plotting venv
#      (var/venv-load, pinned by infra/bench/load-requirements.txt)
#   2. infra/bench/load_prepare.py: accounts logged in on the app nodes' own ports, the query
#      list by measured document frequency, a sample of live post ids (var/load/)
#   3. k6 with its CSV time series and summary JSON in var/load/runs/<run>/, while
#      infra/bench/load_sampler.py samples the CPU of every stack process and the binlog size
#   4. infra/bench/load_report.py: report.md, summary.json and PNG plots in REPORT_DIR
#      (default docs/bench/load/<profile>-<mix>-<UTC time>/), with Prometheus' series of the run
# Exit status: k6's (thresholds crossed: 99), except that a breakpoint run ends that way by design.
# Settings (environment): BASE_URL (default http://localhost:$NGINX_PORT), ACCOUNTS (default:
# VUS, at least 20, at most 400), REPORT_DIR, THINK=lo-hi seconds, START, MAX_VUS, LOGIN_RATE,
# CENSUS_EVERY / CENSUS_FIRST (class histograms of both nodes, seconds; soak: every 1800 from 300).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
cd "$HANWIKI_ROOT"

# The report's plotting libraries, pinned, in a venv of their own.
ensure_venv() {
  local venv="$VAR/venv-load" req="$HANWIKI_ROOT/infra/bench/load-requirements.txt"
  if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
    log "installing the report's plotting libraries into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$req" >&2
    cp "$req" "$venv/requirements.txt"
  fi
  printf '%s\n' "$venv/bin/python"
}
if [ "${1:-}" = --venv-python ]; then ensure_venv; exit 0; fi

profile="${1:-${PROFILE:-smoke}}"
mix="${MIX:-community}"
case "$profile" in smoke|load|stress|soak|spike|breakpoint|overload) ;; *) die "PROFILE=$profile: smoke, load, stress, soak, spike, breakpoint or overload" ;; esac
case "$mix" in community|wiki) ;; *) die "MIX=$mix: community or wiki" ;; esac
base_url="${BASE_URL:-http://localhost:$NGINX_PORT}"

# --- tools ---------------------------------------------------------------------------------
k6="$TOOLS/bin/k6"
if [ ! -x "$k6" ] || ! "$k6" version 2>/dev/null | grep -q "k6 $K6_VERSION"; then
  command -v go >/dev/null || die "go is needed to build k6 $K6_VERSION"
  log "building k6 $K6_VERSION (go install; a few minutes the first time)"
  mkdir -p "$TOOLS/bin"
  GOBIN="$TOOLS/bin" GOFLAGS=-mod=mod nice -n 10 go install "go.k6.io/k6@$K6_VERSION"
fi
py="$(ensure_venv)"

# --- inputs --------------------------------------------------------------------------------
vus="${VUS:-}"
if [ -z "$vus" ]; then case "$profile" in smoke) vus=5 ;; soak) vus=50 ;; stress|spike) vus=400 ;; *) vus=100 ;; esac; fi
# Class histograms of both nodes (infra/bench/heap_census.py): the soak's leak test, every
# CENSUS_EVERY seconds from CENSUS_FIRST (300) on; 0 = none (the default but for the soak).
census_every="${CENSUS_EVERY:-$([ "$profile" = soak ] && echo 1800 || echo 0)}"
case "$census_every" in ''|*[!0-9]*) die "CENSUS_EVERY=$census_every: whole seconds, 0 for none" ;; esac
accounts="${ACCOUNTS:-$(( vus < 20 ? 20 : (vus > 400 ? 400 : vus) ))}"
log "preparing: $accounts accounts, query list, post ids (var/load/)"
python3 infra/bench/load_prepare.py --accounts "$accounts"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
run="$VAR/load/runs/$profile-$mix-$stamp"
report="${REPORT_DIR:-docs/bench/load/$profile-$mix-$stamp}"
mkdir -p "$run"
cp "$VAR/load/queries.json" "$run/"
env_args=(-e BASE_URL="$base_url" -e PROFILE="$profile" -e MIX="$mix" -e LOAD_DATA="$VAR/load")
for k in RATE DURATION VUS THINK START MAX_VUS LOGIN_RATE PAGES; do
  [ -n "${!k:-}" ] && env_args+=(-e "$k=${!k}")
done
{
  echo "profile=$profile mix=$mix base_url=$base_url rate=${RATE:-} duration=${DURATION:-} vus=${VUS:-} pages=${PAGES:-} accounts=$accounts"
  echo "k6=$K6_VERSION start=$(date -u +%s) loadavg_before=$(cut -d' ' -f1-3 /proc/loadavg) cores=$(nproc)"
} >"$run/run.txt"

# --- run -----------------------------------------------------------------------------------
log "k6 $profile ($mix) -> $base_url; time series in $run"
set +e
K6_CSV_TIME_FORMAT=unix_milli "$k6" run --quiet "${env_args[@]}" --out "csv=$run/k6.csv.gz" --summary-export "$run/summary.json" \
  k6/load.js > >(tee "$run/k6.log") 2>&1 &
k6_pid=$!
python3 infra/bench/load_sampler.py --out "$run/stack.csv" --interval "${SAMPLE_S:-5}" --watch "$k6_pid" &
sampler_pid=$!
census_pid=
if [ "$census_every" != 0 ]; then
  python3 infra/bench/heap_census.py --out "$run/census" --first "${CENSUS_FIRST:-300}" --every "$census_every" --watch "$k6_pid" &
  census_pid=$!
fi
wait "$k6_pid"; rc=$?
kill -TERM "$sampler_pid" $census_pid 2>/dev/null; wait "$sampler_pid" $census_pid 2>/dev/null
set -e
echo "end=$(date -u +%s) loadavg_after=$(cut -d' ' -f1-3 /proc/loadavg) k6_exit=$rc" >>"$run/run.txt"

# --- report --------------------------------------------------------------------------------
"$py" infra/bench/load_report.py --run "$run" --out "$report"
ok "report: $report/report.md"
if [ "$profile" = breakpoint ] && [ "$rc" -eq 99 ]; then rc=0; fi  # it stops at a crossed threshold by design
exit "$rc"
