"""What one counter change costs downstream: primary binlog bytes and Kafka bytes per like (or
unlike) and per view flush of one large page (issue 13, docs/bench/counters.md).

It creates a post of about --page-kib KiB, waits until the stream is quiet, then measures
  - binlog: the sum of the primary's binlog file sizes (SHOW BINARY LOGS), before and after;
  - Kafka: the bytes of the change topics' log segments under var/kafka/data (every topic named
    <prefix>.<database>.*, the CDC topics) and their log end offsets (records appended);
for an idle period (what the stack writes by itself), --likes like/unlike pairs, and --views
rounds of one detail read followed by one view flush. Figures are per change, idle subtracted.
Run it alone on the machine: other writers' bytes would be counted."""
import argparse
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api  # noqa: E402
import ports_env  # noqa: E402


def sql(e, statement):
    sock = os.path.join(e["VAR"], "mariadb", "primary", "mysqld.sock")
    return subprocess.run(["mariadb", "--no-defaults", "-uroot", f"--socket={sock}", "-N", "-B",
                           e["MARIADB_DATABASE"], "-e", statement],
                          check=True, capture_output=True, text=True).stdout


def binlog_bytes(e):
    return sum(int(line.split("\t")[1]) for line in sql(e, "SHOW BINARY LOGS").splitlines() if line.strip())


def kafka_bytes(e):
    """{topic: bytes of its log segments} of the CDC topics, from the broker's data directory."""
    prefix = f"{e['CDC_TOPIC_PREFIX']}.{e['MARIADB_DATABASE']}."
    out = {}
    for part in sorted(glob.glob(os.path.join(e["VAR"], "kafka", "data", prefix + "*-*"))):
        topic = os.path.basename(part).rsplit("-", 1)[0]
        if not topic.endswith(".dlq"):
            size = sum(os.path.getsize(s) for s in glob.glob(os.path.join(part, "*.log")))
            out[topic] = out.get(topic, 0) + size
    return out


def end_offsets(e):
    """Log end offsets of the CDC topics (GetOffsetShell), summed over partitions."""
    tools = os.path.join(e["VAR"], "tools")
    libs = glob.glob(os.path.join(tools, "kafka-*", "libs"))
    if not libs:
        return {}
    java = subprocess.run(["bash", "-c", ". infra/lib/common.sh && select_jdk"], cwd=ports_env.ROOT,
                          capture_output=True, text=True).stdout.strip()
    prefix = f"{e['CDC_TOPIC_PREFIX']}.{e['MARIADB_DATABASE']}."
    res = subprocess.run([f"{java}/bin/java", "-XX:TieredStopAtLevel=1", "-cp", libs[0] + "/*",
                          "org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server",
                          f"{ports_env.addr(e, 'KAFKA')}:{e['KAFKA_PORT']}", "--topic", prefix.replace(".", "\\.") + ".*",
                          # The broker demands a login (SASL/SCRAM, ACLs): the stack tools' own, made by
                          # infra/lib/kafka.sh kafka_client_config at make up.
                          "--command-config", os.path.join(e["VAR"], "conf", "kafka-client.properties")],
                         capture_output=True, text=True)
    offsets = {}
    for line in res.stdout.splitlines():
        parts = line.rsplit(":", 2)
        if len(parts) == 3 and not parts[0].endswith(".dlq"):
            offsets[parts[0]] = offsets.get(parts[0], 0) + int(parts[2])
    return offsets


def snapshot(e):
    return binlog_bytes(e), kafka_bytes(e), end_offsets(e)


def delta(before, after):
    b = after[0] - before[0]
    topics = {}
    for t in set(before[1]) | set(after[1]):
        topics[t] = (after[1].get(t, 0) - before[1].get(t, 0),
                     after[2].get(t, 0) - before[2].get(t, 0))
    return b, topics


def show(label, d, changes, idle=None, idle_seconds=None, seconds=None):
    binlog, topics = d
    kafka = sum(v[0] for v in topics.values())
    idle_binlog = idle_kafka = 0
    if idle is not None and idle_seconds and seconds:
        idle_binlog = idle[0] * seconds / idle_seconds
        idle_kafka = sum(v[0] for v in idle[1].values()) * seconds / idle_seconds
    per_binlog = (binlog - idle_binlog) / changes
    per_kafka = (kafka - idle_kafka) / changes
    detail = ", ".join(f"{t}: +{v[0]} B / +{v[1]} records" for t, v in sorted(topics.items()))
    print(f"{label:<22} {changes:>3} changes  binlog +{binlog:>10} B  kafka +{kafka:>10} B  "
          f"per change: binlog {per_binlog:>10.0f} B  kafka {per_kafka:>10.0f} B   ({detail})")
    return per_binlog, per_kafka


