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
# The stack's own Kafka tools log in as "hanwiki" (0600 file, root's).
kafka_client_config() {
  local f="$CONF/kafka-client.properties"
  (umask 077; printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"hanwiki\" password=\"$KAFKA_APP_PASSWORD\";" >"$f")
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

# The secrets the connector references (debezium/hanwiki-mariadb.json), for Connect's
# FileConfigProvider: 0600, owned by the worker's user.
CONNECT_SECRETS="$CONF/connect-secrets.properties"
export CONNECT_SECRETS
connect_secrets() {
  (umask 077; printf 'DB_DEBEZIUM_PASSWORD=%s\nKAFKA_CONNECT_PASSWORD=%s\n' "$DB_DEBEZIUM_PASSWORD" "$KAFKA_CONNECT_PASSWORD" >"$CONNECT_SECRETS")
  secret_file hanwiki "$CONNECT_SECRETS"
}

connect_start() {
  running connect && return 0
  connect_secrets
  CONNECT_PLUGIN_PATH="$TOOLS/connect-plugins-$DEBEZIUM_VERSION" \
    render "$HANWIKI_ROOT/infra/templates/connect-distributed.properties" "$CONF/connect-distributed.properties"
  cp "$HANWIKI_ROOT/infra/templates/log4j2.properties" "$CONF/log4j2.properties"
  # shellcheck disable=SC2046  # jmx_agent prints one option or nothing
  secret_file hanwiki "$CONF/connect-distributed.properties"
  start_bg connect $(on CONNECT) $(run_as hanwiki) "$(select_jdk)/bin/java" -Xms128m -Xmx512m --sun-misc-unsafe-memory-access=allow $(jmx_agent connect) \
    -XX:+UseG1GC -Dlog4j2.configurationFile="$CONF/log4j2.properties" \
    -cp "$(KAFKA_LIBS)/*" org.apache.kafka.connect.cli.ConnectDistributed "$CONF/connect-distributed.properties"
}

CONNECT_URL() { echo "http://$CONNECT_ADDR:$CONNECT_PORT"; }
connect_wait() { wait_for "Kafka Connect REST" 90 connect http_ok "$(CONNECT_URL)/connector-plugins"; }

CONNECTOR=hanwiki-mariadb
# PUT is create-or-update, so registering twice is harmless.
connector_register() {
  # The password stays a ${file:...} reference, resolved by the worker (connect_secrets).
  render "$HANWIKI_ROOT/debezium/hanwiki-mariadb.json" "$CONF/hanwiki-mariadb.json"
  local code
  code=$(curl -sS -o "$CONF/connector-put.out" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    --data @"$CONF/hanwiki-mariadb.json" "$(CONNECT_URL)/connectors/$CONNECTOR/config")
  case "$code" in 200|201) ;; *) cat "$CONF/connector-put.out" >&2; die "registering the connector failed (HTTP $code)";; esac
}

connector_running() {
  local s; s=$(curl -fsS --max-time 2 "$(CONNECT_URL)/connectors/$CONNECTOR/status") || return 1
  python3 -c 'import json,sys; s=json.load(sys.stdin); t=s.get("tasks",[]); sys.exit(0 if s["connector"]["state"]=="RUNNING" and t and all(x["state"]=="RUNNING" for x in t) else 1)' <<<"$s"
}
connector_wait() { wait_for "Debezium connector $CONNECTOR" 90 connect connector_running; }
