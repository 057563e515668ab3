"""Shared by the bench scripts: what the stack itself did during a run.

cpu_seconds(): CPU time (user + system, all threads) of every process the stack started,
read from var/run/<component>.pid and /proc/<pid>/stat, with the processes it forked (nginx's
workers, the public entry's per-connection relays; reaped children through cutime/cstime);
subtract two snapshots to see where a run's CPU went (the bench client is reported as
"bench client").

node_timer(port, name): a Micrometer timer's SLO buckets from a node's /actuator/prometheus
({le_seconds: count} plus "count" and "sum"); subtract two snapshots to get the run's share.
scrape(port) reads a node's metrics once, for timer_of() and gauge_of() to pick several from."""
import os
import re
import urllib.request

from api import ports
from ports_env import management, where  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid):
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3 of stat); utime, stime, cutime and cstime are fields 14-17:
    # the last two are the children it has reaped, so a relay that served a connection and
    # exited still counts.
    return sum(int(v) for v in fields[11:15]) / TICKS


def _children(pid):
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
            out.extend(int(c) for c in f.read().split())
    return out


def tree_cpu(pid, roots=(), cpu=_proc_cpu, children=_children):
    """CPU seconds of PID and of its live descendants, leaving out those in ROOTS (processes with
    a pid file of their own, counted under their own name). A process in the pid file is often
    not the one that works: nginx's master sleeps while its workers serve, the public entry
    (socat) forks a relay per connection. A descendant that exits meanwhile is skipped; its
    time moves to its parent's cutime once reaped."""
    total, todo = cpu(pid), children(pid)
    while todo:
        child = todo.pop()
        if child in roots:
            continue
        try:
            total += cpu(child)
            todo.extend(children(child))
        except (OSError, ValueError):
            continue
    return total


def cpu_seconds():
    """{component: CPU seconds so far} for every live process with a pid file (and what it
    forked), plus this client."""
    run = os.path.join(ports()["VAR"], "run")
    pids = {}
    for name in sorted(os.listdir(run)) if os.path.isdir(run) else []:
        if not name.endswith(".pid"):
            continue
        try:
            with open(os.path.join(run, name), encoding="ascii") as f:
                pids[name[:-4]] = int(f.read().strip())
        except (OSError, ValueError):
            continue  # unreadable: not part of this run
    out, roots = {}, set(pids.values())
    for name, pid in pids.items():
        try:
            out[name] = tree_cpu(pid, roots)
        except (OSError, ValueError):
            continue  # not running (stale pid file): not part of this run
    t = os.times()
    out["bench client"] = t.user + t.system
    return out


def cpu_delta(before, after):
    """[(component, CPU seconds during the run)], busiest first; components in both snapshots."""
    rows = [(k, after[k] - before[k]) for k in after if k in before]
    return sorted(rows, key=lambda r: -r[1])


_LINE = re.compile(r'^(?P<metric>[a-z_]+)(?:\{(?P<labels>[^}]*)\})? (?P<value>\S+)$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def scrape(port):
    """[(metric, {label: value}, value)]: one read of the /actuator/prometheus of the app node
    whose API port is PORT."""
    with urllib.request.urlopen(f"http://{management(port)}/actuator/prometheus", timeout=10) as r:
        return parse(r.read().decode())


def parse(text):
    """[(metric, {label: value}, value)] of Prometheus text; comments and odd lines left out."""
    out = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        try:
            out.append((m["metric"], dict(_LABEL.findall(m["labels"] or "")), float(m["value"])))
        except ValueError:
            continue
    return out


def timer_of(samples, name, **labels):
    """{"count": n, "sum": seconds, le: cumulative count for each SLO bucket} of the timer NAME
    in SAMPLES (from scrape()), among its series those whose tags include LABELS."""
    out = {}
    for metric, tags, value in samples:
        if not metric.startswith(name) or any(tags.get(k) != v for k, v in labels.items()):
            continue
        suffix = metric[len(name):]
        if suffix in ("_count", "_sum"):
            out[suffix[1:]] = value
        elif suffix == "_bucket" and tags.get("le", "+Inf") != "+Inf":
            out[float(tags["le"])] = value
    return out


def gauge_of(samples, name):
    """The value of the first series of NAME in SAMPLES (from scrape()); nan when absent."""
    for metric, _, value in samples:
        if metric == name:
            return value
    return float("nan")


def node_timer(port, name):
    """{"count": n, "sum": seconds, le: cumulative count for each SLO bucket} of one timer."""
    return timer_of(scrape(port), name)


def node_gauge(port, name):
    """One gauge's value from a node's /actuator/prometheus (the first series of that name)."""
    return gauge_of(scrape(port), name)


def timer_delta(before, after):
    return {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
