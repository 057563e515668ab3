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

# cdc_nice: the prefix that runs a process of the change pipeline (Kafka, Connect) at a lower CPU
# priority. It is background work: under contention the nodes' requests, MariaDB and Redis go
# first, and an idle machine still gives it every free cycle (ADR 0093, fourth amendment; the
# nodes lower their own indexer and merge threads the same way). CDC_NICENESS=0 turns it off.
cdc_nice() { [ "${CDC_NICENESS:-10}" -gt 0 ] && echo "nice -n ${CDC_NICENESS:-10}"; return 0; }

kafka_start() {
  running kafka && return 0
  KAFKA_PROXIED_VIA_PORT=$(proxy_port KAFKA_PROXIED) \
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
  start_bg kafka $(on KAFKA) $(cdc_nice) $(run_as hanwiki) "$(select_jdk)/bin/java" -Xms256m -Xmx512m --sun-misc-unsafe-memory-access=allow $(jmx_agent kafka) \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Dlog4j2.configurationFile="$CONF/log4j2.properties" \
    -cp "$(KAFKA_LIBS)/*" kafka.Kafka "$CONF/kafka-server.properties"
}

kafka_ready() { started_since_start kafka 'Kafka Server started' && port_open "$KAFKA_ADDR" "$KAFKA_PORT"; }
kafka_wait() { wait_for "Kafka" 90 kafka kafka_ready; }

# The stack's own Kafka tools (topics, ACLs) log in as the broker's superuser "broker" (0600
# file, root's): with the authorizer on, "hanwiki" may only read the change topic.
kafka_client_config() {
  local f="$CONF/kafka-client.properties"
  (umask 077; printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"$KAFKA_BROKER_PASSWORD\";" >"$f")
  printf '%s\n' "$f"
}
kafka_tool() {
  local what="$1"; shift
  kafka_java "$@" --bootstrap-server "$KAFKA_ADDR:$KAFKA_PORT" --command-config "$(kafka_client_config)" \
    </dev/null >>"$LOGS/kafka.log" 2>&1 || die "could not $what (log: $LOGS/kafka.log)"
}
# The topics and per-user ACLs: one list, infra/templates/kafka-plan.txt (compose applies the
# same list: compose/init/kafka-topics.sh). Applied when the rendered plan differs from the one
# last applied (a marker holds its hash), so an edited plan reaches existing installs at the next
# `make up`: a new topic is created, a topic's --config settings re-applied, a new grant added.
# KAFKA_PLAN_FORCE=1 applies it anyway (after the topics were deleted: backup.sh restore).
kafka_plan() {
  local plan="$CONF/kafka-plan.txt" marker="$VAR/kafka/.plan-applied" kind topic args configs
  render "$HANWIKI_ROOT/infra/templates/kafka-plan.txt" "$plan"
  local sum; sum=$(sha256sum <"$plan" | cut -d' ' -f1)
  if [ -z "${KAFKA_PLAN_FORCE:-}" ] && [ "$(cat "$marker" 2>/dev/null)" = "$sum" ]; then return 0; fi
  log "applying the Kafka topics and ACLs (infra/templates/kafka-plan.txt)"
  while read -r kind args; do
    case "$kind" in
      ''|'#'*) ;;
      topic)
        # shellcheck disable=SC2086  # one argument per word: the plan has no spaces inside one
        set -- $args; topic="$1"; shift
        kafka_tool "create topic $topic" org.apache.kafka.tools.TopicCommand --create --if-not-exists \
          --topic "$topic" --replication-factor 1 "$@"
        configs=$(printf '%s\n' "$@" | sed -n '/^--config$/{n;p}' | paste -sd,)
        [ -z "$configs" ] || kafka_tool "configure topic $topic" kafka.admin.ConfigCommand --alter \
          --entity-type topics --entity-name "$topic" --add-config "$configs" ;;
      acl)
        # shellcheck disable=SC2086
        kafka_tool "add the Kafka ACL $args" org.apache.kafka.tools.AclCommand --add --force $args ;;
      *) die "infra/templates/kafka-plan.txt: unknown entry '$kind' (topic or acl)" ;;
    esac
  done <"$plan"
  rm -f "$VAR/kafka/.topics-v3" "$VAR/kafka/.acls-v2"
  printf '%s\n' "$sum" >"$marker"
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
  start_bg connect $(on CONNECT) $(cdc_nice) $(run_as hanwiki) "$(select_jdk)/bin/java" -Xms128m -Xmx512m --sun-misc-unsafe-memory-access=allow $(jmx_agent connect) \
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

# The connector's watchdog (infra/cdc/connector_watchdog.py): restarts failed tasks with a
# back-off, and runs `infra/backup.sh resnapshot` when the stored binlog position was purged.
cdc_watchdog_start() {
  running cdc-watchdog && return 0
  [ -f "$CONF/connect-rest.curl" ] || connect_rest_auth
  rm -f "$RUN/cdc-watchdog.heartbeat"
  # shellcheck disable=SC2046
  start_bg cdc-watchdog $(on CDC_WATCHDOG) /usr/bin/python3 "$HANWIKI_ROOT/infra/cdc/connector_watchdog.py" \
    --url "$(CONNECT_URL)" --connector "$CONNECTOR" --curl-config "$CONF/connect-rest.curl" \
    --backup-script "$HANWIKI_ROOT/infra/backup.sh" --heartbeat "$RUN/cdc-watchdog.heartbeat" \
    --interval "${CDC_WATCHDOG_INTERVAL_S:-10}"
}
# Healthy: running, and it has looked at the connector within the last six intervals (each
# look rewrites the heartbeat, whatever it found; a hung look lets it age).
cdc_watchdog_healthy() {
  running cdc-watchdog && [ -n "$(find "$RUN/cdc-watchdog.heartbeat" -newermt "-$(( 6 * ${CDC_WATCHDOG_INTERVAL_S:-10} )) seconds" 2>/dev/null)" ]
}
