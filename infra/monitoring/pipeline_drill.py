#!/usr/bin/env python3
"""The alerting pipeline end to end without the stack (free loopback ports only, so no stack
lock): two real Redis (a cache shard and the auth Redis), the redis exporter in multi-target
mode, Prometheus with grafana/prometheus/rules.yml (scrape and evaluation every 5 s),
Alertmanager with infra/templates/alertmanager.yml and the webhook receiver. Stops each Redis,
prints when its alert reached the receiver (and which one), starts it again, prints when the
resolution arrived, then every delivery. About 5 minutes (`for: 1m`). AlertsIT does the same
against the running stack.

usage: pipeline_drill.py
"""
import json, os, socket, subprocess, sys, tempfile, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))
import ports_env  # noqa: E402
PORTS = ports_env.load()
T = tempfile.mkdtemp(prefix="hanwiki-alert-drill-")
def free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
R1, R2, E, P, A, W = (free() for _ in range(6))
procs = {}
def start(name, cmd):
    procs[name] = subprocess.Popen(cmd, stdout=open(f"{T}/{name}.log", "a"), stderr=subprocess.STDOUT)
def stop(name):
    p = procs.pop(name); p.terminate(); p.wait(10)
def redis(name, port):
    start(name, ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", T])
out = f"{T}/received.jsonl"
if os.path.exists(out): os.remove(out)
am = open(f"{ROOT}/infra/templates/alertmanager.yml").read().replace("${ALERT_RECEIVER_ADDR}", "127.0.0.1").replace("${ALERT_RECEIVER_PORT}", str(W)).replace("${ALERTMANAGER_GROUP_WAIT}", PORTS["ALERTMANAGER_GROUP_WAIT"]).replace("${ALERTMANAGER_GROUP_INTERVAL}", PORTS["ALERTMANAGER_GROUP_INTERVAL"])
open(f"{T}/am.yml", "w").write(am)
open(f"{T}/prom.yml", "w").write(f"""
global: {{scrape_interval: 5s, evaluation_interval: 5s}}
rule_files: [{ROOT}/grafana/prometheus/rules.yml]
alerting: {{alertmanagers: [{{static_configs: [{{targets: ['127.0.0.1:{A}']}}]}}]}}
scrape_configs:
  - job_name: redis
    metrics_path: /scrape
    static_configs:
      - targets: ['redis://127.0.0.1:{R1}']
        labels: {{role: cache, shard: '2', host: B}}
      - targets: ['redis://127.0.0.1:{R2}']
        labels: {{role: auth, host: A}}
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: 127.0.0.1:{E}
""")
try:
    redis("r1", R1); redis("r2", R2)
    start("exporter", ["prometheus-redis-exporter", "-redis.addr=", f"-web.listen-address=127.0.0.1:{E}"])
    start("receiver", [sys.executable, f"{ROOT}/infra/monitoring/alert_receiver.py", "--port", str(W), "--out", out])
    start("am", ["prometheus-alertmanager", f"--config.file={T}/am.yml", f"--storage.path={T}/amdata", f"--web.listen-address=127.0.0.1:{A}", "--cluster.listen-address="])
    start("prom", ["prometheus", f"--config.file={T}/prom.yml", f"--storage.tsdb.path={T}/promdata", f"--web.listen-address=127.0.0.1:{P}"])
    time.sleep(20)
    def seen(alert, status):
        if not os.path.exists(out): return False
        for line in open(out):
            d = json.loads(line)
            for a in d["alerts"]:
                if a["alertname"] == alert and a["status"] == status: return d["receiver"]
        return False
    for name, port, alert in (("r1", R1, "CacheShardDown"), ("r2", R2, "AuthRedisDown")):
        t0 = time.time(); stop(name); print(f"stopped {name}", flush=True)
        while not seen(alert, "firing") and time.time() - t0 < 150: time.sleep(1)
        print(f"{alert} firing at receiver '{seen(alert, 'firing')}' after {time.time() - t0:.0f}s", flush=True)
        t1 = time.time(); redis(name, port)
        while not seen(alert, "resolved") and time.time() - t1 < 150: time.sleep(1)
        print(f"{alert} resolved={bool(seen(alert, 'resolved'))} after {time.time() - t1:.0f}s", flush=True)
    names = set()
    for line in open(out):
        d = json.loads(line)
        for a in d["alerts"]: names.add((d["receiver"], a["alertname"], a["status"]))
    print("all deliveries:", sorted(names))
finally:
    for n in list(procs): 
        try: stop(n)
        except Exception: pass
