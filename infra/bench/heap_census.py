#!/usr/bin/env python3
"""Class histograms of the running nodes at fixed times during a load run: the soak's leak test.

    python3 infra/bench/heap_census.py --out DIR [--first 300] [--every 1800] [--watch PID]
    (make load PROFILE=soak runs it; CENSUS_EVERY=0 turns it off, CENSUS_EVERY=N sets the period
    for any profile)

"Heap after GC" (the report's series from Prometheus) moves only when an old-generation
collection ends, a few times an hour at soak rates, so a line through it is decided by where
those few steps fall (docs/bench/load/README.md, "The soak's heap drift, examined"). A census
asks each node for `jcmd <pid> GC.class_histogram`, which first runs a full collection: its
total is the live heap at that moment, comparable from one census to the next, and its rows say
which classes grew. The first census comes FIRST seconds into the run (start-up data has gone by
then), the next ones every EVERY seconds: 1800 by default, the period of the connection pools'
replacement (Hikari's maxLifetime), so each census meets the pools in the same phase.

Writes DIR/<node>-<seconds into the run>.txt (jcmd's text) and DIR/census.csv (time, node,
live_bytes, instances, seconds the census took); load_report.py judges them. A full collection
pauses the node (a census took 0.4-0.6 s per node in all in the 100-minute soak of session 22,
attach included): the run's latency figures include that, once per EVERY.
"""
import argparse
import csv
import os
import re
import signal
import sys
import time

from api import ports
from jfr import jcmd, node_pid

NODES = ("node1", "node2")
ROW = re.compile(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)")
HIDDEN = re.compile(r"/0x[0-9a-f]+")  # a lambda's or proxy's address: differs per JVM, says nothing
TOTAL = re.compile(r"^Total\s+(\d+)\s+(\d+)")


def parse(text):
    """jcmd GC.class_histogram's text -> (total bytes, total instances, {class: (instances, bytes)})."""
    classes, total = {}, None
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            instances, size, name = int(m.group(1)), int(m.group(2)), HIDDEN.sub("", m.group(3))
            old = classes.get(name, (0, 0))  # one name: several loaders, or lambdas of one site
            classes[name] = (old[0] + instances, old[1] + size)
            continue
        m = TOTAL.match(line)
        if m:
            total = (int(m.group(2)), int(m.group(1)))
    if total is None:
        raise ValueError("no Total line: not a class histogram")
    return total[0], total[1], classes


def growth(before, after, top=15):
    """Classes whose bytes grew most between two parsed histograms: [(class, d_bytes, d_instances)]."""
    rows = []
    for name in set(before) | set(after):
        b, a = before.get(name, (0, 0)), after.get(name, (0, 0))
        rows.append((name, a[1] - b[1], a[0] - b[0]))
    rows.sort(key=lambda r: (-r[1], r[0]))
    return [r for r in rows[:top] if r[1] > 0]


def take(env, out_dir, start, writer):
    for node in NODES:
        try:
            pid = node_pid(env, node)
        except SystemExit as e:
            print(f"census: {e}", file=sys.stderr)
            continue
        t0 = time.time()
        try:
            text = jcmd(pid, "GC.class_histogram")
        except (SystemExit, OSError) as e:  # a node restarting mid-run: skip this census, keep going
            print(f"census: {node}: {e}", file=sys.stderr)
            continue
        took = time.time() - t0
        at = int(t0 - start)
        with open(os.path.join(out_dir, f"{node}-{at:06d}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        live, instances, _ = parse(text)
        writer.writerow([f"{t0:.3f}", node, live, instances, f"{took:.2f}"])
        print(f"census {node} at {at} s: {live / 1e6:.1f} MB live, {instances} objects ({took:.1f} s)", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="directory for the histograms and census.csv")
    ap.add_argument("--first", type=float, default=300, help="seconds into the run of the first census")
    ap.add_argument("--every", type=float, default=1800, help="seconds between censuses")
    ap.add_argument("--watch", type=int, help="stop when this pid exits (k6)")
    args = ap.parse_args()
    if args.every <= 0:
        raise SystemExit("--every must be positive")
    env = ports()
    os.makedirs(args.out, exist_ok=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    start = time.time()
    due = start + args.first
    with open(os.path.join(args.out, "census.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["time", "node", "live_bytes", "instances", "took_s"])
        while not stop:
            if args.watch:
                try:
                    os.kill(args.watch, 0)
                except OSError:
                    break
            if time.time() >= due:
                take(env, args.out, start, w)
                f.flush()
                due += args.every
            time.sleep(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
