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
    var = values["HANWIKI_VAR"]
    values["VAR"] = var if var.startswith("/") else os.path.join(ROOT, var)
    return values
