#!/usr/bin/env bash
# make autocomplete-rebuild: rebuilds every autocomplete key from one node's index into a NEW
# key version and switches both nodes to it at once (see docs/adr/0037). Prints progress until
# the old version is gone. NODE=2 runs it on node 2 instead of node 1.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
node="${NODE:-1}"
port_var="NODE${node}_PORT"
addr_var="NODE${node}_ADDR"
base="http://${!addr_var}:${!port_var}/internal/autocomplete/rebuild"
field() { python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d.get(sys.argv[1]) or "")' "$1"; }

answer=$(curl -sS -X POST -w '\n%{http_code}' "$base") || die "node$node is not answering (make status)"
code=${answer##*$'\n'}
body=${answer%$'\n'*}
case "$code" in
  202) ok "rebuild started on node$node: version $(field version <<<"$body")" ;;
  409) die "the rebuild cannot start now: $body" ;;
  *) die "node$node refused the rebuild ($code): $body" ;;
esac
last=""
while true; do
  body=$(curl -fsS "$base") || die "lost node$node while rebuilding"
  state=$(field state <<<"$body")
  line="$state: $(field written <<<"$body") of ~$(field total <<<"$body") titles written"
  if [[ "$line" != "$last" ]]; then
    log "$line"
    last="$line"
  fi
  case "$state" in
    DONE) ok "version $(field version <<<"$body") is current on every node; the old keys are deleted"; exit 0 ;;
    FAILED) die "rebuild failed, the previous version stays current: $(field error <<<"$body")" ;;
  esac
  sleep 1
done
