# shellcheck shell=bash
# Shared helpers for every infra script: locations, logging, JDK/Maven selection,
# template rendering, and pid-file process control. Source it; do not run it.

HANWIKI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export HANWIKI_ROOT
_topology_env="${HANWIKI_TOPOLOGY:-}"
set -a
# shellcheck source=../ports.env
. "$HANWIKI_ROOT/infra/ports.env"
# shellcheck source=../versions.env
. "$HANWIKI_ROOT/infra/versions.env"
set +a
case "$HANWIKI_VAR" in /*) VAR="$HANWIKI_VAR" ;; *) VAR="$HANWIKI_ROOT/$HANWIKI_VAR" ;; esac
export VAR
RUN="$VAR/run"      # pid files
LOGS="$VAR/log"     # one log per process
CONF="$VAR/conf"    # rendered configs
TOOLS="$VAR/tools"  # fetched jars and tools
export RUN LOGS CONF TOOLS

log()  { printf '\033[1;34m[hanwiki]\033[0m %s\n' "$*" >&2; }
ok()   { printf '\033[1;32m[  ok   ]\033[0m %s\n' "$*" >&2; }
warn() { printf '\033[1;33m[ warn  ]\033[0m %s\n' "$*" >&2; }
die()  { printf '\033[1;31m[ fail  ]\033[0m %s\n' "$*" >&2; exit 1; }

# --- JDK --------------------------------------------------------------------------
# Prints the JAVA_HOME of the newest JDK under /usr/lib/jvm (or $JAVA_HOME) whose major
# version is at least $JDK_MIN. The default `java` on these machines is 17: too old.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}'; }
select_jdk() {
  local best="" best_v=0 cand v
  for cand in ${JAVA_HOME:-} /usr/lib/jvm/*; do
    [ -x "$cand/bin/javac" ] || continue
    v=$(java_major "$cand"); v=${v%%.*}
    [[ "$v" =~ ^[0-9]+$ ]] || continue
    if [ "$v" -ge "$JDK_MIN" ] && [ "$v" -gt "$best_v" ]; then best="$cand"; best_v=$v; fi
  done
  [ -n "$best" ] || die "no JDK >= $JDK_MIN found under /usr/lib/jvm (or \$JAVA_HOME). Install one (e.g. Temurin $JDK_MIN) and retry."
  printf '%s\n' "$best"
}

# --- Maven --------------------------------------------------------------------------
# The build uses a pinned Maven ($MAVEN_VERSION). It is fetched once as an ordinary
# Maven Central artifact through whatever `mvn` the machine has (its resolver already
# knows the registry), unpacked under var/tools, and used from there.
ensure_maven() {
  local home="$TOOLS/apache-maven-$MAVEN_VERSION"
  if [ ! -x "$home/bin/mvn" ]; then
    command -v mvn >/dev/null || { log "installing a bootstrap maven from apt"; apt_install maven; }
    log "fetching Maven $MAVEN_VERSION"
    mkdir -p "$TOOLS"
    mvn -B -q dependency:get -Dtransitive=false \
      -Dartifact="org.apache.maven:apache-maven:$MAVEN_VERSION:zip:bin" >&2 \
      || die "could not fetch org.apache.maven:apache-maven:$MAVEN_VERSION"
    unzip -q -o "$HOME/.m2/repository/org/apache/maven/apache-maven/$MAVEN_VERSION/apache-maven-$MAVEN_VERSION-bin.zip" -d "$TOOLS"
  fi
  printf '%s\n' "$home/bin/mvn"
}

# ensure_schemathesis: prints the path of schemathesis' `st`, installing the pinned version
# from PyPI into its own virtual environment under $TOOLS the first time.
ensure_schemathesis() {
  local home="$TOOLS/schemathesis-$SCHEMATHESIS_VERSION"
  if [ ! -x "$home/bin/st" ]; then
    log "installing schemathesis $SCHEMATHESIS_VERSION into $home"
    mkdir -p "$TOOLS"
    python3 -m venv "$home" || die "python3 -m venv failed (apt-get install python3-venv)"
    "$home/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION" >&2 || die "could not install schemathesis $SCHEMATHESIS_VERSION"
  fi
  printf '%s\n' "$home/bin/st"
}

# The app's test classes (benchmarks, exports) compiled, their classpath resolved into
# $VAR/bench-classpath.txt, JAVA_HOME exported as the selected JDK. Then run them with test_java.
prepare_test_classes() {
  JAVA_HOME="$(select_jdk)"; export JAVA_HOME
  local mvn; mvn="$(ensure_maven)"
  MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q -f "$HANWIKI_ROOT/app/pom.xml" test-compile
  MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q -f "$HANWIKI_ROOT/app/pom.xml" dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$VAR/bench-classpath.txt" >/dev/null
}

# test_java [JVM options...] CLASS [args...]: a main class from the test classes (prepare_test_classes first).
test_java() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
    -cp "$HANWIKI_ROOT/app/target/test-classes:$HANWIKI_ROOT/app/target/classes:$(cat "$VAR/bench-classpath.txt")" "$@"
}

# --- apt ----------------------------------------------------------------------------
APT_UPDATED=""
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "need root to apt-get install: ${missing[*]}"
  if [ -z "$APT_UPDATED" ]; then apt-get update -qq >&2; APT_UPDATED=1; fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# --- templates ----------------------------------------------------------------------
# render TEMPLATE OUT: substitutes only ${NAME} for variables defined in the environment
# of this script (ports.env, versions.env, secrets, and the VAR/ROOT paths), so nginx's
# own $variables and anything unknown stay untouched.
render() {
  local tmpl="$1" out="$2" vars
  vars=$(grep -oE '\$\{[A-Z][A-Z0-9_]*\}' "$tmpl" | sort -u | tr -d '\n')
  # envsubst renders a name missing from the environment as empty, so check first (set but
  # empty is fine: e.g. NODE1_DRAIN when the node is in the pool).
  local name missing=""
  for name in $(grep -oE '\$\{[A-Z][A-Z0-9_]*\}' "$tmpl" | sort -u | tr -d '${}'); do
    printenv "$name" >/dev/null || missing="$missing $name"
  done
  [ -z "$missing" ] || die "template $tmpl uses undefined variables:$missing"
  mkdir -p "$(dirname "$out")"
  # Rendered files may hold secrets: owner-only from the start (services that run as another
  # user get theirs handed over with secret_file).
  (umask 077; envsubst "$vars" <"$tmpl" >"$out.tmp")
  mv "$out.tmp" "$out"
}

# --- secrets ------------------------------------------------------------------------
# Generated once per install into var/secrets.env (never committed); tests read it too.
ensure_secrets() {
  local f="$VAR/secrets.env" k
  mkdir -p "$VAR"
  # umask in a subshell: left in this shell it would make every later directory (nginx's
  # among them) unreadable to the services that run as other users.
  (
    umask 077
    [ -f "$f" ] || echo "# generated by infra on $(date -u +%FT%TZ); local demo stack only; mode 0600, never commit" >"$f"
    # A key added by a newer version of the stack is appended; existing ones never change.
    for k in DB_ROOT_PASSWORD DB_APP_PASSWORD DB_MIGRATE_PASSWORD DB_READONLY_PASSWORD DB_REPL_PASSWORD DB_DEBEZIUM_PASSWORD \
             DB_EXPORTER_PASSWORD DB_BACKUP_PASSWORD REDIS_APP_PASSWORD REDIS_EXPORTER_PASSWORD \
             KAFKA_BROKER_PASSWORD KAFKA_APP_PASSWORD KAFKA_CONNECT_PASSWORD CONNECT_REST_PASSWORD; do
      grep -q "^$k=" "$f" || echo "$k=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)" >>"$f"
    done
    grep -q "^JWT_SECRET=" "$f" || echo "JWT_SECRET=$(head -c 48 /dev/urandom | base64 | tr -d '\n')" >>"$f"
  )
  chmod 600 "$f"
  set -a; . "$f"; set +a
}

# --- unprivileged services (docs/security.md) ------------------------------------------
# Each long-running service runs as its own system user (the one its Debian package made).
# run_as USER: the words that drop to USER before exec (keeps the pid: setpriv execs).
run_as() { printf 'setpriv --reuid=%s --regid=%s --init-groups --inh-caps=-all\n' "$1" "$(id -gn "$1")"; }
# as_service_user USER DIR...: DIR (recursively) belongs to USER.
as_service_user() { local u="$1"; shift; chown -R "$u:$(id -gn "$u")" "$@"; }
# secret_file USER FILE: a rendered file holding a secret: mode 0600, owned by USER.
secret_file() { chown "$1:$(id -gn "$1")" "$2"; chmod 600 "$2"; }

# --- processes ----------------------------------------------------------------------
pidfile() { printf '%s/%s.pid\n' "$RUN" "$1"; }

# alive PID: true when the process exists and is not a zombie (kill -0 succeeds on
# zombies, which PID 1 on these machines reaps late).
alive() {
  local pid="$1" stat
  [ -n "$pid" ] || return 1
  stat=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  [ -n "$stat" ] && [[ "$stat" != Z* ]]
}

# running NAME: its pid file names a live process.
running() {
  local f; f=$(pidfile "$1")
  [ -f "$f" ] && alive "$(cat "$f")"
}

# start_bg NAME CMD...: runs CMD in the background with its own log and pid file.
# The pid recorded is the command's own (no subshell in between).
start_bg() {
  local name="$1"; shift
  mkdir -p "$RUN" "$LOGS"
  if running "$name"; then return 0; fi
  printf '\n=== %s start %s ===\n' "$name" "$(date -u +%FT%TZ)" >>"$LOGS/$name.log"
  nohup "$@" >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$(pidfile "$name")"
}

# started_since_start NAME PATTERN: true once NAME's log shows PATTERN after the last start
# header start_bg wrote, or shows no start header at all: the log-rotator (copytruncate, ADR 0094)
# emptied the log long after the start, and with it both lines (a dev stack up for days reported
# Kafka "not healthy" when its "Kafka Server started" line had been rotated away). A log that is
# missing, or a start header not yet followed by PATTERN (a start in progress), is false. Callers
# check the process's port too. It reads the log backwards and stops at the first of the two it
# meets: readiness loops call it five times a second, and a log may hold 20 MiB of earlier runs.
started_since_start() {
  [ -f "$LOGS/$1.log" ] || return 1
  awk -v header="=== $1 start " -v pattern="$2" '
    index($0, pattern) { exit }
    index($0, header) == 1 { starting = 1; exit }
    END { exit starting }' < <(tac "$LOGS/$1.log")
}

# stop NAME [TIMEOUT]: TERM, wait, then KILL; only the pid we recorded.
stop() {
  local name="$1" timeout="${2:-30}" f pid i
  f=$(pidfile "$name")
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < timeout * 10; i++)); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      warn "$name (pid $pid) did not stop in ${timeout}s; sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    fi
  fi
  rm -f "$f"
}

# kill_now NAME: SIGKILL, as a crash would; only the pid we recorded.
kill_now() {
  local name="$1" f pid
  f=$(pidfile "$name")
  [ -f "$f" ] || return 0
  pid=$(cat "$f"); kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && die "$name (pid $pid) survived SIGKILL"
  rm -f "$f"
}

# wait_for DESC TIMEOUT_S CMD...: polls CMD until it succeeds; fails loudly, pointing
# at the log of the component.
wait_for() {
  local desc="$1" timeout="$2" logname="$3"; shift 3
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      [ -f "$LOGS/$logname.log" ] && tail -n 30 "$LOGS/$logname.log" >&2
      die "$desc not ready after ${timeout}s (log: $LOGS/$logname.log)"
    fi
    if [ -n "$logname" ] && [ -f "$(pidfile "$logname")" ] && ! running "$logname"; then
      tail -n 30 "$LOGS/$logname.log" >&2
      die "$desc exited during start-up (log: $LOGS/$logname.log)"
    fi
    sleep 0.2
  done
}

# port_open ADDR PORT: something accepts TCP connections there.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
http_ok() { curl -fsS -o /dev/null --max-time 2 "$1"; }

# --- topology (ports.env; docs/adr/0050-one-topology-file.md) -------------------------
# The environment overrides ports.env's mode; every reader (shell, Python, Java) does the same.
HANWIKI_TOPOLOGY="${_topology_env:-$HANWIKI_TOPOLOGY}"
unset _topology_env
case "$HANWIKI_TOPOLOGY" in hosts | local) ;; *) die "HANWIKI_TOPOLOGY must be hosts or local, not '$HANWIKI_TOPOLOGY'" ;; esac
export HANWIKI_TOPOLOGY
# host_of COMPONENT: A, B or M (COMPONENT is the ports.env prefix: NODE1, MARIADB_PRIMARY...).
host_of() { local v="${1}_HOST"; [ -n "${!v:-}" ] || die "ports.env has no ${1}_HOST"; printf '%s\n' "${!v}"; }
# host_addr HOST: the address of host A, B or M (127.0.0.1 in local mode).
host_addr() {
  if [ "$HANWIKI_TOPOLOGY" = local ]; then printf '127.0.0.1\n'; return; fi
  local v="HOST_${1}_ADDR"; [ -n "${!v:-}" ] || die "ports.env has no HOST_${1}_ADDR"; printf '%s\n' "${!v}"
}
# addr_of COMPONENT: the address COMPONENT binds and is reached at.
addr_of() { host_addr "$(host_of "$1")"; }
# proxy_port SERVICE: where the chaos latency proxy (on TOXIPROXY_HOST, infra/chaos/latency.sh)
# forwards to SERVICE: the service's own port + 10000.
proxy_port() { local p="${1}_PORT"; printf '%s\n' "$(( ${!p} + 10000 ))"; }
# Every COMPONENT_HOST in ports.env also gets COMPONENT_ADDR, so templates say ${KAFKA_ADDR}.
for _v in $(compgen -A variable | grep -E '^[A-Z0-9_]+_HOST$'); do
  printf -v "${_v%_HOST}_ADDR" '%s' "$(host_addr "${!_v}")"
  export "${_v%_HOST}_ADDR"
done
unset _v
# Where the machine itself (tests, operators, make status) sits: the bridge's gateway.
if [ "$HANWIKI_TOPOLOGY" = local ]; then MACHINE_ADDR=127.0.0.1; else MACHINE_ADDR="$HOSTS_GATEWAY_ADDR"; fi
export MACHINE_ADDR
