# shellcheck shell=bash
# Kafka (KRaft: one process is broker and controller), Kafka Connect in distributed mode,
# and the Debezium connector registered from debezium/hanwiki-mariadb.json.
KAFKA_LIBS() { echo "$TOOLS/kafka-$KAFKA_VERSION/libs"; }
# Runs a short-lived Kafka tool class (warnings only on stderr).
kafka_java() {
  mkdir -p "$CONF"
  cp "$HANWIKI_ROOT/infra/templates/log4j2-tools.properties" "$CONF/log4j2-tools.properties"
  "$(select_jdk)/bin/java" --sun-misc-unsafe-memory-access=allow -XX:TieredStopAtLevel=1 \
    -Dlog4j2.configurationFile="$CONF/log4j2-tools.properties" -cp "$(KAFKA_LIBS)/*" "$@"
}

kafka_start() {
  running kafka && return 0
  render "$HANWIKI_ROOT/infra/templates/kafka-server.properties" "$CONF/kafka-server.properties"
  cp "$HANWIKI_ROOT/infra/templates/log4j2.properties" "$CONF/log4j2.properties"
  if [ ! -f "$VAR/kafka/data/meta.properties" ]; then
    log "formatting Kafka storage (KRaft)"
    mkdir -p "$VAR/kafka/data"
    local id; id=$(kafka_java kafka.tools.StorageTool random-uuid 2>>"$LOGS/kafka.log")
    # SCRAM users are part of the formatted metadata: no broker ever runs without them.
    kafka_java kafka.tools.StorageTool format --standalone -t "$id" -c "$CONF/kafka-server.properties" \
      --add-scram "SCRAM-SHA-512=[name=broker,password=$KAFKA_BROKER_PASSWORD]" \
      --add-scram "SCRAM-SHA-512=[name=hanwiki,password=$KAFKA_APP_PASSWORD]" \
      --add-scram "SCRAM-SHA-512=[name=connect,password=$KAFKA_CONNECT_PASSWORD]" \
      >>"$LOGS/kafka.log" 2>&1 || die "Kafka storage format failed (log: $LOGS/kafka.log)"
  fi
  # shellcheck disable=SC2046  # jmx_agent prints one option or nothing
  as_service_user hanwiki "$VAR/kafka"
  secret_file hanwiki "$CONF/kafka-server.properties"
  start_bg kafka $(on KAFKA) $(run_as hanwiki) "$(select_jdk)/bin/java" -Xms256m -Xmx512m --sun-misc-unsafe-memory-access=allow $(jmx_agent kafka) \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Dlog4j2.configurationFile="$CONF/log4j2.properties" \
    -cp "$(KAFKA_LIBS)/*" kafka.Kafka "$CONF/kafka-server.properties"
}

kafka_ready() { grep -q 'Kafka Server started' "$LOGS/kafka.log" 2>/dev/null && port_open "$KAFKA_ADDR" "$KAFKA_PORT"; }
kafka_wait() { wait_for "Kafka" 90 kafka kafka_ready; }

# Topics are created explicitly, once, never by auto-creation:
# - the schema-history topic must have ONE partition and never expire: Debezium replays it
#   to rebuild its table schemas on restart;
# - the posts change topic exists before the first change, so a node can subscribe and
#   report "caught up" on an empty database. It is COMPACTED with no time limit: it always
#   holds the latest row image of every post, so a node rebuilt from nothing replays it to
#   get the whole index (docs/adr/0003-node-bootstrap-from-the-compacted-topic.md).
#   Tombstones of hard deletes stay 7 days, like the primary's binlog.
POSTS_TOPIC_CONFIG=(--config cleanup.policy=compact --config retention.ms=-1 --config retention.bytes=-1
  --config delete.retention.ms=604800000 --config max.message.bytes=16777216)
