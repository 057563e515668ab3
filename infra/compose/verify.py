#!/usr/bin/env python3
"""Fails when the compose deployment places or exposes anything differently from infra/ports.env.

It reads what compose itself would deploy (`docker-compose config --format json` of each host
file, given as HOST=FILE arguments) and the rendered configs under compose/, independently of
the renderer, and checks against ports.env (docs/adr/0061-compose-validated-in-the-build.md):
  - each component with a COMPONENT_HOST and COMPONENT_PORT runs in its host's file and publishes
    that port, host port = container port, on that host's private address only (the public
    nginx port excepted), and no service publishes a port ports.env does not give it;
  - a host-network service (the node exporter) listens on its host's address and its port;
  - every cross-host reference hanwiki-<h>:<port> (environment, commands, nginx, Prometheus,
    the connector) names a component that ports.env places on host <h> with that port;
  - hanwiki-a/-b/-m resolve (extra_hosts) to HOST_A/B/M_ADDR.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import ports_env  # noqa: E402

ROOT = ports_env.ROOT
REF = re.compile(r"hanwiki-([a-z]):(\d+)")


def main(args):
    env = ports_env.load()
    hosts = sorted(k[5:-5] for k in env if re.fullmatch(r"HOST_[A-Z]_ADDR", k))
    placement = {}
    for k, v in env.items():
        if k.startswith("HOST"):
            continue
        if k.endswith("_HOSTS"):
            placement[k[:-6]] = v.split(",")
        elif k.endswith("_HOST"):
            placement[k[:-5]] = [v]
    ports = {c: int(env[c + "_PORT"]) for c in placement if c + "_PORT" in env}
    by_port = {}
    for c, p in ports.items():
        by_port.setdefault(p, set()).add(c)
    # A component's further ports (NODE1_MANAGEMENT_PORT, NGINX_STATUS_PORT, KAFKA_CONTROLLER_PORT)
    # belong to the longest placed prefix: they may be published and referenced on its host.
    for k, v in env.items():
        if k.endswith("_PORT") and k[:-5] not in placement:
            owners = [c for c in placement if k.startswith(c + "_")]
            if owners:
                by_port.setdefault(int(v), set()).add(max(owners, key=len))
    public_port = int(env["NGINX_PORT"])
    errors = []

    def ref_ok(where, text):
        for h, port in REF.findall(text):
            comps = [c for c in by_port.get(int(port), ()) if h.upper() in placement[c]]
            if not comps:
                errors.append("%s: hanwiki-%s:%s, but ports.env places no component on host %s with port %s"
                              % (where, h, port, h.upper(), port))

    seen = {h: set() for h in hosts}
    for arg in args:
        host, path = arg.split("=", 1)
        addr = env["HOST_%s_ADDR" % host]
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
        for name, svc in cfg.get("services", {}).items():
            where = "compose/host-%s.yml %s" % (host.lower(), name)
            for eh in svc.get("extra_hosts") or []:
                m = re.fullmatch(r"hanwiki-([a-z])[:=](.+)", eh)
                if m and env.get("HOST_%s_ADDR" % m.group(1).upper()) != m.group(2):
                    errors.append("%s: extra host %s, but ports.env says HOST_%s_ADDR=%s"
                                  % (where, eh, m.group(1).upper(), env.get("HOST_%s_ADDR" % m.group(1).upper())))
            for p in svc.get("ports") or []:
                target, published, ip = int(p["target"]), int(p.get("published") or 0), p.get("host_ip", "")
                comps = by_port.get(target, set())
                if target == public_port and "NGINX" in comps and host in placement["NGINX"]:
                    seen[host].add("NGINX")
                    continue
                if not comps:
                    errors.append("%s publishes %s, a port ports.env gives no component" % (where, target))
                    continue
                here = [c for c in comps if host in placement[c]]
                if not here:
                    errors.append("%s publishes %s (%s), which ports.env places on host %s, not %s"
                                  % (where, target, "/".join(sorted(comps)), "/".join(placement[sorted(comps)[0]]), host))
                if published != target:
                    errors.append("%s publishes container port %s as %s: they must be the same" % (where, target, published))
                if ip != addr:
                    errors.append("%s publishes %s on '%s', not on host %s's private address %s"
                                  % (where, target, ip or "every address", host, addr))
                seen[host].update(here)
            if svc.get("network_mode") == "host":
                for c in ports:
                    if host in placement[c] and any(a == "--web.listen-address=%s:%d" % (addr, ports[c])
                                                   for a in svc.get("command") or []):
                        seen[host].add(c)
            ref_ok(where, json.dumps({k: svc.get(k) for k in ("environment", "command", "entrypoint", "healthcheck")}))
    for h in hosts:
        if not any(a.split("=", 1)[0] == h for a in args):
            continue
        native_only = set(env.get("NATIVE_ONLY", "").split(","))
        for c, hs in placement.items():
            if h in hs and c in ports and c not in seen[h] and c not in native_only:
                errors.append("ports.env places %s (port %s) on host %s, but compose/host-%s.yml does not publish it"
                              % (c, ports[c], h, h.lower()))
    for dirpath, _, files in os.walk(os.path.join(ROOT, "compose")):
        for f in files:
            if f.endswith((".conf", ".yml", ".json")) and os.path.basename(dirpath).startswith("host-"):
                path = os.path.join(dirpath, f)
                ref_ok(os.path.relpath(path, ROOT), open(path, encoding="utf-8").read())
    if errors:
        sys.stderr.write("compose differs from the topology (infra/ports.env):\n  " + "\n  ".join(errors) + "\n")
        return 1
    print("compose matches infra/ports.env: placement, published ports and addresses of %d host files" % len(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
