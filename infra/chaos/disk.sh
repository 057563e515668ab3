#!/usr/bin/env bash
# The full disk of the chaos scenario disk-full (issue 16, scenario 13). The primary's data
# directory (tables, redo log, binlogs) lives on the machine's one big filesystem, which cannot
# be filled without starving every other process; so the scenario moves it, for the run, onto a
# filesystem of its own that holds it with a little room to spare, and fills that.
#   infra/chaos/disk.sh setup      stop the primary (clean shutdown), copy its data directory
#                                  onto an ext4 image (its size + HEADROOM_MB, default 128) that
#                                  is loop-mounted and bind-mounted over the data directory, start
#                                  it; node-exporter-a restarted to see the new filesystem
#   infra/chaos/disk.sh fill       a filler file takes every free byte of that filesystem
#   infra/chaos/disk.sh free       the filler removed (MariaDB notices within a minute: it retries
#                                  a write that met a full disk once every 60 s)
#   infra/chaos/disk.sh teardown   stop the primary, copy the data directory back onto the big
#                                  filesystem, unmount, remove the image, start the primary
#   infra/chaos/disk.sh status     whether the data directory is on the image, and its use
# Teardown is what to run after an interrupted scenario: it works from any step of setup.
set -euo pipefail
. "$(dirname "$0")/../lib/stack.sh"
ensure_secrets

DATA="$(db_dir primary)/data"
WORK="$VAR/chaos/disk-full"
IMAGE="$WORK/disk.img"
MNT="$WORK/mnt"
FILLER="$DATA/chaos-disk-filler"
HEADROOM_MB="${HEADROOM_MB:-128}"

on_image() { mountpoint -q "$DATA"; }
image_mounted() { mountpoint -q "$MNT"; }

ctl() { bash "$HANWIKI_ROOT/infra/ctl.sh" "$@"; }

setup() {
  on_image && die "the primary's data directory is already on the image: run infra/chaos/disk.sh teardown first"
  command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is needed (apt: e2fsprogs)"
  ctl stop mariadb-primary
  mkdir -p "$MNT"
  local mb; mb=$(( $(du -sm "$DATA" | cut -f1) + HEADROOM_MB ))
  log "copying the primary's data directory onto a ${mb} MB ext4 image ($IMAGE)"
  rm -f "$IMAGE"; truncate -s "${mb}M" "$IMAGE"
  # -m 0: no blocks reserved for root (MariaDB runs as mysql, so it could not use them anyway).
  mkfs.ext4 -q -F -m 0 "$IMAGE"
  mount -o loop "$IMAGE" "$MNT"
  rmdir "$MNT/lost+found"   # MariaDB would list it as a database
  rsync -a "$DATA/" "$MNT/"
  mount --bind "$MNT" "$DATA"
  ctl start mariadb-primary
  # Host A's node exporter lives in its own mount namespace, copied at its start: restarted, it
  # reports the new filesystem (DiskFull, DiskAlmostFull).
  ctl restart node-exporter-a >/dev/null 2>&1 || warn "node-exporter-a did not restart: no disk alerts for this run"
  ok "the primary's data directory is on its own $(df -h --output=size "$DATA" | tail -1 | tr -d ' ') filesystem"
}

fill() {
  on_image || die "the data directory is not on the image: run infra/chaos/disk.sh setup first"
  local avail; avail=$(df -B1 --output=avail "$DATA" | tail -1 | tr -d ' ')
  [ "$avail" -gt 0 ] && fallocate -l "$avail" "$FILLER" 2>/dev/null || true
  # fallocate leaves what metadata needs; a write tops it up to the last block.
  dd if=/dev/zero of="$FILLER" bs=4k oflag=append conv=notrunc status=none 2>/dev/null || true
  ok "the primary's disk is full: $(df -h --output=used,avail,pcent "$DATA" | tail -1)"
}

free_space() {
  rm -f "$FILLER"
  ok "space back on the primary's disk: $(df -h --output=avail "$DATA" | tail -1 | tr -d ' ') free"
}

# Best effort, each step whatever the one before did: it also runs after a failed scenario.
teardown() {
  rm -f "$FILLER" 2>/dev/null || true
  if on_image; then
    ctl stop mariadb-primary || die "the primary did not stop: its data is still on the image ($IMAGE)"
    umount "$DATA"
  fi
  if image_mounted; then
    log "copying the primary's data directory back"
    rsync -a --delete --exclude chaos-disk-filler "$MNT/" "$DATA/"
    umount "$MNT"
  fi
  rm -f "$IMAGE"
  running mariadb-primary || ctl start mariadb-primary
  ctl restart node-exporter-a >/dev/null 2>&1 || true
  ok "the primary's data directory is back on the machine's filesystem"
}

status() {
  if on_image; then
    echo "on the image: $(df -h --output=size,used,avail,pcent "$DATA" | tail -1)"
  else
    echo "on the machine's filesystem (no chaos image mounted)"
  fi
}

case "${1:-}" in
  setup) setup ;;
  fill) fill ;;
  free) free_space ;;
  teardown) teardown ;;
  status) status ;;
  *) die "usage: infra/chaos/disk.sh setup|fill|free|teardown|status" ;;
esac
