#!/usr/bin/env bash
# make fuzz [REQUESTS=20000]: schemathesis (PyPI, pinned in versions.env) generates requests
# for every operation of the description the app serves, through nginx, once anonymous and
# once signed in, and checks each response: no 5xx, bodies that match the documented schema,
# and no stack trace in any body. Every request and response is recorded (HAR) under
# var/fuzz/; the summary counts them and fails below REQUESTS requests or on any failure.
# The test runner (127.0.0.1) is a trusted load generator, so nginx's ceilings and the write
# limits do not answer in the app's place.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
target="${1:-20000}"
st=$(ensure_schemathesis)
out="$VAR/fuzz"
rm -rf "$out"
mkdir -p "$out"
base="http://127.0.0.1:$NGINX_PORT"
schema="$base/v3/api-docs"
curl -fsS -o /dev/null "$schema" || die "$schema does not answer (is the stack up? make up)"

# A user of its own, signed up on node 1 (its token works through nginx on both nodes).
u="fuzz$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
token=$(curl -fsS -D - -o /dev/null -H 'Content-Type: application/json' \
  -d "{\"username\":\"$u\",\"nickname\":\"f${u:4:10}\",\"password\":\"Fuzz-run-$u\"}" \
  "http://$NODE1_ADDR:$NODE1_PORT/api/v1.0/auth/signup" | sed -n 's/^[Ss]et-[Cc]ookie: token=\([^;]*\).*/\1/p' | head -1)
[ -n "$token" ] || die "could not sign up the fuzzing user"

ops=$(curl -fsS "$schema" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(len(v) for v in d["paths"].values()))')
# Examples per operation and run, so that both runs together send at least $target requests
# (schemathesis adds coverage cases on top).
per=$(( (target + 2 * ops - 1) / (2 * ops) ))
log "fuzzing $ops operations, $per examples each, anonymous and signed in (target: $target requests)"
rc=0
started=$SECONDS
for who in anonymous signed-in; do
  args=()
  if [ "$who" = signed-in ]; then
    # Logging out would end the run's own session: those two operations run anonymous only.
    args=(-H "Authorization: Bearer $token" --exclude-path /api/v1.0/auth/logout --exclude-path /api/v1.0/auth/logout-all)
  fi
  nice -n 5 "$st" run "$schema" --url "$base" \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples "$per" --workers 2 --seed 13 --generation-database none --continue-on-failure --suppress-health-check all \
    --report har --report-har-path "$out/$who.har" --request-timeout 30 --output-truncate true \
    "${args[@]}" >"$out/$who.log" 2>&1 || rc=1
  tail -15 "$out/$who.log"
done

python3 - "$out" "$target" "$rc" "$((SECONDS - started))" <<'PY'
import collections, json, pathlib, re, sys
out, target, rc, seconds = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
trace = re.compile(r"(\tat [a-z]+\.[\w.$]+\(|Exception:|java\.lang\.|org\.springframework\.)")
total = server_errors = traces = 0
classes = collections.Counter()
for har in sorted(out.glob("*.har")):
    entries = json.loads(har.read_text())["log"]["entries"]
    total += len(entries)
    for e in entries:
        status = e["response"]["status"]
        classes[f"{status // 100}xx"] += 1
        body = e["response"].get("content", {}).get("text") or ""
        if status >= 500:
            server_errors += 1
        if trace.search(body):
            traces += 1
print(f"fuzz: {total} requests in {seconds} s ({', '.join(f'{k} {v}' for k, v in sorted(classes.items()))}), "
      f"{server_errors} with status 5xx, {traces} with a stack trace, "
      f"schemathesis {'found failures (see var/fuzz/*.log)' if rc else 'passed every check'}")
if total < target:
    print(f"fuzz: fewer requests than the {target} asked for")
sys.exit(0 if total >= target and server_errors == 0 and traces == 0 and rc == 0 else 1)
PY
