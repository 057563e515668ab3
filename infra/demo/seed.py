#!/usr/bin/env python3
"""Seeds the demo pages of infra/demo/pages.json through the public API (nginx), so they
take the same path as any write: primary -> binlog -> Debezium -> Kafka -> every node.
Does nothing when the database already holds posts. Called by infra/up.sh."""
import json
import os
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    port = next(l.split("=", 1)[1].strip() for l in open(os.path.join(ROOT, "infra", "ports.env"), encoding="utf-8")
                if l.startswith("NGINX_PORT="))
    api = f"http://127.0.0.1:{port}/api/v1.0"
    pages = json.load(open(os.path.join(ROOT, "infra", "demo", "pages.json"), encoding="utf-8"))
    for i, page in enumerate(pages, 1):
        req = urllib.request.Request(f"{api}/posts", data=json.dumps(page).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            if r.status != 201:
                sys.exit(f"seeding '{page['title']}' answered {r.status}")
        print(f"\r  demo pages {i}/{len(pages)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
