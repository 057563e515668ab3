#!/usr/bin/env bash
# The pages' browser journey (web/test) against the running stack through nginx:
#   web.sh test         node's test runner over web/test/*.test.mjs; fails loudly without Chromium
#   web.sh screenshots  the same journey, saving a PNG of each page into docs/screenshots/
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

dir="$HANWIKI_ROOT/web/test"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] || die "no Chromium at $CHROMIUM: the browser tests need Debian's chromium (make install), or CHROMIUM=/path"
command -v node >/dev/null || die "no node: the browser tests need Node.js >= 20 (make install)"
[ -f "$dir/node_modules/playwright-core/package.json" ] || die "playwright-core is not installed in web/test (make install runs npm ci there)"
port_open 127.0.0.1 "$NGINX_PORT" || die "nothing listens on :$NGINX_PORT: start the stack first (make up)"

export CHROMIUM HANWIKI_URL="http://localhost:$NGINX_PORT" HANWIKI_NODES="http://$NODE1_ADDR:$NODE1_PORT,http://$NODE2_ADDR:$NODE2_PORT"
case "${1:-test}" in
  test)
    log "browser tests: $(basename "$CHROMIUM") $("$CHROMIUM" --version 2>/dev/null | awk '{print $2}') headless against $HANWIKI_URL"
    cd "$dir" && node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs
    ;;
  screenshots)
    out="$HANWIKI_ROOT/docs/screenshots"
    mkdir -p "$out"
    HANWIKI_SCREENSHOTS="$out" bash -c "cd '$dir' && node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs"
    ok "screenshots in docs/screenshots/: $(ls "$out"/*.png | wc -l) pages"
    ;;
  *) die "usage: web.sh test|screenshots" ;;
esac
