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
  kill)    kill_now "node$n" ;;
  restart) stop "node$n" 40; node_start "$n"; node_wait "$n" ;;
  wait)    node_wait "$n" ;;
  *) die "usage: infra/node.sh start|stop|kill|restart|wait 1|2" ;;
esac
