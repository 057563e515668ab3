#!/usr/bin/python3
"""Renders every Grafana dashboard in grafana/dashboards/ from the live Prometheus to PNG, for
whoever has no Grafana (it cannot run natively here): one PNG per panel and one page per
dashboard laid out like Grafana's grid, under var/dashboards/<dashboard>/. Each panel's
queries run over the time range given (`--range 30m`, or `--start`/`--end` as RFC 3339 or
unix seconds); Grafana's variables become "all values" ($node, $host -> .*), $__rate_interval
and $__interval become the step-based intervals Grafana would use.

Runs with Debian's python3-matplotlib (/usr/bin/python3). `make dashboards RANGE=1h`.

With --check it renders nothing: it runs every panel's queries once against the running stack
and exits 1 if one errors or returns no data, except the panels grafana/empty-by-design.json
lists with the reason they are empty on a healthy stack (DashboardsIT runs it).

With --lint it needs no stack (make check-monitoring): every dashboard has a unique uid and title,
panels with unique ids and titles on Grafana's 24-column grid, only variables it defines, runbook
links to files that exist, and every query parses as PromQL (promtool check rules, each query
as a recording rule); empty-by-design.json names only panels that exist.

usage: dashboards.py [--range 30m | --start T --end T] [--out DIR] [--prometheus URL] [--strict]
       dashboards.py --check [--prometheus URL]
       dashboards.py --lint
"""
import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNITS = {"s": "seconds", "ms": "milliseconds", "bytes": "bytes", "decbytes": "bytes", "percentunit": "ratio",
         "percent": "%", "reqps": "requests/s", "ops": "ops/s", "short": ""}


def ports_env():
    env = {}
    for line in open(os.path.join(ROOT, "infra", "ports.env"), encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    return env


def prometheus_url():
    env = ports_env()
    topology = os.environ.get("HANWIKI_TOPOLOGY") or env["HANWIKI_TOPOLOGY"]
    addr = "127.0.0.1" if topology == "local" else env["HOST_%s_ADDR" % env["PROMETHEUS_HOST"]]
    return "http://%s:%s" % (addr, env["PROMETHEUS_PORT"])


def parse_duration(text):
    m = re.fullmatch(r"(\d+)([smhd])", text)
    if not m:
        raise SystemExit(f"a range is like 30m, 2h or 1d, not {text!r}")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def parse_time(text):
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def substitute(expr, variables, step):
    """Grafana's variables: every template variable means all its values; intervals follow the step."""
    rate_interval = "%ds" % max(60, 4 * step)
    expr = expr.replace("$__rate_interval", rate_interval).replace("${__rate_interval}", rate_interval)
    expr = expr.replace("$__interval", "%ds" % step).replace("${__interval}", "%ds" % step)
    for name in variables:
        expr = re.sub(r"\$\{%s(?::[a-z]+)?\}|\$%s\b" % (name, name), ".*", expr)
    return expr


def query_range(base, expr, start, end, step):
    params = urllib.parse.urlencode({"query": expr, "start": start, "end": end, "step": step})
    try:
        with urllib.request.urlopen(f"{base}/api/v1/query_range?{params}", timeout=30) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        body = json.load(e)
    if body.get("status") != "success":
        raise ValueError(body.get("error", "query failed"))
    return body["data"]["result"]


def legend(fmt, metric):
    if fmt:
        return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: metric.get(m.group(1), ""), fmt)
    labels = {k: v for k, v in metric.items() if k not in ("__name__", "job", "instance")}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or metric.get("__name__", "value")


def draw(ax, panel, series, problem):
    ax.set_title(panel.get("title", "(untitled)"), fontsize=9, loc="left")
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "")
    if unit:
        ax.set_ylabel(UNITS.get(unit, unit), fontsize=7)
    ax.tick_params(labelsize=6)
    ax.grid(alpha=0.3)
    if problem:
        ax.text(0.5, 0.5, problem, ha="center", va="center", transform=ax.transAxes, fontsize=8, color="firebrick", wrap=True)
        return
    for name, points in series[:12]:
        ax.plot([datetime.datetime.fromtimestamp(t) for t, _ in points], [v for _, v in points], label=name, linewidth=1)
    if len(series) > 12:
        ax.text(0.99, 0.99, f"+{len(series) - 12} more series", ha="right", va="top", transform=ax.transAxes, fontsize=6)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%H:%M"))
    if series:
        ax.legend(fontsize=5, loc="upper left", framealpha=0.6)


