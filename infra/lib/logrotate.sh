# shellcheck shell=bash
# Size-bounded rotation of every log under var/log (docs/adr/0094-log-rotation.md): the
# log-rotator runs Debian's logrotate with copytruncate over $LOGS/*.log every
# LOG_ROTATE_EVERY seconds. It runs on the machine itself (var/log is one directory for all
# hosts' processes), as root like `make up`, with its own pid file and log.
: "${LOG_ROTATE_SIZE:=20M}"   # a log is rotated once it is larger than this
: "${LOG_ROTATE_KEEP:=5}"     # compressed copies kept per log
: "${LOG_ROTATE_EVERY:=30}"   # seconds between two runs
export LOG_ROTATE_SIZE LOG_ROTATE_KEEP LOG_ROTATE_EVERY

# log_rotator_render OUT: the logrotate config for $LOGS.
log_rotator_render() { render "$HANWIKI_ROOT/infra/templates/logrotate.conf" "$1"; }

log_rotator_start() {
  command -v logrotate >/dev/null || die "logrotate is missing: run make install (Debian package logrotate)"
  running log-rotator && return 0
  mkdir -p "$LOGS" "$CONF" "$RUN"
  log_rotator_render "$CONF/logrotate.conf"
  logrotate --debug "$CONF/logrotate.conf" >/dev/null 2>&1 || die "logrotate rejects $CONF/logrotate.conf"
  start_bg log-rotator bash "$HANWIKI_ROOT/infra/logrotate/loop.sh" "$CONF/logrotate.conf" "$RUN/logrotate.state" "$LOG_ROTATE_EVERY"
}
log_rotator_ready() { running log-rotator; }
