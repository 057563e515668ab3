#!/bin/bash
# One-shot of the compose deployment (host B), after Connect is healthy: registers the Debezium
# MySQL connector from compose/host-b/hanwiki-mysql.json (rendered from debezium/hanwiki-mysql.json).
# PUT is create-or-update, so every `up` re-applies it. The JSON holds no secret: the password is
# a ${file:...} reference that Connect's FileConfigProvider resolves inside the worker, so it is
# in no file of the repository, no Kafka record and no REST answer.
# Connect's REST API demands the operator's login: a curl config file (compose secret).
set -euo pipefail
: "${CONNECT_URL:?}" "${CONNECTOR:?}"
curl() { command curl -K /run/secrets/connect-rest.curl "$@"; }
out=$(mktemp)
code=$(curl -sS -o "$out" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
  --data @/hanwiki/hanwiki-mysql.json "$CONNECT_URL/connectors/$CONNECTOR/config")
case "$code" in
  200 | 201) ;;
  *) cat "$out" >&2; echo "registering $CONNECTOR failed (HTTP $code)" >&2; exit 1 ;;
esac
status=""
for _ in $(seq 90); do
  status=$(curl -fsS "$CONNECT_URL/connectors/$CONNECTOR/status" || true)
  # The connector and its one task both RUNNING.
  if [ "$(grep -o '"state":"RUNNING"' <<<"$status" | wc -l)" -ge 2 ]; then
    echo "$CONNECTOR running: $status"
    exit 0
  fi
  sleep 2
done
echo "$CONNECTOR is not running after 180 s: $status" >&2
exit 1
