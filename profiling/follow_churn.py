#!/usr/bin/env python3
"""--follow under churn: short-lived files, descriptor limits, truncation by hand, and its bounds.

  profiling/follow_churn.py [--quick] [LOGAGG]

Each scenario runs the real binary (default build/release/apps/logagg) and
prints one line: what was written, what logagg counted, what it told on
stderr as lost, its exit status, and what it used.

- files: 600 files of 50 lines in a followed folder, each removed some files
  after it was written (5, or 0: removed the moment it is closed, or 1 ms
  after), a file every 2 ms, under a hard descriptor limit (64 or 1024).
  Every line must be counted or its file named as lost; the line says how
  many files each.
- truncate: a log written at about 1,600 lines a second and truncated by
  hand (no copy) every 1 s, 0.3 s or 5 ms, for 5 s. The lines written after
  the last look and truncated away cannot be counted; the line gives how many
  were lost a truncation, and the window that makes (lost lines / rate).
- idle: 100 files followed and never written, for 60 s (20 with --quick):
  logagg's CPU, peak memory and descriptors.
- long line: a 100 MB line between ordinary lines: its rejection, the
  lines after it counted, peak memory.
- keys: 10^6 lines of distinct `--by user` keys (10^5 with --quick) in one
  second: the time until they are counted, the peak memory, and whether the
  --max-apps cap (100,000 by default) was met and told.
"""
import argparse
import os
import random
import re
import resource
import signal
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--quick", action="store_true", help="shorter idle and fewer keys")
parser.add_argument("--only", choices=["files", "truncate", "idle", "long_line", "keys"], help="one scenario")
parser.add_argument("logagg", nargs="?", default="build/release/apps/logagg")
args = parser.parse_args()
LOGAGG = os.path.abspath(args.logagg)
TICK = os.sysconf("SC_CLK_TCK")
BASE = 1_764_000_000


def line(second, i, extra=""):
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
    return f'{{"timestamp":"{stamp}","app_id":"web{i % 7}","status":200{extra}}}\n'


def proc_status(pid, key):
    for row in open(f"/proc/{pid}/status"):
        if row.startswith(key + ":"):
            return int(row.split()[1])
    return 0


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Follow:
    def __init__(self, tmp, *paths, limit=None, extra=()):
        self.err_path = os.path.join(tmp, "err")
        pre = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))) if limit else None
        with open(self.err_path, "wb") as err:
            self.p = subprocess.Popen([LOGAGG, "--follow", "--late", "1s", "--format", "csv", *extra, *paths],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                      preexec_fn=pre)
        time.sleep(0.4)

    def stop(self):
        peak_kb = proc_status(self.p.pid, "VmHWM")
        self.p.send_signal(signal.SIGTERM)
        rc = self.p.wait(60)
        err = open(self.err_path).read()
        m = re.search(r"\n  counted +(\d+)", err)
        return rc, err, int(m[1]) if m else 0, peak_kb


def files(tmp, limit, life, linger=0.0):
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    f = Follow(tmp, logs, limit=limit)
    names = []
    for i in range(600):
        names.append(os.path.join(logs, f"job-{i:04}.log"))
        text = "".join(line(BASE + i, n) for n in range(50))
        with open(names[-1], "w") as out:
            out.write(text)
        if linger:
            time.sleep(linger)
        if life == 0:
            os.unlink(names[-1])
        elif len(names) > life:
            os.unlink(names[-life - 1])
        time.sleep(0.002)
    time.sleep(2)
    rc, err, counted, _ = f.stop()
    lost = len(re.findall(r"(?:before it could be opened|changed while it was closed)", err))
    held = re.search(r"files held open at most +(\d+)", err)
    read = counted // 50
    verdict = "every file read or told" if read + lost == 600 and counted % 50 == 0 else "LINES UNACCOUNTED"
    when = f"{life} files later" if life else f"{linger * 1000:g} ms after it was closed" if linger else "at close"
    print(f"files, ulimit -n {limit}, removed {when}: 600 written, {read} read, {lost} told lost "
          f"({verdict}), status {rc}, held open at most {held[1] if held else '?'}")


