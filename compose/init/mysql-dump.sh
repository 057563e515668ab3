#!/bin/bash
# A consistent logical backup of the app schema from the MySQL primary, as SQL on stdout, with
# the GTID position it reflects (docs/deploy.md, backups). Runs inside the mysql-primary container:
#   docker compose -f compose/host-a.yml exec -T mysql-primary bash /hanwiki/mysql-dump.sh | gzip > FILE.sql.gz
# --single-transaction: InnoDB snapshot, no lock on the tables the app writes. GTID_PURGED=ON
# (environment) makes a dump that seeds a new replica at the dump's GTID position.
set -euo pipefail
mysqldump --defaults-extra-file=<(printf '[client]\npassword="%s"\n' "$(tr -d '\n' </run/secrets/db_root_password)") \
  --protocol=socket --socket=/var/run/mysqld/mysqld.sock -uroot \
  --single-transaction --set-gtid-purged="${GTID_PURGED:-COMMENTED}" --routines --triggers \
  --databases "${MARIADB_DATABASE:-hanwiki}"
