"""Shared by the bench scripts: ports from infra/ports.env, JSON calls, and a signed-up user.

Users are signed up on app node 1 directly: nginx limits sign-ups per client address, and a
bench must not depend on that budget. The token works on both nodes and through nginx."""
import json
import os
import secrets
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import ports_env  # noqa: E402


def ports():
    return ports_env.load()


def call(method, url, body=None, token=None, timeout=10):
    """Returns (status, parsed JSON body or None, headers); 4xx/5xx are answers, not exceptions."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if raw else None), r.headers
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, (json.loads(raw) if raw else None), e.headers


def sign_up(node_url, prefix="bench"):
    """Signs up a fresh user on one node; returns (username, password, token)."""
    username = prefix + secrets.token_hex(5)
    password = "Bench-" + secrets.token_urlsafe(9)
    status, body, headers = call("POST", f"{node_url}/api/v1.0/auth/signup",
                                 {"username": username, "nickname": "b" + secrets.token_hex(4), "password": password})
    if status != 201:
        raise SystemExit(f"sign-up answered {status}: {body}")
    for cookie in headers.get_all("Set-Cookie") or []:
        name, _, rest = cookie.partition("=")
        if name.strip() == "token":
            return username, password, rest.split(";", 1)[0]
    raise SystemExit("sign-up set no token cookie")
