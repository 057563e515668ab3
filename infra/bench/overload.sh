#!/usr/bin/env bash
# make bench-overload [RATE=] [DURATION=2m] [LABEL=] (ADR 0093, docs/bench/overload.md)
#   1. unless RATE is given: `make load PROFILE=breakpoint` (arrival rate ramping to BP_TOP, 800,
#      over BP_DURATION, 3m) finds the last good rate (p95 < 100 ms, errors < 0.1%, 10 s windows)
#   2. `make load PROFILE=overload RATE=<twice that> DURATION=2m`: open model at that rate
#   3. docs/bench/overload/<UTC time>[-LABEL]/: both load reports and README.md with the figures,
#      the commands and the load averages; the figures are printed too
# Exit status: 0 when the overload run held (admitted p95 < 100 ms, nothing over 1 s, no failure
# but the shed 503s), 1 when it did not (it is a benchmark: the figures are the result).
# The stack must be up; on the shared machine hold the stack lock for the whole run.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
out="docs/bench/overload/$stamp${LABEL:+-$LABEL}"
mkdir -p "$out"
rate="${RATE:-}"
bp_cmd=""
if [ -z "$rate" ]; then
  bp_cmd="make load PROFILE=breakpoint RATE=${BP_TOP:-800} DURATION=${BP_DURATION:-3m}"
  log "1/2 breakpoint: $bp_cmd"
  REPORT_DIR="$out/breakpoint" PROFILE=breakpoint RATE="${BP_TOP:-800}" DURATION="${BP_DURATION:-3m}" \
    bash infra/k6.sh || die "the breakpoint run failed"
  last_good=$(python3 -c 'import json,math,sys; r=json.load(open(sys.argv[1]))["last_good_rate"]; print(0 if r is None or math.isnan(r) else int(r))' "$out/breakpoint/figures.json")
  [ "$last_good" -gt 0 ] || die "the breakpoint run had no good window at all (its first 10 s already over p95 100 ms or 0.1% errors): a cold stack (nodes just restarted: warm them first) or a busy machine; see $out/breakpoint/report.md"
  rate=$((2 * last_good))
  log "last good rate $last_good req/s: the overload run offers $rate req/s"
fi
ov_cmd="make load PROFILE=overload RATE=$rate DURATION=${DURATION:-2m}"
log "2/2 overload: $ov_cmd"
set +e
REPORT_DIR="$out/overload" PROFILE=overload RATE="$rate" DURATION="${DURATION:-2m}" bash infra/k6.sh
set -e
[ -f "$out/overload/figures.json" ] || die "the overload run wrote no report"
python3 infra/bench/overload_summary.py --dir "$out" --breakpoint-command "$bp_cmd" --overload-command "$ov_cmd" \
  --label "${LABEL:-}" --limiter "$(curl -fsS "http://$NODE1_ADDR:$NODE1_MANAGEMENT_PORT/actuator/prometheus" 2>/dev/null \
    | grep -c '^hanwiki_overload_limit' || true)"
