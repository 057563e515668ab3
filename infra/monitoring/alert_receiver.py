#!/usr/bin/env python3
"""The stack's alert webhook receiver: Alertmanager delivers to http://ADDR:PORT/<receiver>
(page, ticket, heartbeat); each delivery is appended as one JSON line to the output file, so
tests and chaos drills can assert that an alert fired and resolved:

  {"received_at": "...", "receiver": "page", "status": "firing",
   "alerts": [{"alertname": "...", "status": "firing", "labels": {...}, "startsAt": "...", "endsAt": "..."}],
   "groupKey": "..."}

GET /healthz answers 200. Python's standard library only.

usage: alert_receiver.py --addr 127.0.0.1 --port 19095 --out var/alerts/received.jsonl
"""
import argparse
import datetime
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()


def record(out, receiver, payload):
    line = {
        "received_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
        "receiver": receiver,
        "status": payload.get("status"),
        "groupKey": payload.get("groupKey"),
        "alerts": [
            {
                "alertname": a.get("labels", {}).get("alertname"),
                "status": a.get("status"),
                "labels": a.get("labels", {}),
                "annotations": a.get("annotations", {}),
                "startsAt": a.get("startsAt"),
                "endsAt": a.get("endsAt"),
            }
            for a in payload.get("alerts", [])
        ],
    }
    with LOCK, open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(line, ensure_ascii=False) + "\n")
        f.flush()


def handler_for(out):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/healthz":
                self._answer(200, b"ok\n")
            else:
                self._answer(404, b"not found\n")

        def do_POST(self):
            receiver = self.path.strip("/").split("/")[0] or "default"
            try:
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(payload, dict):
                    raise ValueError("not a JSON object")
            except (ValueError, UnicodeDecodeError) as e:
                self._answer(400, f"bad payload: {e}\n".encode())
                return
            record(out, receiver, payload)
            self._answer(200, b"ok\n")

        def _answer(self, code, body):
            self.send_response(code)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *args):  # one line per request on stderr (the log file)
            sys.stderr.write("%s %s\n" % (self.log_date_time_string(), fmt % args))

    return Handler


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addr", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    server = ThreadingHTTPServer((args.addr, args.port), handler_for(args.out))
    server.serve_forever()


if __name__ == "__main__":
    main()
