#!/usr/bin/env bash
# Runs a k6 profile from k6/ against nginx: infra/k6.sh smoke
# k6 is built once with `go install` into var/tools/bin (a few minutes on 2 cores).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
profile="${1:?usage: infra/k6.sh PROFILE}"
[ -f "$HANWIKI_ROOT/k6/$profile.js" ] || die "no such profile: k6/$profile.js"
k6="$TOOLS/bin/k6"
if [ ! -x "$k6" ]; then
  command -v go >/dev/null || die "go is needed to build k6"
  log "building k6 $K6_VERSION (go install; takes a few minutes the first time)"
  GOBIN="$TOOLS/bin" GOFLAGS=-mod=mod go install "go.k6.io/k6@$K6_VERSION"
fi
exec "$k6" run -e BASE_URL="http://127.0.0.1:$NGINX_PORT" "$HANWIKI_ROOT/k6/$profile.js"