# The stack's own Kafka tools (topics, ACLs) log in as the broker's superuser "broker" (0600
# file, root's): with the authorizer on, "hanwiki" may only read the change topic.
kafka_client_config() {
  local f="$CONF/kafka-client.properties"
  (umask 077; printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"$KAFKA_BROKER_PASSWORD\";" >"$f")
  printf '%s\n' "$f"
}
kafka_create_topic() {
  local topic="$1"; shift
  kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" \
    --command-config "$(kafka_client_config)" --create \
    --if-not-exists --topic "$topic" --replication-factor 1 "$@" >>"$LOGS/kafka.log" 2>&1 \
    || die "could not create topic $topic (log: $LOGS/kafka.log)"
}
kafka_topics() {
  local marker="$VAR/kafka/.topics-v3"
  [ -f "$marker" ] && return 0
  kafka_create_topic "$CDC_TOPIC_PREFIX._schema-history" --partitions 1 --config retention.ms=-1 --config retention.bytes=-1
  kafka_create_topic "$CDC_POSTS_TOPIC" --partitions 1 "${POSTS_TOPIC_CONFIG[@]}"
  # Change events a node could not read, kept 30 days for an operator (see cdc/DeadLetters).
  kafka_create_topic "$CDC_POSTS_TOPIC.dlq" --partitions 1 --config retention.ms=2592000000 \
    --config max.message.bytes=16777216
  # A topic made by an older version of this script: bring its settings up to date.
  local alter; alter=$(printf '%s,' "${POSTS_TOPIC_CONFIG[@]}" | sed 's/--config,//g; s/,$//')
  kafka_java kafka.admin.ConfigCommand --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" \
    --command-config "$(kafka_client_config)" --alter --entity-type topics \
    --entity-name "$CDC_POSTS_TOPIC" --add-config "$alter" >>"$LOGS/kafka.log" 2>&1 \
    || die "could not configure topic $CDC_POSTS_TOPIC (log: $LOGS/kafka.log)"
  rm -f "$VAR/kafka/.topics-created" "$VAR/kafka/.topics-v2"
  touch "$marker"
}

# Per-user ACLs (StandardAuthorizer; docs/adr/0053-connect-rest-auth-and-kafka-acls.md).
# Nothing is allowed unless granted here; "broker" is the superuser (the broker itself and the
# stack's tools). Adding an ACL that exists is harmless; the marker only saves the JVM starts.
kafka_acl() {
  kafka_java org.apache.kafka.tools.AclCommand --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" \
    --command-config "$(kafka_client_config)" --add --force "$@" >>"$LOGS/kafka.log" 2>&1 \
    || die "could not add the Kafka ACL $* (log: $LOGS/kafka.log)"
}
kafka_acls() {
  local marker="$VAR/kafka/.acls-v2"
  [ -f "$marker" ] && return 0
  log "granting the Kafka users their ACLs (hanwiki, connect)"
  # The app nodes: read the change topic (the indexer's per-node groups, the shared L2
  # invalidator's group), write dead letters. Nothing else: no create, delete, alter.
  kafka_acl --allow-principal User:hanwiki --operation Read --operation Describe \
    --topic "$CDC_POSTS_TOPIC" --group hanwiki-cache-l2
  kafka_acl --allow-principal User:hanwiki --operation Read --operation Describe \
    --resource-pattern-type prefixed --group hanwiki-indexer-
  kafka_acl --allow-principal User:hanwiki --operation Write --operation Describe --topic "$CDC_POSTS_TOPIC.dlq"
  # Connect: its three internal topics and its worker group, whole; the connector's topics
  # (prefix $CDC_TOPIC_PREFIX: the change topics, the schema history, the schema-change topic)
  # and Debezium's heartbeat topic: create, write, read, never delete or alter.
  kafka_acl --allow-principal User:connect --operation All \
    --topic _connect-configs --topic _connect-offsets --topic _connect-status --group hanwiki-connect
  kafka_acl --allow-principal User:connect --operation Create --operation Write --operation Read \
    --operation Describe --operation DescribeConfigs --resource-pattern-type prefixed \
    --topic "$CDC_TOPIC_PREFIX" --topic __debezium-heartbeat
  # The schema history's consumer: Debezium names its group "<topic.prefix>-schemahistory"
  # (read when the task starts and replays the history; without it the task fails with
  # GROUP_AUTHORIZATION_FAILED, seen in CdcOutageIT).
  kafka_acl --allow-principal User:connect --operation Read --operation Describe \
    --group "$CDC_TOPIC_PREFIX-schemahistory"
  touch "$marker"
}

# The secrets the connector references (debezium/hanwiki-mariadb.json), for Connect's
# FileConfigProvider: 0600, owned by the worker's user.
CONNECT_SECRETS="$CONF/connect-secrets.properties"
export CONNECT_SECRETS
connect_secrets() {
  (umask 077; printf 'DB_DEBEZIUM_PASSWORD=%s\nKAFKA_CONNECT_PASSWORD=%s\n' "$DB_DEBEZIUM_PASSWORD" "$KAFKA_CONNECT_PASSWORD" >"$CONNECT_SECRETS")
  secret_file hanwiki "$CONNECT_SECRETS"
}

