#!/usr/bin/env bash
# make common-terms: regenerate app/src/main/resources/search/common-terms.txt (the terms that
# get word pairs in the index, ADR 0024) from the body-term document frequencies of node1's
# index (CommonTermsExport; read-only, the node may keep running). Then bump PostIndex.FORMAT and
# the checksum in CommonGramsTest: the nodes rebuild their indexes from the change topic.
#   MIN_SHARE=f   list every term on at least this share of the pages (default 0.05)
#   INDEX=dir     the index to read (default var/node1/index: the 1M-page corpus for a real list)
#   OUT=file      where to write it (default the list in app/src/main/resources/search/)
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
prepare_test_classes
test_java dev.hanwiki.search.CommonTermsExport --root . --index "${INDEX:-$HANWIKI_VAR/node1/index}" --min-share "${MIN_SHARE:-0.05}" \
  --out "${OUT:-app/src/main/resources/search/common-terms.txt}"
