# shellcheck shell=bash
# Backup and point-in-time restore of the primary (docs/adr/0054-backup-and-point-in-time-restore.md,
# runbook docs/runbooks/backup-restore.md). Two parts:
#   - a base backup: mariadb-backup (Debian's mariadb-backup) of the running primary, prepared at
#     once, under var/backup/base/<UTC time>/ with the binlog position and GTID it is consistent at;
#   - the binlog archive: the "binlog-archiver" component, on host M (BINLOG_ARCHIVER_HOST),
#     streams the primary's binlogs as they are written (mariadb-binlog --read-from-remote-server
#     --raw --stop-never) into var/backup/binlog/. Recovery point: the last event it received.
# A restore copies the newest base back into the primary's data directory, replays the archive
# from the base's position (up to UNTIL), re-seeds the replica from the same base, then makes the
# change stream and the nodes start over from the restored database (new Debezium snapshot into a
# fresh change topic, empty indexes, empty cache shards).
# Everything here holds data and credentials: files 0600, directories 0700 (var/backup itself
# 0711, so the archiver can reach its own directory), root's or mysql's.

BACKUP_DIR="$VAR/backup"
BINLOG_ARCHIVE="$BACKUP_DIR/binlog"
BACKUP_LOG="$LOGS/backup.log"

backup_log() { log "$*"; printf '%s %s\n' "$(date -u +%FT%TZ)" "$*" >>"$BACKUP_LOG"; }

# --- the binlog archiver --------------------------------------------------------------
# Logs in as the database user "backup" (REPLICATION SLAVE + BINLOG MONITOR, made by
# mariadb_setup_primary) from a 0600 option file, never a password on the command line.
binlog_archiver_cnf() {
  local f="$CONF/binlog-archiver.cnf"
  (umask 077; printf '[client]\nuser=backup\npassword=%s\nhost=%s\nport=%s\n' \
    "$DB_BACKUP_PASSWORD" "$MARIADB_PRIMARY_ADDR" "$MARIADB_PRIMARY_PORT" >"$f")
  secret_file mysql "$f"
  printf '%s\n' "$f"
}

binlog_archiver_start() {
  running binlog-archiver && return 0
  # var/backup is root's and only traversable (0711): the archiver (mysql) reaches its own
  # 0700 directory and nothing else; the bases beside it stay root's 0700.
  mkdir -p "$BINLOG_ARCHIVE"; chmod 711 "$BACKUP_DIR"; chmod 700 "$BINLOG_ARCHIVE"
  as_service_user mysql "$BINLOG_ARCHIVE"
  local cnf; cnf=$(binlog_archiver_cnf)
  # shellcheck disable=SC2046
  start_bg binlog-archiver $(on BINLOG_ARCHIVER) $(run_as mysql) \
    bash "$HANWIKI_ROOT/infra/backup/archive-binlogs.sh" "$cnf" "$BINLOG_ARCHIVE"
}
binlog_archiver_stop() { stop binlog-archiver 10; }
# Healthy: running and holding at least the primary's current binlog file.
binlog_archiver_healthy() { running binlog-archiver && [ -n "$(ls "$BINLOG_ARCHIVE"/mariadb-bin.[0-9]* 2>/dev/null)" ]; }

# The GTID of the newest transaction in the archive (empty if nothing is archived yet). The
# last file may end in a half-written event while it is being streamed: mariadb-binlog stops
# there, and so does this.
archived_gtid() {
  local files; files=$(ls "$BINLOG_ARCHIVE"/mariadb-bin.[0-9]* 2>/dev/null | tail -n 1)
  [ -n "$files" ] || return 0
  mariadb-binlog --no-defaults "$files" 2>/dev/null | sed -n 's/.*\bGTID \([0-9]*-[0-9]*-[0-9]*\).*/\1/p' | tail -n 1
}
# archive_wait [TIMEOUT_S]: waits until the archive holds every transaction the primary had
# committed when it was called (later writes, e.g. view flushes, do not move the goal).
gtid_seq() { printf '%s\n' "${1##*-}"; }
archive_wait() {
  local want deadline=$((SECONDS + ${1:-30})) got
  want=$(db_sql primary 'SELECT @@gtid_binlog_pos'); [ -n "$want" ] || return 0
  while :; do
    got=$(archived_gtid)
    [ -n "$got" ] && [ "$(gtid_seq "$got")" -ge "$(gtid_seq "$want")" ] && return 0
    [ $SECONDS -lt $deadline ] || die "the binlog archive is at ${got:-nothing}, the primary was at $want (log: $LOGS/binlog-archiver.log)"
    sleep 0.2
  done
}