# Connect's REST API demands HTTP basic auth (Kafka's BasicAuthSecurityRestExtension): one
# user, "operator", whose password (CONNECT_REST_PASSWORD, var/secrets.env) the worker reads
# from a 0600 properties file named by its JAAS file. Callers in this stack use connect_curl,
# which hands curl the login in a 0600 config file (never on a command line `ps` shows).
CONNECT_REST_USER=operator
export CONNECT_REST_USER
connect_rest_auth() {
  (umask 077
   printf '%s: %s\n' "$CONNECT_REST_USER" "$CONNECT_REST_PASSWORD" >"$CONF/connect-rest-users.properties"
   printf 'KafkaConnect {\n  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required\n  file="%s";\n};\n' \
     "$CONF/connect-rest-users.properties" >"$CONF/connect-jaas.conf"
   printf 'user = "%s:%s"\n' "$CONNECT_REST_USER" "$CONNECT_REST_PASSWORD" >"$CONF/connect-rest.curl")
  secret_file hanwiki "$CONF/connect-rest-users.properties"
  secret_file hanwiki "$CONF/connect-jaas.conf"
}
# connect_curl CURL-ARGS...: curl with the operator's login for Connect's REST API.
connect_curl() {
  [ -f "$CONF/connect-rest.curl" ] || connect_rest_auth
  curl -K "$CONF/connect-rest.curl" "$@"
}

connect_start() {
  running connect && return 0
  connect_secrets
  connect_rest_auth
  CONNECT_PLUGIN_PATH="$TOOLS/connect-plugins-$DEBEZIUM_VERSION" \
    render "$HANWIKI_ROOT/infra/templates/connect-distributed.properties" "$CONF/connect-distributed.properties"
  cp "$HANWIKI_ROOT/infra/templates/log4j2.properties" "$CONF/log4j2.properties"
  # shellcheck disable=SC2046  # jmx_agent prints one option or nothing
  secret_file hanwiki "$CONF/connect-distributed.properties"
  start_bg connect $(on CONNECT) $(run_as hanwiki) "$(select_jdk)/bin/java" -Xms128m -Xmx512m --sun-misc-unsafe-memory-access=allow $(jmx_agent connect) \
    -XX:+UseG1GC -Dlog4j2.configurationFile="$CONF/log4j2.properties" \
    -Djava.security.auth.login.config="$CONF/connect-jaas.conf" \
    -cp "$(KAFKA_LIBS)/*:$TOOLS/connect-rest-auth-$KAFKA_VERSION/*" org.apache.kafka.connect.cli.ConnectDistributed "$CONF/connect-distributed.properties"
}

CONNECT_URL() { echo "http://$CONNECT_ADDR:$CONNECT_PORT"; }
connect_ok() { connect_curl -fsS -o /dev/null --max-time 2 "$1"; }
connect_wait() { wait_for "Kafka Connect REST" 90 connect connect_ok "$(CONNECT_URL)/connector-plugins"; }

CONNECTOR=hanwiki-mariadb
# PUT is create-or-update, so registering twice is harmless.
connector_register() {
  # The password stays a ${file:...} reference, resolved by the worker (connect_secrets).
  render "$HANWIKI_ROOT/debezium/hanwiki-mariadb.json" "$CONF/hanwiki-mariadb.json"
  local code
  code=$(connect_curl -sS -o "$CONF/connector-put.out" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    --data @"$CONF/hanwiki-mariadb.json" "$(CONNECT_URL)/connectors/$CONNECTOR/config")
  case "$code" in 200|201) ;; *) cat "$CONF/connector-put.out" >&2; die "registering the connector failed (HTTP $code)";; esac
}

connector_running() {
  local s; s=$(connect_curl -fsS --max-time 2 "$(CONNECT_URL)/connectors/$CONNECTOR/status") || return 1
  python3 -c 'import json,sys; s=json.load(sys.stdin); t=s.get("tasks",[]); sys.exit(0 if s["connector"]["state"]=="RUNNING" and t and all(x["state"]=="RUNNING" for x in t) else 1)' <<<"$s"
}
connector_wait() { wait_for "Debezium connector $CONNECTOR" 90 connect connector_running; }
