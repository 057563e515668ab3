#!/usr/bin/env python3
"""A log of the native stack stays bounded while its process keeps writing (make check-monitoring).

Runs the stack's own log-rotator (infra/logrotate/loop.sh with the config infra/lib/logrotate.sh
renders from infra/templates/logrotate.conf) over a throwaway log directory, with a small size
(256 KiB), 3 copies kept and a 1 s interval, while a writer process appends about 512 KiB/s to
its stdout, which points at the log exactly as start_bg's `>>` does. Over 10 s the writer writes
about 5 MiB, far above the bound; the test fails unless:
  - the live log never grows past size + 1.5 intervals of writing (sampled every 50 ms);
  - at most 3 rotated copies exist, compressed, and the directory stays under its bound;
  - the live log holds no hole (NUL bytes: a writer without O_APPEND after a truncation) and
    ends with the writer's last line (the writer never went on writing into a rotated copy).
The writer writes that last line only once the rotator has stopped (it waits for a file the test
makes): a rotation right after it would otherwise move it into a copy (a CI run failed so).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZE, KEEP, EVERY, RATE, SECONDS = 256 * 1024, 3, 1, 512 * 1024, 10
WRITER = r"""
import os, sys, time
line = 0
chunk = %d // 20
t0 = time.time()
while time.time() - t0 < %d:
    out = []
    n = 0
    while n < chunk:
        s = "line %%09d %%s\n" %% (line, "x" * 80)
        out.append(s); n += len(s); line += 1
    sys.stdout.write("".join(out)); sys.stdout.flush()
    time.sleep(0.05)
open(sys.argv[1], "w").close()  # done writing: the test stops the rotator, then says go
t1 = time.time()
while not os.path.exists(sys.argv[2]) and time.time() - t1 < 30:
    time.sleep(0.01)
sys.stdout.write("last line %%09d\n" %% line); sys.stdout.flush()
""" % (RATE, SECONDS)


def main():
    tmp = tempfile.mkdtemp(prefix="hanwiki-logrotate-test.")
    try:
        logs, conf = os.path.join(tmp, "log"), os.path.join(tmp, "logrotate.conf")
        os.makedirs(logs)
        env = dict(os.environ, LOG_ROTATE_SIZE=str(SIZE), LOG_ROTATE_KEEP=str(KEEP), LOG_ROTATE_EVERY=str(EVERY))
        subprocess.run(["bash", "-c", '. "$1/infra/lib/common.sh" && . "$1/infra/lib/logrotate.sh" && LOGS="$2" '
                        '&& export LOGS && log_rotator_render "$3"', "render", ROOT, logs, conf], env=env, check=True)
        log = os.path.join(logs, "writer.log")
        done, go = os.path.join(tmp, "done"), os.path.join(tmp, "go")
        with open(log, "ab") as out:  # O_APPEND, as `>>` opens it
            writer = subprocess.Popen([sys.executable, "-c", WRITER, done, go], stdout=out)
        rotator = subprocess.Popen(["bash", os.path.join(ROOT, "infra", "logrotate", "loop.sh"), conf,
                                    os.path.join(tmp, "state"), str(EVERY)], stdout=subprocess.DEVNULL)
        biggest, biggest_dir = 0, 0
        try:
            while writer.poll() is None and not os.path.exists(done):
                biggest = max(biggest, os.path.getsize(log) if os.path.exists(log) else 0)
                biggest_dir = max(biggest_dir, sum(os.path.getsize(os.path.join(logs, f)) for f in os.listdir(logs)))
                time.sleep(0.05)
        finally:
            rotator.terminate()
            rotator.wait(10)
            open(go, "w").close()
            writer.wait(40)
        copies = sorted(f for f in os.listdir(logs) if f != "writer.log")
        live = open(log, "rb").read() if os.path.exists(log) else b""
        last = live.rstrip(b"\n").split(b"\n")[-1]
        bound = SIZE + int(1.5 * EVERY * RATE)
        dir_bound = bound + KEEP * bound
        problems = []
        if biggest > bound:
            problems.append("the live log reached %d bytes, over its bound %d" % (biggest, bound))
        if biggest_dir > dir_bound:
            problems.append("the log directory reached %d bytes, over its bound %d" % (biggest_dir, dir_bound))
        if not copies:
            problems.append("nothing was rotated: %d bytes written into one file" % len(live))
        if len(copies) > KEEP or any(not f.endswith(".gz") for f in copies):
            problems.append("rotated copies are not %d compressed files at most: %s" % (KEEP, copies))
        if b"\0" in live:
            problems.append("the live log has a hole (NUL bytes) after a truncation")
        if not last.startswith(b"last line"):
            problems.append("the live log does not end with the writer's last line: the writer wrote elsewhere")
        written = int(last.split()[-1]) * len("line %09d %s\n" % (0, "x" * 80)) if last.startswith(b"last line") else 0
        print("log rotation: ~%d KiB written in %d s; live log at most %d KiB (bound %d KiB), directory at most %d KiB "
              "(bound %d KiB), copies %s" % (written // 1024, SECONDS, biggest // 1024, bound // 1024,
                                             biggest_dir // 1024, dir_bound // 1024, copies))
        for p in problems:
            print("log rotation: " + p, file=sys.stderr)
        return 1 if problems else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
