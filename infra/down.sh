#!/usr/bin/env bash
# Stops exactly the processes up.sh started (by their pid files), in reverse start order,
# then removes the network namespaces, links and bridge it made (and nothing else).
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
names=$(components | cut -d'|' -f1 | tac)
for name in $names; do
  if [ -f "$(pidfile "$name")" ]; then
    log "stopping $name"
    case "$name" in node*|connect|kafka) stop "$name" 40 ;; *) stop "$name" 20 ;; esac
  fi
done
# Pid files of components that no longer exist under that name (an older layout).
for f in "$RUN"/*.pid; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .pid); log "stopping $name"; stop "$name" 20
done
hosts_down
ok "stack stopped"