def panel_series(base, panel, variables, start, end, step):
    """[(legend, [(t, v)...])...] and None, or [] and a problem text."""
    series = []
    for target in panel.get("targets", []):
        expr = target.get("expr")
        if not expr:
            continue
        try:
            result = query_range(base, substitute(expr, variables, step), start, end, step)
        except (ValueError, OSError) as e:
            return [], f"query error: {e}"
        for r in result:
            points = [(float(t), float(v)) for t, v in r["values"] if not math.isnan(float(v))]
            if points:
                series.append((legend(target.get("legendFormat"), r["metric"]), points))
    return series, None if series else "no data"


def query_instant(base, expr):
    params = urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(f"{base}/api/v1/query?{params}", timeout=30) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        body = json.load(e)
    if body.get("status") != "success":
        raise ValueError(body.get("error", "query failed"))
    return body["data"]["result"]


def check(base):
    """Every query of every panel answers with data, or its panel is listed as empty by design."""
    allowed = json.load(open(os.path.join(ROOT, "grafana", "empty-by-design.json"), encoding="utf-8"))
    problems, checked = [], 0
    for dash, _ in dashboards():
        variables = [v["name"] for v in dash.get("templating", {}).get("list", [])]
        empty_ok = allowed.get(dash.get("uid"), {})
        for panel in dash.get("panels", []):
            for target in panel.get("targets", []):
                if not target.get("expr"):
                    continue
                checked += 1
                where = f'{dash.get("uid")} / {panel.get("title")} / {target.get("refId")}'
                try:
                    result = query_instant(base, substitute(target["expr"], variables, 15))
                except (ValueError, OSError) as e:
                    problems.append(f"{where}: query error: {e}")
                    continue
                if not result and panel.get("title") not in empty_ok:
                    problems.append(f"{where}: no data: {target['expr']}")
    for p in problems:
        print("dashboard check:", p, file=sys.stderr)
    print(f"dashboard check: {checked} queries, {len(problems)} problems")
    return 1 if problems else 0


def lint():
    """Offline: structure, variables, runbook links and PromQL syntax of every dashboard."""
    problems, exprs, uids, titles = [], [], set(), set()
    for dash, path in dashboards():
        uid = dash.get("uid")
        if not uid or uid in uids:
            problems.append(f"{path}: uid {uid!r} missing or used twice")
        if dash.get("title") in titles:
            problems.append(f"{path}: title used twice")
        uids.add(uid)
        titles.add(dash.get("title"))
        variables = [v["name"] for v in dash.get("templating", {}).get("list", [])]
        links = [link.get("url") for link in dash.get("links", []) if link.get("url")]
        ids, panel_titles = set(), set()
        for panel in dash.get("panels", []):
            where = f"{path} / {panel.get('title')}"
            if not panel.get("title") or panel.get("title") in panel_titles:
                problems.append(f"{where}: title missing or used twice")
            if panel.get("id") in ids:
                problems.append(f"{where}: id {panel.get('id')} used twice")
            ids.add(panel.get("id"))
            panel_titles.add(panel.get("title"))
            g = panel.get("gridPos", {})
            if not (g.get("w", 0) > 0 and g.get("h", 0) > 0 and 0 <= g.get("x", -1) and g.get("x", 0) + g.get("w", 0) <= 24):
                problems.append(f"{where}: gridPos {g} is not on the 24-column grid")
            links += [link.get("url") for link in panel.get("links", []) if link.get("url")]
            if not any(t.get("expr") for t in panel.get("targets", [])):
                problems.append(f"{where}: no query")
            for t in panel.get("targets", []):
                expr = t.get("expr", "")
                for name in re.findall(r"\$\{?([A-Za-z_]\w*)", expr):
                    if name not in variables and not name.startswith("__"):
                        problems.append(f"{where}: uses ${name}, which the dashboard does not define")
                exprs.append((where, substitute(expr, variables, 15)))
        for url in sorted(set(links)):
            if not url.startswith("http") and not os.path.exists(os.path.join(ROOT, url)):
                problems.append(f"{path}: runbook link {url} names no file")
    allowed = json.load(open(os.path.join(ROOT, "grafana", "empty-by-design.json"), encoding="utf-8"))
    by_uid = {d.get("uid"): {p.get("title") for p in d.get("panels", [])} for d, _ in dashboards()}
    for uid, panels in allowed.items():
        if uid.startswith("_"):
            continue
        for title in panels:
            if title not in by_uid.get(uid, ()):
                problems.append(f"empty-by-design.json: {uid} has no panel {title!r}")
    provisioned = set(re.findall(r"^\s+uid: (\S+)", open(os.path.join(ROOT, "grafana", "provisioning", "datasources",
                                                                    "prometheus.yml"), encoding="utf-8").read(), re.M))
    for dash, path in dashboards():
        for thing in [dash] + dash.get("panels", []) + dash.get("templating", {}).get("list", []) \
                + [t for p in dash.get("panels", []) for t in p.get("targets", [])]:
            uid = (thing.get("datasource") or {}).get("uid")
            if uid and uid not in provisioned:
                problems.append(f"{path}: datasource uid {uid!r} is not provisioned (grafana/provisioning/datasources)")
    with tempfile.TemporaryDirectory() as tmp:
        rules = os.path.join(tmp, "dashboard-queries.yml")
        with open(rules, "w", encoding="utf-8") as f:
            f.write("groups:\n  - name: dashboard-queries\n    rules:\n")
            for i, (_, expr) in enumerate(exprs):
                f.write("      - record: dashboard:query_%d\n        expr: %s\n" % (i, json.dumps(expr)))
        out = subprocess.run(["promtool", "check", "rules", rules], capture_output=True, text=True)
        if out.returncode != 0:
            problems.append("promtool rejects a dashboard query:\n" + (out.stdout + out.stderr).strip()
                            + "".join("\n  query_%d = %s: %s" % (i, w, e) for i, (w, e) in enumerate(exprs)
                                      if 'query_%d"' % i in out.stdout + out.stderr))
    for p in problems:
        print("dashboard lint:", p, file=sys.stderr)
    print(f"dashboard lint: {len(titles)} dashboards, {len(exprs)} queries, {len(problems)} problems")
    return 1 if problems else 0


