#!/usr/bin/env bash
# The stack's log-rotator (infra/lib/logrotate.sh): logrotate CONF with its own STATE file,
# every EVERY seconds, until it gets TERM (down.sh stops it by its pid; the sleep goes with it).
#   usage: loop.sh CONF STATE EVERY
set -uo pipefail
conf="$1" state="$2" every="$3"
nap=""
trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null; exit 0' TERM INT
while :; do
  logrotate --state "$state" "$conf" || echo "logrotate failed at $(date -u +%FT%TZ) (exit $?)"
  sleep "$every" & nap=$!
  wait "$nap"; nap=""
done
