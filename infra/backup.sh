#!/usr/bin/env bash
# Backup and point-in-time restore of the database (docs/runbooks/backup-restore.md, ADR 0054).
# For operators (make backup / make restore) and for the chaos runner ("primary lost"):
#   infra/backup.sh full                 a prepared base backup of the running primary (prints its directory)
#   infra/backup.sh wait-archived [S]    wait (up to S s, default 30) until the binlog archive holds
#                                        every transaction the primary has committed so far
#   infra/backup.sh status               newest base, archiver state, archived and primary GTIDs
#   infra/backup.sh lose-primary         SIGKILL the primary and move its data directory away
#                                        (to var/mariadb/primary/data.lost): a lost disk, for drills
#   infra/backup.sh resnapshot           the connector takes a new snapshot (its stored binlog
#                                        position was purged: docs/runbooks/cdc.md)
#   infra/backup.sh restore [--until 'YYYY-MM-DD HH:MM:SS']
#                                        restore the primary from the newest base + the archive (up to
#                                        the first event at or after UNTIL, local time; default: all
#                                        archived), re-seed the replica, restart the change stream
#                                        (new Debezium snapshot) and rebuild both nodes' indexes.
#                                        Prints "recovery point GTID D-S-N" last.
# Exit status 0 on success; any failure is fatal with the log named (var/log/backup.log).
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
ensure_secrets
mkdir -p "$LOGS"
cmd="${1:-}"; shift || true
case "$cmd" in
  full) backup_full ;;
  wait-archived) archive_wait "${1:-30}"; ok "archive holds the primary's position" ;;
  status) backup_status ;;
  resnapshot) connector_resnapshot ;;
  lose-primary)
    kill_now mariadb-primary
    rm -rf "$(db_dir primary)/data.lost"
    mv "$(db_dir primary)/data" "$(db_dir primary)/data.lost"
    warn "primary killed and its data directory moved to $(db_dir primary)/data.lost" ;;
  restore)
    until=""
    if [ "${1:-}" = --until ]; then
      until="${2:?--until needs 'YYYY-MM-DD HH:MM:SS'}"
      [[ "$until" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}\ [0-9]{2}:[0-9]{2}:[0-9]{2}$ ]] || die "--until must be 'YYYY-MM-DD HH:MM:SS' (local time), not '$until'"
    elif [ -n "${1:-}" ]; then die "usage: infra/backup.sh restore [--until 'YYYY-MM-DD HH:MM:SS']"; fi
    restore_pitr "$until" ;;
  *) die "usage: infra/backup.sh full|wait-archived [S]|status|resnapshot|lose-primary|restore [--until 'YYYY-MM-DD HH:MM:SS']" ;;
esac
