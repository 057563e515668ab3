#!/usr/bin/env bash
# Trains the app nodes' AOT cache for the current jar and JVM (ADR 0101, infra/lib/aot.sh):
#   make aot-cache            (FORCE=1 trains again; AOT_TRAIN_SECONDS=60, AOT_TRAIN_RATE=40)
# `make up` runs it when the build has no cache yet (HANWIKI_AOT=0 turns the cache off).
# 1. node 1 leaves nginx's pool and restarts with -XX:AOTCacheOutput (node 2 serves alone);
# 2. infra/aot/workload.py drives AOT_TRAIN_SECONDS of searches, reads and writes through it;
# 3. node 1 stops: the JVM writes the cache as it exits (10-30 s); it is moved into place only
#    when complete;
# 4. both nodes restart on the cache, one after the other, each back in nginx once ready.
# Needs the stack up. Takes about AOT_TRAIN_SECONDS + 90 s. No request is refused meanwhile.
set -euo pipefail
. "$(dirname "$0")/../lib/stack.sh"
ensure_secrets
aot_enabled || die "HANWIKI_AOT=0: the nodes run without an AOT cache; unset it to train one"
seconds="${AOT_TRAIN_SECONDS:-60}" rate="${AOT_TRAIN_RATE:-40}"
ctl() { bash "$HANWIKI_ROOT/infra/ctl.sh" "$@"; }
running node1 && running node2 || die "the AOT cache trains on the running stack (node1 and node2): run 'make up' first"
if aot_trained && [ "${FORCE:-0}" != 1 ]; then
  ok "AOT cache for this build: $(aot_cache) ($(du -h "$(aot_cache)" | cut -f1)); FORCE=1 trains it again"
  exit 0
fi
home=$(aot_home); t0=$SECONDS
log "AOT cache for build ${home##*/}: node1 restarts to record a ${seconds} s training workload, then writes the cache as it stops (about $((seconds + 90)) s in all)"
ctl stop node1
HANWIKI_AOT_TRAIN=1 ctl start node1
python3 "$HANWIKI_ROOT/infra/aot/workload.py" --node 1 --seconds "$seconds" --rate "$rate" \
  || die "the training workload met failures (above): no AOT cache trained; node1 keeps running in training mode until its next restart (log: $LOGS/node1.log)"
log "node1 stops and writes the AOT cache"
nginx_drain 1
stop node1 150   # graceful shutdown, then the JVM assembles the cache before it exits
[ -s "$home/training.aot" ] || die "node1 wrote no AOT cache at its exit (log: $LOGS/node1.log); the nodes run without one"
mv "$home/training.aot" "$home/hanwiki.aot"
ctl start node1
ctl restart node2
for n in 1 2; do
  said=$(aot_complaints "$n")
  [ -z "$said" ] || die "node$n could not use the new AOT cache and runs without it; its JVM said:
$said"
done
started() { grep -o 'Started HanwikiApplication in [0-9.]* seconds' "$LOGS/node$1.log" | tail -n 1 | grep -o '[0-9.]*'; }
ok "AOT cache trained in $((SECONDS - t0)) s: $(aot_cache) ($(du -h "$(aot_cache)" | cut -f1)); node1 and node2 run with it (Spring started in $(started 1) s / $(started 2) s)"
