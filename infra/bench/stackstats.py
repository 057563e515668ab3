"""Shared by the bench scripts: what the stack itself did during a run.

cpu_seconds(): CPU time (user + system, all threads) of every process the stack started,
read from var/run/<component>.pid and /proc/<pid>/stat; subtract two snapshots to see where a
run's CPU went (the bench client is reported as "bench client").

node_timer(port, name): a Micrometer timer's SLO buckets from a node's /actuator/prometheus
({le_seconds: count} plus "count" and "sum"); subtract two snapshots to get the run's share."""
import os
import re
import urllib.request

from api import ports
from ports_env import management, where  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid):
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3 of stat); utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / TICKS


def cpu_seconds():
    """{component: CPU seconds so far} for every live process with a pid file, plus this client."""
    run = os.path.join(ports()["VAR"], "run")
    out = {}
    for name in sorted(os.listdir(run)) if os.path.isdir(run) else []:
        if not name.endswith(".pid"):
            continue
        try:
            with open(os.path.join(run, name), encoding="ascii") as f:
                out[name[:-4]] = _proc_cpu(int(f.read().strip()))
        except (OSError, ValueError):
            continue  # not running (stale pid file) or unreadable: not part of this run
    t = os.times()
    out["bench client"] = t.user + t.system
    return out


def cpu_delta(before, after):
    """[(component, CPU seconds during the run)], busiest first; components in both snapshots."""
    rows = [(k, after[k] - before[k]) for k in after if k in before]
    return sorted(rows, key=lambda r: -r[1])


_LINE = re.compile(r'^(?P<metric>[a-z_]+)(?:\{(?P<labels>[^}]*)\})? (?P<value>\S+)$')


def node_timer(port, name):
    """{"count": n, "sum": seconds, le: cumulative count for each SLO bucket} of one timer."""
    with urllib.request.urlopen(f"http://{management(port)}/actuator/prometheus", timeout=10) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m or not m["metric"].startswith(name):
            continue
        suffix = m["metric"][len(name):]
        if suffix in ("_count", "_sum"):
            out[suffix[1:]] = float(m["value"])
        elif suffix == "_bucket":
            le = re.search(r'le="([^"]+)"', m["labels"] or "")
            if le and le[1] != "+Inf":
                out[float(le[1])] = float(m["value"])
    return out


def node_gauge(port, name):
    """One gauge's value from a node's /actuator/prometheus (the first series of that name)."""
    with urllib.request.urlopen(f"http://{management(port)}/actuator/prometheus", timeout=10) as r:
        for line in r.read().decode().splitlines():
            m = _LINE.match(line)
            if m and m["metric"] == name:
                return float(m["value"])
    return float("nan")


def timer_delta(before, after):
    return {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
