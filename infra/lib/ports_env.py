"""infra/ports.env for the Python scripts: plain KEY=VALUE lines (the one file that defines every
port and path), plus VAR, the state directory made absolute as infra/lib/common.sh does."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load():
    values = {}
    with open(os.path.join(ROOT, "infra", "ports.env"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                values[k] = v
    values["HANWIKI_TOPOLOGY"] = os.environ.get("HANWIKI_TOPOLOGY") or values["HANWIKI_TOPOLOGY"]
    if values["HANWIKI_TOPOLOGY"] not in ("hosts", "local"):
        raise SystemExit("HANWIKI_TOPOLOGY must be hosts or local, not %r" % values["HANWIKI_TOPOLOGY"])
    var = values["HANWIKI_VAR"]
    values["VAR"] = var if var.startswith("/") else os.path.join(ROOT, var)
    return values


def addr(values, component):
    """The address COMPONENT (a ports.env prefix: NODE1, MARIADB_PRIMARY...) binds and is reached
    at: its host's HOST_<h>_ADDR, or 127.0.0.1 in the local topology (docs/adr/0050)."""
    if values["HANWIKI_TOPOLOGY"] == "local":
        return "127.0.0.1"
    return values["HOST_%s_ADDR" % values[component + "_HOST"]]
