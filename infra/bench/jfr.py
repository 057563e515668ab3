#!/usr/bin/env python3
"""JFR recordings of the running nodes, and their summary (issue 14: where the CPU goes).

    python3 infra/bench/jfr.py SECONDS [--nodes node1,node2] [--tag TAG]
    (make profile-nodes SECONDS=60)

records SECONDS of JFR ("profile" settings: Java samples every 10-20 ms, per-thread CPU load)
on each node while whatever load you run goes on, then prints JfrSummary's view of each
recording: the process's CPU, CPU per thread group, and per busy thread group the methods on
its stacks. The recordings stay in var/bench/jfr/ for `jfr` or JDK Mission Control.

bench-write-cost --jfr uses start()/stop() around its window. JFR itself costs a node about
1-2% of its CPU at these settings.

The nodes run as the service user; jcmd attaches as that user, with the node's own JDK.
"""
import argparse
import os
import pwd
import shutil
import subprocess
import sys
import time

from api import ports
from writes import loadavg

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARY = os.path.join(HERE, "JfrSummary.java")
SHARED = "/tmp/hanwiki-jfr"  # writable by the nodes' user; recordings are moved to var/ after


def node_pid(env, node):
    path = os.path.join(env["VAR"], "run", f"{node}.pid")
    try:
        with open(path, encoding="utf-8") as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        raise SystemExit(f"{node} is not running (no live pid in {path}); make up")


def jdk_bin(pid, tool):
    """The node's own JDK's tool (jcmd, java): the one that can attach to it."""
    return os.path.join(os.path.dirname(os.path.realpath(f"/proc/{pid}/exe")), tool)


def jcmd(pid, *command):
    user = pwd.getpwuid(os.stat(f"/proc/{pid}").st_uid).pw_name
    out = subprocess.run(["runuser", "-u", user, "--", jdk_bin(pid, "jcmd"), str(pid), *command],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"jcmd {pid} {' '.join(command)} failed: {out.stdout}{out.stderr}")
    return out.stdout


def start(env, nodes, tag, delay=0):
    """Starts a recording named TAG on each node, DELAY seconds from now; returns {node: (pid,
    file in SHARED)}."""
    os.makedirs(SHARED, exist_ok=True)
    os.chmod(SHARED, 0o1777)
    started = {}
    for node in nodes:
        pid = node_pid(env, node)
        path = os.path.join(SHARED, f"{tag}-{node}.jfr")
        jcmd(pid, "JFR.start", f"name={tag}", "settings=profile", f"filename={path}",
             *([f"delay={int(round(delay))}s"] if delay >= 1 else []))
        started[node] = (pid, path)
    return started


def stop(env, started, tag):
    """Stops the recordings and moves them to var/bench/jfr/; returns their paths."""
    out_dir = os.path.join(env["VAR"], "bench", "jfr")
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for node, (pid, path) in started.items():
        jcmd(pid, "JFR.stop", f"name={tag}")
        dest = os.path.join(out_dir, os.path.basename(path))
        shutil.move(path, dest)
        paths.append(dest)
    return paths


def summarise(pid, paths, top=25):
    """JfrSummary's text for the recordings (run with the node's JDK, as a source file)."""
    out = subprocess.run([jdk_bin(pid, "java"), SUMMARY, "--top", str(top), *paths],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"JfrSummary failed: {out.stderr}")
    return out.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", type=float, help="how long to record")
    ap.add_argument("--nodes", default="node1,node2")
    ap.add_argument("--tag", default=time.strftime("profile-%Y%m%dT%H%M%SZ", time.gmtime()))
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    env = ports()
    nodes = args.nodes.split(",")
    started = start(env, nodes, args.tag)
    print(f"recording {args.seconds:g} s on {', '.join(nodes)} (load average {' '.join(loadavg())})",
          file=sys.stderr)
    time.sleep(args.seconds)
    paths = stop(env, started, args.tag)
    print(summarise(next(iter(started.values()))[0], paths, args.top))
    print("recordings: " + " ".join(paths))


if __name__ == "__main__":
    main()
