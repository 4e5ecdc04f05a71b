#!/usr/bin/env python3
"""--follow --serve under load: what serving clients costs the counting.

  profiling/serve_bench.py [--rate LINES_PER_S] [--seconds S] [--clients N] [--rounds R] [LOGAGG]

A writer (tests/e2e/rate_writer.py, a process of its own) appends --rate lines a second (default
50,000) with the wall clock's times to a log that `logagg --follow --serve 127.0.0.1:0 --late 1s
--by host --count-if 'status>=500' --quantiles latency_ms --sum bytes` follows. The run alternates
phases of --seconds (default 5) without clients and with --clients (default 50: half /events
streams, a quarter /page-events streams, a quarter scraping /metrics every second;
tests/e2e/serve_load.py), --rounds times (default 6: short phases in turns, so that drift in the
machine's load falls on both alike), and prints logagg's CPU (user + system, from
/proc) in each: the counting's (every thread but the server's) as a ratio of the phases with
clients to those without (the target: at most 1.05), and the server's own (its threads are named
logagg-serve); the most memory it held (VmHWM); and how long after a bucket's end plus --late its
first row reached the streams (buckets that ended after they connected). At the end every line written must be
counted. LOGAGG defaults to build/release/apps/logagg.
"""
import argparse
import calendar
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from serve_load import Clients  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--rate", type=int, default=50_000)
parser.add_argument("--seconds", type=float, default=5)
parser.add_argument("--clients", type=int, default=50)
parser.add_argument("--rounds", type=int, default=6)
parser.add_argument("logagg", nargs="?", default="build/release/apps/logagg")
args = parser.parse_args()

TICK = os.sysconf("SC_CLK_TCK")
WRITER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e", "rate_writer.py")


def cpu_seconds(pid):
    """CPU seconds of logagg: the server's threads' (named logagg-serve; from each one's schedstat,
    in ns: a thread's own utime is in whole ticks, and hundreds of them each use less than one)
    and the rest, the counting (the process's total, which also holds threads that ended, less
    the server's)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    total = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    serving = 0.0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            if open(f"/proc/{pid}/task/{task}/comm").read().strip() == "logagg-serve":
                serving += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0]) / 1e9
        except OSError:
            continue  # a thread that ended
    return {"counting": total - serving, "serving": serving}


def status_kb(pid, name):
    return int(re.search(rf"^{name}:\s+(\d+) kB", open(f"/proc/{pid}/status").read(), re.M)[1])


with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "access.log")
    open(log, "w").close()
    err_path = os.path.join(tmp, "logagg.err")
    with open(os.path.join(tmp, "rows.csv"), "w") as out, open(err_path, "w") as err:
        proc = subprocess.Popen([args.logagg, "--follow", "--format", "csv", "--serve", "127.0.0.1:0", "--late", "1s",
                                 "--by", "host", "--count-if", "status>=500", "--quantiles", "latency_ms",
                                 "--sum", "bytes", log], stdout=out, stderr=err)
    port = None
    for _ in range(200):
        m = re.search(r"on http://127\.0\.0\.1:(\d+)/", open(err_path).read())
        if m:
            port = int(m[1])
            break
        time.sleep(0.05)
    if port is None:
        sys.exit("serve_bench: logagg did not say where it serves:\n" + open(err_path).read())
    phases = [mode for _ in range(args.rounds) for mode in ("none", "clients")]
    writer = subprocess.Popen([sys.executable, WRITER, log, str(args.rate), "86400"], stdout=subprocess.PIPE)
    time.sleep(1)
    cpu = {"none": [], "clients": []}
    serving = []
    delays = []
    for mode in phases:
        clients, since = None, time.time()
        if mode == "clients":
            events, pages = args.clients // 2, args.clients // 4
            clients = Clients(port, events=events, pages=pages, scrapers=args.clients - events - pages)
        time.sleep(0.5)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(args.seconds)
        c1, wall = cpu_seconds(proc.pid), time.monotonic() - t0
        cpu[mode].append((c1["counting"] - c0["counting"]) / wall)
        if mode == "clients":
            serving.append((c1["serving"] - c0["serving"]) / wall)
        if clients:
            clients.stop()
            if clients.errors:
                sys.exit(f"serve_bench: clients failed: {clients.errors[:3]}")
            for arrivals in clients.arrivals:
                for second, at in arrivals.items():
                    end = calendar.timegm(time.strptime(second, "%Y-%m-%dT%H:%M:%SZ")) + 1
                    if end > since + 1:  # a bucket that ended after the streams opened (not history)
                        delays.append(at - end - 1.0)  # past the bucket's end and --late
        time.sleep(1)
    writer.send_signal(signal.SIGTERM)
    written = int(writer.communicate()[0])
    time.sleep(1.5)
    peak = status_kb(proc.pid, "VmHWM")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    counted = re.search(r"^  counted\s+(\d+)", open(err_path).read(), re.M)
    if proc.returncode != 0 or not counted or int(counted[1]) != written:
        sys.exit(f"serve_bench: logagg exited {proc.returncode}, counted {counted and counted[1]} of {written} "
                 "lines written\n" + open(err_path).read()[-2000:])

mean = {mode: sum(v) / len(v) for mode, v in cpu.items()}
delays.sort()
print(f"machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, "
      f"{os.cpu_count()} cores")
print(f"load: {written:,} lines at {args.rate:,} lines/s, every one counted")
for mode in ("none", "clients"):
    print(f"the counting's CPU, {'no clients' if mode == 'none' else f'{args.clients} clients'}: "
          + ", ".join(f"{100 * v:.1f}%" for v in cpu[mode]) + f" of a core (mean {100 * mean[mode]:.1f}%)")
print(f"the counting with clients / without: {mean['clients'] / mean['none']:.3f}x (target <= 1.05)")
print(f"the server's threads with {args.clients} clients: " + ", ".join(f"{100 * v:.1f}%" for v in serving)
      + " of a core")
print(f"most memory held: {peak / 1024:.1f} MiB")
if delays:
    print(f"a bucket's first row reached the streams after its end + --late: median "
          f"{1000 * delays[len(delays) // 2]:.0f} ms, p99 {1000 * delays[len(delays) * 99 // 100]:.0f} ms, "
          f"max {1000 * delays[-1]:.0f} ms ({len(delays)} arrivals)")
