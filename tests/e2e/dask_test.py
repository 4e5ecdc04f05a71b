#!/usr/bin/python3
"""End-to-end test of apps/logagg-dask on a LocalCluster of 2 worker processes.

  dask_test.py LOGAGG LOGGEN SOURCE_DIR

Its output must be byte-identical to one `logagg` run over the same inputs: a
folder with plain files, a gzip file and a file cut into several --range
pieces, in every format and with the pass-through options, also on logs with
nested fields, epoch or local times and app ids of a pattern; failing pieces are
named with their range and make the exit status 1. When Dask distributed
cannot be imported it exits 77 (skipped), or 1 in CI (CI=true), where a
missing dependency is a failure (as tests/support/dependency.sh does for the
shell tests).
"""

import os
import subprocess
import sys

try:
    import distributed  # noqa: F401
except ImportError:
    # Debian's python3-distributed belongs to the system interpreter.
    if os.path.exists("/usr/bin/python3") and not os.environ.get("LOGAGG_DASK_TEST_REEXEC"):
        os.environ["LOGAGG_DASK_TEST_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__)] + sys.argv[1:])
    if os.environ.get("CI") == "true":
        print("dask_test: FAIL: missing in CI: python3-distributed", file=sys.stderr)
        sys.exit(1)
    print("dask_test: SKIPPED: missing: python3-distributed (a failure when CI=true)")
    sys.exit(77)

import gzip
import json
import logging
import random
import shutil
import tempfile
import unittest
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)  # tornado's, on Debian 12
LOGAGG, LOGGEN, SOURCE = (os.path.abspath(p) for p in sys.argv[1:4])
DRIVER = os.path.join(SOURCE, "apps", "logagg-dask", "logagg-dask")


