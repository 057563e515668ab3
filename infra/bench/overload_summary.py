#!/usr/bin/env python3
"""The summary of one `make bench-overload` (infra/bench/overload.sh): reads figures.json of its
breakpoint and overload runs (written by load_report.py) and writes README.md beside them with the
figures, the commands and the load averages; prints the same figures."""
import argparse
import json
import os


def load(path):
    return json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--breakpoint-command", default="")
    ap.add_argument("--overload-command", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--limiter", default="", help="how many hanwiki_overload_limit series node 1 publishes (0: off)")
    args = ap.parse_args()
    bp = load(os.path.join(args.dir, "breakpoint", "figures.json"))
    ov = load(os.path.join(args.dir, "overload", "figures.json"))
    f = ov["overload"]
    limiter = "on" if args.limiter not in ("", "0") else "off (hanwiki.overload.enabled=false)"
    lines = [f"# Overload run {os.path.basename(args.dir)}" + (f" ({args.label})" if args.label else "") + "\n",
             f"Limiter on the nodes: **{limiter}**. The machine is shared (2 cores, the load generator on it): "
             "figures are indicative; the load average is given with each.\n"]
    out = []
    if bp:
        good = bp.get("last_good_rate")
        broke = bp.get("broke") or {}
        lines.append(f"1. Breakpoint: `{args.breakpoint_command}` -> **last good rate {good:.0f} req/s**"
                     + (f" (first window over the limits: {broke.get('rate', float('nan')):.0f} req/s, p95 "
                        f"{broke.get('p95', float('nan')):.0f} ms, errors {100 * broke.get('errors', 0):.2f}%)" if broke else "")
                     + f"; load average before {bp.get('loadavg_before')}, after {bp.get('loadavg_after')}. "
                     "[report](breakpoint/report.md)")
        out.append(f"breakpoint: last good rate {good:.0f} req/s (load average before {bp.get('loadavg_before')})")
    held = ov.get("overload_ok")
    lines.append(f"{'2' if bp else '1'}. Overload: `{args.overload_command}` -> offered {f['rate']:.0f} req/s, admitted "
                 f"{f['admitted_rate']:.0f} req/s, shed {100 * f['shed_share']:.1f}%; admitted p50/p95/p99 "
                 f"{f['admitted_p50']:.0f}/{f['admitted_p95']:.0f}/{f['admitted_p99']:.0f} ms (max {f['admitted_max']:.0f}); "
                 f"shed p50/p95 {f['shed_p50']:.0f}/{f['shed_p95']:.0f} ms (max {f['shed_max']:.0f}); slowest answer "
                 f"{f['max']:.0f} ms, {f['over_1s']} over 1 s; {f['failed_other']} failures other than the shed 503s; "
                 f"load average before {ov.get('loadavg_before')}, after {ov.get('loadavg_after')}. "
                 "[report](overload/report.md)\n")
    lines.append(f"**Verdict: {'held' if held else 'NOT held'}** (admitted p95 < 100 ms, no answer over 1 s, "
                 "no failure but the shed 503s).\n")
    out.append(f"overload at {f['rate']:.0f} req/s offered: admitted {f['admitted_rate']:.0f} req/s p95 "
               f"{f['admitted_p95']:.0f} ms, shed {100 * f['shed_share']:.1f}% (p95 {f['shed_p95']:.0f} ms), "
               f"slowest {f['max']:.0f} ms, {f['over_1s']} over 1 s, {f['failed_other']} other failures "
               f"(load average before {ov.get('loadavg_before')}) -> {'held' if held else 'NOT held'}")
    with open(os.path.join(args.dir, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    print("\n".join(out))
    print(f"report: {args.dir}/README.md")
    raise SystemExit(0 if held else 1)


if __name__ == "__main__":
    main()
