#!/usr/bin/env bash
# Installs everything the native stack needs that is missing, and nothing twice:
#   apt:   MariaDB (and mariadb-backup), Redis, nginx, Prometheus and its node/mysqld/redis/nginx exporters,
#          Alertmanager (with amtool), mtail, logrotate
#   Maven: the pinned Maven, the Kafka runtime (broker, tools, Connect) and the
#          Debezium MariaDB connector plugin, the Prometheus JMX exporter agent
#   web:   Chromium and Korean fonts from apt, playwright-core from npm (pinned by
#          web/test/package-lock.json) for the browser tests (ADR 0074)
# and checks that a JDK >= $JDK_MIN is present. Safe to run any number of times.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

APT_PACKAGES=(
  mariadb-server mariadb-client mariadb-backup redis-server nginx
  prometheus prometheus-node-exporter prometheus-mysqld-exporter
  prometheus-redis-exporter prometheus-nginx-exporter prometheus-alertmanager mtail
  python3-matplotlib python3-yaml
  gettext-base curl unzip procps iproute2 socat logrotate
)

install_apt() {
  apt_install "${APT_PACKAGES[@]}"
  # The JVM services (Kafka, Connect, the app nodes) run as this system user; MariaDB, Redis,
  # Prometheus and nginx as the users their packages made (docs/security.md).
  id -u hanwiki >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin hanwiki
  # Debian starts packaged services on install where it can (not in containers without
  # an init). Ours run from var/ on our own ports, so the packaged ones are not needed;
  # we neither start nor stop them.
}

# copy_deps POM OUTDIR [extra mvn args...]: resolves POM's runtime dependencies into OUTDIR.
copy_deps() {
  local pom="$1" out="$2"; shift 2
  local mvn; mvn=$(ensure_maven)
  local java_home; java_home=$(select_jdk)
  mkdir -p "$out.partial"
  JAVA_HOME="$java_home" MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q -f "$pom" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$out.partial" "$@" >&2 \
    || die "could not resolve the dependencies of $pom"
  rm -rf "$out"; mv "$out.partial" "$out"
}

install_kafka() {
  local libs="$TOOLS/kafka-$KAFKA_VERSION/libs"
  if [ ! -f "$libs/.complete" ]; then
    log "assembling Kafka $KAFKA_VERSION (broker, tools, Connect) from Maven Central"
    copy_deps "$HANWIKI_ROOT/infra/kafka/pom.xml" "$libs" \
      -Dkafka.version="$KAFKA_VERSION" -Dlog4j.version="$LOG4J_VERSION"
    touch "$libs/.complete"
    ok "Kafka $KAFKA_VERSION: $(ls "$libs" | wc -l) jars"
  fi
}

install_debezium() {
  local dir="$TOOLS/connect-plugins-$DEBEZIUM_VERSION/debezium-connector-mariadb"
  if [ ! -f "$dir/.complete" ]; then
    log "assembling the Debezium $DEBEZIUM_VERSION MariaDB connector plugin"
    copy_deps "$HANWIKI_ROOT/debezium/plugin/pom.xml" "$dir" \
      -Ddebezium.version="$DEBEZIUM_VERSION" \
      -DexcludeGroupIds=org.apache.kafka,org.slf4j,com.github.luben,org.lz4,org.xerial.snappy,com.fasterxml.jackson.core,jakarta.ws.rs
    touch "$dir/.complete"
    ok "Debezium $DEBEZIUM_VERSION: $(ls "$dir" | wc -l) jars"
  fi
}

# The browser tests drive Debian's Chromium (browser builds that drivers download at run time
# cannot be fetched here) with playwright-core, installed exactly as the lock file says.
install_web() {
  apt_install chromium fonts-noto-cjk
  command -v npm >/dev/null || apt_install nodejs npm
  local dir="$HANWIKI_ROOT/web/test"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "npm ci (playwright-core for the browser tests)"
    (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2) \
      || die "npm ci in web/test failed"
  fi
}

# Kafka's basic-auth REST extension for Connect (docs/adr/0053-connect-rest-auth-and-kafka-acls.md):
# one jar, kept beside the Kafka libs (its dependencies are already there) and put on
# Connect's class path only.
install_connect_rest_auth() {
  local dir="$TOOLS/connect-rest-auth-$KAFKA_VERSION"
  [ -f "$dir/connect-basic-auth-extension-$KAFKA_VERSION.jar" ] && return 0
  log "fetching Kafka's connect-basic-auth-extension $KAFKA_VERSION"
  local mvn; mvn=$(ensure_maven)
  mkdir -p "$dir"
  JAVA_HOME="$(select_jdk)" MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q dependency:copy \
    -Dartifact="org.apache.kafka:connect-basic-auth-extension:$KAFKA_VERSION" -DoutputDirectory="$dir" >&2 \
    || die "could not fetch org.apache.kafka:connect-basic-auth-extension:$KAFKA_VERSION"
}

# The JMX exporter java agent (Kafka and Connect metrics): one jar, no dependencies.
install_jmx_exporter() {
  local jar="$TOOLS/jmx_prometheus_javaagent-$JMX_EXPORTER_VERSION.jar"
  [ -f "$jar" ] && return 0
  log "fetching the Prometheus JMX exporter agent $JMX_EXPORTER_VERSION"
  local mvn; mvn=$(ensure_maven)
  mkdir -p "$TOOLS"
  JAVA_HOME="$(select_jdk)" MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$mvn" -B -q dependency:copy \
    -Dartifact="io.prometheus.jmx:jmx_prometheus_javaagent:$JMX_EXPORTER_VERSION" -DoutputDirectory="$TOOLS" >&2 \
    || die "could not fetch io.prometheus.jmx:jmx_prometheus_javaagent:$JMX_EXPORTER_VERSION"
}

main() {
  install_apt
  install_web
  select_jdk >/dev/null
  ensure_maven >/dev/null
  install_kafka
  install_debezium
  install_connect_rest_auth
  install_jmx_exporter
  ok "install complete"
}
main "$@"
