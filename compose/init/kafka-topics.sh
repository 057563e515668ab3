#!/bin/bash
# One-shot of the compose deployment (host B), after Kafka is healthy: the change topics, as
# infra/lib/kafka.sh makes them natively (never auto-created; settings re-applied every run).
#   <prefix>._schema-history  one partition, never expires (Debezium rebuilds its schemas from it)
#   <posts topic>             compacted, no time limit: the latest row of every post (ADR 0003)
#   <posts topic>.dlq         events a node could not read, kept 30 days
set -euo pipefail
: "${BOOTSTRAP:?}" "${CDC_TOPIC_PREFIX:?}" "${CDC_POSTS_TOPIC:?}"
bin=/opt/kafka/bin
create() {
  local topic="$1"; shift
  "$bin/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --create --if-not-exists --topic "$topic" \
    --replication-factor 1 --partitions 1 "$@"
}
create "$CDC_TOPIC_PREFIX._schema-history" --config retention.ms=-1 --config retention.bytes=-1
create "$CDC_POSTS_TOPIC" --config cleanup.policy=compact --config retention.ms=-1 --config retention.bytes=-1 \
  --config delete.retention.ms=604800000 --config max.message.bytes=16777216
create "$CDC_POSTS_TOPIC.dlq" --config retention.ms=2592000000 --config max.message.bytes=16777216
"$bin/kafka-configs.sh" --bootstrap-server "$BOOTSTRAP" --alter --entity-type topics --entity-name "$CDC_POSTS_TOPIC" \
  --add-config cleanup.policy=compact,retention.ms=-1,retention.bytes=-1,delete.retention.ms=604800000,max.message.bytes=16777216
echo "topics ready: $("$bin/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --list | tr '\n' ' ')"