def truncate(tmp, every):
    log = os.path.join(tmp, "access.log")
    open(log, "w").close()
    f = Follow(tmp, log)
    out = open(log, "ab", buffering=0)
    written, truncations = 0, 0
    t0 = last = time.time()
    while time.time() - t0 < 5:
        out.write(line(BASE + int(time.time() - t0), written).encode())
        written += 1
        time.sleep(0.0005)
        if time.time() - last >= every:
            os.truncate(log, 0)
            truncations += 1
            last = time.time()
    rate = written / (time.time() - t0)
    time.sleep(1.5)
    rc, err, counted, _ = f.stop()
    told = re.search(r"truncations without a copy +(\d+)", err)
    lost = written - counted
    print(f"truncate every {every} s: {written} written at {rate:,.0f}/s, {counted} counted, {lost} lost over "
          f"{truncations} truncations ({lost / max(truncations, 1):.1f} a truncation: a window of "
          f"{1000 * lost / max(truncations, 1) / rate:.1f} ms), {told[1] if told else 0} told, status {rc}")


def idle(tmp, seconds):
    logs = os.path.join(tmp, "logs")
    os.mkdir(logs)
    for i in range(100):
        with open(os.path.join(logs, f"app-{i:03}.log"), "w") as out:
            out.write("".join(line(BASE + i, n) for n in range(10)))  # each its own content: no copies
    f = Follow(tmp, logs)
    time.sleep(1)
    before = cpu_seconds(f.p.pid)
    time.sleep(seconds)
    cpu = cpu_seconds(f.p.pid) - before
    fds = len(os.listdir(f"/proc/{f.p.pid}/fd"))
    rc, _, counted, peak_kb = f.stop()
    print(f"idle, 100 files for {seconds} s: CPU {cpu:.2f} s ({100 * cpu / seconds:.2f}% of a core), "
          f"peak memory {peak_kb / 1024:.1f} MiB, {fds} descriptors, {counted} lines counted, status {rc}")


def long_line(tmp):
    log = os.path.join(tmp, "access.log")
    with open(log, "w") as out:
        out.write(line(BASE, 0))
    f = Follow(tmp, log)
    with open(log, "a") as out:
        out.write(line(BASE + 1, 1, ',"pad":"' + "x" * (100 << 20) + '"'))
        out.write("".join(line(BASE + 2, n) for n in range(10)))
    time.sleep(3)
    rc, err, counted, peak_kb = f.stop()
    told = re.search(r"access\.log:2: .*too long", err)
    print(f"a 100 MB line: {counted} of the 11 ordinary lines counted, the long one {'rejected as too long' if told else 'NOT TOLD'}, "
          f"peak memory {peak_kb / 1024:.0f} MiB, status {rc}")


def keys(tmp, n):
    log = os.path.join(tmp, "access.log")
    open(log, "w").close()
    f = Follow(tmp, log, extra=("--by", "user"))
    rng = random.Random(1)
    t0 = time.time()
    with open(log, "a") as out:
        for start in range(0, n, 100_000):
            out.write("".join(line(BASE, i, f',"user":"u{rng.getrandbits(60):x}{i}"')
                              for i in range(start, min(n, start + 100_000))))
    deadline = time.time() + 120
    while time.time() < deadline and cpu_seconds(f.p.pid) < 0.01:
        time.sleep(0.1)
    time.sleep(3)
    rc, err, counted, peak_kb = f.stop()
    cap = re.search(r"more than ([\d,]+) distinct", err)
    print(f"{n:,} distinct --by keys in one second: {counted:,} counted, written and counted in "
          f"{time.time() - t0 - 3:.1f} s, peak memory {peak_kb / 1024:.0f} MiB, "
          f"{'capped at ' + cap[1] + ' keys (the rest as (other), with a warning)' if cap else 'NO CAP'}, status {rc}")


def run(scenario, *a):
    with tempfile.TemporaryDirectory(prefix="logagg-churn-") as tmp:
        scenario(tmp, *a)


if args.only in (None, "files"):
    for limit, life, linger in ((64, 5, 0), (64, 0, 0), (1024, 0, 0), (64, 0, 0.001), (1024, 0, 0.001)):
        run(files, limit, life, linger)
if args.only in (None, "truncate"):
    for every in (1, 0.3, 0.005):
        run(truncate, every)
if args.only in (None, "idle"):
    run(idle, 20 if args.quick else 60)
if args.only in (None, "long_line"):
    run(long_line)
if args.only in (None, "keys"):
    run(keys, 100_000 if args.quick else 1_000_000)
