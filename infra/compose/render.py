#!/usr/bin/env python3
"""Renders the compose deployment from the topology (docs/adr/0060-compose-rendered-from-the-topology.md).

Inputs: infra/ports.env (hosts, placement, ports), infra/versions.env (images), the service
template infra/compose/services.yml, and the SAME config templates the native stack renders:
nginx/nginx.conf, grafana/prometheus/prometheus.yml, debezium/hanwiki-mysql.json,
infra/templates/alertmanager.yml, infra/templates/kafka-plan.txt.

Outputs (committed): compose/host-a.yml, host-b.yml, host-m.yml, the per-host configs under
compose/host-<h>/, and compose/hosts.env.example (the hosts' addresses from ports.env, the
file an operator copies to compose/.env and corrects).

  python3 infra/compose/render.py            write the outputs
  python3 infra/compose/render.py --check    render into a temporary directory and fail on any
                                             difference from the committed outputs (drift)
  python3 infra/compose/render.py --out DIR  write the outputs under DIR instead
"""
import argparse
import difflib
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import ports_env  # noqa: E402

ROOT = ports_env.ROOT
TEMPLATE = os.path.join(ROOT, "infra", "compose", "services.yml")
OUT_DIR = os.path.join(ROOT, "compose")

# A ${NAME} of a config template (the native render() syntax: upper-case names only, so nginx's
# $variables and Connect's ${file:...} references stay as they are).
CONFIG_VAR = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}")
# A {{NAME}} of the service template (render time); ${...} there is left to compose.
TEMPLATE_VAR = re.compile(r"\{\{([A-Za-z][A-Za-z0-9_]*)\}\}")
BLOCK = re.compile(r"^#@ (header|service (\S+) (\S+))\s*$")


def read_env(path):
    values = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                values[k] = v
    return values


def host_name(h):
    """The name every container resolves to host H's private address (extra_hosts)."""
    return "hanwiki-" + h.lower()


def host_publish(h):
    """Compose's expression of host H's private address, filled from compose/.env at `up`."""
    return "${HOST_%s_ADDR:?set HOST_%s_ADDR in compose/.env}" % (h, h)


class Topology:
    def __init__(self):
        self.env = ports_env.load()
        self.env.update(read_env(os.path.join(ROOT, "infra", "versions.env")))
        self.hosts = sorted(k[len("HOST_"):-len("_ADDR")] for k in self.env
                            if re.fullmatch(r"HOST_[A-Z]_ADDR", k))
        self.placement = {}  # component -> [hosts]
        for k, v in self.env.items():
            if k.startswith("HOSTS_") or k.startswith("HOST_"):
                continue
            if k.endswith("_HOSTS"):
                self.placement[k[:-len("_HOSTS")]] = [h.strip() for h in v.split(",") if h.strip()]
            elif k.endswith("_HOST"):
                self.placement[k[:-len("_HOST")]] = [v]
        for comp, hs in self.placement.items():
            for h in hs:
                if h not in self.hosts:
                    raise SystemExit("ports.env places %s on host %s, which has no HOST_%s_ADDR" % (comp, h, h))

    def hosts_of(self, component):
        if component not in self.placement:
            raise SystemExit("infra/compose/services.yml names component %s, which ports.env does not place "
                             "(no %s_HOST)" % (component, component))
        return self.placement[component]

    def values(self, host):
        """Render-time values for host HOST's files: ports.env, versions.env, and for every component
        C its C_ADDR (the host name it is reached at) and C_PUBLISH (its host's private address)."""
        v = dict(self.env)
        # An image's tag alone (IMAGE_DEBIAN=debian:bookworm-slim -> IMAGE_DEBIAN_TAG=bookworm-slim).
        for k in list(self.env):
            if k.startswith("IMAGE_") and ":" in self.env[k]:
                v[k + "_TAG"] = self.env[k].rsplit(":", 1)[1]
        v["HOST"] = host
        v["host"] = host.lower()
        for comp, hs in self.placement.items():
            # A component on several hosts (one node exporter per host) is the local one here.
            h = host if host in hs else hs[0]
            v[comp + "_ADDR"] = host_name(h)
            v[comp + "_PUBLISH"] = host_publish(h)
        return v


def fill(text, pattern, values, where):
    missing = sorted({m.group(1) for m in pattern.finditer(text) if m.group(1) not in values})
    if missing:
        raise SystemExit("%s uses names that are not defined: %s" % (where, ", ".join(missing)))
    return pattern.sub(lambda m: values[m.group(1)], text)


