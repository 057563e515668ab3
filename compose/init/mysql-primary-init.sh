#!/bin/bash
# One-shot of the compose deployment (host A), run on every `up` after the primary is healthy:
# the schema and the per-role accounts, as infra/lib/mariadb.sh makes them natively. Idempotent;
# a changed secret is applied (ALTER USER). Root connects over the shared unix socket only.
# Everything here is binlogged, so the replica gets the same schema and accounts by replication.
#   hanwiki_migrate  DDL+DML on the app schema (Flyway)      hanwiki_app  DML (the write pool)
#   hanwiki_ro       SELECT (the read pool, on the replica)  repl         the replica's receiver
#   debezium         the MySQL connector (snapshot + binlog) exporter     mysqld_exporter
# Accounts are '%': the private network is the boundary (ports published on private addresses).
set -euo pipefail
db=${MARIADB_DATABASE:?}
secret() { tr -d '\n' <"/run/secrets/$1"; }
# A password as an SQL string literal (quotes and backslashes escaped).
lit() { local s; s=$(secret "$1"); s=${s//\\/\\\\}; s=${s//\'/\'\'}; printf "'%s'" "$s"; }
root_sql() {
  mysql --defaults-extra-file=<(printf '[client]\npassword="%s"\n' "$(secret db_root_password)") \
    --protocol=socket --socket=/var/run/mysqld/mysqld.sock -uroot -N -B "$@"
}
user() {  # user NAME SECRET [extra]
  printf "CREATE USER IF NOT EXISTS '%s'@'%%' IDENTIFIED BY %s %s;\n" "$1" "$(lit "$2")" "${3:-}"
  printf "ALTER USER '%s'@'%%' IDENTIFIED BY %s %s;\n" "$1" "$(lit "$2")" "${3:-}"
}
{
  echo "CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;"
  user hanwiki_migrate db_migrate_password
  user hanwiki_app db_app_password
  user hanwiki_ro db_readonly_password
  user repl db_repl_password
  user debezium db_debezium_password
  user exporter db_exporter_password "WITH MAX_USER_CONNECTIONS 3"
  echo "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP, REFERENCES, CREATE VIEW, LOCK TABLES ON \`$db\`.* TO 'hanwiki_migrate'@'%';"
  echo "GRANT SELECT, INSERT, UPDATE, DELETE ON \`$db\`.* TO 'hanwiki_app'@'%';"
  echo "GRANT SELECT ON \`$db\`.* TO 'hanwiki_ro'@'%';"
  echo "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';"
  echo "GRANT RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'debezium'@'%';"
  echo "GRANT SELECT, LOCK TABLES ON \`$db\`.* TO 'debezium'@'%';"
  echo "GRANT PROCESS, REPLICATION CLIENT ON *.* TO 'exporter'@'%';"
  echo "GRANT SELECT ON performance_schema.* TO 'exporter'@'%';"
} | root_sql
echo "primary: schema $db and accounts ready; executed GTIDs: $(root_sql -e 'SELECT @@global.gtid_executed')"
