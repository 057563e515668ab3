"""What the chaos runner checks after a fault: the ledger against the primary and the indexes,
the indexes against the primary while writes continue, the alerts the receiver got."""
import datetime
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import verify_index  # noqa: E402


def primary_rows(env, ids):
    """{id: (version, sha256(title\\ncontent), deleted)} of these ids, read on the primary."""
    rows = {}
    ids = sorted(i for i in ids if i is not None)
    sock = os.path.join(env["VAR"], "mariadb", "primary", "mysqld.sock")
    for k in range(0, len(ids), 2000):
        chunk = ",".join(str(i) for i in ids[k:k + 2000])
        out = subprocess.run(
            ["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B", "-e",
             f"SELECT id, version, SHA2(CONCAT(title, '\\n', content), 256), deleted_at IS NOT NULL "
             f"FROM {env['MARIADB_DATABASE']}.posts WHERE id IN ({chunk})"],
            check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            pid, version, h, deleted = line.split("\t")
            rows[int(pid)] = (int(version), h, deleted == "1")
    return rows


def ledger_lost(env, ledger, uncertain):
    """Acknowledged writes not in the primary as acknowledged. A later version than the ledger's
    is accepted only when this run sent a write of that post whose outcome it never learned
    (a timeout or 5xx that committed anyway): that is not a loss. Returns (lost, details)."""
    rows = primary_rows(env, ledger.keys())
    lost = []
    for pid, (version, h, _) in ledger.items():
        row = rows.get(pid)
        if row is None or row[2]:
            lost.append((pid, "absent" if row is None else "deleted"))
        elif row[0] == version:
            if row[1] != h:
                lost.append((pid, f"version {version} but another text"))
        elif row[0] > version and any(v == row[0] and hh == row[1] for v, hh in uncertain.get(pid, [])):
            continue
        else:
            lost.append((pid, f"primary has version {row[0]}, acknowledged {version}"))
    return lost, rows


def index_of(env, n):
    port = env[f"NODE{n}_PORT"]
    index, _ = verify_index.index_versions(f"http://{verify_index.where(port)}:{port}")
    return index


def ledger_in_indexes(env, ledger, rows):
    """Ledger posts missing from a node's index or indexed at another version than the primary's."""
    out = {}
    for n in (1, 2):
        try:
            index = index_of(env, n)
        except OSError as e:
            out[f"node{n}"] = f"unreachable: {e}"
            continue
        out[f"node{n}"] = sum(1 for pid in ledger if pid in rows and index.get(pid) != rows[pid][0])
    return out


def converged_under_load(env, recent_ids):
    """verify-index's comparison while writes continue: differences are allowed only for posts
    this run wrote from a few seconds before the check began until it ended (recent_ids(), called
    once both nodes are read: their index has not caught up yet, the freshness target is 1 s).
    True when nothing else differs on either node."""
    try:
        db = {i: version for i, (version, _) in verify_index.database_posts(env).items()}
        indexes = {n: index_of(env, n) for n in (1, 2)}
        recent = recent_ids()
        for n, index in indexes.items():
            bad = [i for i in db if index.get(i) != db[i] and i not in recent]
            bad += [i for i in index if i not in db and i not in recent]
            if bad:
                return False
        return True
    except (OSError, subprocess.CalledProcessError):
        return False


def alerts(path, names, since):
    """[(alertname, 'firing'|'resolved', epoch seconds received)] for these alert names, received
    after `since` (epoch), in order."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                d = json.loads(line)
            except ValueError:
                continue
            t = datetime.datetime.fromisoformat(d["received_at"]).timestamp()
            if t < since:
                continue
            for a in d.get("alerts", []):
                if a.get("alertname") in names:
                    out.append((a["alertname"], a.get("status"), t))
    return out
