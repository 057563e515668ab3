# shellcheck shell=bash
# nginx in the foreground (daemon off) so the pid we record is the master's.
nginx_start() {
  running nginx && return 0
  NGINX_USER=www-data render "$HANWIKI_ROOT/nginx/nginx.conf" "$CONF/nginx.conf"
  mkdir -p "$VAR/nginx/temp"
  # Workers run as www-data and buffer large request bodies (posts over 16 KB) to disk here.
  chmod 755 "$VAR/nginx"
  chown -R www-data "$VAR/nginx/temp" 2>/dev/null || true
  nginx -t -q -e "$LOGS/nginx-error.log" -p "$VAR/nginx" -c "$CONF/nginx.conf" 2>>"$LOGS/nginx.log" \
    || { tail -5 "$LOGS/nginx.log" >&2; die "nginx config test failed"; }
  start_bg nginx nginx -e "$LOGS/nginx-error.log" -p "$VAR/nginx" -c "$CONF/nginx.conf"
}
nginx_wait() { wait_for "nginx" 20 nginx port_open "$NGINX_PORT"; }
