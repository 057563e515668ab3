#!/bin/sh
# The app container's entrypoint (app/Dockerfile): the JVM with the node's AOT cache when its
# volume holds one for this image (ADR 0101; natively infra/lib/aot.sh does the same).
#   HANWIKI_AOT=0        no cache
#   HANWIKI_AOT_TRAIN=1  a training run: serve traffic for a while, then stop the container
#                        (docker compose stop app1): the JVM writes the cache as it exits, and the
#                        next start moves it into place and uses it (docs/deploy.md)
# The cache belongs to the image's class path and JVM (/opt/hanwiki/build-id), so an image built
# from other code or on another JRE never loads a cache trained for a different one.
set -eu
aot_dir="${HANWIKI_AOT_DIR:-/var/lib/hanwiki/aot}"
cache="$aot_dir/$(cat "${HANWIKI_BUILD_ID_FILE:-/opt/hanwiki/build-id}").aot"
aot=""
if [ "${HANWIKI_AOT:-1}" != 0 ]; then
  mkdir -p "$aot_dir"
  # A training run completed (its configuration file is removed once the cache is written).
  if [ -s "$cache.training" ] && [ ! -e "$cache.training.config" ]; then mv "$cache.training" "$cache"; fi
  # Other images' caches are worthless to this one.
  for f in "$aot_dir"/*.aot; do [ -e "$f" ] && [ "$f" != "$cache" ] && rm -f "$f"; done
  if [ "${HANWIKI_AOT_TRAIN:-0}" = 1 ]; then
    rm -f "$cache.training" "$cache.training.config"
    aot="-XX:AOTCacheOutput=$cache.training -Xlog:aot=error"
  elif [ -s "$cache" ]; then
    aot="-XX:AOTCache=$cache"
  fi
fi
# exec: the JVM replaces the shell and gets SIGTERM (graceful shutdown).
# shellcheck disable=SC2086 # JAVA_OPTS and aot are lists of options
exec java $JAVA_OPTS $aot --enable-native-access=ALL-UNNAMED -jar /opt/hanwiki/app/hanwiki.jar "$@"
