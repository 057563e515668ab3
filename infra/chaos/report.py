"""The chaos runner's verdict and its documents: docs/chaos/<scenario>.md, .json and a timeline
PNG (throughput, p95 and errors per second, the fault window shaded), and the verdict table in
docs/chaos/README.md (between its VERDICTS markers), rebuilt from every <scenario>.json."""
import glob
import math
import json
import os
import time

# "warm-up": the load before the baseline window, while caches and the JIT warm up (shown, not
# judged: the baseline that is judged is the last BASELINE s before the fault, error-free).
WINDOWS = ("warm-up", "before", "during", "after")


def _p(values, q):
    if not values:
        return 0.0
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def window_stats(samples, s):
    ms = [x[3] for x in samples if x[5] != "dropped"]
    errors = [x for x in samples if not x[4] and not s.allowed(x)]
    refused = [x for x in samples if not x[4] and s.allowed(x)]
    kinds = {}
    for x in errors:
        k = f"{x[1]} {x[2] or ''} {x[5] or ''}".strip()
        kinds[k] = kinds.get(k, 0) + 1
    return {"requests": len(samples), "errors": len(errors), "refused": len(refused),
            "p95_ms": round(_p(ms, 0.95), 1), "max_ms": round(max(ms, default=0), 1),
            "max_refused_ms": round(max((x[3] for x in refused), default=0), 1),
            "error_kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:8])}


def unanswered_since(samples, t):
    """Samples from t on without the mix's correct answer: errors and documented refusals alike.
    Recovery is these back to zero (refused writes resumed, not only errors gone)."""
    return [x for x in samples if x[0] >= t and not x[4]]


def judge(s, run, samples, t_fault, t_healed, converged_at, lost, in_index, results, ok_idx, alerts, extra, args):
    samples = sorted(samples)
    t_end = run.events["load stopped"]
    t_load = run.events.get("load started", t_fault - args.baseline)
    bounds = {"warm-up": (t_load, t_fault - args.baseline), "before": (t_fault - args.baseline, t_fault),
              "during": (t_fault, t_healed), "after": (t_healed, t_end + 1)}
    # A request is placed by when it started, except one still running when the fault came: the
    # fault's to answer for (a write in flight on a node frozen mid-answer), judged with the fault
    # and never a stain on the baseline.
    at = lambda x: t_fault if x[0] < t_fault <= x[0] + x[3] / 1000 else x[0]
    w = {k: window_stats([x for x in samples if lo <= at(x) < hi], s) for k, (lo, hi) in bounds.items()}
    fault_on = [x for x in samples if at(x) >= t_fault]
    judged = window_stats(fault_on, s)
    rate = judged["errors"] / judged["requests"] if judged["requests"] else 0.0
    errs_after = [x[0] for x in unanswered_since(samples, t_healed)]
    last_err = max(errs_after, default=None)
    recovered = converged_at is not None and (last_err is None or t_end - last_err >= 10)
    recovery_s = None
    if recovered:
        recovery_s = max(converged_at - t_healed, (last_err + 1 - t_healed) if last_err else 0.0, 0.0)
    fired = {}
    resolved = {}
    for name, status, t in alerts:
        if status == "firing":
            fired.setdefault(name, t - t_fault)
        elif status == "resolved" and name in fired:
            resolved.setdefault(name, t - t_healed)
    # (indexed, missing, stale, ghost, content, dupes); content is None when verify-index did
    # not compare contents (the versions already differed), so it adds nothing to the count.
    diffs = {n: (r if isinstance(r, str) else (sum(v for v in r[1:] if v is not None)
                                              if not isinstance(r, OSError) else f"unreachable: {r}"))
             for n, r in results.items()}
    reasons = []
    if w["before"]["errors"]:
        reasons.append(f"the baseline was not clean: {w['before']['errors']} errors before the fault")
    if s.judged:
        if rate > s.max_error_rate:
            reasons.append(f"errors {judged['errors']} of {judged['requests']} ({rate:.3%}) from the fault on, "
                           f"allowed {s.max_error_rate:.1%}: {judged['error_kinds']}")
        if s.max_wait_s is not None and judged["max_ms"] > s.max_wait_s * 1000:
            slow = sum(1 for x in fault_on if x[3] > s.max_wait_s * 1000)
            reasons.append(f"{slow} requests waited more than {s.max_wait_s:g} s (worst {judged['max_ms'] / 1000:.1f} s)")
        if s.refused_fast_s is not None and judged["max_refused_ms"] > s.refused_fast_s * 1000:
            reasons.append(f"a documented refusal took {judged['max_refused_ms'] / 1000:.1f} s "
                           f"(allowed {s.refused_fast_s:g} s)")
    if lost:
        reasons.append(f"{len(lost)} acknowledged writes lost, e.g. {lost[:3]}")
    if any(v != 0 for v in in_index.values()):
        reasons.append(f"ledger posts missing or stale in an index: {in_index}")
    if not ok_idx:
        reasons.append(f"verify-index differences after the heal: {diffs}")
    if not recovered:
        reasons.append(f"not recovered within {args.budget:g} s of the heal (indexes converged: "
                       f"{'yes' if converged_at else 'no'}, last error {'none' if last_err is None else f'{last_err - t_healed:.0f} s after the heal'})")
    elif recovery_s > args.budget:
        reasons.append(f"recovery took {recovery_s:.0f} s, over the {args.budget:g} s budget")
    if extra is not None and not extra[0]:
        reasons.append(extra[1])
    return {
        "scenario": s.name, "title": s.title, "expectation": s.expectation, "judged": s.judged,
        "pass": not reasons, "reasons": reasons,
        "utc": time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(t_fault)),
        "rate": args.rate, "hold_s": args.hold, "windows": w, "from_fault": judged,
        "error_rate": rate, "worst_ms": judged["max_ms"],
        "alerts": {n: {"fired_after_s": round(fired[n], 1) if n in fired else None,
                       "resolved_after_heal_s": round(resolved[n], 1) if n in resolved else None} for n in s.alerts},
        "recovery_s": None if recovery_s is None else round(recovery_s, 1), "budget_s": round(args.budget),
        "index_converged_after_heal_s": None if converged_at is None else round(converged_at - t_healed, 1),
        "ledger": {"acknowledged_posts": len(run_ledger_ids(run)), "writes_acknowledged": ledger_lines(run),
                   "lost": len(lost)},
        "ledger_in_index": in_index, "index_diffs_after_heal": diffs,
        "extra": extra[1] if extra else None,
        "events_s": {k: round(v - t_fault, 1) for k, v in run.events.items()},
        "loadavg": {"start": run.loadavg_start, "end": list(os.getloadavg())},
        "cpu_waiting_at_fault": getattr(run, "cpu_waiting_at_fault", {}),
        "run_dir": os.path.relpath(run.dir, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
        "_t": {"fault": t_fault, "healed": t_healed, "converged": converged_at, "end": t_end,
               "fired": {n: t + t_fault for n, t in fired.items()}},
    }


def cpu_text(waiting):
    return ", ".join(f"{n} {w:.1f}" if w is not None else f"{n} unknown" for n, w in (waiting or {}).items()) or "not read"


def run_ledger_ids(run):
    ids = set()
    path = os.path.join(run.dir, "ledger.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                ids.add(json.loads(line)["id"])
    return ids


def ledger_lines(run):
    path = os.path.join(run.dir, "ledger.jsonl")
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for _ in f)


def line(v):
    a = ", ".join(f"{n} {'fired +%ss' % x['fired_after_s'] if x['fired_after_s'] is not None else 'not fired'}"
                  for n, x in v["alerts"].items())
    return (f"{v['scenario']}: {'PASS' if v['pass'] else 'FAIL'}  errors {v['from_fault']['errors']}/"
            f"{v['from_fault']['requests']} ({v['error_rate']:.3%}), worst {v['worst_ms'] / 1000:.1f} s, "
            f"recovery {v['recovery_s'] if v['recovery_s'] is not None else '-'} s, lost {v['ledger']['lost']}, "
            f"index diffs {v['index_diffs_after_heal']}; alerts: {a}"
            + ("" if v["pass"] else "\n  " + "\n  ".join(v["reasons"])))


def plot(samples, v, path, allowed):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t0 = v["_t"]["fault"]
    by = {}
    for x in samples:
        b = math.floor(x[0] - t0)
        d = by.setdefault(b, [0, 0, 0, []])
        if x[4]:
            d[0] += 1
        elif allowed(x):
            d[2] += 1
        else:
            d[1] += 1
        if x[5] != "dropped":
            d[3].append(x[3])
    xs = sorted(by)
    fig, ax = plt.subplots(3, 1, figsize=(10, 7), sharex=True)
    ax[0].plot(xs, [by[b][0] for b in xs], label="correct answers/s", color="tab:blue")
    ax[0].set_ylabel("req/s")
    ax[1].plot(xs, [_p(by[b][3], 0.95) for b in xs], color="tab:purple", label="p95")
    ax[1].plot(xs, [max(by[b][3], default=0) for b in xs], color="tab:gray", lw=0.7, label="max")
    ax[1].set_yscale("log")
    ax[1].set_ylabel("latency ms")
    ax[2].bar(xs, [by[b][1] for b in xs], color="tab:red", width=1.0, label="errors/s")
    if any(by[b][2] for b in xs):
        ax[2].bar(xs, [by[b][2] for b in xs], bottom=[by[b][1] for b in xs], color="tab:orange", width=1.0,
                  label="documented refusals/s")
    ax[2].set_ylabel("per s")
    ax[2].set_xlabel("seconds from the fault")
    heal = v["_t"]["healed"] - t0
    for a in ax:
        a.axvspan(0, heal, color="tab:red", alpha=0.12, label="fault")
        for name, t in v["_t"]["fired"].items():
            a.axvline(t - t0, color="tab:orange", ls="--", lw=1)
        if v["_t"]["converged"]:
            a.axvline(v["_t"]["converged"] - t0, color="tab:green", ls=":", lw=1)
        a.grid(alpha=0.3)
        a.legend(loc="upper right", fontsize=7)
    fig.suptitle(f"{v['scenario']}: {'PASS' if v['pass'] else 'FAIL'} ({v['rate']:g} req/s, fault held "
                 f"{v['hold_s']:g} s; dashed: alert fired, dotted: indexes converged)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)



def resolved_text(after_heal_s):
    """When an alert resolved, from the heal's end: a long heal (primary-restore's restore) can
    bring the component back, and the alert resolve, before the heal as a whole has ended."""
    if after_heal_s < 0:
        return f"resolved {-after_heal_s:.0f} s before the heal ended"
    return f"resolved {after_heal_s:.0f} s after the heal"

def write(s, run, samples, v, args):
    os.makedirs(args.docs, exist_ok=True)
    base = os.path.join(args.docs, s.name)
    with open(os.path.join(run.dir, "samples.jsonl"), "w") as f:
        for x in sorted(samples):
            f.write(json.dumps(x) + "\n")
    try:
        plot(samples, v, base + ".png", s.allowed)
        png = True
    except ImportError:
        png = False
    with open(base + ".json", "w") as f:
        json.dump({k: x for k, x in v.items() if k != "_t"} | {"t_abs": v["_t"]}, f, indent=1, ensure_ascii=False)
    w = v["windows"]
    rows = "\n".join(f"| {k} | {w[k]['requests']} | {w[k]['errors']} | {w[k]['refused']} | {w[k]['p95_ms']:.0f} | "
                     f"{w[k]['max_ms']:.0f} | {', '.join(f'{a}: {n}' for a, n in w[k]['error_kinds'].items()) or '-'} |"
                     for k in WINDOWS)
    alerts = "\n".join(f"| {n} | {'+%s s' % a['fired_after_s'] if a['fired_after_s'] is not None else 'not fired'} | "
                       f"{resolved_text(a['resolved_after_heal_s']) if a['resolved_after_heal_s'] is not None else '-'} |"
                       for n, a in v["alerts"].items()) or "| - | | |"
    la = v["loadavg"]
    text = f"""# Chaos: {s.name} — {'PASS' if v['pass'] else 'FAIL'}

{s.title}. Expectation: {s.expectation}.{'' if s.judged else ' (Not judged on errors: the service is knowingly down.)'}

Run {v['utc']} UTC: `make chaos SCENARIO={s.name} RATE={args.rate:g} HOLD={args.hold:g}` (community mix, open
model, through nginx; see [README](README.md)). Load average at the start {la['start'][0]:.2f} {la['start'][1]:.2f}
{la['start'][2]:.2f}, at the end {la['end'][0]:.2f} {la['end'][1]:.2f} {la['end'][2]:.2f} (2 cores, shared); threads waiting
for a core when the fault came: {cpu_text(v.get('cpu_waiting_at_fault'))}.
Runbook: [docs/runbooks/{s.runbook}](../runbooks/{s.runbook}).

![timeline]({s.name}.png)

| window | requests | errors | documented refusals | p95 ms | max ms | errors by kind |
|---|---|---|---|---|---|---|
{rows}

From the fault on: {v['from_fault']['errors']} errors of {v['from_fault']['requests']} requests ({v['error_rate']:.3%}),
worst latency {v['worst_ms'] / 1000:.2f} s.

| alert | fired after the fault | resolved |
|---|---|---|
{alerts}

- Time to recover (errors and documented refusals back to zero, both indexes agreeing with the primary, from the heal):
  {'%s s' % v['recovery_s'] if v['recovery_s'] is not None else 'NOT recovered'}; indexes converged
  {'%s s' % v['index_converged_after_heal_s'] if v['index_converged_after_heal_s'] is not None else 'never'} after the heal.
- Ledger: {v['ledger']['writes_acknowledged']} acknowledged writes on {v['ledger']['acknowledged_posts']} posts;
  lost: **{v['ledger']['lost']}**; ledger posts missing/stale per index: {v['ledger_in_index']}.
- verify-index after the heal (missing+stale+ghost+dupes per node): {v['index_diffs_after_heal']}.
{('- ' + v['extra']) if v['extra'] else ''}
- Events (s from the fault): {', '.join(f'{k} {t:+.1f}' for k, t in v['events_s'].items())}.
- Raw samples and ledger: `{v['run_dir']}/` (not committed).

**Verdict: {'PASS' if v['pass'] else 'FAIL'}**{'' if v['pass'] else chr(10) + chr(10) + chr(10).join('- ' + r for r in v['reasons'])}
"""
    if not png:
        text = text.replace(f"![timeline]({s.name}.png)\n", "(no plot: matplotlib missing)\n")
    with open(base + ".md", "w") as f:
        f.write(text)


def index(docs):
    readme = os.path.join(docs, "README.md")
    if not os.path.exists(readme):
        return
    rows = []
    for path in sorted(glob.glob(os.path.join(docs, "*.json"))):
        with open(path) as f:
            v = json.load(f)
        fired = [f"{n} +{a['fired_after_s']:.0f} s" + (f" ({resolved_text(a['resolved_after_heal_s'])})"
                                                        if a["resolved_after_heal_s"] is not None else "")
                 for n, a in v["alerts"].items() if a["fired_after_s"] is not None]
        diffs = ", ".join(f"{n} {d}" for n, d in v["index_diffs_after_heal"].items())
        rows.append(f"| [{v['scenario']}]({v['scenario']}.md) | {'PASS' if v['pass'] else 'FAIL'} | "
                    f"{v['from_fault']['errors']}/{v['from_fault']['requests']} | {v['worst_ms'] / 1000:.2f} s | "
                    f"{', '.join(fired) or 'not fired'} | {'%s s' % v['recovery_s'] if v['recovery_s'] is not None else 'not recovered'} | "
                    f"{v['ledger']['lost']} | {diffs} | {v['utc']}, {v['rate']:g}/s, hold {v['hold_s']:g} s, "
                    f"load {v['loadavg']['start'][0]:.1f} |")
    with open(readme) as f:
        text = f.read()
    head, _, rest = text.partition("<!-- VERDICTS -->")
    _, _, tail = rest.partition("<!-- /VERDICTS -->")
    table = ("| scenario | verdict | errors from the fault on | worst latency | alert fired after | recovery | "
             "writes lost | index diffs after heal | run |\n|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows))
    with open(readme, "w") as f:
        f.write(f"{head}<!-- VERDICTS -->\n{table}\n<!-- /VERDICTS -->{tail}")