def parse_template():
    header, blocks, current = [], [], None
    with open(TEMPLATE, encoding="utf-8") as f:
        for line in f:
            m = BLOCK.match(line.rstrip("\n"))
            if m:
                if m.group(1) == "header":
                    current = header
                else:
                    current = []
                    blocks.append((m.group(2), m.group(3), current))
                continue
            if current is not None:
                current.append(line)
    return "".join(header), [(name, comp, "".join(lines).rstrip() + "\n") for name, comp, lines in blocks]


def anchor_secrets(header):
    """Secrets that each x- anchor of the header brings to a service that merges it."""
    out = {}
    for m in re.finditer(r"^x-[a-z-]+: &([a-z-]+)\n((?:[ #].*\n|\n)*)", header, re.M):
        out[m.group(1)] = set(block_secrets(m.group(2)))
    return out


def block_secrets(text):
    names = set(re.findall(r"source: ([a-z0-9_]+)", text))
    for inline in re.findall(r"^\s+secrets: \[([^\]]*)\]", text, re.M):
        names.update(s.strip() for s in inline.split(",") if s.strip())
    return names


def block_volumes(text):
    return set(re.findall(r"^\s+- ([a-z][a-z0-9-]*):/", text, re.M))


def render_host(topo, host, header, blocks):
    values = topo.values(host)
    anchors = anchor_secrets(header)
    services, volumes, secrets = [], set(), set()
    for name, comp, text in blocks:
        if host not in topo.hosts_of(comp):
            continue
        services.append(name)
        volumes |= block_volumes(text)
        secrets |= block_secrets(text)
        for anchor, names in anchors.items():
            if "*" + anchor + "\n" in text or "*" + anchor + "}" in text:
                secrets |= names
        values.setdefault("_blocks", []).append(text)
    if not services:
        return None
    out = fill(header, TEMPLATE_VAR, values, TEMPLATE + " (header)").rstrip() + "\n\n"
    out += "# Services of host %s: %s\nservices:\n" % (host, ", ".join(services))
    out += "\n".join(fill(t, TEMPLATE_VAR, values, TEMPLATE) for t in values["_blocks"])
    if volumes:
        out += "\n# Named volumes: where this host's data lives (docs/deploy.md, backups).\nvolumes:\n"
        out += "".join("  %s: {}\n" % v for v in sorted(volumes))
    if secrets:
        out += "\n# Files made by infra/compose/secrets.sh (never committed).\nsecrets:\n"
        out += "".join("  %s:\n    file: ./secrets/%s\n" % (s, s) for s in sorted(secrets))
    return out


def render_config(template, values, where):
    with open(os.path.join(ROOT, template), encoding="utf-8") as f:
        return fill(f.read(), CONFIG_VAR, values, template + " (" + where + ")")


