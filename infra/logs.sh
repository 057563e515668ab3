#!/usr/bin/env bash
# Follows every component's log (or only those named: infra/logs.sh node1 kafka).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
if [ $# -gt 0 ]; then files=(); for n in "$@"; do files+=("$LOGS/$n.log"); done
else files=("$LOGS"/*.log); fi
exec tail -n 20 -F "${files[@]}"
