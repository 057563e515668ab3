#!/usr/bin/env python3
"""What the stack's processes do during a k6 run, sampled every INTERVAL s into a CSV
(time, series, value) until the watched process (k6) exits or SIGTERM arrives.

Series:
  cpu:<component>   CPU seconds so far (user + system) of the process in var/run/<component>.pid
                    and all its descendants (nginx's workers, for one); the report turns them into
                    cores used per interval. `cpu:k6` is the load generator itself.
  rss:<component>   resident memory in bytes, same processes
  binlog_bytes      total size of the primary's binary logs (SHOW BINARY LOGS); the exporter does
                    not collect it by default, so it is read here
Prometheus covers the rest (heap, pools, Redis memory, consumer lag); see load_report.py."""
import argparse
import csv
import os
import signal
import subprocess
import sys
import time

from api import ports

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def proc_table():
    """{pid: (ppid, cpu seconds, rss bytes)} of every process."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields[0] is field 3 (state): ppid is field 4, utime/stime 14/15, rss 24.
        out[int(d)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, int(fields[21]) * PAGE)
    return out


def components(run_dir, extra):
    pids = dict(extra)
    for name in sorted(os.listdir(run_dir)) if os.path.isdir(run_dir) else []:
        if name.endswith(".pid"):
            try:
                pids[name[:-4]] = int(open(os.path.join(run_dir, name), encoding="ascii").read().strip())
            except (OSError, ValueError):
                pass
    return pids


def tree_totals(table, root):
    children = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    cpu = rss = 0.0
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in table:
            cpu += table[pid][1]
            rss += table[pid][2]
            stack += children.get(pid, [])
    return cpu, rss


def binlog_bytes(env):
    sock = os.path.join(env["VAR"], "mariadb", "primary", "mysqld.sock")
    try:
        out = subprocess.run(["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B", "-e", "SHOW BINARY LOGS"],
                             capture_output=True, text=True, timeout=5, check=True).stdout
        return sum(int(line.split("\t")[1]) for line in out.splitlines() if line)
    except (subprocess.SubprocessError, OSError, IndexError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--interval", type=float, default=5)
    ap.add_argument("--watch", type=int, help="stop when this pid exits (k6)")
    args = ap.parse_args()
    env = ports()
    run_dir = os.path.join(env["VAR"], "run")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    extra = {"k6": args.watch} if args.watch else {}
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["time", "series", "value"])
        while not stop:
            t = time.time()
            table = proc_table()
            for name, pid in components(run_dir, extra).items():
                if pid in table:
                    cpu, rss = tree_totals(table, pid)
                    w.writerow([f"{t:.3f}", f"cpu:{name}", f"{cpu:.2f}"])
                    w.writerow([f"{t:.3f}", f"rss:{name}", f"{rss:.0f}"])
            b = binlog_bytes(env)
            if b is not None:
                w.writerow([f"{t:.3f}", "binlog_bytes", b])
            load1 = os.getloadavg()[0]
            w.writerow([f"{t:.3f}", "loadavg1", f"{load1:.2f}"])
            f.flush()
            if args.watch and args.watch not in table:
                break
            time.sleep(max(0.0, args.interval - (time.time() - t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
