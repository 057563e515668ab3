"""The chaos runner's load: an open model at a fixed rate through nginx's public entry, with the
community mix's weights (k6/lib/community.js), and a LEDGER of every acknowledged write.

Why Python and not k6: every write must land in the ledger with the id, version and content
hash it was acknowledged with, and the edits need the version of the last acknowledged write of
their post; one process that sends the requests and records the answers keeps that exact. The
reads are the mix's reads (search 35, autocomplete 20, list 15, detail 15, same query words and
post ids as k6, from var/load/); the mix's write share (15%) is create 8 and edit 7 (an edit of a
post this run created, with its version) instead of create 8 and like 7: a like changes a counter,
not a version or a text, so a ledger could not check it.

Open model: a dispatcher starts one request every 1/RATE s whatever the answers do (a slow stack
does not slow the arrivals); requests run on a bounded pool of threads. An arrival that finds
every thread busy is DROPPED and counted as an error ("dropped"), as k6 counts dropped iterations.
Reads reuse keep-alive connections (one per thread); a read whose reused connection turns out to
have been closed by nginx before it answered (idle close, reload) is sent once more on a new
connection, as HTTP clients do. Writes use a new connection each (never resent)."""
import hashlib
import http.client
import json
import random
import socket
import threading
import time
import unicodedata
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

WEIGHTS = {"search": 35, "autocomplete": 20, "list": 15, "detail": 15, "create": 8, "edit": 7}
WRITES = ("create", "edit")
TIMEOUT_S = 60  # as k6's default request timeout


def content_hash(title, content):
    """sha256 of title + newline + content as the primary stores them (titles NFC, DisplayText)."""
    return hashlib.sha256(f"{unicodedata.normalize('NFC', title)}\n{content}".encode()).hexdigest()


