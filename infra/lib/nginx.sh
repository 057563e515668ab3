# shellcheck shell=bash
# nginx in the foreground (daemon off) so the pid we record is the master's.
#
# Draining: a node leaves nginx's pool before it stops, so no request is sent to a node that
# is shutting down (a write sent there would be refused, and nginx never resends a POST).
# The drained nodes are marker files ($RUN/nodeN.drained); nginx/nginx.conf, the one template
# of the upstream, renders each drained node's server with `down` (${NODE1_DRAIN}).
drain_marker() { printf '%s/node%s.drained\n' "$RUN" "$1"; }

nginx_render() {
  local n
  for n in 1 2; do
    if [ -f "$(drain_marker "$n")" ]; then printf -v "NODE${n}_DRAIN" ' down'; else printf -v "NODE${n}_DRAIN" ''; fi
    export "NODE${n}_DRAIN"
  done
  # The trusted load generators, one geo line each (none: an empty block).
  local a geo=""
  for a in ${TRUSTED_LOAD_GENERATORS//,/ }; do geo+="    $a 1;"$'\n'; done
  export NGINX_TRUSTED_GEO="$geo"
  # mtail tails the access log file here; only compose sends the lines over syslog too.
  export NGINX_ACCESS_LOG_SYSLOG=""
  NGINX_USER=www-data render "$HANWIKI_ROOT/nginx/nginx.conf" "$CONF/nginx.conf"
  secret_file www-data "$CONF/nginx.conf"
  $(on NGINX) $(run_as www-data) nginx -t -q -e "$LOGS/nginx-error.log" -p "$VAR/nginx" -c "$CONF/nginx.conf" 2>>"$LOGS/nginx.log" \
    || { tail -5 "$LOGS/nginx.log" >&2; die "nginx config test failed"; }
}

nginx_start() {
  running nginx && return 0
  mkdir -p "$VAR/nginx/temp"
  # nginx runs as www-data, master included (no privileged port to bind); it buffers large
  # request bodies (posts over 16 KB) to disk here and writes its own logs.
  touch "$LOGS/nginx-error.log" "$LOGS/nginx-access.log"
  as_service_user www-data "$VAR/nginx" "$LOGS/nginx-error.log" "$LOGS/nginx-access.log"
  nginx_render
  start_bg nginx $(on NGINX) $(run_as www-data) nginx -e "$LOGS/nginx-error.log" -p "$VAR/nginx" -c "$CONF/nginx.conf"
}
nginx_wait() {
  wait_for "nginx" 20 nginx port_open "$NGINX_ADDR" "$NGINX_PORT"
  if hosts_mode; then
    public_entry_start
    wait_for "public entry localhost:$NGINX_PORT" 10 public-entry port_open 127.0.0.1 "$NGINX_PORT"
  fi
}

# nginx_reload [WAIT_S]: re-renders the config and reloads it (SIGHUP to the master: new
# workers start on the new config, the old ones finish the requests they hold, then exit).
# With WAIT_S, returns once every old worker has exited: from then on, no connection and no
# request of nginx uses the old upstream. A no-op when nginx is not running (it renders the
# current state when it starts).
nginx_reload() {
  local wait="${1:-0}" master old p left
  running nginx || return 0
  master=$(cat "$(pidfile nginx)")
  # One render and signal at a time: two ctl.sh runs at once (a restore starts both nodes) would
  # otherwise write the same config together. The wait for old workers below is not serialised.
  local lock; mkdir -p "$RUN"; exec {lock}>>"$RUN/nginx-reload.lock"; flock "$lock"
  old=$(ps -o pid= --ppid "$master" | tr -d ' ' || true)
  nginx_render
  kill -HUP "$master"
  exec {lock}>&-
  [ "$wait" -gt 0 ] || return 0
  local deadline=$((SECONDS + wait))
  while :; do
    left=""
    for p in $old; do alive "$p" && left="$left $p"; done
    [ -z "$left" ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      warn "nginx workers$left still finish old requests after ${wait}s; going on"
      return 0
    fi
    sleep 0.1
  done
}

# nginx_drain N [WAIT_S]: takes node N out of the pool and returns once nginx holds no request
# or connection to it: the old workers' in-flight requests finish first (at most WAIT_S, 40 by
# default; 0 for a node that is not running, which has nothing in flight). The marker is the
# wanted state and nginx is always reloaded to it, even when the marker was there already: a
# reload that failed or was interrupted earlier is repaired by the next call.
nginx_drain() {
  mkdir -p "$RUN"
  if ! nginx_drained "$1"; then
    touch "$(drain_marker "$1")"
    running nginx && log "draining node$1 out of nginx"
  fi
  nginx_reload "${2:-40}"
}

# nginx_undrain N: puts node N back into the pool (call once it is ready); reloads nginx to the
# wanted state even if the marker was gone already (see nginx_drain).
nginx_undrain() {
  if nginx_drained "$1"; then
    rm -f "$(drain_marker "$1")"
    running nginx && log "node$1 back in nginx"
  fi
  nginx_reload
}

# nginx_drained N: true while node N is out of the pool.
nginx_drained() { [ -f "$(drain_marker "$1")" ]; }