# --- base backup ----------------------------------------------------------------------------
# backup_full: a prepared base backup of the running primary. Prints its directory.
backup_full() {
  db_ping primary || die "the primary is not running: nothing to back up"
  local ts dir t0=$SECONDS
  ts=$(date -u +%Y%m%dT%H%M%SZ); dir="$BACKUP_DIR/base/$ts"
  mkdir -p "$BACKUP_DIR/base"; chmod 711 "$BACKUP_DIR"; chmod 700 "$BACKUP_DIR/base"
  backup_log "base backup of the primary into $dir ($(du -sh "$(db_dir primary)/data" | cut -f1) of data)"
  # mariadb-backup copies InnoDB while it logs its redo, then locks briefly for the rest; it
  # reads the data files as root and talks to the server on its socket (root by unix_socket).
  # Lowest CPU and I/O priority: it runs beside a serving stack (docs/chaos/primary-restore.md).
  (umask 077; nice -n 19 ionice -c 3 mariadb-backup --backup --target-dir="$dir.partial" --user=root \
     --socket="$(db_dir primary)/mysqld.sock" --datadir="$(db_dir primary)/data" >>"$BACKUP_LOG" 2>&1) \
    || die "mariadb-backup --backup failed (log: $BACKUP_LOG)"
  backup_log "copied in $((SECONDS - t0)) s; preparing (applying the redo copied meanwhile)"
  (umask 077; nice -n 19 ionice -c 3 mariadb-backup --prepare --target-dir="$dir.partial" >>"$BACKUP_LOG" 2>&1) \
    || die "mariadb-backup --prepare failed (log: $BACKUP_LOG)"
  mv "$dir.partial" "$dir"
  backup_log "base backup $dir ready in $((SECONDS - t0)) s: $(du -sh "$dir" | cut -f1), consistent at $(backup_position "$dir")"
  printf '%s\n' "$dir"
}

# backup_position DIR: "FILE POS GTID" the base backup is consistent at.
# (mariadb-backup 10.11 names the file xtrabackup_binlog_info; later versions mariadb_backup_binlog_info.)
backup_position() {
  local f; for f in "$1/mariadb_backup_binlog_info" "$1/xtrabackup_binlog_info"; do
    [ -f "$f" ] && { tr '\t' ' ' <"$f" | head -n 1; return 0; }
  done
  die "$1 has no binlog position file: not a mariadb-backup base"
}
latest_base() { ls -d "$BACKUP_DIR"/base/20*Z 2>/dev/null | tail -n 1; }

backup_status() {
  local base; base=$(latest_base)
  printf 'newest base backup   %s\n' "${base:-none}"
  [ -n "$base" ] && printf '  consistent at      %s\n' "$(backup_position "$base")"
  printf 'binlog archiver      %s\n' "$(running binlog-archiver && echo "running (host $BINLOG_ARCHIVER_HOST)" || echo stopped)"
  printf '  archived up to     %s\n' "$(archived_gtid)"
  db_ping primary && printf 'primary at           %s\n' "$(db_sql primary 'SELECT @@gtid_binlog_pos')"
  return 0
}

# --- restore ----------------------------------------------------------------------------------
# copy_base_into ROLE BASE: the instance's data directory becomes a copy of BASE (the old one is
# kept as data.replaced until the next restore).
copy_base_into() {
  local role="$1" base="$2" dir; dir=$(db_dir "$role")
  rm -rf "$dir/data.replaced"
  [ -d "$dir/data" ] && mv "$dir/data" "$dir/data.replaced"
  mkdir -p "$dir/data"
  mariadb-backup --copy-back --target-dir="$base" --datadir="$dir/data" >>"$BACKUP_LOG" 2>&1 \
    || die "mariadb-backup --copy-back into the $role failed (log: $BACKUP_LOG)"
  as_service_user mysql "$dir"; chmod 700 "$dir/data"
}

