#!/usr/bin/env bash
# Prints the path of the pinned compose CLI ($COMPOSE_VERSION, infra/versions.env), building
# it first if var/tools does not have it yet. `go install ...@version` refuses this module
# (its go.mod has `exclude` directives), so the module is downloaded, copied to a writable
# directory and built there: a few minutes on 2 cores, once. The build runs at low priority.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
bin="$TOOLS/compose-$COMPOSE_VERSION/docker-compose"
if [ ! -x "$bin" ]; then
  # One build at a time (worktrees share var/tools): a second caller waits, then finds the binary.
  mkdir -p "$(dirname "$bin")"
  exec 9>"$(dirname "$bin")/.build.lock"
  flock 9
fi
if [ ! -x "$bin" ]; then
  command -v go >/dev/null || die "go is needed to build the compose CLI"
  log "building the compose CLI $COMPOSE_VERSION from its Go module (once; a few minutes)"
  dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  [ -d "$dir" ] || die "go mod download gave no module directory"
  work=$(mktemp -d "${TMPDIR:-/tmp}/compose-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cp -r "$dir/." "$work/"
  chmod -R u+w "$work"
  mkdir -p "$(dirname "$bin")"
  (cd "$work" && nice -n 10 go build -trimpath -o "$bin.tmp" ./cmd) >&2 \
    || die "building the compose CLI failed"
  mv "$bin.tmp" "$bin"
  ok "compose CLI $COMPOSE_VERSION at $bin"
fi
printf '%s\n' "$bin"
