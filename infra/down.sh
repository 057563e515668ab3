#!/usr/bin/env bash
# Stops exactly the processes up.sh started (by their pid files), in reverse start order.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
names=$(components | cut -d'|' -f1 | tac)
for name in $names; do
  if [ -f "$(pidfile "$name")" ]; then
    log "stopping $name"
    case "$name" in node*|connect|kafka) stop "$name" 40 ;; *) stop "$name" 20 ;; esac
  fi
done
ok "stack stopped"
