#!/usr/bin/env bash
# Controls the MariaDB replica: infra/replica.sh kill|start|pause|resume
#   kill    SIGKILL the replica, as a crash would (reads must fall back to the primary)
#   start   start it again and wait until it replicates (GTID resumes from its position)
#   pause   stop applying replicated changes (STOP SLAVE SQL_THREAD): the replica falls behind
#   resume  apply them again, and wait until it has caught up with the primary
# Used by operators and by the integration tests (replica failover, lag routing).
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
ensure_secrets
case "${1:-}" in
  kill)   kill_now mariadb-replica ;;
  start)  mariadb_start replica; mariadb_wait replica; mariadb_setup_replica
          wait_for "replication" 30 mariadb-replica replica_healthy; replica_caught_up ;;
  pause)  db_sql replica "STOP SLAVE SQL_THREAD" ;;
  resume) db_sql replica "START SLAVE SQL_THREAD"; wait_for "replication" 30 mariadb-replica replica_healthy; replica_caught_up ;;
  *) die "usage: infra/replica.sh kill|start|pause|resume" ;;
esac
