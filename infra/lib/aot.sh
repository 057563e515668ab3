# shellcheck shell=bash
# The app nodes' ahead-of-time cache (JDK 25: JEP 483 classes loaded and linked, JEP 515 method
# profiles; ADR 0101). A node started with the cache loads its classes from it and compiles its
# hot methods sooner, so it starts about twice as fast and its first minute costs less CPU.
#
# The cache belongs to one jar and one JVM: var/aot/<build>/ holds the jar extracted for the
# class path (the cache cannot hold classes from a nested jar) and, once trained, hanwiki.aot.
# A training run (infra/aot/train.sh, `make aot-cache`; `make up` runs it when the build has no
# cache) starts node 1 with -XX:AOTCacheOutput, drives a workload through it, and stops it: the
# JVM writes the cache at its exit. Without a cache a node starts from the extracted jar as usual.
# HANWIKI_AOT=0 runs the nodes from app/target/hanwiki.jar with no cache at all.

aot_enabled() { [ "${HANWIKI_AOT:-1}" != 0 ]; }

# The build a cache belongs to: the jar's digest and the JVM's exact version (a cache made by
# another JVM is refused by it, so a JDK update must train again).
aot_build() {
  local jar; jar=$(APP_JAR)
  [ -f "$jar" ] || die "app/target/hanwiki.jar is missing: run 'make build' (or 'make up')"
  local key; key=$(stat -c '%Y %s' "$jar")
  if [ "${_AOT_KEY:-}" = "$key" ]; then printf '%s\n' "$_AOT_BUILD"; return; fi
  local digest jvm
  digest=$(sha256sum "$jar" | cut -c1-16)
  jvm=$("$(select_jdk)/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.vm.version/ {print $2; exit}')
  _AOT_KEY=$key _AOT_BUILD="$digest-jdk${jvm//[^0-9A-Za-z.+-]/_}"
  printf '%s\n' "$_AOT_BUILD"
}
aot_home() { printf '%s/aot/%s\n' "$VAR" "$(aot_build)"; }
aot_cache() { printf '%s/hanwiki.aot\n' "$(aot_home)"; }
aot_trained() { aot_enabled && [ -s "$(aot_cache)" ]; }

# aot_extract: the jar extracted for the class path, once per build (older builds' directories
# are removed, aot_prune: a cache is worthless without its jar). Prints the extracted jar's path.
aot_extract() {
  local home; home=$(aot_home)
  if [ ! -f "$home/app/hanwiki.jar" ]; then
    aot_prune "$home"
    mkdir -p "$home"
    rm -rf "$home/app.tmp"
    "$(select_jdk)/bin/java" -Djarmode=tools -jar "$(APP_JAR)" extract --destination "$home/app.tmp" >/dev/null \
      || die "could not extract $(APP_JAR) for the AOT cache (HANWIKI_AOT=0 runs the jar as it is)"
    mv "$home/app.tmp" "$home/app"
    # The nodes run as the service user: they read the jar and, when training, write the cache.
    as_service_user hanwiki "$home"; chmod 750 "$home"
  fi
  printf '%s\n' "$home/app/hanwiki.jar"
}

# aot_prune KEEP: removes the other builds' directories, except one a running node still loads
# classes from (a node restarted alone on a new jar must not pull the old one from under the other).
aot_prune() {
  local d n f in_use
  for d in "$VAR"/aot/*/; do
    d=${d%/}
    [ -d "$d" ] && [ "$d" != "$1" ] || continue
    in_use=0
    for n in 1 2; do
      f=$(pidfile "node$n")
      [ -f "$f" ] && tr '\0' ' ' <"/proc/$(cat "$f")/cmdline" 2>/dev/null | grep -qF "$d/" && in_use=1
    done
    [ "$in_use" = 1 ] || rm -rf "$d"
  done
}

# aot_java_args: the node's JVM options and -jar for this start. HANWIKI_AOT_TRAIN=1 makes it a
# training run (the cache is written to training.aot at the JVM's exit; train.sh moves it into
# place once complete, so a run cut short never leaves a half-written cache in use).
aot_java_args() {
  if ! aot_enabled; then printf '%s\n' -jar "$(APP_JAR)"; return; fi
  aot_build >/dev/null  # once for this shell (remembered for the jar's mtime and size)
  local jar home; jar=$(aot_extract); home=$(aot_home)
  if [ "${HANWIKI_AOT_TRAIN:-0}" = 1 ]; then
    rm -f "$home/training.aot"
    # Assembling the cache warns of every class it leaves out (hundreds of lines): errors only.
    printf '%s\n' "-XX:AOTCacheOutput=$home/training.aot" -Xlog:aot=error
  elif [ -s "$home/hanwiki.aot" ]; then
    printf '%s\n' "-XX:AOTCache=$home/hanwiki.aot"
  fi
  printf '%s\n' -jar "$jar"
}

# aot_complaints N: what node N's JVM said about its AOT cache since its last start (a cache it
# could not use: "[error  ][aot] shared class paths mismatch", and the node runs without it).
# Nothing when it used the cache: the JVM is silent then. Reads the log backwards up to the start
# header (tac through a process substitution: awk's early exit must not fail a pipeline).
aot_complaints() {
  [ -f "$LOGS/node$1.log" ] || return 0
  awk -v header="=== node$1 start " 'index($0, header) == 1 { exit } /\]\[aot *\]/ { print }' \
    < <(tac "$LOGS/node$1.log") | tac
}
