#!/bin/bash
# A consistent logical backup of the app schema from the MySQL primary, as SQL on stdout, with
# the GTID position it reflects and the app's accounts (docs/deploy.md, backups). Runs inside
# the mysql-primary container:
#   docker compose -f compose/host-a.yml exec -T mysql-primary bash /hanwiki/mysql-dump.sh | gzip > FILE.sql.gz
# --single-transaction: InnoDB snapshot, no lock on the tables the app writes. GTID_PURGED=ON
# (environment) makes a dump that seeds a new replica at the dump's GTID position; its accounts
# are then applied without binlogging (the replica must not get GTIDs of its own).
set -euo pipefail
db=${MARIADB_DATABASE:-hanwiki}
purged=${GTID_PURGED:-COMMENTED}
client() {
  local tool="$1"; shift
  "$tool" --defaults-extra-file=<(printf '[client]\npassword="%s"\n' "$(tr -d '\n' </run/secrets/db_root_password)") \
    --protocol=socket --socket=/var/run/mysqld/mysqld.sock -uroot "$@"
}
client mysqldump --single-transaction --set-gtid-purged="$purged" --routines --triggers --databases "$db"
echo "-- The app's accounts (infra: compose/init/mysql-primary-init.sh), password hashes as hex."
[ "$purged" = ON ] && echo "SET @@SESSION.SQL_LOG_BIN = 0;"
for u in hanwiki_migrate hanwiki_app hanwiki_ro repl debezium exporter; do
  client mysql -N -B -r -e "SET SESSION print_identified_with_as_hex = ON; SHOW CREATE USER '$u'@'%'" \
    | sed 's/^CREATE USER /CREATE USER IF NOT EXISTS /; s/$/;/'
  client mysql -N -B -r -e "SHOW GRANTS FOR '$u'@'%'" | sed 's/$/;/'
done
