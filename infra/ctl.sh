#!/usr/bin/env bash
# Controls one component of the running stack, for operators, chaos drills and tests:
#   infra/ctl.sh start|stop|kill|restart COMPONENT
#   stop  graceful (SIGTERM, then KILL after a timeout); kill  SIGKILL, as a crash would
#   An app node is drained out of nginx before stop, restart and rebuild (nginx re-rendered
#   with it `down` and reloaded; the old workers' in-flight requests finish first), so none of
#   its requests is refused; start puts it back once it is ready. kill does not drain (a crash).
#   infra/ctl.sh kill-in-commit node1|node2 [TIMEOUT_S]: SIGKILL the node the moment its index
#   shows a Lucene commit in progress; prints "hit pending_segments_G" if the kill cut that
#   commit, "missed ..." if the commit completed first (drills and NodeKilledInCommitIT)
#   infra/ctl.sh rebuild node1|node2: stop the node, delete its index, start it again: it
#   rebuilds by replaying the compacted change topic, then follows it
#   infra/ctl.sh pause|resume mariadb-replica: stop / restart applying replicated changes
#   (STOP SLAVE SQL_THREAD): the replica falls behind, then catches up (resume waits for it)
#   infra/ctl.sh isolate|heal HOST (A, B or M): cut / restore the host's network link (its
#   processes keep running; nothing crosses to or from it), host topology only
#   infra/ctl.sh crash-host HOST: SIGKILL every process on the host, as a power loss would;
#   infra/ctl.sh start-host HOST: start them again in the stack's order (nodes rejoin nginx)
# COMPONENT is a name from `make status`: mariadb-primary, mariadb-replica, redis-shard1..3,
# redis-auth, kafka, connect, node1, node2, nginx, prometheus, ...-exporter.
set -euo pipefail
. "$(dirname "$0")/lib/stack.sh"
usage() { die "usage: infra/ctl.sh start|stop|kill|kill-in-commit|restart|rebuild|pause|resume COMPONENT  (components: $(components | cut -d'|' -f1 | tr '\n' ' '))
       infra/ctl.sh isolate|heal|crash-host|start-host A|B|M"; }
action="${1:-}"; name="${2:-}"
case "$action" in
  isolate|heal|crash-host|start-host) [[ "$name" =~ ^[ABM]$ ]] || usage ;;
  *) components | cut -d'|' -f1 | grep -qx "$name" || usage ;;
esac
ensure_secrets

start_one() {
  case "$1" in
    mariadb-primary) mariadb_start primary; mariadb_wait primary ;;
    mariadb-replica) mariadb_start replica; mariadb_wait replica; mariadb_setup_replica
                     wait_for "replication" 30 mariadb-replica replica_healthy; replica_caught_up ;;
    redis-*)         redis_start; redis_wait ;;
    binlog-archiver) binlog_archiver_start; wait_for "binlog archiver" 20 binlog-archiver binlog_archiver_healthy ;;
    kafka)           kafka_start; kafka_wait ;;
    # Connect restores its connectors from its config topic; wait until the task runs.
    connect)         connect_start; connect_wait; connector_wait ;;
    cdc-watchdog)    cdc_watchdog_start; wait_for "CDC watchdog" 20 cdc-watchdog cdc_watchdog_healthy ;;
    # Out of nginx until ready (caught up with the change stream), then back in the pool.
    node1|node2)     running "$1" || nginx_drain "${1#node}" 0
                     node_start "${1#node}"; node_ready_then_undrain "${1#node}" ;;
    nginx)           nginx_start; nginx_wait ;;
    public-entry)    nginx_wait ;;
    log-rotator)     log_rotator_start ;;
  *)               monitoring_start; monitoring_wait ;;
  esac
}

# A graceful stop; an app node leaves nginx's pool first, then gets SIGTERM (Spring's graceful
# shutdown finishes what it holds and commits the index).
# Not when the other node is not serving (stopped, crashed or drained): draining the last one
# would turn away every request for the drain wait and, on a restart, the whole catch-up.
stop_one() {
  if [[ "$1" == node? ]]; then
    local other=$(( ${1#node} == 1 ? 2 : 1 ))
    if running "node$other" && ! nginx_drained "$other"; then
      nginx_drain "${1#node}"
    else
      warn "node$other is not serving: stopping $1 without draining it (nothing else would take its requests)"
    fi
  fi
  stop "$1" 40
}

# Waits for node N's readiness, then puts it back into nginx. If the wait gives up while the
# node still runs (a slow start on a loaded machine), a watcher in the background puts it back
# once it is ready, so a slow start never leaves it out of the pool; the command still fails.
node_ready_then_undrain() {
  local n="$1"
  if (node_wait "$n"); then
    nginx_undrain "$n"
    return 0
  fi
  if running "node$n"; then
    warn "node$n is not ready yet; it rejoins nginx by itself once it is"
    # Lives as long as that node process (at most 30 min), whatever stops it.
    local pid; pid=$(cat "$(pidfile "node$n")")
    (for _ in $(seq 9000); do
       alive "$pid" || exit 0
       if node_ready "$n"; then nginx_undrain "$n"; exit 0; fi
       sleep 0.2
     done) </dev/null >>"$LOGS/ctl-node$n-rejoin.log" 2>&1 &
    disown
  fi
  return 1
}

case "$action" in
  start)   start_one "$name" ;;
  stop)    stop_one "$name" ;;
  kill)    kill_now "$name" ;;
  kill-in-commit)
    [[ "$name" == node? ]] || die "only an app node has an index commit to interrupt"
    node_kill_in_commit "${name#node}" "${3:-20}" ;;
  restart) stop_one "$name"; start_one "$name" ;;
  pause|resume)
    [ "$name" = mariadb-replica ] || die "only mariadb-replica can be paused or resumed"
    if [ "$action" = pause ]; then db_sql replica "STOP SLAVE SQL_THREAD"
    else db_sql replica "START SLAVE SQL_THREAD"; wait_for "replication" 30 mariadb-replica replica_healthy; replica_caught_up; fi ;;
  rebuild)
    [[ "$name" == node? ]] || die "only an app node can be rebuilt"
    stop_one "$name"
    log "deleting $VAR/$name/index; $name rebuilds it from the change topic"
    rm -rf "${VAR:?}/$name/index"
    start_one "$name" ;;
  isolate)
    host_isolate "$name"
    log "host $name isolated: its link is down (ctl.sh heal $name restores it)" ;;
  heal)
    host_heal "$name"
    log "host $name healed: its link is up" ;;
  crash-host)
    for c in $(components_on "$name" | tac); do kill_now "$c"; done
    log "host $name crashed: every process on it got SIGKILL (ctl.sh start-host $name)" ;;
  start-host)
    for c in $(components_on "$name"); do running "$c" || start_one "$c"; done
    log "host $name started" ;;
  *)       usage ;;
esac
