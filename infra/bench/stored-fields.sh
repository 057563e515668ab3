#!/usr/bin/env bash
# make bench-stored-fields: the same pages with stored fields uncompressed (HanwikiCodec, ADR 0098)
# and LZ4 (Lucene's default), searched in-process by SearchBench, alternating (docs/bench/search.md
# section 5). Copies INDEX (default node1's) twice into var/bench/, each merged to one segment, so
# that the two differ in nothing but the stored-fields format; the copies are deleted at the end.
#   INDEX=path  the index to copy (read only: a running node's index is fine)
#   RUNS=N      runs per format, alternating (default 2)   QUERIES=N ROUNDS=N  as bench-search (50, 2)
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cd "$HANWIKI_ROOT"
index="${INDEX:-$HANWIKI_VAR/node1/index}"
compgen -G "$index/segments_*" >/dev/null || die "no index at $index: make up (and make seed)"
work="$HANWIKI_VAR/bench/stored-fields"
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work/raw" "$work/lz4"' EXIT
prepare_test_classes
for c in hanwiki:raw default:lz4; do
  log "copying $index with the ${c%%:*} codec into $work/${c#*:} (one segment)"
  test_java -Xmx1g dev.hanwiki.search.CodecCopy --index "$index" --to "$work/${c#*:}" --codec "${c%%:*}"
done
log "sizes: uncompressed $(du -sh "$work/raw" | cut -f1) (stored fields $(du -ch "$work"/raw/*.fdt | tail -1 | cut -f1)), LZ4 $(du -sh "$work/lz4" | cut -f1) (stored fields $(du -ch "$work"/lz4/*.fdt | tail -1 | cut -f1))"
for i in $(seq 1 "${RUNS:-2}"); do
  for k in $([ $((i % 2)) -eq 1 ] && echo "raw lz4" || echo "lz4 raw"); do
    log "run $i, $k (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    test_java -Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=50 dev.hanwiki.search.SearchBench --root . \
      --index "$work/$k" --queries "${QUERIES:-50}" --rounds "${ROUNDS:-2}" --out "$work/$k-$i.md" 2> "$work/$k-$i.log" >/dev/null
    grep ' qps ' "$work/$k-$i.log" | sed "s/^/  $k $i  /"
  done
done
python3 - "$work" <<'PY'
import glob, os, re, sys, statistics
work = sys.argv[1]
qps = {}
for path in glob.glob(os.path.join(work, "*-*.log")):
    kind = os.path.basename(path).split("-")[0]
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(.+?)\s+a0\s+\d+ qps\s+a\s+(\d+) qps\s+b\s+(\d+) qps", line)
        if m:
            qps.setdefault(m.group(1).strip(), {}).setdefault(kind, []).append((int(m.group(2)), int(m.group(3))))
print("\nservice path (b), one thread, QPS: mean over runs (uncompressed / LZ4)")
print(f"{'class':32} {'uncompressed':>12} {'LZ4':>8} {'ratio':>6}")
for cls, by in qps.items():
    r = statistics.mean(b for _, b in by.get("raw", [(0, 0)]))
    z = statistics.mean(b for _, b in by.get("lz4", [(0, 1)]))
    print(f"{cls:32} {r:12.0f} {z:8.0f} {r / z:6.2f}")
PY
