#!/bin/bash
# One-shot of the compose deployment (host B), after Kafka is healthy: the change topics and the
# per-user ACLs of /hanwiki/kafka-plan.txt, rendered from infra/templates/kafka-plan.txt: the
# list the native stack applies (infra/lib/kafka.sh kafka_plan), read the same way:
#   topic NAME ARGS...  created if missing, then its --config settings re-applied
#   acl ARGS...         kafka-acls.sh --add --force ARGS (StandardAuthorizer, docs/adr/0053:
#                       nothing is allowed unless granted; "broker" is the superuser)
# Every tool logs in as "broker" (the compose secret kafka_scram; the client config is written
# into this container's /tmp, 0600). Runs on every `up`: each step is idempotent.
set -euo pipefail
: "${BOOTSTRAP:?}"
bin=/opt/kafka/bin
plan=/hanwiki/kafka-plan.txt
cfg=$(umask 077; mktemp)
broker=$(sed -n 's/^broker=//p' /run/secrets/kafka_scram)
[ -n "$broker" ] || { echo "kafka-topics: /run/secrets/kafka_scram has no broker= (infra/compose/secrets.sh)" >&2; exit 1; }
printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
  "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"$broker\";" >"$cfg"
unset broker
tool() { local t="$1"; shift; "$bin/$t" --bootstrap-server "$BOOTSTRAP" --command-config "$cfg" "$@" </dev/null; }
while read -r kind args; do
  case "$kind" in
    ''|'#'*) ;;
    topic)
      # shellcheck disable=SC2086  # one argument per word: the plan has no spaces inside one
      set -- $args; topic="$1"; shift
      tool kafka-topics.sh --create --if-not-exists --topic "$topic" --replication-factor 1 "$@"
      configs=$(printf '%s\n' "$@" | sed -n '/^--config$/{n;p}' | paste -sd,)
      [ -z "$configs" ] || tool kafka-configs.sh --alter --entity-type topics --entity-name "$topic" --add-config "$configs" ;;
    acl)
      # shellcheck disable=SC2086
      tool kafka-acls.sh --add --force $args >/dev/null ;;
    *) echo "kafka-topics: $plan: unknown entry '$kind' (topic or acl)" >&2; exit 1 ;;
  esac
done <"$plan"
echo "topics ready: $(tool kafka-topics.sh --list | tr '\n' ' ')"
echo "ACLs ready:"
tool kafka-acls.sh --list
