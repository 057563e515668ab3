#!/usr/bin/env python3
"""Seeds the demo pages of infra/demo/pages.json through the public API (nginx), so they
take the same path as any write: primary -> binlog -> Debezium -> Kafka -> every node.
Writes need a signed-in user: the script signs up a demo editor with a random password it
never keeps (the pages are seeded once, when the database holds no posts). Called by infra/up.sh."""
import json
import os
import secrets
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "infra", "lib"))
import ports_env  # noqa: E402


def call(url, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.headers.get_all("Set-Cookie") or []


def token_of(cookies):
    for c in cookies:
        name, _, rest = c.partition("=")
        if name.strip() == "token":
            return rest.split(";", 1)[0]
    sys.exit("sign-up answered without a token cookie")


def main():
    port = ports_env.load()["NGINX_PORT"]
    api = f"http://127.0.0.1:{port}/api/v1.0"
    suffix = secrets.token_hex(3)
    status, cookies = call(f"{api}/auth/signup", {"username": f"demo{suffix}", "nickname": f"편집자{suffix[:4]}",
                                                  "password": secrets.token_urlsafe(18) + "A1"})
    if status != 201:
        sys.exit(f"signing up the demo editor answered {status}")
    token = token_of(cookies)
    pages = json.load(open(os.path.join(ROOT, "infra", "demo", "pages.json"), encoding="utf-8"))
    for i, page in enumerate(pages, 1):
        status, _ = call(f"{api}/posts", page, token)
        if status != 201:
            sys.exit(f"seeding '{page['title']}' answered {status}")
        print(f"\r  demo pages {i}/{len(pages)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
