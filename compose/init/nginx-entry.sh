#!/bin/sh
# nginx of the compose deployment (host A). compose/host-a/nginx.conf is nginx/nginx.conf rendered
# for compose with ${NODE1_DRAIN}/${NODE2_DRAIN} left open; this script fills them from the drain
# markers (a named volume, so a drained node stays drained across nginx restarts) and runs nginx.
#   nginx-entry.sh run              the container's command: render, then nginx in the foreground
#   nginx-entry.sh drain node1      take node1 out of the pool, reload, wait for its requests to end
#   nginx-entry.sh undrain node1    put it back (after it is ready)
#   nginx-entry.sh render           only write the config (make check-compose runs nginx -t on it)
# Operators call drain/undrain through `docker compose exec nginx ...` (docs/deploy.md).
set -eu
PREFIX=${HANWIKI_NGINX_PREFIX:-/var/cache/hanwiki}
STATE=${HANWIKI_NGINX_DRAIN_DIR:-/var/lib/hanwiki-nginx}
IN=${HANWIKI_NGINX_CONF_IN:-/hanwiki/nginx.conf.in}

render() {
  d1=""; d2=""
  if [ -f "$STATE/node1.drained" ]; then d1=" down"; fi
  if [ -f "$STATE/node2.drained" ]; then d2=" down"; fi
  mkdir -p "$PREFIX/state/nginx/temp" "$PREFIX/logs" "$STATE"
  sed -e "s/\${NODE1_DRAIN}/$d1/g" -e "s/\${NODE2_DRAIN}/$d2/g" "$IN" >"$PREFIX/nginx.conf.tmp"
  mv "$PREFIX/nginx.conf.tmp" "$PREFIX/nginx.conf"
}

# Old workers finish the requests they hold after a reload; wait for them (at most 40 s).
wait_old_workers() {
  i=0
  while grep -qs "shutting down" /proc/[0-9]*/cmdline && [ $i -lt 400 ]; do sleep 0.1; i=$((i + 1)); done
}

case "${1:-run}" in
  run)
    render
    ln -sf /dev/stderr "$PREFIX/logs/nginx-error.log"
    ln -sf /dev/stdout "$PREFIX/logs/nginx-access.log"
    exec nginx -p "$PREFIX/" -c "$PREFIX/nginx.conf" -e /dev/stderr
    ;;
  render)
    render
    ;;
  drain | undrain)
    node=${2:-}
    case "$node" in
      node1) other=node2 ;;
      node2) other=node1 ;;
      *) echo "usage: nginx-entry.sh drain|undrain node1|node2" >&2; exit 2 ;;
    esac
    if [ "$1" = drain ]; then
      if [ -f "$STATE/$other.drained" ]; then
        echo "refusing to drain $node: $other is drained, nginx would have no node left" >&2
        exit 1
      fi
      touch "$STATE/$node.drained"
    else
      rm -f "$STATE/$node.drained"
    fi
    render
    nginx -t -q -p "$PREFIX/" -c "$PREFIX/nginx.conf" -e /dev/stderr
    nginx -s reload -p "$PREFIX/" -c "$PREFIX/nginx.conf" -e /dev/stderr
    sleep 0.5
    wait_old_workers
    echo "$node: $1ed (nginx reloaded)"
    ;;
  *)
    echo "usage: nginx-entry.sh run|render|drain NODE|undrain NODE" >&2
    exit 2
    ;;
esac