def configs(topo):
    """The config files rendered from the native stack's own templates, for compose."""
    out = {}
    nginx_host = topo.hosts_of("NGINX")[0]
    v = topo.values(nginx_host)
    v.update({
        # nginx binds every address of its own container; the host publishes the port.
        "NGINX_ADDR": "0.0.0.0",
        "NGINX_USER": "www-data",
        # Relative to nginx's prefix (-p): /var/cache/hanwiki in the container, a throwaway
        # directory when `make check-compose` runs `nginx -t` on this very file.
        "VAR": "state", "LOGS": "logs",
        # Filled by compose/init/nginx-entry.sh from its drain markers when nginx starts.
        "NODE1_DRAIN": "${NODE1_DRAIN}", "NODE2_DRAIN": "${NODE2_DRAIN}",
        # The pages (web/public) are mounted under /srv/hanwiki in the container.
        "HANWIKI_ROOT": "/srv/hanwiki",
        # No trusted load generators in production (docs/security.md): an empty geo block.
        "NGINX_TRUSTED_GEO": "",
        # mtail shares nginx's network namespace and reads the access log over syslog (UDP).
        "NGINX_ACCESS_LOG_SYSLOG": "access_log syslog:server=127.0.0.1:%s,tag=nginx,nohostname hanwiki;"
                                   % topo.env["MTAIL_SYSLOG_PORT"],
    })
    out["host-%s/nginx.conf" % nginx_host.lower()] = render_config("nginx/nginx.conf", v, "compose")

    prom_host = topo.hosts_of("PROMETHEUS")[0]
    v = topo.values(prom_host)
    v["HANWIKI_ROOT"] = "."  # rules beside the config: /etc/hanwiki/grafana/prometheus/rules.yml
    v["NODE_EXPORTER_STATIC_CONFIGS"] = "[" + ", ".join(
        "{targets: ['%s:%s'], labels: {host: '%s'}}" % (host_name(h), topo.env["NODE_EXPORTER_PORT"], h)
        for h in topo.hosts_of("NODE_EXPORTER")) + "]"
    out["host-%s/prometheus.yml" % prom_host.lower()] = render_config("grafana/prometheus/prometheus.yml", v, "compose")

    # The native stack's Alertmanager config (routes by severity, grouping, inhibition, webhooks to
    # the alert receiver) with production timings instead of the drills' short ones.
    am_host = topo.hosts_of("ALERTMANAGER")[0]
    v = topo.values(am_host)
    v.update({"ALERTMANAGER_GROUP_WAIT": "30s", "ALERTMANAGER_GROUP_INTERVAL": "5m"})
    out["host-%s/alertmanager.yml" % am_host.lower()] = render_config("infra/templates/alertmanager.yml", v, "compose")

    # The topics and ACLs: the list the native stack applies (infra/lib/kafka.sh kafka_plan).
    kafka_host = topo.hosts_of("KAFKA")[0]
    out["host-%s/kafka-plan.txt" % kafka_host.lower()] = render_config(
        "infra/templates/kafka-plan.txt", topo.values(kafka_host), "compose")

    connect_host = topo.hosts_of("CONNECT")[0]
    out["host-%s/hanwiki-mysql.json" % connect_host.lower()] = render_config(
        "debezium/hanwiki-mysql.json", topo.values(connect_host), "compose")

    out["hosts.env.example"] = (
        "# The hosts' private addresses for compose (copy to compose/.env and correct them).\n"
        "# Rendered from infra/ports.env (HOST_*_ADDR); every cross-host port is published on its\n"
        "# host's address only, and containers reach hanwiki-a/-b/-m at these addresses.\n"
        + "".join("HOST_%s_ADDR=%s\n" % (h, topo.env["HOST_%s_ADDR" % h]) for h in topo.hosts)
        + "# The public entry (nginx on host %s): every interface by default.\n" % nginx_host
        + "HANWIKI_PUBLIC_ADDR=0.0.0.0\nHANWIKI_PUBLIC_PORT=80\n"
        + "# The app image tag to run (docs/deploy.md: rolling upgrade and rollback).\n"
        + "HANWIKI_APP_TAG=current\n"
        + "# Base URL of the Maven repository (Maven Central or your mirror of it) host B fetches the\n"
        + "# Prometheus JMX exporter agent from on the first up (checked against its pinned SHA-256).\n"
        + "MAVEN_REPOSITORY_URL=https://maven-mirror.example.invalid/maven2\n")
    return out


def render_all():
    topo = Topology()
    header, blocks = parse_template()
    files = {}
    for h in topo.hosts:
        text = render_host(topo, h, header, blocks)
        if text:
            files["host-%s.yml" % h.lower()] = text
    files.update(configs(topo))
    return files


def write(files, out_dir):
    for rel, text in files.items():
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def check(files):
    """Fails on every output that differs from its fresh rendering (or is missing)."""
    drift = []
    for rel, text in sorted(files.items()):
        path = os.path.join(OUT_DIR, rel)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if current != text:
            drift.append(rel)
            sys.stderr.writelines(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), "compose/" + rel + " (committed)",
                "compose/" + rel + " (rendered now)", n=1))
    if drift:
        sys.stderr.write("\ncompose/ differs from infra/ports.env, infra/versions.env and the templates: %s\n"
                         "Re-render with `python3 infra/compose/render.py` and commit the result.\n" % ", ".join(drift))
        return 1
    print("compose/: %d files match a fresh rendering of the topology" % len(files))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed outputs differ from a fresh rendering")
    ap.add_argument("--out", help="write the outputs under this directory instead of compose/")
    args = ap.parse_args()
    files = render_all()
    if args.check:
        return check(files)
    write(files, args.out or OUT_DIR)
    print("rendered %d files into %s" % (len(files), args.out or "compose/"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
