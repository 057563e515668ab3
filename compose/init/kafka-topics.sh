#!/bin/bash
# One-shot of the compose deployment (host B), after Kafka is healthy: the change topics, as
# infra/lib/kafka.sh makes them natively (never auto-created; settings re-applied every run).
#   <prefix>._schema-history  one partition, never expires (Debezium rebuilds its schemas from it)
#   <posts topic>             compacted, no time limit: the latest row of every post (ADR 0003)
#   <posts topic>.dlq         events a node could not read, kept 30 days
# and then the per-user ACLs of infra/lib/kafka.sh kafka_acls (StandardAuthorizer, docs/adr/0053):
# nothing is allowed unless granted; "broker" is the superuser. Every tool logs in as "broker"
# (the compose secret kafka_scram; the client config is written into this container's /tmp, 0600).
set -euo pipefail
: "${BOOTSTRAP:?}" "${CDC_TOPIC_PREFIX:?}" "${CDC_POSTS_TOPIC:?}"
bin=/opt/kafka/bin
cfg=$(umask 077; mktemp)
broker=$(sed -n 's/^broker=//p' /run/secrets/kafka_scram)
[ -n "$broker" ] || { echo "kafka-topics: /run/secrets/kafka_scram has no broker= (infra/compose/secrets.sh)" >&2; exit 1; }
printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
  "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"$broker\";" >"$cfg"
unset broker
create() {
  local topic="$1"; shift
  "$bin/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" --create --if-not-exists --topic "$topic" \
    --replication-factor 1 --partitions 1 "$@"
}
create "$CDC_TOPIC_PREFIX._schema-history" --config retention.ms=-1 --config retention.bytes=-1
create "$CDC_POSTS_TOPIC" --config cleanup.policy=compact --config retention.ms=-1 --config retention.bytes=-1 \
  --config delete.retention.ms=604800000 --config max.message.bytes=16777216
create "$CDC_POSTS_TOPIC.dlq" --config retention.ms=2592000000 --config max.message.bytes=16777216
"$bin/kafka-configs.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" --alter --entity-type topics --entity-name "$CDC_POSTS_TOPIC" \
  --add-config cleanup.policy=compact,retention.ms=-1,retention.bytes=-1,delete.retention.ms=604800000,max.message.bytes=16777216
echo "topics ready: $("$bin/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" --list | tr '\n' ' ')"

acl() { "$bin/kafka-acls.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" --add --force "$@" >/dev/null; }
# The app nodes ("hanwiki"): read the change topic (the indexer's per-node groups, the shared L2
# invalidator's group), write dead letters. Nothing else: no create, delete, alter.
acl --allow-principal User:hanwiki --operation Read --operation Describe \
  --topic "$CDC_POSTS_TOPIC" --group hanwiki-cache-l2
acl --allow-principal User:hanwiki --operation Read --operation Describe \
  --resource-pattern-type prefixed --group hanwiki-indexer-
acl --allow-principal User:hanwiki --operation Write --operation Describe --topic "$CDC_POSTS_TOPIC.dlq"
# Connect ("connect"): its internal topics and worker group, whole; the connector's topics (prefix
# CDC_TOPIC_PREFIX) and Debezium's heartbeat topic: create, write, read, never delete or alter;
# the schema history's consumer group.
acl --allow-principal User:connect --operation All \
  --topic _connect-configs --topic _connect-offsets --topic _connect-status --group hanwiki-connect
acl --allow-principal User:connect --operation Create --operation Write --operation Read \
  --operation Describe --operation DescribeConfigs --resource-pattern-type prefixed \
  --topic "$CDC_TOPIC_PREFIX" --topic __debezium-heartbeat
acl --allow-principal User:connect --operation Read --operation Describe --group "$CDC_TOPIC_PREFIX-schemahistory"
echo "ACLs ready:"
"$bin/kafka-acls.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" --list
