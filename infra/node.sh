#!/usr/bin/env bash
# Controls one app node: infra/node.sh start|stop|kill|restart N  (same as infra/ctl.sh ... nodeN)
set -euo pipefail
[[ "${2:-}" =~ ^[12]$ ]] || { echo "usage: infra/node.sh start|stop|kill|restart 1|2" >&2; exit 1; }
exec "$(dirname "$0")/ctl.sh" "$1" "node$2"