class Load:
    def __init__(self, host, port, rate, words, post_ids, tokens, ledger_path, threads=256, seed=None):
        self.host, self.port, self.rate = host, port, rate
        self.words, self.post_ids, self.tokens = words, post_ids, tokens
        self.rng = random.Random(seed)
        self.table = [name for name, w in WEIGHTS.items() for _ in range(w)]
        self.samples = []  # (start, endpoint, status, ms, ok, code)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="chaos-load")
        self.slots = threading.BoundedSemaphore(threads)
        self.local = threading.local()
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.ledger = {}        # id -> (version, hash, acked_at)
        self.uncertain = {}     # id -> [(version, hash)] writes whose outcome is unknown
        self.free_posts = []    # ids created by this run that no edit is using right now
        self.author = {}        # id -> the token that created it (only the author may edit)
        self.ledger_file = open(ledger_path, "a", encoding="utf-8")
        self.thread = threading.Thread(target=self._dispatch, daemon=True, name="chaos-dispatch")
        self.seq = 0

    # --- lifecycle -------------------------------------------------------------------------
    def start(self):
        self.thread.start()

    def stop(self):
        self.stop_event.set()
        self.thread.join()
        self.pool.shutdown(wait=True)
        self.ledger_file.close()

    def _dispatch(self):
        start, i = time.monotonic(), 0
        while not self.stop_event.is_set():
            delay = start + i / self.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            i += 1
            name = self.table[self.rng.randrange(len(self.table))]
            if not self.slots.acquire(blocking=False):
                self.samples.append((time.time(), name, 0, 0.0, False, "dropped"))
                continue
            self.pool.submit(self._one, name, i)

    def _one(self, name, i):
        try:
            getattr(self, "_" + name)(i)
        except Exception as e:  # a bug in the generator must not look like a stack error silently
            self.samples.append((time.time(), name, 0, 0.0, False, "generator:" + type(e).__name__))
        finally:
            self.slots.release()

    # --- HTTP ------------------------------------------------------------------------------
    def _conn(self, fresh=False):
        c = getattr(self.local, "conn", None)
        if fresh or c is None or time.monotonic() - self.local.used > 20:
            if c is not None:
                c.close()
            c = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
            self.local.conn, self.local.reused = c, False
        self.local.used = time.monotonic()
        return c

    def _request(self, name, method, path, body=None, token=None, want=(200,)):
        """Sends one request; records a sample; returns (status, parsed body or None)."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        write = method != "GET"
        t0 = time.time()
        status, parsed, code = 0, None, None
        for attempt in range(2):
            if write:
                c = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
                headers["Connection"] = "close"
            else:
                c = self._conn(fresh=attempt > 0)
            reused = not write and self.local.reused
            try:
                c.request(method, path, body=data, headers=headers)
                r = c.getresponse()
                raw = r.read()
                status = r.status
                if not write:
                    self.local.reused = True
                    if r.will_close:
                        c.close()
                        self.local.conn = None
                try:
                    parsed = json.loads(raw) if raw else None
                except ValueError:
                    parsed = None
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as e:
                c.close()
                if not write:
                    self.local.conn = None
                if reused and attempt == 0:
                    continue  # nginx closed an idle keep-alive connection: send it again, once
                code = type(e).__name__
                break
            except (OSError, http.client.HTTPException) as e:
                c.close()
                if not write:
                    self.local.conn = None
                code = "timeout" if isinstance(e, (socket.timeout, TimeoutError)) else type(e).__name__
                break
            finally:
                if write:
                    c.close()
        if status and isinstance(parsed, dict) and status >= 400:
            code = parsed.get("code") or code
        ok = status in want
        self.samples.append((t0, name, status, (time.time() - t0) * 1000, ok, code))
        return status, parsed

    # --- the mix ---------------------------------------------------------------------------
    def _category(self):
        return f"&categoryId={self.rng.randint(1, 30)}" if self.rng.random() < 0.3 else ""

    def _word(self):
        return self.rng.choice(self.words)

    def _search(self, i):
        self._request("search", "GET", f"/api/v1.0/posts/search?q={urllib.parse.quote(self._word())}{self._category()}")

    def _autocomplete(self, i):
        w = self._word()
        prefix = w[:self.rng.randint(1, min(3, len(w)))]
        self._request("autocomplete", "GET", f"/api/v1.0/posts/autocomplete?prefix={urllib.parse.quote(prefix)}")

    def _list(self, i):
        self._request("list", "GET", f"/api/v1.0/posts?page={self.rng.randint(0, 15)}{self._category()}")

    def _detail(self, i):
        ids = self.post_ids
        pid = ids[self.rng.randrange(min(100, len(ids)))] if self.rng.random() < 0.3 else self.rng.choice(ids)
        self._request("detail", "GET", f"/api/v1.0/posts/{pid}")

    def _text(self, i):
        title = f"{self._word()} {self._word()} 장애 훈련 {i}"
        content = "\n".join(f"{self._word()} {self._word()} {self._word()}에 관한 {n + 1}번째 문장입니다. ({i})"
                            for n in range(self.rng.randint(3, 8)))
        return title, content

    def _token(self, i):
        return self.tokens[i % len(self.tokens)]

    def _create(self, i):
        title, content = self._text(i)
        h = content_hash(title, content)
        token = self._token(i)
        status, body = self._request("create", "POST", "/api/v1.0/posts",
                                     {"title": title, "content": content, "categoryId": self.rng.randint(1, 30)},
                                     token=token, want=(201,))
        data = body.get("data") if isinstance(body, dict) else None
        if status == 201 and isinstance(data, dict):
            self._acked("create", data["id"], data["version"], h)
            with self.lock:
                self.author[data["id"]] = token
                self.free_posts.append(data["id"])
        elif status == 0 or status >= 500:
            # Unknown outcome: a create without an id cannot be matched; counted, nothing to check.
            with self.lock:
                self.uncertain.setdefault(None, []).append((None, h))

    def _edit(self, i):
        with self.lock:
            if not self.free_posts:
                target = None
            else:
                target = self.free_posts.pop(self.rng.randrange(len(self.free_posts)))
                version = self.ledger[target][0]
        if target is None:
            return self._create(i)
        title, content = self._text(i)
        h = content_hash(title, content)
        try:
            status, body = self._request("edit", "PUT", f"/api/v1.0/posts/{target}",
                                         {"title": title, "content": content, "version": version},
                                         token=self.author[target], want=(200,))
            data = body.get("data") if isinstance(body, dict) else None
            if status == 200 and isinstance(data, dict):
                self._acked("edit", target, data["version"], h)
            elif status == 0 or status >= 500:
                with self.lock:
                    self.uncertain.setdefault(target, []).append((version + 1, h))
                # Its version is unknown now (the edit may commit later: 503 WRITE_NOT_CONFIRMED),
                # so another edit at the ledger's version could conflict: never edited again.
                target = None
        finally:
            if target is not None:
                with self.lock:
                    self.free_posts.append(target)

    def _acked(self, op, pid, version, h):
        t = time.time()
        with self.lock:
            self.ledger[pid] = (version, h, t)
            self.ledger_file.write(json.dumps({"t": round(t, 3), "op": op, "id": pid, "version": version,
                                               "sha256": h}) + "\n")
            self.ledger_file.flush()
