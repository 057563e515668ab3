#!/usr/bin/env bash
# The binlog archiver (component "binlog-archiver", infra/lib/backup.sh): streams the primary's
# binlogs into DIR as the primary writes them, byte for byte (mariadb-binlog
# --read-from-remote-server --raw --stop-never, the primary sees one more replica). When the
# primary goes away it reconnects every second and re-fetches the newest archived file whole,
# so a restart of either side loses nothing the primary still has.
#   archive-binlogs.sh OPTION_FILE DIR   (OPTION_FILE: [client] user, password, host, port)
set -uo pipefail
cnf="$1"; dir="$2"
umask 077
cd "$dir" || exit 1
child=""
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; wait 2>/dev/null; exit 0' TERM INT
while :; do
  first=$(ls mariadb-bin.[0-9]* 2>/dev/null | tail -n 1)
  [ -n "$first" ] || first=$(mariadb --defaults-file="$cnf" -N -B -e 'SHOW BINARY LOGS' 2>/dev/null | head -n 1 | cut -f1)
  if [ -n "$first" ]; then
    echo "$(date -u +%FT%TZ) streaming from $first"
    # server id 3: unique among the primary's readers (replica 2, Debezium 184054).
    mariadb-binlog --defaults-file="$cnf" --read-from-remote-server --raw --stop-never \
      --stop-never-slave-server-id=3 --result-file="$dir/" "$first" &
    child=$!
    wait "$child"; rc=$?; child=""
    echo "$(date -u +%FT%TZ) stream ended (exit $rc); reconnecting"
  fi
  sleep 1
done
