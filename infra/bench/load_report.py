#!/usr/bin/env python3
"""The report of one k6 run (infra/k6.sh calls it; docs/bench/load/README.md says how to read it).

Reads the run directory infra/k6.sh filled (run.txt, k6.csv.gz: k6's time series, summary.json,
stack.csv: infra/bench/load_sampler.py's CPU and binlog samples) plus Prometheus' series over the
run's time range (HTTP API, query_range), and writes into OUT:
  report.md      per endpoint: count, p50/p95/p99/max, errors by status; CPU per process; the
                 breakpoint (last good rate) or drift verdicts; the plots
  summary.json   k6's end-of-test summary (small; the raw time series stays in var/)
  *.png          latency percentiles over time per endpoint, throughput, errors by status, CPU
                 of every stack process, JVM heap and DB pools, resources with their drift;
                 with census/ (infra/bench/heap_census.py, the soak's class histograms) the live
                 heap at each census, its verdict and the classes that grew
Run it again on a run directory to redo a report: load_report.py --run var/load/runs/X --out DIR."""
import argparse
import csv
import gzip
import json
import math
import os
import shutil
import sys
import time
import urllib.parse
import urllib.request
from collections import Counter, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from api import ports  # noqa: E402
from heap_census import growth, parse as parse_histogram  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import ports_env  # noqa: E402

P95_LIMIT_MS = 100.0
ERROR_LIMIT = 0.001


# --- inputs --------------------------------------------------------------------------------