def dashboards():
    folder = os.path.join(ROOT, "grafana", "dashboards")
    for path in sorted(os.listdir(folder)):
        if path.endswith(".json"):
            yield json.load(open(os.path.join(folder, path), encoding="utf-8")), path


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "panel"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--range", default="30m", help="how far back from now (30m, 2h, 1d)")
    ap.add_argument("--start", help="RFC 3339 or unix seconds (with --end, instead of --range)")
    ap.add_argument("--end", help="RFC 3339 or unix seconds")
    ap.add_argument("--out", default=os.path.join(ROOT, "var", "dashboards"))
    ap.add_argument("--prometheus", default=None, help="base URL (default: from infra/ports.env)")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a panel's query errors")
    ap.add_argument("--check", action="store_true", help="only check that every panel query answers with data")
    ap.add_argument("--lint", action="store_true", help="offline: structure, variables, runbook links, PromQL syntax")
    args = ap.parse_args()
    if args.lint:
        return lint()
    base = args.prometheus or prometheus_url()
    if args.check:
        return check(base)
    end = parse_time(args.end) if args.end else datetime.datetime.now().timestamp()
    start = parse_time(args.start) if args.start else end - parse_duration(args.range)
    step = max(5, int((end - start) / 300))
    errors = 0
    for dash, path in dashboards():
        variables = [v["name"] for v in dash.get("templating", {}).get("list", [])]
        panels = [p for p in dash.get("panels", []) if p.get("targets")]
        outdir = os.path.join(args.out, slug(dash.get("title", path)))
        os.makedirs(outdir, exist_ok=True)
        rows = max((p.get("gridPos", {}).get("y", 0) + p.get("gridPos", {}).get("h", 8)) for p in panels) if panels else 1
        height = max(4.0, rows * 0.45)
        page = plt.figure(figsize=(16, height))
        page.suptitle(f'{dash.get("title", path)}  ({datetime.datetime.fromtimestamp(start):%Y-%m-%d %H:%M} to '
                      f'{datetime.datetime.fromtimestamp(end):%H:%M})', fontsize=11, y=1 - 0.25 / height)
        grid = page.add_gridspec(rows, 24, hspace=0, wspace=0, top=1 - 0.6 / height, bottom=0.2 / height, left=0.04, right=0.99)
        summary = []
        for panel in panels:
            series, problem = panel_series(base, panel, variables, start, end, step)
            if problem and problem.startswith("query error"):
                errors += 1
            summary.append((panel.get("title"), problem or f"{len(series)} series"))
            fig, ax = plt.subplots(figsize=(8, 3.5))
            draw(ax, panel, series, problem)
            fig.tight_layout()
            fig.savefig(os.path.join(outdir, slug(panel.get("title", str(panel.get("id")))) + ".png"), dpi=100)
            plt.close(fig)
            g = panel.get("gridPos", {"x": 0, "y": 0, "w": 12, "h": 8})
            ax = page.add_subplot(grid[g["y"]:g["y"] + g["h"], g["x"]:g["x"] + g["w"]])
            box = ax.get_position()  # room for the title above and the time axis below
            ax.set_position([box.x0 + box.width * 0.04, box.y0 + box.height * 0.12, box.width * 0.93, box.height * 0.72])
            draw(ax, panel, series, problem)
        page.savefig(os.path.join(outdir, "_dashboard.png"), dpi=80)
        plt.close(page)
        print(f"{dash.get('title', path)}: {outdir}/_dashboard.png and {len(panels)} panels")
        for title, what in summary:
            print(f"  {title:<70} {what}")
    return 1 if errors and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
