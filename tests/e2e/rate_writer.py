#!/usr/bin/python3
"""Appends access-log lines to a file at a steady rate, with the wall clock's times, as a busy web
server would: for serve_e2e's load test and profiling/serve_bench.py (a process of its own, so
that the clients' threads of its caller never slow it down).

  rate_writer.py PATH LINES_PER_SECOND SECONDS

Lines (about 170 bytes: host among five, status, latency_ms, bytes) go out in chunks every 10 ms;
a chunk late is made up in the next. Stops after SECONDS, or at SIGTERM; prints the number of
lines written.
"""

import signal
import sys
import time

LINE = ('{"app_id":"web%d","timestamp":"%s.%03dZ","host":"h%d","method":"GET","path":"/api/items/%d",'
        '"status":%d,"latency_ms":%d.%03d,"bytes":%d}\n')


def lines(second, first, count):
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return "".join(LINE % (n % 7, stamp, n % 1000, n % 5, n, 500 if n % 23 == 0 else 200, n % 800, n % 1000,
                           n % 5000) for n in range(first, first + count))


def main():
    path, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    written, start = 0, time.monotonic()
    with open(path, "a") as out:
        while (elapsed := time.monotonic() - start) < seconds and not stopped:
            due = int(rate * elapsed) - written
            if due > 0:
                out.write(lines(int(time.time()), written, due))
                out.flush()
                written += due
            time.sleep(0.01)
    print(written)


if __name__ == "__main__":
    main()
