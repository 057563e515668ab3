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


def url(values, component, port_key=None):
    """http://address:port of a component (its port is <component>_PORT unless port_key says)."""
    return "http://%s:%s" % (addr(values, component), values[port_key or component + "_PORT"])


_LOADED = None


def where(port):
    """The address of the component listening on PORT (ports are unique in ports.env): lets a
    script that holds only a port reach it in either topology."""
    global _LOADED
    if _LOADED is None:
        _LOADED = load()
    for key, value in _LOADED.items():
        if key.endswith("_PORT") and value == str(port):
            component = key[:-5]
            while component and component + "_HOST" not in _LOADED:
                component = component.rpartition("_")[0]  # NODE1_MANAGEMENT -> NODE1
            if component:
                return addr(_LOADED, component)
    return "127.0.0.1"


def management(port):
    """address:port of the management side (actuator) of the app node whose API port is PORT."""
    global _LOADED
    if _LOADED is None:
        _LOADED = load()
    for n in (1, 2):
        if _LOADED["NODE%d_PORT" % n] == str(port):
            return "%s:%s" % (addr(_LOADED, "NODE%d" % n), _LOADED["NODE%d_MANAGEMENT_PORT" % n])
    raise KeyError("no app node has API port %s" % port)