def read_run_txt(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        for part in line.split():
            if "=" in part:
                k, v = part.split("=", 1)
                out[k] = v
    # loadavg_before=0.1 0.2 0.3 was split on spaces: keep the 1-minute figure and the rest
    return out


def read_loadavg(path):
    vals = {}
    for line in open(path, encoding="utf-8"):
        for key in ("loadavg_before=", "loadavg_after="):
            if key in line:
                vals[key[:-1]] = " ".join(line.split(key, 1)[1].split()[:3])
    return vals


class Samples:
    """k6's HTTP samples as arrays: time, endpoint, duration (ms), status, expected."""

    def __init__(self, path):
        ts, dur, ep, st, ok = [], [], [], [], []
        self.vus = []  # (time, vus)
        names = {}
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                m = row["metric_name"]
                if m == "http_req_duration":
                    name = row.get("name") or "?"
                    t = float(row["timestamp"])
                    while t > 1e11:  # unix_milli/micro/nano time formats
                        t /= 1000
                    ts.append(t)
                    dur.append(float(row["metric_value"]))
                    ep.append(names.setdefault(name, len(names)))
                    st.append(int(row["status"] or 0))
                    ok.append(row.get("expected_response") == "true")
                elif m == "vus":
                    t = float(row["timestamp"])
                    while t > 1e11:
                        t /= 1000
                    self.vus.append((t, float(row["metric_value"])))
        # Codes in name order: tables and plots list endpoints alphabetically.
        order = sorted(names)
        recode = np.array([order.index(n) for n in sorted(names, key=names.get)], dtype=int)
        self.endpoints = order
        self.t = np.array(ts)
        self.ms = np.array(dur)
        self.ep = recode[np.array(ep, dtype=int)] if ep else np.array([], dtype=int)
        self.status = np.array(st, dtype=int)
        self.ok = np.array(ok, dtype=bool)


def read_stack(path):
    """{series: (times, values)} from load_sampler.py's CSV."""
    series = defaultdict(lambda: ([], []))
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            s = series[row["series"]]
            s[0].append(float(row["time"]))
            s[1].append(float(row["value"]))
    return {k: (np.array(v[0]), np.array(v[1])) for k, v in series.items()}


def prometheus(env, query, start, end, step):
    """[(labels, times, values)] of a range query; [] if Prometheus does not answer."""
    host = ports_env.addr(env, "PROMETHEUS")
    qs = urllib.parse.urlencode({"query": query, "start": start, "end": end, "step": step})
    try:
        with urllib.request.urlopen(f"http://{host}:{env['PROMETHEUS_PORT']}/api/v1/query_range?{qs}", timeout=20) as r:
            data = json.load(r)["data"]["result"]
    except (OSError, ValueError, KeyError) as e:
        print(f"  prometheus: {query}: {e}", file=sys.stderr)
        return []
    out = []
    for s in data:
        vals = [(float(t), float(v)) for t, v in s["values"] if v not in ("NaN", "+Inf", "-Inf")]
        if vals:
            out.append((s["metric"], np.array([v[0] for v in vals]), np.array([v[1] for v in vals])))
    return out


class SavedPrometheus:
    """Prometheus' series of a run, kept in the run directory (prometheus.json) the first time a
    report gets them, so that redrawing the report later (load_report.py --run DIR --out DIR)
    does not need the stack, or Prometheus' retention, to still hold them."""

    def __init__(self, run, env):
        self.path = os.path.join(run, "prometheus.json")
        self.env = env
        self.saved = None
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                self.saved = json.load(f)
        self.fetched = {}

    def query(self, expr, start, end, step):
        if self.saved is not None and expr in self.saved:
            return [(m, np.array(t), np.array(v)) for m, t, v in self.saved[expr]]
        result = prometheus(self.env, expr, start, end, step)
        self.fetched[expr] = [(m, t.tolist(), v.tolist()) for m, t, v in result]
        return result

    def save(self):
        """Writes what was fetched, if Prometheus answered with anything (an empty answer is a
        stack that is down, not the run's series)."""
        if any(self.fetched.values()):
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump({**(self.saved or {}), **self.fetched}, f)


# --- statistics ----------------------------------------------------------------------------

def cache_hits(series):
    """Reads per cache region and tier over the run from cumulative counters: [(region, {tier: n}, hit share)].

    series: [("region tier", times, values)] of hanwiki_cache_gets_total summed over the nodes. A
    counter that went down (a node restarted) counts from its reset.
    """
    by_region = defaultdict(dict)
    for label, _, v in series:
        region, _, tier = label.partition(" ")
        n = 0.0
        for a, b in zip(v[:-1], v[1:]):
            n += b - a if b >= a else b
        by_region[region][tier] = by_region[region].get(tier, 0.0) + n
    rows = []
    for region in sorted(by_region):
        tiers = by_region[region]
        total = sum(tiers.values())
        hits = tiers.get("l1", 0.0) + tiers.get("l2", 0.0)
        rows.append((region, tiers, hits / total if total else float("nan")))
    return rows


def pct(a, p):
    return float(np.percentile(a, p)) if len(a) else float("nan")


def windows(s, width):
    t0 = s.t.min()
    idx = ((s.t - t0) // width).astype(int)
    return t0, idx, int(idx.max()) + 1


def endpoint_table(s, seconds):
    rows = []
    for i, name in enumerate(s.endpoints):
        m = s.ep == i
        ms = s.ms[m]
        statuses = Counter(s.status[m].tolist())
        bad = Counter(s.status[m & ~s.ok].tolist())
        rows.append({
            "endpoint": name, "count": int(m.sum()), "rate": m.sum() / seconds,
            "p50": pct(ms, 50), "p95": pct(ms, 95), "p99": pct(ms, 99), "max": float(ms.max()) if len(ms) else float("nan"),
            "failed": int((m & ~s.ok).sum()),
            "statuses": ", ".join(f"{k}: {v}" + (" (failed)" if k in bad and bad[k] == v else "") for k, v in sorted(statuses.items())),
        })
    m = np.ones(len(s.t), dtype=bool)
    rows.append({"endpoint": "**all**", "count": len(s.t), "rate": len(s.t) / seconds, "p50": pct(s.ms, 50),
                 "p95": pct(s.ms, 95), "p99": pct(s.ms, 99), "max": float(s.ms.max()) if len(s.ms) else float("nan"),
                 "failed": int((~s.ok).sum()), "statuses": ", ".join(f"{k}: {v}" for k, v in sorted(Counter(s.status[m].tolist()).items()))})
    return rows


def breakpoint(s, width=10.0, min_requests=50):
    """Per window: achieved rate, p95, error share. The breaking window is the first with p95 >
    100 ms or errors > 0.1% (and enough requests to say so); the last good rate is the highest
    rate of the windows before it."""
    t0, idx, n = windows(s, width)
    rows = []
    for w in range(n):
        m = idx == w
        c = int(m.sum())
        if c == 0:
            continue
        # the last window ends with the run: its rate is over the part of it the run lasted
        span = min(width, max(1.0, float(s.t.max()) - (t0 + w * width))) if w == n - 1 else width
        rows.append({"t": t0 + w * width, "rate": c / span, "p95": pct(s.ms[m], 95),
                     "errors": float((~s.ok[m]).sum()) / c, "count": c})
    broke = None
    # The last window is partial; it still counts when it crossed with enough requests: k6 aborts
    # a breakpoint run on its thresholds, so the crossing is often in that last window.
    for r in rows:
        if r["count"] >= min_requests and (r["p95"] > P95_LIMIT_MS or r["errors"] > ERROR_LIMIT):
            broke = r
            break
    good = [r for r in rows[:-1] if broke is None or r["t"] < broke["t"]]
    last_good = max((r["rate"] for r in good), default=float("nan"))
    return rows, broke, last_good


def overload(s, width=10.0):
    """The overload profile's figures (ADR 0093): a 503 is a shed request (k6/lib/api.js counts a
    503 that is not OVERLOADED as unexpected, in summary.json); everything else was admitted.
    Per window: offered rate, admitted rate, shed share, admitted p95."""
    shed = s.status == 503
    adm = ~shed
    n = len(s.t)
    seconds = max(1.0, float(s.t.max() - s.t.min())) if n else 1.0
    figs = {
        "requests": n, "rate": n / seconds, "shed": int(shed.sum()), "shed_share": float(shed.sum()) / max(n, 1),
        "admitted": int(adm.sum()), "admitted_rate": float(adm.sum()) / seconds,
        "admitted_p50": pct(s.ms[adm], 50), "admitted_p95": pct(s.ms[adm], 95), "admitted_p99": pct(s.ms[adm], 99),
        "admitted_max": float(s.ms[adm].max()) if adm.any() else float("nan"),
        "shed_p50": pct(s.ms[shed], 50), "shed_p95": pct(s.ms[shed], 95),
        "shed_max": float(s.ms[shed].max()) if shed.any() else float("nan"),
        "max": float(s.ms.max()) if n else float("nan"), "over_1s": int((s.ms > 1000.0).sum()),
        "failed_other": int((~s.ok & ~shed).sum()),
    }
    rows = []
    if n:
        t0, idx, nw = windows(s, width)
        for w in range(nw):
            m = idx == w
            c = int(m.sum())
            if c == 0:
                continue
            a = m & adm
            rows.append({"t": t0 + w * width, "rate": c / width, "admitted_rate": int(a.sum()) / width,
                         "shed_share": float((m & shed).sum()) / c, "admitted_p95": pct(s.ms[a], 95)})
    return figs, rows


def overload_verdict(figs):
    """What the issue asks at twice the breakpoint: admitted p95 < 100 ms, nothing waits 1 s,
    nothing fails but the shed requests."""
    checks = [
        (f"admitted p95 {figs['admitted_p95']:.0f} ms < {P95_LIMIT_MS:.0f} ms", figs["admitted_p95"] < P95_LIMIT_MS),
        (f"slowest answer {figs['max']:.0f} ms < 1000 ms", figs["max"] < 1000.0),
        (f"{figs['failed_other']} failures other than the shed 503s", figs["failed_other"] == 0),
    ]
    return all(ok for _, ok in checks), checks


def plot_overload(rows, start, path):
    fig, ax = plt.subplots(figsize=(11, 4.5))
    t = [rel(r["t"], start) for r in rows]
    ax.plot(t, [r["rate"] for r in rows], label="offered req/s", color="0.5")
    ax.plot(t, [r["admitted_rate"] for r in rows], label="admitted req/s", color="tab:green")
    ax.set_ylabel("requests/s")
    ax.set_xlabel("seconds into the run")
    ax2 = ax.twinx()
    ax2.plot(t, [r["admitted_p95"] for r in rows], label="admitted p95 (ms)", color="tab:blue")
    ax2.plot(t, [100 * r["shed_share"] for r in rows], label="shed %", color="tab:red", linestyle=":")
    ax2.axhline(P95_LIMIT_MS, color="red", linestyle="--", linewidth=0.8)
    ax2.set_ylabel("ms / %")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left", fontsize=8)
    ax.set_title("overload: offered and admitted rate, admitted p95 and shed share per 10 s window", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def cores_by_process(stack, start, end):
    """{component: (times, cores used)} and {component: CPU seconds during the run}."""
    series, totals = {}, {}
    for key, (t, v) in stack.items():
        if not key.startswith("cpu:"):
            continue
        name = key[4:]
        m = (t >= start - 1) & (t <= end + 1)
        t, v = t[m], v[m]
        if len(t) < 2:
            continue
        series[name] = (t[1:], np.diff(v) / np.diff(t))
        totals[name] = float(v[-1] - v[0])
    return series, totals


def drift(t, v, threshold, unit, kind="relative"):
    """A least-squares line through the series after its first 10% (warm-up); the verdict
    compares the fitted change over the run with the threshold."""
    if len(t) < 10 or t[-1] - t[0] < 1800:
        return None, "too short to judge (needs >= 30 min)"
    cut = t[0] + 0.1 * (t[-1] - t[0])
    m = t >= cut
    slope, intercept = np.polyfit(t[m] - t[0], v[m], 1)
    per_hour = slope * 3600
    change = slope * (t[m][-1] - t[m][0])
    if kind == "relative":
        base = max(abs(float(np.mean(v[m]))), 1e-9)
        verdict = "drifting" if change / base > threshold else "stable"
        text = f"{verdict}: {fmt(per_hour, unit)}/h, {100 * change / base:+.1f}% over the run (limit {100 * threshold:.0f}%)"
    else:
        verdict = "drifting" if change > threshold else "stable"
        text = f"{verdict}: {fmt(per_hour, unit)}/h, {fmt(change, unit)} over the run (limit {fmt(threshold, unit)})"
    return (slope, intercept, cut), text


def fmt(v, unit):
    if unit == "bytes":
        for u, d in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
            if abs(v) >= d:
                return f"{v / d:.2f} {u}"
        return f"{v:.0f} B"
    return f"{v:.2f} {unit}".strip()


# --- heap census (infra/bench/heap_census.py) ------------------------------------------------

CENSUS_GROWTH_LIMIT = 0.05


def read_census(run):
    """{node: [(time, live bytes, {class: (instances, bytes)})]}, oldest first, from run/census/
    (census.csv's rows and the histogram files, both in the order they were taken)."""
    d = os.path.join(run, "census")
    path = os.path.join(d, "census.csv")
    if not os.path.exists(path):
        return {}
    rows = defaultdict(list)
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows[r["node"]].append((float(r["time"]), int(r["live_bytes"])))
    out = {}
    for node, points in rows.items():
        files = sorted(n for n in os.listdir(d) if n.startswith(node + "-") and n.endswith(".txt"))
        if len(files) != len(points):
            raise SystemExit(f"{d}: {len(points)} censuses of {node} in census.csv but {len(files)} histogram files")
        out[node] = []
        for (t, live), name in zip(sorted(points), files):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                out[node].append((t, live, parse_histogram(f.read())[2]))
    return out


def census_verdict(points, limit=CENSUS_GROWTH_LIMIT):
    """points: [(time, live bytes)] of one node, oldest first. The first census still holds
    start-up data that goes later, so the judgement starts at the second: *growing* when the live
    heap rose in most periods since and by more than LIMIT of its value at the second census."""
    if len(points) < 4:
        return None, (f"too few censuses to judge ({len(points)}; needs 4: a first one, then two periods "
                      f"from the second)")
    base_t, base = points[1]
    last_t, last = points[-1]
    steps = [b[1] - a[1] for a, b in zip(points[1:], points[2:])]
    rises = sum(1 for d in steps if d > 0)
    change = (last - base) / base
    per_hour = (last - base) / max(last_t - base_t, 1.0) * 3600
    verdict = "growing" if change > limit and rises * 2 > len(steps) else "stable"
    return verdict, (f"{verdict}: {fmt(base, 'bytes')} -> {fmt(last, 'bytes')} from census 2 to {len(points)} "
                     f"({100 * change:+.1f}%, {fmt(per_hour, 'bytes')}/h), rose in {rises} of {len(steps)} periods "
                     f"(limit {100 * limit:.0f}%)")


def census_section(census, start, top=10):
    """Markdown: the live heap at each census, and the classes that grew most from the second
    census (the first when there are only two) to the last."""
    lines = ["## Heap census (class histograms)\n",
             "`jcmd <pid> GC.class_histogram` on both nodes (`infra/bench/heap_census.py`; each forces a full "
             "collection, so its total is the live heap). The first census still holds start-up data; a leak shows "
             "as growth from one census to the next after it, beyond what the run's new pages add.\n",
             "| node | " + " | ".join(f"census {i + 1}" for i in range(max(map(len, census.values())))) + " |",
             "|---|" + "---:|" * max(map(len, census.values()))]
    for node, pts in sorted(census.items()):  # each cell says its time: a node may have missed one
        lines.append(f"| {node} | " + " | ".join(f"{fmt(live, 'bytes')} at {(t - start) / 60:.0f} min" for t, live, _ in pts) + " |")
    for node, pts in sorted(census.items()):
        if len(pts) < 2:
            continue
        i = 1 if len(pts) > 2 else 0
        rows = growth(pts[i][2], pts[-1][2], top)
        lines.append(f"\n**{node}: the classes that grew most from census {i + 1} ({(pts[i][0] - start) / 60:.0f} min) "
                     f"to {len(pts)} ({(pts[-1][0] - start) / 60:.0f} min)**\n")
        lines.append("| class | bytes | instances |")
        lines.append("|---|---:|---:|")
        for name, d_bytes, d_instances in rows:
            lines.append(f"| `{name}` | {'+' if d_bytes > 0 else ''}{fmt(d_bytes, 'bytes')} | {d_instances:+,} |")
        if not rows:
            lines.append("| (none grew) | | |")
    lines.append("")
    return lines


# --- plots ---------------------------------------------------------------------------------

def rel(t, start):
    return (np.asarray(t) - start) / 60.0


def plot_latency(s, start, width, path):
    n = len(s.endpoints)
    cols = 2 if n > 1 else 1
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 2.6 * rows), sharex=True, squeeze=False)
    t0, idx, nw = windows(s, width)
    for i, name in enumerate(s.endpoints):
        ax = axes[i // cols][i % cols]
        xs, p50, p95, p99 = [], [], [], []
        for w in range(nw):
            m = (idx == w) & (s.ep == i)
            if m.sum() < 3:
                continue
            xs.append(t0 + (w + 0.5) * width)
            p50.append(pct(s.ms[m], 50)); p95.append(pct(s.ms[m], 95)); p99.append(pct(s.ms[m], 99))
        ax.plot(rel(xs, start), p50, label="p50", lw=1)
        ax.plot(rel(xs, start), p95, label="p95", lw=1.2)
        ax.plot(rel(xs, start), p99, label="p99", lw=1, alpha=0.7)
        ax.axhline(P95_LIMIT_MS, color="red", lw=0.6, ls="--")
        ax.set_yscale("log")
        ax.set_title(name, fontsize=9)
        ax.set_ylabel("ms")
        ax.grid(alpha=0.3, which="both")
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][0].legend(fontsize=7)
    for ax in axes[-1]:
        ax.set_xlabel("minutes")
    fig.suptitle(f"latency per endpoint ({width:.0f} s windows; red: {P95_LIMIT_MS:.0f} ms)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_throughput(s, start, width, path):
    fig, ax = plt.subplots(figsize=(10, 3.6))
    t0, idx, nw = windows(s, width)
    xs = rel(t0 + (np.arange(nw) + 0.5) * width, start)
    stack = [np.bincount(idx[s.ep == i], minlength=nw) / width for i in range(len(s.endpoints))]
    ax.stackplot(xs, stack, labels=s.endpoints, alpha=0.8)
    ax.set_ylabel("requests/s")
    ax.set_xlabel("minutes")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", ncol=4)
    if s.vus:
        ax2 = ax.twinx()
        vt = np.array(s.vus)
        ax2.plot(rel(vt[:, 0], start), vt[:, 1], color="black", lw=1, label="VUs")
        ax2.set_ylabel("active VUs")
    ax.set_title(f"throughput by endpoint ({width:.0f} s windows), active VUs (black)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_errors(s, start, width, path):
    fig, ax = plt.subplots(figsize=(10, 3))
    t0, idx, nw = windows(s, width)
    xs = rel(t0 + (np.arange(nw) + 0.5) * width, start)
    bad = ~s.ok
    codes = sorted(set(s.status[bad].tolist()))
    if codes:
        ax.stackplot(xs, [np.bincount(idx[bad & (s.status == c)], minlength=nw) / width for c in codes],
                     labels=[f"{c}" + (" (no answer)" if c == 0 else "") for c in codes])
        ax.legend(fontsize=7, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no failed request", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylabel("failed requests/s")
    ax.set_xlabel("minutes")
    ax.grid(alpha=0.3)
    ax.set_title("failed requests by status (statuses a call does not expect)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_cpu(cpu, stack, start, path):
    fig, ax = plt.subplots(figsize=(10, 4))
    names = sorted(cpu, key=lambda k: -float(np.mean(cpu[k][1])))
    grid = None
    for n in names:
        grid = cpu[n][0] if grid is None or len(cpu[n][0]) > len(grid) else grid
    if grid is not None:
        ys = [np.interp(grid, cpu[n][0], cpu[n][1]) for n in names]
        ax.stackplot(rel(grid, start), ys, labels=names, alpha=0.85)
    ax.axhline(os.cpu_count() or 2, color="red", lw=0.6, ls="--")
    if "loadavg1" in stack:
        t, v = stack["loadavg1"]
        ax2 = ax.twinx()
        ax2.plot(rel(t, start), v, color="black", lw=1)
        ax2.set_ylabel("load average, 1 min (black)")
        ax2.set_ylim(bottom=0)
    ax.set_ylabel("cores")
    ax.set_xlabel("minutes")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, loc="upper left", ncol=4)
    ax.set_title("CPU of every stack process (and k6), from /proc; red: the machine's cores", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_panels(panels, start, path, title):
    """panels: [(title, unit, [(label, t, v)], fit_or_None_per_series?)]"""
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 2.3 * len(panels)), sharex=True, squeeze=False)
    for ax, (ptitle, unit, series) in zip(axes[:, 0], panels):
        scale, ulabel = (1e6, "MB") if unit == "bytes" else (1, unit)
        for label, t, v, fit in series:
            ax.plot(rel(t, start), v / scale, lw=1, label=label, marker="o" if len(t) < 20 else None, ms=4)
            if fit is not None:
                slope, intercept, cut = fit
                ft = t[t >= cut]
                ax.plot(rel(ft, start), (intercept + slope * (ft - t[0])) / scale, ls="--", lw=0.8, color="gray")
        if not series:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(ptitle, fontsize=9)
        ax.set_ylabel(ulabel)
        ax.grid(alpha=0.3)
        if series:
            ax.legend(fontsize=6, loc="upper left", ncol=4)
    axes[-1][0].set_xlabel("minutes")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_breakpoint(rows, broke, last_good, start, path):
    fig, ax = plt.subplots(figsize=(10, 3.6))
    t = rel([r["t"] for r in rows], start)
    ax.plot(t, [r["rate"] for r in rows], color="tab:blue", label="achieved requests/s")
    ax.set_ylabel("requests/s")
    ax2 = ax.twinx()
    ax2.plot(t, [r["p95"] for r in rows], color="tab:orange", label="p95 (ms)")
    ax2.axhline(P95_LIMIT_MS, color="red", lw=0.6, ls="--")
    ax2.set_yscale("log")
    ax2.set_ylabel("p95 ms (log)")
    if broke:
        ax.axvline(rel(broke["t"], start), color="red", lw=1)
    ax.set_xlabel("minutes")
    ax.grid(alpha=0.3)
    ax.set_title(f"breakpoint: last good rate {last_good:.0f} req/s (red line: first window over the limits)", fontsize=10)
    fig.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


# --- the report ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    env = ports()
    meta = read_run_txt(os.path.join(args.run, "run.txt"))
    loads = read_loadavg(os.path.join(args.run, "run.txt"))
    os.makedirs(args.out, exist_ok=True)
    s = Samples(os.path.join(args.run, "k6.csv.gz"))
    if len(s.t) == 0:
        sys.exit("the run recorded no HTTP request")
    start, end = float(meta.get("start", s.t.min())), float(meta.get("end", s.t.max()))
    start, end = min(start, s.t.min()), max(end, s.t.max())
    seconds = max(1.0, s.t.max() - s.t.min())
    width = max(10.0, round(seconds / 150 / 10) * 10)
    step = max(5, int(seconds / 400))
    profile, mix = meta.get("profile", "?"), meta.get("mix", "?")
    stack = read_stack(os.path.join(args.run, "stack.csv"))

    summary_src = os.path.join(args.run, "summary.json")
    summary = json.load(open(summary_src, encoding="utf-8")) if os.path.exists(summary_src) else {}
    if summary:
        shutil.copy(summary_src, os.path.join(args.out, "summary.json"))

    plot_latency(s, start, width, os.path.join(args.out, "latency.png"))
    plot_throughput(s, start, width, os.path.join(args.out, "throughput.png"))
    plot_errors(s, start, width, os.path.join(args.out, "errors.png"))
    cpu, cpu_totals = cores_by_process(stack, start, end)
    plot_cpu(cpu, stack, start, os.path.join(args.out, "cpu.png"))

    # JVM heap and DB pools from Prometheus (or what an earlier report of this run saved of it).
    prom = SavedPrometheus(args.run, env)
    def q(expr, label_keys):
        return [(" ".join(str(m.get(k, "")) for k in label_keys).strip() or expr[:30], t, v)
                for m, t, v in prom.query(expr, start, end, step)]
    heap = q('sum by (node) (jvm_memory_used_bytes{job="hanwiki-app",area="heap"})', ["node"])
    live = q('max by (node) (jvm_gc_live_data_size_bytes{job="hanwiki-app"})', ["node"])
    pool_active = q('sum by (node, pool) (hikaricp_connections_active{job="hanwiki-app"})', ["node", "pool"])
    pool_pending = q('sum by (node, pool) (hikaricp_connections_pending{job="hanwiki-app"})', ["node", "pool"])
    redis_mem = q('max by (role, shard) (redis_memory_used_bytes{job="redis"})', ["role", "shard"])
    lag = q('max by (node) (kafka_consumer_fetch_manager_records_lag_max{job="hanwiki-app"})', ["node"])
    gets = cache_hits(q('sum by (region, tier) (hanwiki_cache_gets_total{job="hanwiki-app"})', ["region", "tier"]))
    prom.save()
    binlog = [("primary", *stack["binlog_bytes"])] if "binlog_bytes" in stack else []
    census = read_census(args.run)
    census_series = [(f"{node} live at census", np.array([p[0] for p in pts]), np.array([float(p[1]) for p in pts]), None)
                     for node, pts in sorted(census.items())]

    plot_panels([
        ("heap used per node", "bytes", [(f"{lbl} used", t, v, None) for lbl, t, v in heap]
         + [(f"{lbl} after GC (live data)", t, v, None) for lbl, t, v in live] + census_series),
        ("DB pool: active connections (node pool)", "connections", [(lbl, t, v, None) for lbl, t, v in pool_active]),
        ("DB pool: threads waiting for a connection", "threads", [(lbl, t, v, None) for lbl, t, v in pool_pending]),
    ], start, os.path.join(args.out, "jvm.png"), "JVM heap and DB connection pools (Prometheus)")

    # Drift: each resource's fitted change over the run against a limit.
    drift_rows, panels = [], []
    specs = [
        ("heap after GC", live, "bytes", 0.10, "relative"),
        ("DB pool active", pool_active, "connections", 2.0, "absolute"),
        ("Redis memory", redis_mem, "bytes", 0.10, "relative"),
        ("binlog size", binlog, "bytes", None, "binlog"),
        ("consumer lag (records)", lag, "records", 1000.0, "absolute"),
    ]
    for title, series, unit, limit, kind in specs:
        plotted = []
        for lbl, t, v in series:
            if kind == "binlog":
                fit, text = drift(t, v, 0, unit, "absolute")
                if fit is not None:
                    rate = fit[0] * 3600
                    text = (f"grows {fmt(rate, 'bytes')}/h with the writes (expected: the binlog is retained "
                            f"by expire_logs_days/binlog_expire_logs_seconds, and purged after); "
                            f"projected 24 h: {fmt(rate * 24, 'bytes')}")
            else:
                fit, text = drift(t, v, limit, unit, kind)
            plotted.append((lbl, t, v, fit))
            drift_rows.append((title, lbl, text))
        if not series:
            drift_rows.append((title, "-", "no data (" + ("no binlog sample" if kind == "binlog" else "series missing in Prometheus") + ")"))
        panels.append((title, unit, plotted))
    census_verdicts = {}
    for node, pts in sorted(census.items()):
        census_verdicts[node] = census_verdict([(t, live_bytes) for t, live_bytes, _ in pts])
        drift_rows.append(("live heap at each census (full GC)", node, census_verdicts[node][1]))
    plot_panels(panels, start, os.path.join(args.out, "resources.png"),
                "resources over the run, with linear fits after a 10% warm-up (dashed)")

    bp = None
    if profile == "breakpoint":
        rows, broke, last_good = breakpoint(s)
        plot_breakpoint(rows, broke, last_good, start, os.path.join(args.out, "breakpoint.png"))
        bp = (rows, broke, last_good)

    ov = None
    if profile == "overload":
        ov = overload(s)
        plot_overload(ov[1], start, os.path.join(args.out, "overload.png"))

    # Machine-readable figures (make bench-overload reads them).
    figures = {"profile": profile, "mix": mix, "seconds": seconds, "requests": len(s.t),
               "loadavg_before": loads.get("loadavg_before"), "loadavg_after": loads.get("loadavg_after"),
               "k6_exit": meta.get("k6_exit"), "p95": pct(s.ms, 95), "max": float(s.ms.max())}
    if census:
        figures["census"] = {node: {"minutes": [round((t - start) / 60, 1) for t, _, _ in pts],
                                    "live_bytes": [live_bytes for _, live_bytes, _ in pts],
                                    "verdict": census_verdicts[node][0]} for node, pts in census.items()}
    if bp:
        figures["last_good_rate"] = bp[2]
        figures["broke"] = bp[1]
    if ov:
        figures["overload"] = ov[0]
        figures["overload_ok"] = overload_verdict(ov[0])[0]
    with open(os.path.join(args.out, "figures.json"), "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=1, default=float)

    # --- Markdown ---
    table = endpoint_table(s, seconds)
    lines = []
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(start))
    lines.append(f"# Load run: {profile}, {mix} mix, {when}\n")
    lines.append(f"> **Pipeline demonstration on a shared machine, not a capacity figure** unless the load average "
                 f"below says the machine had nothing else to do: {os.cpu_count()} cores, load average (1/5/15 min) "
                 f"before the run {loads.get('loadavg_before', '?')}, after {loads.get('loadavg_after', '?')}; "
                 f"the load generator runs on the same machine.\n")
    cmd = f"make load PROFILE={profile} MIX={mix}" + "".join(
        f" {k.upper()}={meta[k]}" for k in ("rate", "duration", "vus", "pages") if meta.get(k))
    lines.append(f"Command: `{cmd}` (k6 {meta.get('k6', '?')}, target `{meta.get('base_url', '?')}`, "
                 f"{meta.get('accounts', '?')} provisioned accounts). Run time {seconds:.0f} s, "
                 f"k6 exit status {meta.get('k6_exit', '?')}"
                 + (" (a threshold was crossed)" if meta.get("k6_exit") == "99" else "") + ".\n")

    failed_thresholds = []
    for name, m in (summary.get("metrics") or {}).items():
        for th, res in (m.get("thresholds") or {}).items():
            crossed = res if isinstance(res, bool) else not res.get("ok", True)
            if crossed:
                failed_thresholds.append(f"`{name}: {th}`")
    lines.append("Thresholds crossed: " + (", ".join(failed_thresholds) if failed_thresholds else "none") + ".\n")

    if bp:
        rows, broke, last_good = bp
        if broke and math.isnan(last_good):
            lines.append(f"## Breakpoint\n\n**No good window: the first one already crossed the limits** (p95 > "
                         f"{P95_LIMIT_MS:.0f} ms or errors > {100 * ERROR_LIMIT:.1f}%), at {broke['rate']:.0f} req/s, p95 "
                         f"{broke['p95']:.0f} ms, errors {100 * broke['errors']:.2f}%: the stack was not ready for load "
                         f"(nodes just started, still compiling: warm them first, e.g. `make load PROFILE=load RATE=80 "
                         f"DURATION=2m`).\n\n![breakpoint](breakpoint.png)\n")
        elif broke:
            lines.append(f"## Breakpoint\n\n**Last good rate: {last_good:.0f} requests/s** (highest 10 s window before the "
                         f"first one with p95 > {P95_LIMIT_MS:.0f} ms or errors > {100 * ERROR_LIMIT:.1f}%). That window, at "
                         f"{broke['t'] - start:.0f} s: {broke['rate']:.0f} req/s, p95 {broke['p95']:.0f} ms, errors "
                         f"{100 * broke['errors']:.2f}%.\n\n![breakpoint](breakpoint.png)\n")
        else:
            lines.append(f"## Breakpoint\n\nNo window crossed the limits: the stack held up to {last_good:.0f} requests/s, "
                         f"the top of the ramp (raise RATE).\n\n![breakpoint](breakpoint.png)\n")

    if ov:
        figs = ov[0]
        ok, checks = overload_verdict(figs)
        lines.append(f"## Overload\n\n**{'Held' if ok else 'Not held'}**: " + "; ".join(
            f"{text} {'(yes)' if good else '(NO)'}" for text, good in checks) + ".\n")
        lines.append(f"Offered {figs['rate']:.0f} req/s ({figs['requests']:,} requests); admitted {figs['admitted_rate']:.0f} "
                     f"req/s ({figs['admitted']:,}), shed {figs['shed']:,} ({100 * figs['shed_share']:.1f}%, "
                     f"503 `OVERLOADED` with `Retry-After`).\n")
        lines.append("| | requests | p50 | p95 | p99 | max |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        lines.append(f"| admitted | {figs['admitted']:,} | {figs['admitted_p50']:.1f} | {figs['admitted_p95']:.1f} | "
                     f"{figs['admitted_p99']:.1f} | {figs['admitted_max']:.0f} |")
        lines.append(f"| shed | {figs['shed']:,} | {figs['shed_p50']:.1f} | {figs['shed_p95']:.1f} | - | {figs['shed_max']:.0f} |")
        lines.append(f"\nRequests over 1 s: {figs['over_1s']}.\n\n![overload](overload.png)\n")

    lines.append("## Per endpoint\n")
    lines.append("Latency in ms from k6's `http_req_duration` (request sent to response read). *failed* counts answers "
                 "with a status the call does not expect (e.g. a 409 is expected for a deliberate stale edit and "
                 "for liking twice); status 0 is no answer (timeout, refused connection).\n")
    lines.append("| endpoint | requests | req/s | p50 | p95 | p99 | max | failed | statuses |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in table:
        lines.append(f"| {r['endpoint']} | {r['count']:,} | {r['rate']:.1f} | {r['p50']:.1f} | {r['p95']:.1f} | "
                     f"{r['p99']:.1f} | {r['max']:.0f} | {r['failed']:,} | {r['statuses']} |")
    lines.append("\n![latency](latency.png)\n\n![throughput](throughput.png)\n\n![errors](errors.png)\n")

    lines.append("## CPU by process\n")
    total_reqs = len(s.t)
    lines.append("From /proc (each process and its children) sampled every few seconds; CPU-ms per request divides "
                 "by all requests of the run.\n")
    lines.append("| process | CPU s | mean cores | CPU-ms per request |")
    lines.append("|---|---:|---:|---:|")
    for name, sec in sorted(cpu_totals.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {sec:.1f} | {sec / seconds:.2f} | {1000 * sec / max(total_reqs, 1):.2f} |")
    stack_total = sum(v for k, v in cpu_totals.items() if k != "k6")
    lines.append(f"| **stack (without k6)** | {stack_total:.1f} | {stack_total / seconds:.2f} | "
                 f"{1000 * stack_total / max(total_reqs, 1):.2f} |")
    lines.append("\n![cpu](cpu.png)\n\n![jvm](jvm.png)\n")

    lines.append("## Cache: reads answered by each tier\n")
    lines.append("From the nodes' `hanwiki_cache_gets_total` in Prometheus over the run (both nodes; scraped every "
                 "few seconds, so the edges of the run are approximate). *Hits*: L1 and L2 together.\n")
    lines.append("| region | L1 | L2 | origin | hits |")
    lines.append("|---|---:|---:|---:|---:|")
    for region, tiers, share in gets:
        lines.append(f"| {region} | {tiers.get('l1', 0):,.0f} | {tiers.get('l2', 0):,.0f} | {tiers.get('origin', 0):,.0f} | "
                     + ("-" if math.isnan(share) else f"{100 * share:.1f}%") + " |")
    if not gets:
        lines.append("| (no data: series missing in Prometheus) | | | | |")
    lines.append("")
    figures["cache_hits"] = {region: share for region, _, share in gets}
    with open(os.path.join(args.out, "figures.json"), "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=1, default=float)

    lines.append("## Resources and drift\n")
    lines.append("A least-squares line through each series after the first 10% of the run; *drifting* when the fitted "
                 "change over the run exceeds the limit (heap after GC and Redis memory: 10% of their mean; DB pool: "
                 "2 connections; consumer lag: 1,000 records). Runs under 30 min are too short to judge. *Live heap at "
                 "each census* is judged from the class histograms instead of a line (see below): growing when it rose "
                 f"in most periods after the second census and by more than {100 * CENSUS_GROWTH_LIMIT:.0f}% in all.\n")
    lines.append("| resource | series | verdict |")
    lines.append("|---|---|---|")
    for title, lbl, text in drift_rows:
        lines.append(f"| {title} | {lbl} | {text} |")
    lines.append("\n![resources](resources.png)\n")
    if census:
        lines += census_section(census, start)
    lines.append("## Files\n\n`summary.json` is k6's end-of-test summary (every threshold, per-endpoint trends). "
                 f"The raw time series (k6 CSV, process samples, Prometheus' series) stay in `{os.path.relpath(args.run, env['VAR'] and os.path.dirname(env['VAR']))}`"
                 " on the machine that ran it; `infra/bench/load_report.py --run DIR --out DIR` redraws this report from them.\n")
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("\n".join(lines[:3]), file=sys.stderr)


if __name__ == "__main__":
    main()
