#!/usr/bin/env bash
# One table: every component, its pid, port and health. Exit 1 if any is not healthy.
set -uo pipefail
. "$(dirname "$0")/lib/stack.sh"
[ -f "$VAR/secrets.env" ] && { set -a; . "$VAR/secrets.env"; set +a; }
bad=0
printf '%-24s %-4s %-22s %-8s %-8s %s\n' COMPONENT HOST ADDRESS PID RSS_MB STATE
while IFS='|' read -r name host addr port check; do
  pid="-"; rss="-"
  [ -f "$(pidfile "$name")" ] && pid=$(cat "$(pidfile "$name")")
  if [ "$pid" != "-" ] && alive "$pid"; then
    rss=$(( $(ps -o rss= -p "$pid" | tr -d ' ') / 1024 ))
    if $check >/dev/null 2>&1; then state=$'\033[32mhealthy\033[0m'; else state=$'\033[33mrunning, not healthy\033[0m'; bad=1; fi
  else
    state=$'\033[31mstopped\033[0m'; bad=1
  fi
  detail=""
  if [[ "$name" == node? ]] && [ "$rss" != "-" ]; then
    # The node's own view of its index: documents and indexer phase.
    detail=$(curl -fsS --max-time 2 "http://$addr:$port/internal/index/stats" 2>/dev/null | python3 -c \
      'import json,sys; d=json.load(sys.stdin)["data"]; print("  docs=%s indexer=%s" % (d["numDocs"], d["phase"]))' 2>/dev/null)
  fi
  # Whether the node's JVM started from the AOT cache of its build (ADR 0101).
  if [[ "$name" == node? ]] && [ "$rss" != "-" ]; then
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
    case "$cmd" in
      *-XX:AOTCacheOutput=*) detail="$detail  aot=training" ;;
      *-XX:AOTCache=*) if [ -n "$(aot_complaints "${name#node}")" ]; then detail="$detail  aot=refused (see its log)"; else detail="$detail  aot=cache"; fi ;;
      *) detail="$detail  aot=none" ;;
    esac
  fi
  # A drained node gets no traffic from nginx (ctl.sh stop/restart/rebuild drain it first).
  if [[ "$name" == node? ]] && nginx_drained "${name#node}"; then detail="$detail  drained (out of nginx)"; fi
  if [ "$host" != - ] && hosts_mode && host_isolated "$host"; then detail="$detail  host $host isolated"; fi
  printf '%-24s %-4s %-22s %-8s %-8s %s%s\n' "$name" "$host" "$addr:$port" "$pid" "$rss" "$state" "$detail"
done < <(components)
exit $bad
