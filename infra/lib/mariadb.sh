# shellcheck shell=bash
# MariaDB primary + GTID replica. Users (created on the primary, replicated to the replica):
#   hanwiki_migrate  DDL+DML on the app schema, used by Flyway only (primary)
#   hanwiki_app      DML on the app schema, the app's write pool (primary)
#   hanwiki_ro       SELECT on the app schema, the app's read pool (replica)
#   repl             REPLICATION SLAVE, the replica's I/O thread
#   debezium         what the MariaDB connector needs: SELECT on the schema, RELOAD and
#                    SHOW DATABASES (snapshot), REPLICATION SLAVE + BINLOG MONITOR (streaming)
#   exporter         PROCESS, BINLOG MONITOR, REPLICA MONITOR, SELECT on performance_schema
#   backup           REPLICATION SLAVE + BINLOG MONITOR: the binlog archiver (infra/lib/backup.sh);
#                    base backups run as root on the socket
# None has SUPER or READ_ONLY ADMIN, so read_only=ON on the replica binds all of them.
# Administration goes through root on the instance's own unix socket (unix_socket auth: only
# the OS user root; root cannot log in over the network at all).

db_port() { if [ "$1" = primary ]; then echo "$MARIADB_PRIMARY_PORT"; else echo "$MARIADB_REPLICA_PORT"; fi; }
db_addr() { if [ "$1" = primary ]; then echo "$MARIADB_PRIMARY_ADDR"; else echo "$MARIADB_REPLICA_ADDR"; fi; }
db_component() { if [ "$1" = primary ]; then echo MARIADB_PRIMARY; else echo MARIADB_REPLICA; fi; }
# Where the service's database users may connect from: the hosts' link (every host and the
# machine: tests and operators), or loopback in the local topology.
db_user_host() { if hosts_mode; then printf '%s\n' "${HOSTS_GATEWAY_ADDR%.*}.%"; else echo 127.0.0.1; fi; }
db_dir()  { echo "$VAR/mariadb/$1"; }
db_client() { local role="$1"; shift; mariadb --no-defaults -uroot --socket="$(db_dir "$role")/mysqld.sock" "$@"; }
db_sql()  { local role="$1"; shift; db_client "$role" -N -B -e "$*"; }
db_ping() { mariadb-admin --no-defaults -uroot --socket="$(db_dir "$1")/mysqld.sock" ping >/dev/null 2>&1; }

mariadb_start() {
  local role="$1" dir cnf
  dir=$(db_dir "$role"); cnf="$CONF/mariadb-$role.cnf"
  running "mariadb-$role" && return 0
  DB_ROLE="$role" DB_DIR="$dir" DB_PORT=$(db_port "$role") DB_ADDR=$(db_addr "$role") \
    DB_SERVER_ID=$([ "$role" = primary ] && echo 1 || echo 2) \
    DB_READ_ONLY=$([ "$role" = primary ] && echo 0 || echo 1) \
    render "$HANWIKI_ROOT/infra/templates/mariadb.cnf" "$cnf"
  mkdir -p "$dir/data" "$dir/files"; as_service_user mysql "$dir"
  # mariadbd writes its own error log (log-error) as mysql.
  touch "$LOGS/mariadb-$role.log"; chown mysql:mysql "$LOGS/mariadb-$role.log"
  secret_file mysql "$cnf"
  if [ ! -d "$dir/data/mysql" ]; then
    log "initialising MariaDB $role data directory"
    # root authenticates by the unix socket only (the OS user root): no password, no network root.
    mariadb-install-db --defaults-file="$cnf" --user=mysql --auth-root-authentication-method=socket \
      --skip-test-db >>"$LOGS/mariadb-$role.log" 2>&1 || die "mariadb-install-db failed for $role (log: $LOGS/mariadb-$role.log)"
  fi
  start_bg "mariadb-$role" $(on "$(db_component "$role")") $(run_as mysql) /usr/sbin/mariadbd --defaults-file="$cnf"
}

mariadb_wait() { wait_for "MariaDB $1" 60 "mariadb-$1" db_ping "$1"; }

mariadb_setup_primary() {
  local db="$MARIADB_DATABASE" h; h=$(db_user_host)
  db_sql primary "
    CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE USER IF NOT EXISTS 'hanwiki_migrate'@'$h' IDENTIFIED BY '$DB_MIGRATE_PASSWORD';
    CREATE USER IF NOT EXISTS 'hanwiki_app'@'$h' IDENTIFIED BY '$DB_APP_PASSWORD';
    CREATE USER IF NOT EXISTS 'hanwiki_ro'@'$h' IDENTIFIED BY '$DB_READONLY_PASSWORD';
    CREATE USER IF NOT EXISTS 'repl'@'$h' IDENTIFIED BY '$DB_REPL_PASSWORD';
    CREATE USER IF NOT EXISTS 'debezium'@'$h' IDENTIFIED BY '$DB_DEBEZIUM_PASSWORD';
    CREATE USER IF NOT EXISTS 'backup'@'$h' IDENTIFIED BY '$DB_BACKUP_PASSWORD';
    GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO 'backup'@'$h';
    CREATE USER IF NOT EXISTS 'exporter'@'$h' IDENTIFIED BY '$DB_EXPORTER_PASSWORD' WITH MAX_USER_CONNECTIONS 3;
    GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP, REFERENCES, CREATE VIEW, LOCK TABLES ON \`$db\`.* TO 'hanwiki_migrate'@'$h';
    GRANT SELECT, INSERT, UPDATE, DELETE ON \`$db\`.* TO 'hanwiki_app'@'$h';
    GRANT SELECT ON \`$db\`.* TO 'hanwiki_ro'@'$h';
    GRANT REPLICATION SLAVE ON *.* TO 'repl'@'$h';
    GRANT RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO 'debezium'@'$h';
    GRANT SELECT ON \`$db\`.* TO 'debezium'@'$h';
    GRANT PROCESS, BINLOG MONITOR, REPLICA MONITOR ON *.* TO 'exporter'@'$h';
    GRANT SELECT ON performance_schema.* TO 'exporter'@'$h';
  " || die "could not set up the primary's database and users"
}

# The replica follows the primary by GTID from the very first transaction, so every user
# and schema change above reaches it through replication, never by a write of its own
# (a local write would fork its GTID sequence and strict mode would stop replication).
mariadb_setup_replica() {
  if [ -z "$(db_sql replica 'SHOW SLAVE STATUS')" ]; then
    log "pointing the replica at the primary (GTID)"
    db_sql replica "
      SET GLOBAL gtid_slave_pos='';
      CHANGE MASTER TO MASTER_HOST='$MARIADB_PRIMARY_ADDR', MASTER_PORT=$MARIADB_PRIMARY_PORT,
        MASTER_USER='repl', MASTER_PASSWORD='$DB_REPL_PASSWORD',
        MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1;
      START SLAVE;" || die "could not configure replication on the replica"
  else
    db_sql replica "START SLAVE" >/dev/null 2>&1 || true
  fi
}

replica_healthy() {
  local st; st=$(db_client replica -e 'SHOW SLAVE STATUS\G' 2>/dev/null) || return 1
  grep -q 'Slave_IO_Running: Yes' <<<"$st" && grep -q 'Slave_SQL_Running: Yes' <<<"$st"
}

# Waits until the replica has applied everything the primary has logged so far.
replica_caught_up() {
  local want; want=$(db_sql primary 'SELECT @@gtid_binlog_pos')
  [ -z "$want" ] && return 0
  [ "$(db_sql replica "SELECT MASTER_GTID_WAIT('$want', 30)")" = 0 ]
}
