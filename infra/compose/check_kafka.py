#!/usr/bin/env python3
"""Fails when compose runs Kafka less hardened, or less watched, than the native stack.

Reads what compose would deploy (`docker-compose config --format json` of each host file, given as
HOST=FILE arguments, as infra/compose/verify.py) and the files those services mount, and checks
what docs/adr/0053 and infra/templates/kafka-server.properties demand natively:
  - the broker: no PLAINTEXT listener (every listener SASL_PLAINTEXT), SCRAM-SHA-512 for clients,
    the controller listener authenticated (PLAIN), StandardAuthorizer with super.users=User:broker,
    its passwords from a compose secret, and an entry script that formats with --add-scram for
    broker, hanwiki and connect;
  - every Kafka client container logs in: any service whose environment, command or mounted
    connector JSON names the broker (KAFKA_ADDR:KAFKA_PORT of ports.env), and the broker's own
    health check. App nodes: HANWIKI_CDC_USERNAME and the hanwiki.cdc.password secret; Connect:
    SASL_PLAINTEXT + SCRAM for the worker, producer, consumer and admin clients and a JAAS file
    that is a secret; a mounted script: --command-config on every Kafka tool it runs; a connector
    JSON: SASL for the schema history's producer and consumer;
  - the ACLs of infra/templates/kafka-plan.txt (the native list) are added by a mounted script;
  - Prometheus' kafka and connect jobs scrape something: each target port is published by a
    service on that host whose JVM runs the JMX exporter agent on that port, with
    infra/monitoring/jmx-<job>.yml mounted and the agent jar's volume filled by a one-shot it
    waits for.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import ports_env  # noqa: E402

ROOT = ports_env.ROOT


def text_of(svc):
    parts = [json.dumps(svc.get("environment") or {}), json.dumps(svc.get("command") or []),
             json.dumps(svc.get("entrypoint") or [])]
    return " ".join(parts)


def binds(svc):
    return {v["target"]: v["source"] for v in svc.get("volumes", []) if v.get("type") == "bind"}


def secret_targets(svc):
    return {s.get("target") or "/run/secrets/" + s["source"]: s["source"] for s in svc.get("secrets", [])}


def main(args):
    env = ports_env.load()
    kafka = "hanwiki-%s:%s" % (env["KAFKA_HOST"].lower(), env["KAFKA_PORT"])
    services = {}
    for a in args:
        h, f = a.split("=", 1)
        for name, svc in json.load(open(f))["services"].items():
            services[(h, name)] = svc
    errors = []

    def err(where, msg):
        errors.append("%s: %s" % (where, msg))

    # --- the broker ---
    brokers = [(k, s) for k, s in services.items()
               if any("process.roles" in str(v).lower() or k2.upper().endswith("PROCESS_ROLES")
                      for k2, v in (s.get("environment") or {}).items())]
    if not brokers:
        err("kafka", "no service runs a Kafka broker (no PROCESS_ROLES setting)")
    for (h, name), svc in brokers:
        where = "host %s %s" % (h, name)
        cfg = {re.sub(r"^KAFKA_(CFG_)?", "", k).lower().replace("_", "."): str(v)
               for k, v in (svc.get("environment") or {}).items() if k.startswith("KAFKA_")}
        protos = dict(p.split(":", 1) for p in cfg.get("listener.security.protocol.map", "").split(",") if ":" in p)
        for listener in cfg.get("listeners", "").split(","):
            lname = listener.split("://")[0]
            if protos.get(lname, lname) != "SASL_PLAINTEXT":
                err(where, "listener %s is %s, not SASL_PLAINTEXT (native: every listener authenticates)"
                    % (lname, protos.get(lname, lname)))
        if cfg.get("sasl.enabled.mechanisms") != "SCRAM-SHA-512":
            err(where, "clients do not log in with SCRAM-SHA-512 (sasl.enabled.mechanisms)")
        if cfg.get("sasl.mechanism.controller.protocol") != "PLAIN":
            err(where, "the controller listener is not authenticated like natively (SASL/PLAIN)")
        if cfg.get("authorizer.class.name") != "org.apache.kafka.metadata.authorizer.StandardAuthorizer":
            err(where, "no StandardAuthorizer (authorizer.class.name)")
        if cfg.get("super.users") != "User:broker":
            err(where, "super.users is not User:broker")
        if cfg.get("allow.everyone.if.no.acl.found", "false") != "false":
            err(where, "allow.everyone.if.no.acl.found must stay false")
        if not svc.get("secrets"):
            err(where, "takes no compose secret: its SCRAM/PLAIN passwords have nowhere to come from")
        scripts = [src for tgt, src in binds(svc).items() if tgt.endswith(".sh") and tgt in text_of(svc)]
        body = "".join(open(s).read() for s in scripts if os.path.isfile(s))
        for user in ("broker", "hanwiki", "connect"):
            if not re.search(r"--add-scram \"SCRAM-SHA-512=\[name=%s," % user, body):
                err(where, "its entry script does not format the storage with the SCRAM user %s" % user)
        hc = " ".join((svc.get("healthcheck") or {}).get("test") or [])
        if "kafka-" in hc and "--command-config" not in hc:
            err(where, "its health check runs a Kafka tool without a login (--command-config)")

    # --- every client ---
    acl_text = ""
    for (h, name), svc in sorted(services.items()):
        if (h, name) in dict(brokers):
            continue
        where = "host %s %s" % (h, name)
        envs = {k: str(v) for k, v in (svc.get("environment") or {}).items()}
        mounted = {t: s for t, s in binds(svc).items() if os.path.isfile(s)}
        connector = [s for t, s in mounted.items() if s.endswith(".json") and kafka in open(s).read()]
        if kafka not in text_of(svc) and not connector:
            continue
        secrets = secret_targets(svc)
        if "HANWIKI_CDC_BOOTSTRAP_SERVERS" in envs:
            if not envs.get("HANWIKI_CDC_USERNAME"):
                err(where, "an app node without a Kafka user (HANWIKI_CDC_USERNAME)")
            if "/run/secrets/app/hanwiki.cdc.password" not in secrets:
                err(where, "an app node without its Kafka password (secret at /run/secrets/app/hanwiki.cdc.password)")
        if "BOOTSTRAP_SERVERS" in envs:  # a Connect worker
            for p in ("", "PRODUCER_", "CONSUMER_", "ADMIN_"):
                if envs.get("CONNECT_%sSECURITY_PROTOCOL" % p) != "SASL_PLAINTEXT" \
                        or envs.get("CONNECT_%sSASL_MECHANISM" % p) != "SCRAM-SHA-512":
                    err(where, "Connect's %sclients do not log in (CONNECT_%sSECURITY_PROTOCOL/SASL_MECHANISM)"
                        % (p.lower().replace("_", " "), p))
            jaas = re.search(r"java\.security\.auth\.login\.config=(\S+)", envs.get("KAFKA_OPTS", ""))
            if not jaas or jaas.group(1) not in secrets:
                err(where, "Connect's JAAS file (its KafkaClient login) is not a compose secret")
        for s in connector:
            c = json.load(open(s))
            for role in ("producer", "consumer"):
                if c.get("schema.history.internal.%s.security.protocol" % role) != "SASL_PLAINTEXT" \
                        or "${file:" not in c.get("schema.history.internal.%s.sasl.jaas.config" % role, ""):
                    err(where, "%s: the schema history's %s does not log in (a ${file:...} password)" % (os.path.relpath(s, ROOT), role))
        for t, s in mounted.items():
            if t.endswith(".txt"):
                acl_text += open(s).read()  # the plan kafka-topics.sh applies (kafka-plan.txt)
            if not t.endswith(".sh"):
                continue
            body = open(s).read()
            acl_text += body
            for line in re.findall(r"^.*\bkafka-[a-z-]+\.sh\".*$", body, re.M):
                if "--bootstrap-server" in line and "--command-config" not in line:
                    err(where, "%s runs a Kafka tool without a login: %s" % (os.path.relpath(s, ROOT), line.strip()))
        if not (secrets or "HANWIKI_CDC_BOOTSTRAP_SERVERS" in envs or connector):
            err(where, "a Kafka client (names %s) with no compose secret to log in with" % kafka)

    # --- the ACLs of infra/templates/kafka-plan.txt (native: infra/lib/kafka.sh kafka_plan) ---
    for want in ("User:hanwiki", "User:connect", "hanwiki-cache-l2", "hanwiki-indexer-", ".dlq",
                 "_connect-configs", "hanwiki-connect", "schemahistory", "__debezium-heartbeat"):
        if want not in acl_text or "kafka-acls.sh" not in acl_text:
            err("ACLs", "no mounted script adds the native ACL naming %s (kafka-acls.sh)" % want)

    # --- Prometheus' kafka and connect targets ---
    proms = [p for p in os.listdir(os.path.join(ROOT, "compose")) if p.startswith("host-")
             and os.path.isfile(os.path.join(ROOT, "compose", p, "prometheus.yml"))]
    prom = open(os.path.join(ROOT, "compose", proms[0], "prometheus.yml")).read() if proms else ""
    for job in ("kafka", "connect"):
        m = re.search(r"job_name: %s\n(?:\s+.*\n)*?\s+- targets: \['hanwiki-([a-z]):(\d+)'\]" % job, prom)
        if not m:
            err("prometheus", "no %s job" % job)
            continue
        h, port = m.group(1).upper(), m.group(2)
        where = "prometheus job %s (hanwiki-%s:%s)" % (job, h.lower(), port)
        owner = [(name, svc) for (hh, name), svc in services.items() if hh == h
                 and any(str(p.get("published")) == port for p in svc.get("ports", []))]
        if not owner:
            err(where, "no service on host %s publishes port %s: the target is down" % (h, port))
            continue
        name, svc = owner[0]
        envs = {k: str(v) for k, v in (svc.get("environment") or {}).items()}
        agent = re.search(r"-javaagent:(\S+?)=[^:\s]*:%s:(\S+)" % port, envs.get("KAFKA_OPTS", ""))
        if agent:
            jar, conf = agent.groups()
        elif envs.get("KAFKA_METRICS_PORT") == port and envs.get("KAFKA_JMX_AGENT"):
            jar, conf = envs["KAFKA_JMX_AGENT"], envs.get("KAFKA_JMX_CONFIG", "")
        else:
            err(where, "%s publishes it but runs no JMX exporter agent on it" % name)
            continue
        if os.path.relpath(binds(svc).get(conf, ""), ROOT) != "infra/monitoring/jmx-%s.yml" % job:
            err(where, "%s's agent config %s is not infra/monitoring/jmx-%s.yml" % (name, conf, job))
        vols = {v["target"]: v["source"] for v in svc.get("volumes", []) if v.get("type") == "volume"}
        vol = next((src for tgt, src in vols.items() if jar.startswith(tgt.rstrip("/") + "/")), None)
        fillers = [n for (hh, n), s in services.items() if hh == h and n != name
                   and any(v.get("source") == vol for v in s.get("volumes", []))]
        deps = svc.get("depends_on") or {}
        if not vol or not any(deps.get(f, {}).get("condition") == "service_completed_successfully" for f in fillers):
            err(where, "%s's agent jar %s is not on a volume a one-shot it waits for fills" % (name, jar))

    for e in errors:
        print("kafka: " + e, file=sys.stderr)
    if errors:
        return 1
    print("kafka: SASL/SCRAM, authorizer and ACLs as natively; every Kafka client logs in; "
          "the kafka and connect scrape targets are JMX exporter agents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