def shaped_logs(folder):
    """Two logs of about 300 KiB each, in shapes other than the defaults, so --piece-size 200K cuts them:
    a Caddy-like one (the host at /request/host, "ts" unix seconds as a number or a quoted one) and one
    with local times in Europe/Berlin across the 2024 spring gap and autumn overlap (the service at
    /service/name as name@provider, the time at /t/local); some hosts, ids and times are invalid."""
    rng = random.Random(14)
    lines = []
    for i in range(4000):
        host = rng.choice(["api.example.org", "cdn-2.example.org", "www.example.org", "Upper.example.org", ""])
        ts = f"{1700000000 + i // 7}.{rng.randrange(10 ** 7):07d}"
        ts = rng.choice([ts, f'"{ts}"', f"{ts}e0", "-0.5", '"soon"', "1.7e9"])
        lines.append(f'{{"level":"info","ts":{ts},"request":{{"host":"{host}","uri":"/{i}"}},"status":200}}')
    with open(os.path.join(folder, "caddy.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = []
    for i in range(4000):
        day, hour = rng.choice([("2024-03-31", 1), ("2024-03-31", 2), ("2024-03-31", 3), ("2024-10-27", 2),
                                ("2024-10-27", 3)])
        when = f"{day} {hour:02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
        name = rng.choice(["checkout-api@docker", "web@k", "api@docker", "Bad@docker", "api@"])
        lines.append(f'{{"service":{{"name":"{name}","pid":{i}}},"t":{{"local":"{when}","utc":null}},'
                     f'"msg":"{"x" * rng.randrange(20)}"}}')
    with open(os.path.join(folder, "berlin.log"), "w") as f:
        f.write("\n".join(lines) + "\n")


def loggen(path, *args):
    data = subprocess.run([LOGGEN, *args], check=True, stdout=subprocess.PIPE).stdout
    if path.endswith(".gz"):
        data = gzip.compress(data)
    with open(path, "wb") as f:
        f.write(data)


class DaskTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="logagg-dask-test-")
        cls.logs = os.path.join(cls.tmp, "logs")
        os.makedirs(os.path.join(cls.logs, "sub"))
        os.makedirs(os.path.join(cls.logs, ".hidden"))
        loggen(os.path.join(cls.logs, "big.log"), "--bytes", "1M", "--seed", "7", "--crlf", "0.1")
        loggen(os.path.join(cls.logs, "sub", "a.log"), "--lines", "2000", "--seed", "8")
        loggen(os.path.join(cls.logs, "sub", "b.log.gz"), "--lines", "3000", "--seed", "9",
               "--start", "2023-11-15T01:00:00Z")
        loggen(os.path.join(cls.logs, ".hidden", "x.log"), "--lines", "100", "--seed", "10")
        shutil.copy(os.path.join(SOURCE, "data", "sample.log"), cls.logs)
        cls.shapes = os.path.join(cls.tmp, "shapes")
        os.makedirs(cls.shapes)
        shaped_logs(cls.shapes)
        cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.ERROR)
        cls.scheduler = cls.cluster.scheduler_address

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def logagg(self, *args):
        return subprocess.run([LOGAGG, "-q", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def dask(self, *args, logagg=LOGAGG, scheduler=True):
        extra = ["--scheduler", self.scheduler] if scheduler else ["--workers", "2"]
        return subprocess.run([sys.executable, DRIVER, "-q", "--logagg", logagg, "--piece-size", "200K", *extra,
                               *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.tmp)

    def assert_same(self, *args, status=0):
        want = self.logagg(*args)
        got = self.dask(*args)
        self.assertEqual(want.returncode, status, want.stderr.decode())
        self.assertEqual(got.returncode, status, got.stderr.decode())
        self.assertEqual(got.stdout, want.stdout, f"logagg-dask {' '.join(args)}: not byte-identical")
        return got

    def test_plan_cuts_the_large_file_and_keeps_gzip_whole(self):
        r = self.dask("--plan", self.logs)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        rows = [ln.split("\t") for ln in r.stdout.decode().splitlines()]
        big = [row for row in rows if row[2].endswith("/big.log")]
        self.assertGreaterEqual(len(big), 4)
        self.assertEqual(big[0][1].split(":")[0], "0")
        self.assertTrue(big[-1][1].endswith(":"))
        gz = [row for row in rows if "b.log.gz" in row[2]]
        self.assertEqual(gz[0][1], "whole")
        self.assertFalse(any("x.log" in row[2] for row in rows), "hidden folder read")

    def test_every_format_is_byte_identical(self):
        for fmt in ("csv", "json", "table", "html"):
            with self.subTest(fmt=fmt):
                self.assert_same("--format", fmt, self.logs)

    def test_pass_through_options(self):
        big, gz = os.path.join(self.logs, "big.log"), os.path.join(self.logs, "sub", "b.log.gz")
        for args in (["--per-minute", "--fill-gaps", "--stats"], ["--bucket", "15m", "--format", "json"],
                     ["--since", "2023-11-14T22:14:00Z", "--until", "2023-11-15T01:00:30Z", "--format", "json"],
                     ["--include", "*.gz", "--include", "big.log", "--format", "csv"],
                     ["--exclude", "sub/*", "--per-hour", "--format", "json"],
                     ["--app-field", "service", "--time-field", "time", "--format", "json"],
                     ["--by-app", "--per-minute", "--format", "csv"], ["--top", "3", "--stats", "--format", "json"],
                     ["--by-app", "--max-apps", "100000", "--per-hour", "--format", "json"],
                     ["--per-minute", "--plot"],
                     ["--by", "status", "--by-path-prefix", "2", "path", "--format", "csv"],
                     ["--where", "status>=500", "--by-status-class", "status", "--by", "method", "--format", "json"],
                     ["--app-field", "none", "--where", "path~/api/.*", "--by", "method", "--top", "2", "--format",
                      "csv"],
                     ["--by-status-class", "status", "--sum", "bytes", "--quantiles", "latency_ms", "--percentiles",
                      "50,99.9", "--count-if", "status>=500", "--per-minute", "--format", "json"],
                     ["--sum", "latency_ms", "--quantiles", "latency_ms", "--unit", "latency_ms=ms", "--per-hour",
                      "--stats"],
                     ["--overall", "--by", "method", "--sum", "bytes", "--quantiles", "latency_ms", "--count-if",
                      "status>=500", "--format", "json"],
                     ["--overall", "--by-status-class", "status", "--top", "2", "--stats"]):
            with self.subTest(args=args):
                self.assert_same(*args, self.logs)
        self.assert_same("--format", "csv", big, gz)  # files named one by one
        want = self.logagg("--format", "json", gz, big)
        got = self.dask("--format", "json", os.path.join(self.logs, "*", "*.gz"), big)  # a glob
        self.assertEqual((got.returncode, got.stdout), (0, want.stdout), got.stderr.decode())

    def test_pointer_fields_time_formats_and_app_patterns_pass_through(self):
        caddy, berlin = os.path.join(self.shapes, "caddy.log"), os.path.join(self.shapes, "berlin.log")
        for path, args in ((caddy, ["--app-field", "/request/host", "--time-field", "ts", "--time-format", "unix",
                                    "--app-pattern", "[a-z0-9.-]+"]),
                           (berlin, ["--app-field", "/service/name", "--time-field", "/t/local", "--time-format",
                                     "%Y-%m-%d %H:%M:%S", "--input-tz", "Europe/Berlin", "--app-pattern",
                                     "[a-z]+(-[a-z]+)*@[a-z]+"])):
            pieces = self.dask("--plan", *args, path).stdout.decode().splitlines()
            self.assertGreater(len(pieces), 1, "the log is not cut into pieces")
            for extra in (["--format", "csv"], ["--format", "json"], ["--by-app", "--per-minute", "--format", "json"]):
                with self.subTest(path=path, extra=extra):
                    got = self.assert_same(*args, *extra, path)
                    if extra[-1] == "json":
                        doc = json.loads(got.stdout)
                        self.assertGreater(doc["summary"]["counted"], 1000)
                        self.assertGreater(doc["summary"]["rejected"], 100)
                        self.assertEqual(doc["app_pattern"], args[args.index("--app-pattern") + 1])

    def test_json_summary_counts_each_file_once(self):
        got = json.loads(self.assert_same("--format", "json", self.logs).stdout)
        self.assertEqual(got["summary"]["files"], 4)
        self.assertEqual(got["summary"]["unreadable"], 0)

    def test_its_own_local_cluster(self):
        want = self.logagg("--format", "csv", self.logs)
        got = self.dask("--format", "csv", self.logs, scheduler=False)
        self.assertEqual(got.returncode, 0, got.stderr.decode())
        self.assertEqual(got.stdout, want.stdout)

    def test_unreadable_inputs_are_named_and_the_rest_counted(self):
        bad = os.path.join(self.tmp, "bad")
        os.makedirs(bad, exist_ok=True)
        with open(os.path.join(self.logs, "sub", "b.log.gz"), "rb") as f:
            data = f.read()
        with open(os.path.join(bad, "cut.log.gz"), "wb") as f:
            f.write(data[:len(data) // 2])
        missing = os.path.join(self.tmp, "missing.log")
        got = self.assert_same("--format", "json", self.logs, bad, missing, status=1)
        err = got.stderr.decode()
        self.assertIn(f"logagg-dask: {bad}/cut.log.gz [0:{len(data) // 2}]: gzip data truncated", err)
        self.assertIn(f"logagg-dask: {missing}: No such file or directory", err)

    def test_a_piece_that_fails_for_good_is_named_by_range(self):
        plan = self.dask("--plan", self.logs).stdout.decode().splitlines()
        rng = [ln.split("\t")[1] for ln in plan if ln.endswith("/big.log")][1]
        fake = os.path.join(self.tmp, "failing-logagg")
        with open(fake, "w") as f:
            f.write(f'#!/bin/sh\ncase " $* " in *" --range {rng} "*) echo "logagg: disk on fire" >&2; exit 3;; esac\n'
                    f'exec {LOGAGG} "$@"\n')
        os.chmod(fake, 0o755)
        got = self.dask("--retries", "1", "--format", "csv", self.logs, logagg=fake)
        self.assertEqual(got.returncode, 1)
        self.assertIn(f"logagg-dask: {os.path.join(self.logs, 'big.log')} [{rng}]: logagg: disk on fire",
                      got.stderr.decode())
        self.assertTrue(got.stdout.startswith(b"second,count\n"), "the other pieces are printed")

    def test_a_piece_that_fails_once_is_retried(self):
        plan = self.dask("--plan", self.logs).stdout.decode().splitlines()
        rng = [ln.split("\t")[1] for ln in plan if ln.endswith("/big.log")][2]
        fake, marker = os.path.join(self.tmp, "flaky-logagg"), os.path.join(self.tmp, "failed-once")
        with open(fake, "w") as f:
            f.write(f'#!/bin/sh\ncase " $* " in *" --range {rng} "*) [ -e {marker} ] || '
                    f'{{ touch {marker}; kill -9 $$; }};; esac\nexec {LOGAGG} "$@"\n')
        os.chmod(fake, 0o755)
        want = self.logagg("--format", "csv", self.logs)
        got = self.dask("--format", "csv", self.logs, logagg=fake)
        self.assertTrue(os.path.exists(marker), "the piece never failed")
        self.assertEqual(got.returncode, 0, got.stderr.decode())
        self.assertEqual(got.stdout, want.stdout)

    def test_results_are_merged_on_the_cluster_while_pieces_run(self):
        # A logagg that notes each merge of several results: with --fan-in 2 and many pieces, some
        # merges must run on the workers (not only the final one here), and the sum stays exact.
        fake, log = os.path.join(self.tmp, "counting-logagg"), os.path.join(self.tmp, "merges.log")
        with open(fake, "w") as f:
            f.write(f'#!/bin/sh\n[ "$1" = merge ] && echo "$2 $3" >> {log}\nexec {LOGAGG} "$@"\n')
        os.chmod(fake, 0o755)
        want = self.logagg("--format", "csv", self.logs)
        got = self.dask("--fan-in", "2", "--piece-size", "64K", "--format", "csv", self.logs, logagg=fake)
        self.assertEqual(got.returncode, 0, got.stderr.decode())
        self.assertEqual(got.stdout, want.stdout)
        with open(log) as f:
            merges = f.read().splitlines()
        self.assertGreater(sum(m == "--format json" for m in merges), 0, "no merge ran on the cluster")
        self.assertEqual(merges[-1], "--format csv", "the final merge, here, prints the asked format")

    def test_relative_paths_are_planned_and_named_as_absolute_ones(self):
        # The workers run elsewhere: they are given absolute paths, and logagg-dask names files as they do.
        relative = self.dask("--plan", os.path.relpath(self.logs, self.tmp))
        self.assertEqual(relative.returncode, 0, relative.stderr.decode())
        self.assertEqual(relative.stdout, self.dask("--plan", self.logs).stdout)

    def test_usage_errors_exit_2(self):
        self.assertEqual(self.dask("--bucket", "7s", self.logs).returncode, 2)
        self.assertEqual(self.dask("-").returncode, 2)
        bad = self.dask("--piece-size", "12Q", self.logs)   # read by logagg, which says why
        self.assertEqual(bad.returncode, 2)
        self.assertIn(b"logagg: --piece-size: 12Q is not a size (a number, optionally followed by K, M or G)\n",
                      bad.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[4:])
