#!/usr/bin/env python3
"""Prints what the alert webhook receiver recorded (var/alerts/received.jsonl): one line per
alert and delivery, oldest first, without the Watchdog's heartbeats unless --all.

usage: received.py [--all] [--file PATH]
"""
import argparse
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="include the Watchdog heartbeats")
    ap.add_argument("--file", default=os.path.join(ROOT, "var", "alerts", "received.jsonl"))
    args = ap.parse_args()
    if not os.path.exists(args.file):
        print(f"nothing received yet ({args.file} does not exist)")
        return
    with open(args.file, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["receiver"] == "heartbeat" and not args.all:
                continue
            for a in d["alerts"]:
                where = ",".join(f"{k}={v}" for k, v in sorted(a["labels"].items())
                                 if k not in ("alertname", "severity", "component", "job"))
                print(f'{d["received_at"]}  {d["receiver"]:<9} {a["status"]:<8} {a["alertname"]:<28} {where}')


if __name__ == "__main__":
    main()
