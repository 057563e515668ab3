#!/usr/bin/env bash
# Controls one app node: infra/node.sh start|stop|kill|restart|wait N
#   stop    graceful (SIGTERM: drain requests, stop the consumer, commit the index)
#   kill    SIGKILL, as a crash would (the index keeps only what it had committed)
# Used by operators and by the integration tests.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
cmd="${1:-}"; n="${2:-}"
[[ "$n" =~ ^[12]$ ]] || die "usage: infra/node.sh start|stop|kill|restart|wait 1|2"
ensure_secrets
case "$cmd" in
  start)   node_start "$n"; node_wait "$n" ;;
  stop)    stop "node$n" 40 ;;
  kill)
    f=$(pidfile "node$n")
    if [ -f "$f" ]; then
      pid=$(cat "$f"); kill -KILL "$pid" 2>/dev/null || true
      for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
      alive "$pid" && die "node$n (pid $pid) survived SIGKILL"
      rm -f "$f"
    fi ;;
  restart) stop "node$n" 40; node_start "$n"; node_wait "$n" ;;
  wait)    node_wait "$n" ;;
  *) die "usage: infra/node.sh start|stop|kill|restart|wait 1|2" ;;
esac