def wait_quiet(e, seconds=3.0, limit=60):
    """Waits until neither the binlog nor the CDC topics grew for `seconds`."""
    deadline = time.time() + limit
    last = (binlog_bytes(e), kafka_bytes(e))
    stable_since = time.time()
    while time.time() < deadline:
        time.sleep(0.5)
        now = (binlog_bytes(e), kafka_bytes(e))
        if now != last:
            last, stable_since = now, time.time()
        elif time.time() - stable_since >= seconds:
            return
    print("warning: the stream never went quiet; figures include other writes", file=sys.stderr)


def page_text(kib):
    """About `kib` KiB of UTF-8: Korean and ASCII lines (a wiki page), under the 1 Mi-character limit."""
    line = "서울 여행 기록: 경복궁과 북촌 한옥마을, then lunch near Insadong and a walk along Cheonggyecheon.\n"
    size = len(line.encode())
    return line * (kib * 1024 // size + 1)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--page-kib", type=int, default=1024)
    p.add_argument("--likes", type=int, default=5, help="like/unlike pairs (2 changes each)")
    p.add_argument("--views", type=int, default=5, help="rounds of one read + one view flush")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    a = p.parse_args()
    e = ports_env.load()
    node = f"http://{ports_env.addr(e, 'NODE1')}:{e['NODE1_PORT']}"
    _, _, token = api.sign_up(node, prefix="ctr")
    content = page_text(a.page_kib)
    status, body, _ = api.call("POST", f"{node}/api/v1.0/posts", {"title": "카운터 바이트 측정", "content": content},
                               token=token, timeout=60)
    if status != 201:
        raise SystemExit(f"create answered {status}: {body}")
    post = body["data"]["id"]
    print(f"post {post}: {len(content.encode()) / 1024:.0f} KiB of content ({len(content)} characters)")
    wait_quiet(e)

    s0 = snapshot(e)
    t0 = time.time()
    time.sleep(a.idle)
    s1 = snapshot(e)
    idle_seconds = time.time() - t0
    idle = delta(s0, s1)
    show("idle", idle, 1)

    t0 = time.time()
    for _ in range(a.likes):
        for method in ("POST", "DELETE"):
            status, body, _ = api.call(method, f"{node}/api/v1.0/posts/{post}/like", token=token)
            if status != 200:
                raise SystemExit(f"{method} like answered {status}: {body}")
    wait_quiet(e)
    s2 = snapshot(e)
    likes = show("like/unlike", delta(s1, s2), 2 * a.likes, idle, idle_seconds, time.time() - t0)

    views_before = int(sql(e, f"SELECT {view_count_column(e)} WHERE {view_count_where(e, post)}").strip() or 0)
    t0 = time.time()
    for _ in range(a.views):
        status, body, _ = api.call("GET", f"{node}/api/v1.0/posts/{post}", timeout=30)
        if status != 200:
            raise SystemExit(f"read answered {status}")
        time.sleep(2.5)  # the flush interval is 1 s: one flush per read
    wait_quiet(e)
    s3 = snapshot(e)
    views = show("view flush", delta(s2, s3), a.views, idle, idle_seconds, time.time() - t0)
    views_after = int(sql(e, f"SELECT {view_count_column(e)} WHERE {view_count_where(e, post)}").strip() or 0)
    print(f"views flushed: {views_after - views_before} (expected {a.views})")
    print(f"SUMMARY page {a.page_kib} KiB: per like {likes[0]:.0f} B binlog, {likes[1]:.0f} B kafka; "
          f"per view flush {views[0]:.0f} B binlog, {views[1]:.0f} B kafka")


def view_count_column(e):
    return "view_count FROM post_counters" if has_counters(e) else "view_count FROM posts"


def view_count_where(e, post):
    return f"post_id = {post}" if has_counters(e) else f"id = {post}"


def has_counters(e):
    return bool(sql(e, "SHOW TABLES LIKE 'post_counters'").strip())


if __name__ == "__main__":
    main()
