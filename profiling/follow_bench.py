#!/usr/bin/env python3
"""--follow under load: the CPU logagg uses to keep up with a log written at a
steady rate, and how soon a line shows in its bucket.

  profiling/follow_bench.py [--rate LINES_PER_S] [--seconds S] [--late MS] [--catch-up-mb MB] [LOGAGG]

A writer appends --rate lines a second (default 100,000; about 190 bytes
each, in chunks every 10 ms, the times the wall clock's) to a log that
`logagg --follow --format csv --late MS` (default 1000) follows, for
--seconds (default 10). It prints logagg's CPU time (user + system, from
/proc) over the wall time of the load, and checks that the rows' totals are
every line written. Then, with the log quiet, it appends single lines and
prints how long each took to show in its bucket's row, against --late + 100
ms. First, a catch-up: a log of --catch-up-mb (default 256) already written
when --follow starts, timed until the rows of all its seconds are printed
but the newest (they wait for --late without lines), against
a batch run over the same file (wall and CPU time, as ratios). LOGAGG
defaults to build/release/apps/logagg (build it first).
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--rate", type=int, default=100_000)
parser.add_argument("--seconds", type=float, default=10)
parser.add_argument("--late", type=int, default=1000)
parser.add_argument("--catch-up-mb", type=int, default=256)
parser.add_argument("logagg", nargs="?", default="build/release/apps/logagg")
args = parser.parse_args()

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


LINE = ('{"app_id":"web%d","timestamp":"%s.%03dZ","method":"GET","path":"/api/v1/items/%d",'
        '"status":200,"bytes":%d,"ua":"Mozilla/5.0 (X11; Linux x86_64)"}\n')


def lines(second, first, count):
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return "".join(LINE % (n % 7, stamp, n % 1000, n, n % 5000) for n in range(first, first + count))


def rows_of(path):
    last = {}
    with open(path) as f:
        next(f, None)  # the header
        for row in f:
            start, count = row.rstrip("\n").rsplit(",", 1)
            last[start] = int(count)
    return last


def cpu_of_run(cmd, **kw):
    """Wall and CPU seconds of a command run to its end."""
    t0, r0 = time.monotonic(), os.times()
    subprocess.run(cmd, check=True, **kw)
    r1 = os.times()
    return time.monotonic() - t0, (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)


with tempfile.TemporaryDirectory() as tmp:
    # The catch-up: a log already there, over 600 seconds.
    old, out = os.path.join(tmp, "old.log"), os.path.join(tmp, "old.csv")
    with open(old, "w") as f:
        size, n = 0, 0
        while size < args.catch_up_mb << 20:
            chunk = lines(1700000000 + n // 20000 % 600, n, 20000)
            f.write(chunk)
            size += len(chunk)
            n += 20000
    cpu_of_run([args.logagg, "-q", old], stdout=subprocess.DEVNULL)  # the page cache warmed
    with open(out, "w") as sink:
        batch_wall, batch_cpu = cpu_of_run([args.logagg, "-q", "--format", "csv", old], stdout=sink)
    want = rows_of(out)
    # A second's row is printed once the newest second is --late past its end:
    # the newest seconds' rows wait for --late without lines, and are left out.
    waiting = set(sorted(want)[-(1 - (-args.late // 1000)):])

    def caught_up():
        got = rows_of(out)
        return all(got.get(k) == v for k, v in want.items() if k not in waiting)

    with open(out, "w") as sink:
        t0 = time.monotonic()
        proc = subprocess.Popen([args.logagg, "--follow", "-q", "--format", "csv", "--late", f"{args.late}ms", old],
                                stdout=sink)
    while not caught_up() and time.monotonic() - t0 < 120:
        time.sleep(0.005)
    catch_wall, catch_cpu = time.monotonic() - t0, cpu_seconds(proc.pid)
    while rows_of(out) != want and time.monotonic() - t0 < 120:
        time.sleep(0.005)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    if rows_of(out) != want:
        sys.exit("follow_bench: the catch-up's rows are not the batch run's")
    os.unlink(old)

    log, out = os.path.join(tmp, "access.log"), os.path.join(tmp, "rows.csv")
    open(log, "w").close()
    with open(out, "w") as sink:
        proc = subprocess.Popen([args.logagg, "--follow", "--format", "csv", "--late", f"{args.late}ms", log],
                                stdout=sink, stderr=subprocess.PIPE)
    time.sleep(0.5)
    per_chunk = max(1, args.rate // 100)
    written, start, cpu0 = 0, time.monotonic(), cpu_seconds(proc.pid)
    with open(log, "a") as f:
        tick = start
        while time.monotonic() - start < args.seconds:
            now = time.time()
            f.write(lines(int(now), written, per_chunk))
            f.flush()
            written += per_chunk
            tick += 0.01
            time.sleep(max(0.0, tick - time.monotonic()))
    wall = time.monotonic() - start
    time.sleep(args.late / 1000 + 0.5)  # the last rounds of the load
    cpu = cpu_seconds(proc.pid) - cpu0

    latencies = []
    with open(log, "a") as f:
        for i in range(5):
            time.sleep(args.late / 1000 + 0.5)  # quiet: every bucket handed out
            second = int(time.time()) + 100 + i  # a second no row has yet
            key = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
            t0 = time.monotonic()
            f.write(lines(second, i, 1))
            f.flush()
            while key not in rows_of(out) and time.monotonic() - t0 < 10:
                time.sleep(0.002)
            latencies.append(time.monotonic() - t0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    total = sum(rows_of(out).values())
    if proc.returncode != 0 or total != written + 5:
        sys.exit(f"follow_bench: logagg exited {proc.returncode}, rows total {total}, lines written {written + 5}\n"
                 + err.decode(errors="replace"))

print(f"machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, "
      f"{os.cpu_count()} cores")
print(f"catch-up of {size / 1e6:.0f} MB already written: rows printed after {catch_wall:.2f} s, "
      f"CPU {catch_cpu:.2f} s; a batch run {batch_wall:.2f} s, CPU {batch_cpu:.2f} s "
      f"(wall {catch_wall / batch_wall:.2f}x, CPU {catch_cpu / batch_cpu:.2f}x the batch run's)")
print(f"load: {written} lines in {wall:.2f} s = {written / wall:,.0f} lines/s "
      f"({written / wall * len(lines(0, 0, 1)) / 1e6:.1f} MB/s)")
print(f"logagg --follow CPU: {cpu:.3f} s over {wall:.2f} s = {100 * cpu / wall:.1f}% of one core (target < 10%)")
print("a line shows in its row after: " + ", ".join(f"{1000 * l:.0f} ms" for l in latencies) +
      f" (target <= --late + 100 = {args.late + 100} ms)")
