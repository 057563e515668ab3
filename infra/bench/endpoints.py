#!/usr/bin/env python3
"""p50/p99 of every API call through nginx: one client on one keep-alive connection, warm
(30 unmeasured calls per call first), R measured calls each (make bench-endpoints R=300).

nginx limits login and sign-up to 1/s per address (burst 10) and the availability checks to
5/s (burst 20): those calls are paced under the limit and measured fewer times (--paced).
Writes act on posts the script creates; each edit names the version it starts from. The
signed-in user is made on node 1 directly (see api.py)."""
import argparse
import http.client
import json
import secrets
import statistics
import time

from api import call, ports, sign_up
from ports_env import where  # noqa: E402
from stats import percentile as pct

ANONYMOUS = ""


class Client:
    """One keep-alive connection to nginx; calls carry the user's token unless told otherwise."""

    def __init__(self, port, token):
        self.conn = http.client.HTTPConnection(where(port), port, timeout=15)
        self.token = token

    def send(self, method, path, body=None, token=None):
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        token = self.token if token is None else token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        t0 = time.perf_counter()
        self.conn.request(method, "/api/v1.0" + path, body=data, headers=headers)
        r = self.conn.getresponse()
        raw = r.read()
        ms = (time.perf_counter() - t0) * 1000
        return r.status, (json.loads(raw) if raw else None), ms



def token_of(headers):
    for cookie in headers.get_all("Set-Cookie") or []:
        name, _, rest = cookie.partition("=")
        if name.strip() == "token":
            return rest.split(";", 1)[0]
    raise SystemExit("no token cookie")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--paced", type=int, default=20, help="measured calls of each rate-limited call")
    args = ap.parse_args()
    env = ports()
    node1 = f"http://{where(env['NODE1_PORT'])}:{env['NODE1_PORT']}"
    username, password, token = sign_up(node1, "ep")
    c = Client(int(env["NGINX_PORT"]), token)

    status, body, _ = c.send("POST", "/posts", {"title": "측정용 글", "content": "첫 줄\n둘째 줄\n", "categoryId": 27})
    assert status == 201, (status, body)
    post = body["data"]["id"]
    assert c.send("PUT", f"/posts/{post}", {"title": "측정용 글", "content": "첫 줄\n고친 줄\n", "version": 1})[0] == 200
    state = {"version": 2, "liked": False}

    def get(path, token=None):
        return lambda: c.send("GET", path, token=token)

    def create():
        return c.send("POST", "/posts", {"title": "측정 " + secrets.token_hex(3), "content": "본문", "categoryId": 26})

    def edit():
        r = c.send("PUT", f"/posts/{post}", {"title": "측정용 글", "content": f"내용 {state['version']}", "version": state["version"]})
        state["version"] += 1
        return r

    def delete():
        created = c.send("POST", "/posts", {"title": "지울 글", "content": "본문"})[1]["data"]["id"]
        return c.send("DELETE", f"/posts/{created}")

    def like(want):
        def run():
            if state["liked"] == want:  # put it in the other state first, unmeasured
                c.send("DELETE" if want else "POST", f"/posts/{post}/like")
            state["liked"] = want
            return c.send("POST" if want else "DELETE", f"/posts/{post}/like")
        return run

    def logout():
        _, _, headers = call("POST", f"{node1}/api/v1.0/auth/login", {"username": username, "password": password})
        return c.send("POST", "/auth/logout", token=token_of(headers))

    def signup():
        return c.send("POST", "/auth/signup", {"username": "ep" + secrets.token_hex(6), "nickname": "e" + secrets.token_hex(4),
                                               "password": "Bench-pass-1"}, token=ANONYMOUS)

    # (name, call, pause between calls in seconds: 0 = not rate-limited)
    cases = [
        ("GET /categories", get("/categories", ANONYMOUS), 0),
        ("GET /posts (page 0)", get("/posts?size=20", ANONYMOUS), 0),
        ("GET /posts (page 100)", get("/posts?size=20&page=100", ANONYMOUS), 0),
        ("GET /posts?categoryId=27", get("/posts?categoryId=27&size=20", ANONYMOUS), 0),
        ("GET /posts/{id} (anonymous)", get(f"/posts/{post}", ANONYMOUS), 0),
        ("GET /posts/{id} (signed in)", get(f"/posts/{post}"), 0),
        ("GET /posts/search?q=서울", get("/posts/search?q=%EC%84%9C%EC%9A%B8", ANONYMOUS), 0),
        ("GET /posts/{id}/revisions", get(f"/posts/{post}/revisions", ANONYMOUS), 0),
        ("GET /posts/{id}/revisions/{rev}", get(f"/posts/{post}/revisions/1", ANONYMOUS), 0),
        ("GET /posts/{id}/diff", get(f"/posts/{post}/diff?from=1&to=2", ANONYMOUS), 0),
        ("GET /auth/me", get("/auth/me"), 0),
        ("POST /posts", create, 0),
        ("PUT /posts/{id}", edit, 0),
        ("DELETE /posts/{id}", delete, 0),
        ("POST /posts/{id}/like", like(True), 0),
        ("DELETE /posts/{id}/like", like(False), 0),
        ("POST /auth/logout", logout, 0),
        ("GET /auth/check-username", get(f"/auth/check-username?value={username}", ANONYMOUS), 0.25),
        ("GET /auth/check-nickname", get("/auth/check-nickname?value=abcde", ANONYMOUS), 0.25),
        ("POST /auth/login", lambda: c.send("POST", "/auth/login", {"username": username, "password": password}, ANONYMOUS), 1.05),
        ("POST /auth/signup", signup, 1.05),
    ]
    print(f"{'call':34} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for name, run, pause in cases:
        n = args.paced if pause else args.requests
        warm = 5 if pause else 30
        times = []
        for i in range(warm + n):
            status, body, ms = run()
            if status >= 400:
                raise SystemExit(f"{name} answered {status}: {body}")
            if i >= warm:
                times.append(ms)
            time.sleep(pause)
        print(f"{name:34} {n:4d} {pct(times, 50):8.2f} {pct(times, 99):8.2f} {statistics.mean(times):8.2f}", flush=True)


if __name__ == "__main__":
    main()
