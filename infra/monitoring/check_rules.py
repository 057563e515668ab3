#!/usr/bin/python3
"""Checks what `promtool test rules` cannot: every alert in the rules file has at least one
unit test in which it fires and one in which it stays quiet, and carries a severity, a summary
and a runbook_url naming a file that exists. Exit 1 with the list of what is missing.

usage: check_rules.py RULES.yml TESTS.yml [REPO_ROOT]
"""
import os
import sys

import yaml


def main(rules_path, tests_path, root):
    rules = yaml.safe_load(open(rules_path))
    tests = yaml.safe_load(open(tests_path))
    problems = []
    alerts = []
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "alert" not in rule:
                continue
            name = rule["alert"]
            alerts.append(name)
            labels = rule.get("labels", {})
            notes = rule.get("annotations", {})
            if labels.get("severity") not in ("page", "ticket", "heartbeat"):
                problems.append(f"{name}: severity must be page, ticket or heartbeat")
            if not notes.get("summary"):
                problems.append(f"{name}: no summary")
            runbook = notes.get("runbook_url", "")
            if not runbook:
                problems.append(f"{name}: no runbook_url")
            elif not os.path.isfile(os.path.join(root, runbook)):
                problems.append(f"{name}: runbook {runbook} does not exist")
    fires, quiet = set(), set()
    for test in tests["tests"]:
        for case in test.get("alert_rule_test", []):
            (fires if case.get("exp_alerts") else quiet).add(case["alertname"])
    for name in alerts:
        if name not in fires:
            problems.append(f"{name}: no test in which it fires")
        if name not in quiet and name != "Watchdog":  # the Watchdog is never quiet
            problems.append(f"{name}: no test in which it stays quiet")
    for p in problems:
        print("rules check:", p, file=sys.stderr)
    if problems:
        return 1
    print(f"rules check: {len(alerts)} alerts, each with a firing and a quiet test, a severity, a summary and a runbook")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root = sys.argv[3] if len(sys.argv) > 3 else os.getcwd()
    sys.exit(main(sys.argv[1], sys.argv[2], root))
