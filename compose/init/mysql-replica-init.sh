#!/bin/bash
# One-shot of the compose deployment (host B), run on every `up` after the replica is healthy.
# The first run points it at the primary by GTID auto-position, with MySQL 8.4's statements
# (CHANGE REPLICATION SOURCE TO / START REPLICA: 8.4 removed the SLAVE and MASTER forms); later
# runs keep the source's password current and start it. It also makes the server read-only for
# good (SET PERSIST super_read_only): no account but replication writes there. Root over the unix
# socket only.
set -euo pipefail
: "${SOURCE_HOST:?}" "${SOURCE_PORT:?}"
secret() { tr -d '\n' <"/run/secrets/$1"; }
lit() { local s; s=$(secret "$1"); s=${s//\\/\\\\}; s=${s//\'/\'\'}; printf "'%s'" "$s"; }
root_sql() {
  mysql --defaults-extra-file=<(printf '[client]\npassword="%s"\n' "$(secret db_root_password)") \
    --protocol=socket --socket=/var/run/mysqld/mysqld.sock -uroot -N -B "$@"
}
if [ -z "$(root_sql -e 'SHOW REPLICA STATUS')" ]; then
  echo "replica: following $SOURCE_HOST:$SOURCE_PORT by GTID auto-position"
else
  root_sql -e "STOP REPLICA"
fi
root_sql <<SQL
SET PERSIST read_only = ON;
SET PERSIST super_read_only = ON;
CHANGE REPLICATION SOURCE TO SOURCE_HOST='$SOURCE_HOST', SOURCE_PORT=$SOURCE_PORT,
  SOURCE_USER='repl', SOURCE_PASSWORD=$(lit db_repl_password),
  SOURCE_AUTO_POSITION=1, SOURCE_SSL=1, SOURCE_CONNECT_RETRY=10, SOURCE_RETRY_COUNT=86400;
START REPLICA;
SQL
for _ in $(seq 60); do
  st=$(root_sql -e 'SHOW REPLICA STATUS\G')
  if grep -q 'Replica_IO_Running: Yes' <<<"$st" && grep -q 'Replica_SQL_Running: Yes' <<<"$st"; then
    echo "replica: running; $(grep -E 'Seconds_Behind_Source|Retrieved_Gtid_Set' <<<"$st" | tr -s ' ' | tr '\n' ' ')"
    exit 0
  fi
  sleep 2
done
echo "replica: not running after 120 s:" >&2
grep -E 'Running|Last_.*Error' <<<"$st" >&2
exit 1
