#!/usr/bin/env bash
# The secrets of the compose deployment, under compose/secrets/ (git-ignored): made once per
# installation, on one host, then copied to the others (docs/deploy.md, step 2). Running it again
# makes only what is missing and re-applies owners and modes, so run it on every host after
# copying. Each file is mode 0400 and owned by the user id of the one container that reads it
# (compose secrets are plain bind mounts: the file's own owner and mode are what the container sees):
#   10001 app (hanwiki-app image)   472 grafana   1001 Kafka Connect (debezium)   65534 exporters
#   1000 Kafka (apache/kafka)   999 redis (the official image's user: the ACL file; the health checks run as root)
# The MySQL files stay root's: the mysql image reads them as root before it drops privileges.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$ROOT/compose/secrets"
mkdir -p "$dir"
chmod 700 "$dir"
random() { head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c "$1"; }
make_secret() {  # NAME CONTENT-COMMAND...: writes the file once
  local f="$dir/$1"; shift
  [ -s "$f" ] && return 0
  (umask 077; "$@" >"$f.tmp" && mv "$f.tmp" "$f")
  echo "made compose/secrets/${f##*/}"
}
for name in db_root_password db_app_password db_migrate_password db_readonly_password db_repl_password \
  db_debezium_password db_exporter_password grafana_admin_password connect_rest_password \
  redis_app_password redis_exporter_password kafka_broker_password kafka_app_password kafka_connect_password; do
  make_secret "$name" random 24
done
make_secret jwt_secret sh -c 'head -c 48 /dev/urandom | base64 | tr -d "\n"'
# Connect's FileConfigProvider reads this properties file; the connector JSON only names the key.
# kafka.password: the connector's schema-history clients log in to Kafka as "connect".
(umask 077; printf 'database.password=%s\nkafka.password=%s\n' "$(cat "$dir/db_debezium_password")" \
   "$(cat "$dir/kafka_connect_password")" >"$dir/debezium_properties")
# Connect's REST login (user "operator"): the worker's password file, and the curl config its
# health check and the connector registration use (never a password on a command line).
(umask 077; printf 'operator: %s\n' "$(cat "$dir/connect_rest_password")" >"$dir/connect_rest_users"
 printf 'user = "operator:%s"\n' "$(cat "$dir/connect_rest_password")" >"$dir/connect_rest_curl")

# Kafka's SCRAM users (docs/adr/0053): the kafka container formats its storage with all three and
# the kafka-topics init logs in as "broker" (both run as the apache/kafka image's user, 1000).
(umask 077; printf 'broker=%s\nhanwiki=%s\nconnect=%s\n' "$(cat "$dir/kafka_broker_password")" \
   "$(cat "$dir/kafka_app_password")" "$(cat "$dir/kafka_connect_password")" >"$dir/kafka_scram")
# Connect's JAAS file: the REST login (KafkaConnect, the password file above) and the worker's own
# Kafka clients (KafkaClient: worker, producer, consumer, admin log in as "connect").
(umask 077; printf '%s\n' 'KafkaConnect {' \
   '  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required' \
   '  file="/run/secrets/connect-rest-users.properties";' '};' 'KafkaClient {' \
   '  org.apache.kafka.common.security.scram.ScramLoginModule required' \
   "  username=\"connect\" password=\"$(cat "$dir/kafka_connect_password")\";" '};' >"$dir/connect_jaas")

# Redis ACL users of all four servers (the same rules as infra/templates/redis-*.conf), and the
# exporter's login as an env file for the compose CLI (its image has no shell to read a file).
(umask 077
 printf 'user default off\nuser hanwiki on >%s ~* &* +@all -@dangerous -@admin\nuser exporter on >%s +ping +info +client|list +client|info +config|get +cluster|info +slowlog +latency +memory +select +dbsize\n' \
   "$(cat "$dir/redis_app_password")" "$(cat "$dir/redis_exporter_password")" >"$dir/redis_acl"
 printf 'REDIS_USER=exporter\nREDIS_PASSWORD=%s\n' "$(cat "$dir/redis_exporter_password")" >"$dir/redis_exporter.env")

owner() {  # UID FILE...
  local uid="$1"; shift
  for f in "$@"; do chown "$uid:$uid" "$dir/$f"; chmod 0400 "$dir/$f"; done
}
if [ "$(id -u)" -eq 0 ]; then
  owner 0 db_root_password db_repl_password db_debezium_password
  owner 10001 db_app_password db_migrate_password db_readonly_password jwt_secret
  owner 472 grafana_admin_password
  owner 1001 debezium_properties connect_rest_users connect_rest_curl connect_jaas
  owner 1000 kafka_scram
  owner 0 kafka_broker_password kafka_connect_password
  owner 10001 kafka_app_password
  owner 0 connect_rest_password
  owner 65534 db_exporter_password
  owner 10001 redis_app_password
  owner 999 redis_acl redis_exporter_password
  owner 0 redis_exporter.env
else
  echo "not root: owners not set; run again as root on each host (sudo $0)" >&2
  exit 1
fi
echo "compose/secrets/: $(ls "$dir" | wc -l) files, each 0400 and owned by the container that reads it"