# replay_archive BASE [UNTIL]: applies the archived binlogs to the restored primary, from BASE's
# position up to the first event at or after UNTIL (local time, 'YYYY-MM-DD HH:MM:SS'). Every
# replayed transaction keeps its GTID and is logged again by the primary, so the replica and
# Debezium see it like any other.
replay_archive() {
  local base="$1" until="${2:-}" file pos gtid files=() f
  read -r file pos gtid <<<"$(backup_position "$base")"
  for f in $(ls "$BINLOG_ARCHIVE"/mariadb-bin.[0-9]* 2>/dev/null); do
    [[ "$(basename "$f")" < "$file" ]] || files+=("$f")
  done
  [ ${#files[@]} -gt 0 ] && [ "$(basename "${files[0]}")" = "$file" ] \
    || die "the archive has no $file (the base's binlog): cannot replay from the base (archive: $BINLOG_ARCHIVE)"
  backup_log "replaying ${#files[@]} archived binlog file(s) from $file:$pos${until:+ until $until}"
  local args=(--no-defaults --start-position="$pos")
  [ -n "$until" ] && args+=(--stop-datetime="$until")
  set +e +o pipefail
  mariadb-binlog "${args[@]}" "${files[@]}" 2>>"$BACKUP_LOG" | db_client primary --binary-mode 2>>"$BACKUP_LOG"
  local st=("${PIPESTATUS[@]}"); set -e -o pipefail
  [ "${st[1]}" = 0 ] || die "applying the archived binlogs failed (log: $BACKUP_LOG)"
  # A primary that died mid-write leaves a half event at the archive's end: mariadb-binlog
  # reports it and stops there; the transaction it belonged to was never acknowledged.
  [ "${st[0]}" = 0 ] || warn "mariadb-binlog stopped at a damaged or incomplete event at the archive's end (log: $BACKUP_LOG)"
}

# Points the replica at the primary from GTID POS (the replica holds everything up to POS).
replica_follow_from() {
  db_sql replica "
    STOP SLAVE; RESET SLAVE ALL; RESET MASTER;
    SET GLOBAL gtid_slave_pos='$1';
    CHANGE MASTER TO MASTER_HOST='$MARIADB_PRIMARY_ADDR', MASTER_PORT=$MARIADB_PRIMARY_PORT,
      MASTER_USER='repl', MASTER_PASSWORD='$DB_REPL_PASSWORD',
      MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1;
    START SLAVE;" || die "could not point the replica at the restored primary"
}

# The change stream starts over from the restored database: the connector is stopped, its
# offsets (a binlog position and GTID of the lost timeline) deleted, the change topic and the
# schema history emptied (delete + create: compacted topics refuse DeleteRecords), then the
# connector resumes and, with no offsets, snapshots the restored tables.
connector_put() { connect_curl -fsS -o /dev/null -X PUT "$(CONNECT_URL)/connectors/$CONNECTOR/$1"; }
connector_state() { connect_curl -fsS --max-time 2 "$(CONNECT_URL)/connectors/$CONNECTOR/status" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["connector"]["state"])'; }
connector_stopped() { [ "$(connector_state)" = STOPPED ]; }
kafka_topic_gone() {
  ! kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" \
    --command-config "$(kafka_client_config)" --list 2>/dev/null | grep -qx "$1"
}
change_stream_restart() {
  local t
  for t in "$CDC_POSTS_TOPIC" "$CDC_TOPIC_PREFIX._schema-history"; do
    kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" \
      --command-config "$(kafka_client_config)" --delete --if-exists --topic "$t" >>"$BACKUP_LOG" 2>&1 \
      || die "could not delete topic $t (log: $BACKUP_LOG)"
    wait_for "topic $t deleted" 60 kafka kafka_topic_gone "$t"
  done
  KAFKA_PLAN_FORCE=1 kafka_plan
  connect_curl -fsS -o /dev/null -X DELETE "$(CONNECT_URL)/connectors/$CONNECTOR/offsets" \
    || die "could not delete the connector's offsets"
  connector_put resume || die "could not resume the connector"
  connector_wait
}

# connector_resnapshot: the connector reads every post anew (a new snapshot) and then streams
# from the primary's current position. For a connector whose stored binlog position was purged:
# Debezium cannot see purged GTIDs on MariaDB, so snapshot.mode=when_needed does not notice and
# the task fails with error 1236 (chaos scenario binlog-purged). The change topic stays: the
# nodes apply the snapshot's posts as unchanged (their versions are not newer).
connector_resnapshot() {
  log "re-snapshot: stopping the connector, deleting its stored offsets, resuming"
  [ "$(connector_state 2>/dev/null)" = STOPPED ] || connector_put stop || die "could not stop the connector"
  wait_for "connector stopped" 60 connect connector_stopped
  connect_curl -fsS -o /dev/null -X DELETE "$(CONNECT_URL)/connectors/$CONNECTOR/offsets" \
    || die "could not delete the connector's offsets"
  connector_put resume || die "could not resume the connector"
  connector_wait
  ok "connector resumed: it re-reads every post, then streams (make verify-index WAIT=600 to follow)"
}

# restore_pitr [UNTIL]: the whole restore; prints the recovery point. The stack must have been
# up (Kafka, Connect); the primary may be dead or its data gone.
restore_pitr() {
  local until="${1:-}" base t0=$SECONDS t
  base=$(latest_base); [ -n "$base" ] || die "no base backup under $BACKUP_DIR/base: run make backup first"
  running kafka && running connect || die "Kafka and Connect must run (the change stream is rebuilt through them): make up"
  backup_log "restore from $base ($(backup_position "$base")) + archive${until:+ until $until}"

  t=$SECONDS; backup_log "1/7 stopping writers and readers: connector, nodes, archiver, replica, primary"
  [ "$(connector_state 2>/dev/null)" = STOPPED ] || connector_put stop || die "could not stop the connector"
  wait_for "connector stopped" 60 connect connector_stopped
  bash "$HANWIKI_ROOT/infra/ctl.sh" stop node1 >>"$BACKUP_LOG" 2>&1
  bash "$HANWIKI_ROOT/infra/ctl.sh" stop node2 >>"$BACKUP_LOG" 2>&1
  binlog_archiver_stop
  stop mariadb-replica 60
  stop mariadb-primary 60
  backup_log "   stopped in $((SECONDS - t)) s"

  t=$SECONDS; backup_log "2/7 primary: data directory from the base backup"
  copy_base_into primary "$base"
  mariadb_start primary; mariadb_wait primary
  local file pos gtid; read -r file pos gtid <<<"$(backup_position "$base")"
  # The restored primary starts a new binlog that continues the base's GTID sequence.
  db_sql primary "RESET MASTER; SET GLOBAL gtid_binlog_state='$gtid'" || die "could not set the restored primary's GTID state"
  backup_log "   base copied back in $((SECONDS - t)) s"

  t=$SECONDS; backup_log "3/7 primary: replaying the binlog archive"
  replay_archive "$base" "$until"
  local point; point=$(db_sql primary 'SELECT @@gtid_binlog_pos')
  backup_log "   replayed in $((SECONDS - t)) s; recovery point GTID $point ($(db_sql primary "SELECT COUNT(*) FROM $MARIADB_DATABASE.posts") posts)"

  t=$SECONDS; backup_log "4/7 replica: re-seeded from the same base, following the primary from $gtid"
  copy_base_into replica "$base"
  mariadb_start replica; mariadb_wait replica
  replica_follow_from "$gtid"
  wait_for "replication" 60 mariadb-replica replica_healthy
  replica_caught_up || die "the replica did not catch up with the restored primary"
  backup_log "   replica caught up in $((SECONDS - t)) s"

  t=$SECONDS; backup_log "5/7 change stream: new topic, connector offsets deleted, new snapshot"
  change_stream_restart
  backup_log "   connector snapshotting/streaming in $((SECONDS - t)) s"

  t=$SECONDS; backup_log "6/7 caches emptied, nodes rebuild their indexes from the new change topic"
  local s; for s in redis-shard1 redis-shard2 redis-shard3; do stop "$s" 10; done
  redis_start; redis_wait
  rm -rf "${VAR:?}/node1/index" "${VAR:?}/node2/index"
  # Both at once, not waiting for each other. A node is ready once it holds what the new topic
  # held when it started and the snapshot streaming into it has ended (its last row indexed):
  # minutes on a large corpus, with progress printed by node_wait.
  local n pids=()
  for n in 1 2; do
    bash "$HANWIKI_ROOT/infra/ctl.sh" start "node$n" >>"$BACKUP_LOG" 2>&1 &
    pids+=($!)
  done
  for n in 1 2; do
    wait "${pids[$((n - 1))]}" || warn "node$n not ready yet (it rejoins nginx when it is)"
  done
  backup_log "   nodes serving in $((SECONDS - t)) s (each with the whole snapshot indexed)"

  t=$SECONDS; backup_log "7/7 a new archive and a new base backup for the restored timeline"
  # The archive so far belongs to the timeline before the restore (its file names start over
  # after RESET MASTER): kept aside, and a new base starts the new timeline.
  mv "$BINLOG_ARCHIVE" "$BACKUP_DIR/binlog-before-$(date -u +%Y%m%dT%H%M%SZ)"
  binlog_archiver_start
  backup_full >/dev/null
  backup_log "   new base in $((SECONDS - t)) s"
  backup_log "restore done in $((SECONDS - t0)) s; recovery point GTID $point"
  printf 'recovery point GTID %s\n' "$point"
}
