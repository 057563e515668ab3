#!/bin/bash
# The kafka container's entry (compose deployment, host B), in place of the apache/kafka image's
# /etc/kafka/docker/run. That script's KafkaDockerWrapper writes server.properties from KAFKA_*
# and formats the storage with CLUSTER_ID, but has no way to add SCRAM users at format, and a
# formatted log cannot get them from a broker nobody can log in to. So, as infra/lib/kafka.sh
# does natively (infra/templates/kafka-server.properties):
#   1. server.properties (in the container's /tmp, 0600) from every KAFKA_CFG_* variable of the
#      service (KAFKA_CFG_FOO_BAR -> foo.bar) plus the login settings, whose passwords come from
#      the compose secret kafka_scram (infra/compose/secrets.sh: broker=, hanwiki=, connect=);
#   2. on first start only (no meta.properties), kafka-storage.sh format with the fixed
#      CLUSTER_ID and the SCRAM-SHA-512 users broker (superuser), hanwiki (app nodes), connect;
#   3. the broker, with the Prometheus JMX exporter agent (fetched into /opt/hanwiki-jmx by the
#      jmx-agent-kafka init service) on KAFKA_METRICS_PORT. The agent is given to the broker's
#      JVM only, never through the container's KAFKA_OPTS: the health check's JVM would try to
#      bind the same port.
# A client config for the superuser (the health check's) is written beside it.
set -euo pipefail
: "${CLUSTER_ID:?}" "${KAFKA_METRICS_PORT:?}" "${KAFKA_JMX_CONFIG:?}" "${KAFKA_JMX_AGENT:?}"
bin=/opt/kafka/bin
conf=/tmp/hanwiki-kafka
umask 077
mkdir -p "$conf"
secret() { sed -n "s/^$1=//p" /run/secrets/kafka_scram; }
broker=$(secret broker) hanwiki=$(secret hanwiki) connect=$(secret connect)
[ -n "$broker" ] && [ -n "$hanwiki" ] && [ -n "$connect" ] \
  || { echo "kafka-entry: /run/secrets/kafka_scram lacks broker=, hanwiki= or connect= (infra/compose/secrets.sh)" >&2; exit 1; }
scram() { printf 'org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";' "$1" "$2"; }
{
  echo "# Written by /hanwiki/kafka-entry.sh at container start; not kept."
  for v in $(compgen -e | grep '^KAFKA_CFG_' | sort); do
    k=${v#KAFKA_CFG_}; k=${k,,}; printf '%s=%s\n' "${k//_/.}" "${!v}"
  done
  # The controller listener authenticates with SASL/PLAIN as "broker" (KRaft cannot use SCRAM
  # there: the SCRAM credentials live in the metadata the controller serves); clients and the
  # broker itself with SCRAM-SHA-512.
  echo "listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"broker\" password=\"$broker\" user_broker=\"$broker\";"
  echo "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=$(scram broker "$broker")"
} >"$conf/server.properties"
printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
  "sasl.jaas.config=$(scram broker "$broker")" >"$conf/client.properties"

if [ ! -f "$KAFKA_CFG_LOG_DIRS/meta.properties" ]; then
  echo "kafka-entry: formatting $KAFKA_CFG_LOG_DIRS (cluster $CLUSTER_ID) with the SCRAM users broker, hanwiki, connect"
  KAFKA_OPTS="" "$bin/kafka-storage.sh" format --cluster-id "$CLUSTER_ID" -c "$conf/server.properties" \
    --add-scram "SCRAM-SHA-512=[name=broker,password=$broker]" \
    --add-scram "SCRAM-SHA-512=[name=hanwiki,password=$hanwiki]" \
    --add-scram "SCRAM-SHA-512=[name=connect,password=$connect]"
fi
unset broker hanwiki connect
agent=""
if [ -s "$KAFKA_JMX_AGENT" ]; then
  agent="-javaagent:$KAFKA_JMX_AGENT=0.0.0.0:$KAFKA_METRICS_PORT:$KAFKA_JMX_CONFIG"
else
  echo "kafka-entry: no JMX exporter agent at $KAFKA_JMX_AGENT: Kafka runs without metrics (KafkaDown fires)" >&2
fi
KAFKA_OPTS="${KAFKA_OPTS:-} $agent" exec "$bin/kafka-server-start.sh" "$conf/server.properties"
