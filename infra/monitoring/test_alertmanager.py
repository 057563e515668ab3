#!/usr/bin/env python3
"""Routing, grouping and inhibition of infra/templates/alertmanager.yml, for real: starts the
webhook receiver and Debian's prometheus-alertmanager on free loopback ports (not the stack's:
no stack needed, no lock), posts alerts to Alertmanager's API and checks what the receiver got
(about 15 s: the config's group_wait is 10 s). Run by infra/monitoring/check.sh.

usage: test_alertmanager.py
"""
import datetime
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))
import ports_env  # noqa: E402

PORTS = ports_env.load()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"not ready after {seconds}s: {url}")


def render(tmp, receiver_port):
    text = open(os.path.join(ROOT, "infra/templates/alertmanager.yml")).read()
    text = text.replace("${ALERT_RECEIVER_ADDR}", "127.0.0.1").replace("${ALERT_RECEIVER_PORT}", str(receiver_port))
    for name in ("ALERTMANAGER_GROUP_WAIT", "ALERTMANAGER_GROUP_INTERVAL"):  # the native stack's timings
        text = text.replace("${%s}" % name, PORTS[name])
    path = os.path.join(tmp, "alertmanager.yml")
    open(path, "w").write(text)
    return path


def alert(name, severity, **labels):
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    return {"labels": {"alertname": name, "severity": severity, **labels},
            "annotations": {"summary": name}, "startsAt": now}


def main():
    tmp = tempfile.mkdtemp(prefix="hanwiki-am-test-")
    receiver_port, am_port = free_port(), free_port()
    out = os.path.join(tmp, "received.jsonl")
    procs = []
    try:
        procs.append(subprocess.Popen([sys.executable, os.path.join(ROOT, "infra/monitoring/alert_receiver.py"),
                                       "--addr", "127.0.0.1", "--port", str(receiver_port), "--out", out],
                                      stderr=subprocess.DEVNULL))
        procs.append(subprocess.Popen(["prometheus-alertmanager", f"--config.file={render(tmp, receiver_port)}",
                                       f"--storage.path={tmp}/data", f"--web.listen-address=127.0.0.1:{am_port}",
                                       "--cluster.listen-address="],
                                      stdout=open(os.path.join(tmp, "am.log"), "w"), stderr=subprocess.STDOUT))
        wait_http(f"http://127.0.0.1:{receiver_port}/healthz")
        wait_http(f"http://127.0.0.1:{am_port}/-/ready")
        alerts = [
            # host B dead: its own alerts are inhibited, host A's are not
            alert("HostDown", "page", host="B", job="node"),
            alert("CacheShardDown", "ticket", host="B", role="cache", shard="2"),
            alert("ReplicaDown", "page", host="B", role="replica"),
            alert("AuthRedisDown", "page", host="A", role="auth"),
            alert("AuthFailingClosed", "page", node="node1"),
            # node1 dead: node1's symptoms are inhibited, node2's are not
            alert("AppNodeDown", "page", node="node1", host="A"),
            alert("IndexerStopped", "page", node="node1", host="A"),
            alert("IndexerStopped", "page", node="node2", host="B2"),
            alert("DiskWillFillIn24h", "ticket", host="M", mountpoint="/"),
            alert("Watchdog", "heartbeat"),
        ]
        req = urllib.request.Request(f"http://127.0.0.1:{am_port}/api/v2/alerts", data=json.dumps(alerts).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(req, timeout=5).read()
        expected = {
            ("page", "HostDown", "B"), ("page", "AuthRedisDown", "A"), ("page", "AppNodeDown", "A"),
            ("page", "IndexerStopped", "B2"), ("ticket", "DiskWillFillIn24h", "M"), ("heartbeat", "Watchdog", ""),
        }
        got = set()
        deadline = time.time() + 25
        while time.time() < deadline:
            got = set()
            if os.path.exists(out):
                for line in open(out):
                    d = json.loads(line)
                    for a in d["alerts"]:
                        got.add((d["receiver"], a["alertname"], a["labels"].get("host", "")))
            if got >= expected:
                time.sleep(2)  # anything inhibited would have arrived with its group by now
                break
            time.sleep(0.5)
        got = set()
        for line in open(out) if os.path.exists(out) else []:
            d = json.loads(line)
            for a in d["alerts"]:
                got.add((d["receiver"], a["alertname"], a["labels"].get("host", "")))
        if got != expected:
            print("alertmanager test: expected deliveries", sorted(expected), file=sys.stderr)
            print("alertmanager test: got", sorted(got), file=sys.stderr)
            print("alertmanager test: missing", sorted(expected - got), "unexpected", sorted(got - expected), file=sys.stderr)
            return 1
        print(f"alertmanager test: {len(expected)} deliveries routed by severity; "
              f"{len(alerts) - len(expected)} inhibited (dead host, dead node, auth Redis down)")
        return 0
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    sys.exit(main())
