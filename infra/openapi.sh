#!/usr/bin/env bash
# Writes the OpenAPI description that app node 1 serves to docs/openapi.json (make openapi).
# The integration tests fail while the copy differs from what the app serves.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
url="http://$NODE1_ADDR:$NODE1_PORT/v3/api-docs"
curl -fsS "$url" | python3 -c 'import json, sys; json.dump(json.load(sys.stdin), sys.stdout, ensure_ascii=False, indent=2, sort_keys=True); print()' \
  >"$HANWIKI_ROOT/docs/openapi.json.tmp" || die "could not fetch $url (is the stack up? make up)"
mv "$HANWIKI_ROOT/docs/openapi.json.tmp" "$HANWIKI_ROOT/docs/openapi.json"
ok "docs/openapi.json updated from $url"
