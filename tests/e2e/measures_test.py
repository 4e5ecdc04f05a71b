#!/usr/bin/python3
"""End-to-end test of --sum, --quantiles, --percentiles and --count-if (issue 32).

  measures_test.py LOGAGG

Writes a log of status codes, latencies (numbers, numeric strings, a string with a space, none) and
sizes, and computes here, with Python's exact decimals and every value kept and sorted, what each row
must say: counts, the --count-if count and ratio, n(F), the exact sum (same digits), min and max, and
each quantile within 1 % of the nearest-rank value. Then the real binary: csv rows per second and
status and per minute; min and max as the lines wrote them, however many digits; json with sums,
min and max as strings and sketches that `logagg merge` adds up from
--range pieces into the whole run's bytes; --state running totals and --delta equal to batch runs;
--follow rows whose last values are the batch run's, and its live --plot with the measures' lines; the summary's lines without a number; usage
errors exit 2.
"""

import csv
import io
import json
import math
import os
import pty
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from decimal import Decimal

LOGAGG = os.path.abspath(sys.argv[1])
ARGS = ["--by", "status", "--sum", "bytes", "--sum", "latency_ms", "--quantiles", "latency_ms",
        "--percentiles", "0,50,90,99,99.9,100", "--count-if", "status>=500"]
PERCENTILES = ["0", "50", "90", "99", "99.9", "100"]


def run(*args, check=True):
    r = subprocess.run([LOGAGG, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise AssertionError(f"logagg {args!r}: status {r.returncode}: {r.stderr[-2000:]!r}")
    return r


def make_lines(seed, count):
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        minute, second = divmod(i // 40, 60)
        fields = {"app_id": "web", "timestamp": f"2024-03-01T10:{minute:02d}:{second:02d}Z",
                  "status": rng.choice([200, 200, 200, 404, 503])}
        shape = rng.randrange(10)
        latency = f"{rng.lognormvariate(3, 1.5):.3f}"
        if shape == 0:
            fields["latency_ms"] = " 5"  # not a number
        elif shape == 1:
            fields["latency_ms"] = latency  # a numeric string, as nginx writes
        elif shape != 2:  # shape 2: no latency
            fields["latency_ms"] = "NUMBER:" + latency
        if rng.randrange(5):
            fields["bytes"] = rng.randrange(1_000_000)
        text = json.dumps(fields).replace('"NUMBER:' + latency + '"', latency)
        lines.append((text, fields))
    return lines


def value(fields, name):
    """The measured value of a line, as an exact Decimal, or None."""
    v = fields.get(name)
    if isinstance(v, str) and v.startswith("NUMBER:"):
        v = v[7:]
    if isinstance(v, int):
        return Decimal(v)
    if isinstance(v, str) and v.strip() == v and v:
        try:
            return Decimal(v)
        except ArithmeticError:
            return None
    return None


def expected(lines, bucket_of):
    """Per (bucket, status): count, errors, byte and latency values."""
    rows = {}
    for _, f in lines:
        key = (bucket_of(f["timestamp"]), str(f["status"]))
        r = rows.setdefault(key, {"count": 0, "errors": 0, "bytes": [], "latency": []})
        r["count"] += 1
        r["errors"] += f["status"] >= 500
        for name, into in [("bytes", r["bytes"]), ("latency_ms", r["latency"])]:
            v = value(f, name)
            if v is not None:
                into.append(v)
    return rows


def nearest_rank(values, p):
    ordered = sorted(values)
    rank = max(1, math.ceil(Decimal(p) / 100 * len(ordered)))
    return ordered[rank - 1]


def write(path, lines, mode="w"):
    with open(path, mode, encoding="utf-8") as f:
        for text, _ in lines:
            f.write(text + "\n")


def csv_rows(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


class Measures(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="logagg-measures-")
        self.lines = make_lines(1, 4000)
        self.log = self.path("access.log")
        write(self.log, self.lines)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def check_rows(self, text, bucket_of):
        header, rows = csv_rows(text)
        want = expected(self.lines, bucket_of)
        self.assertEqual(len(rows), len(want))
        col = {name: i for i, name in enumerate(header)}
        for row in rows:
            r = want[(row[0], row[1])]
            self.assertEqual(int(row[col["count"]]), r["count"])
            self.assertEqual(int(row[col["count(status>=500)"]]), r["errors"])
            ratio = Decimal(r["errors"]) / Decimal(r["count"])
            self.assertEqual(Decimal(row[col["ratio(status>=500)"]]), ratio.quantize(Decimal("0.0001"), "ROUND_HALF_UP"))
            self.assertEqual(int(row[col["n(bytes)"]]), len(r["bytes"]))
            self.assertEqual(row[col["sum(bytes)"]], str(sum(r["bytes"], Decimal(0))))
            lat = r["latency"]
            self.assertEqual(int(row[col["n(latency_ms)"]]), len(lat))
            self.assertEqual(row[col["sum(latency_ms)"]], str(sum(lat, Decimal("0.000"))))  # the input's 3 digits
            if not lat:
                self.assertEqual(row[col["min(latency_ms)"]], "")
                continue
            self.assertEqual(Decimal(row[col["min(latency_ms)"]]), min(lat))
            self.assertEqual(Decimal(row[col["max(latency_ms)"]]), max(lat))
            for p in PERCENTILES:
                got, exact = Decimal(row[col[f"p{p}(latency_ms)"]]), nearest_rank(lat, p)
                self.assertLessEqual(abs(got - exact), Decimal("0.01") * abs(exact), f"p{p}: {got} vs {exact}")

    def test_csv_rows_per_second_and_per_minute(self):
        self.check_rows(run(self.log, *ARGS, "--format", "csv", "-q").stdout.decode(), lambda t: t)
        self.check_rows(run(self.log, *ARGS, "--per-minute", "--format", "csv", "-q").stdout.decode(),
                        lambda t: t[:17] + "00Z")
        for threads in ["1", "2", "3", "8"]:
            self.assertEqual(run(self.log, *ARGS, "--threads", threads, "--format", "csv", "-q").stdout,
                             run(self.log, *ARGS, "--threads", "1", "--format", "csv", "-q").stdout)

    def test_json_sums_are_exact_strings_and_merge_adds_range_pieces(self):
        whole = run(self.log, *ARGS, "--format", "json", "-q").stdout
        doc = json.loads(whole)
        self.assertEqual(doc["logagg"], 2)
        self.assertEqual(doc["quantile_accuracy"], 0.01)
        self.assertIsInstance(doc["counts"][0]["sum(bytes)"], str)
        size = os.path.getsize(self.log)
        pieces = []
        for i, (a, b) in enumerate([(0, size // 3), (size // 3, 2 * size // 3), (2 * size // 3, "")]):
            p = self.path(f"piece{i}.json")
            with open(p, "wb") as f:
                f.write(run("--range", f"{a}:{b}", self.log, *ARGS, "--format", "json", "-q").stdout)
            pieces.append(p)
        for fmt in ["csv", "table"]:
            self.assertEqual(run("merge", *pieces, "--format", fmt).stdout,
                             run(self.log, *ARGS, "--format", fmt, "-q").stdout, fmt)
        merged = json.loads(run("merge", *pieces, "--format", "json").stdout)
        self.assertEqual(merged["counts"], doc["counts"])
        other = self.path("other.json")
        with open(other, "wb") as f:
            f.write(run(self.log, "--by", "status", "--sum", "bytes", "--format", "json", "-q").stdout)
        r = run("merge", pieces[0], other, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("different --sum", r.stderr.decode())

    def test_min_and_max_are_the_values_as_written(self):
        """Values of more digits than a double holds, some rounding to the same double: min and max
        are their exact decimals in csv, as strings in json, and through merge of --range pieces."""
        log = self.path("long.log")
        values = ["0.100000000000000002", '"0.100000000000000001"', "0.1000000000000000015", "1e-1",
                  "123456789012345678901234567890", "1.23456789012345678901234567891e29"]
        with open(log, "w", encoding="utf-8") as f:
            for v in values:
                f.write(f'{{"app_id":"web","timestamp":"2024-03-01T10:00:00Z","latency_ms":{v}}}\n')
        args = ["--quantiles", "latency_ms", "--percentiles", "0,100", "-q"]
        header, rows = csv_rows(run(log, *args, "--format", "csv").stdout.decode())
        col = {name: i for i, name in enumerate(header)}
        want_min, want_max = "0.1", "123456789012345678901234567891.0"
        self.assertEqual([rows[0][col["min(latency_ms)"]], rows[0][col["max(latency_ms)"]]], [want_min, want_max])
        self.assertEqual([rows[0][col["p0(latency_ms)"]], rows[0][col["p100(latency_ms)"]]], [want_min, want_max])
        doc = json.loads(run(log, *args, "--format", "json").stdout)
        row = doc["counts"][0]
        self.assertEqual([row["min(latency_ms)"], row["max(latency_ms)"]], [want_min, want_max])
        size = os.path.getsize(log)
        pieces = []
        for i, (a, b) in enumerate([(0, size // 2), (size // 2, "")]):
            pieces.append(self.path(f"long{i}.json"))
            with open(pieces[-1], "wb") as f:
                f.write(run("--range", f"{a}:{b}", log, *args, "--format", "json").stdout)
        self.assertEqual(json.loads(run("merge", *pieces, "--format", "json").stdout)["counts"], doc["counts"])
        # Three values that round to the same double as 0.1, without it: told apart by their digits.
        with open(log, "w", encoding="utf-8") as f:
            for v in values[:3]:
                f.write(f'{{"app_id":"web","timestamp":"2024-03-01T10:00:00Z","latency_ms":{v}}}\n')
        row = json.loads(run(log, *args, "--format", "json").stdout)["counts"][0]
        self.assertEqual([row["min(latency_ms)"], row["max(latency_ms)"]],
                         ["0.100000000000000001", "0.100000000000000002"])

    def test_stats_give_the_measures_of_every_counted_line(self):
        doc = json.loads(run(self.log, *ARGS, "--stats", "--format", "json", "-q").stdout)
        got = doc["stats"]["measures"]
        errors = sum(f["status"] >= 500 for _, f in self.lines)
        size = [v for v in (value(f, "bytes") for _, f in self.lines) if v is not None]
        lat = [v for v in (value(f, "latency_ms") for _, f in self.lines) if v is not None]
        self.assertEqual(got["count(status>=500)"], errors)
        self.assertEqual(Decimal(str(got["ratio(status>=500)"])),
                         (Decimal(errors) / len(self.lines)).quantize(Decimal("0.0001"), "ROUND_HALF_UP"))
        self.assertEqual((got["n(bytes)"], got["sum(bytes)"]), (len(size), str(sum(size, Decimal(0)))))
        self.assertEqual(got["sum(latency_ms)"], str(sum(lat, Decimal("0.000"))))
        self.assertEqual(Decimal(str(got["max(latency_ms)"])), max(lat))
        for p in PERCENTILES:
            exact = nearest_rank(lat, p)
            self.assertLessEqual(abs(Decimal(str(got[f"p{p}(latency_ms)"])) - exact), Decimal("0.01") * abs(exact))
        # The text block prints the same values, and at any thread count.
        text = run(self.log, *ARGS, "--stats", "-q", "--threads", "3").stderr.decode()
        block = text[text.index("  measures of all counted lines:\n"):]
        self.assertIn(f"    sum(bytes)", block)
        self.assertIn(str(sum(size, Decimal(0))) + "\n", block)
        self.assertEqual(run(self.log, *ARGS, "--stats", "-q", "--threads", "1").stderr.decode(), text)

    def test_units_change_the_table_only(self):
        plain = ["--sum", "latency_ms", "--quantiles", "latency_ms", "--per-minute", "-q"]
        units = [*plain, "--unit", "latency_ms=ms"]
        for fmt in ["csv", "json"]:
            self.assertEqual(run(self.log, *units, "--format", fmt).stdout, run(self.log, *plain, "--format", fmt).stdout)
        header, *rows = run(self.log, *units).stdout.decode().splitlines()
        for line in rows[:-1]:  # the last is the total
            self.assertRegex(line, r" ms| s| µs")
        first_minute = [f for _, f in self.lines if f["timestamp"] < "2024-03-01T10:01"]
        lat = [v for v in (value(f, "latency_ms") for f in first_minute) if v is not None]
        first = rows[0]
        self.assertIn(f"{sum(lat, Decimal('0.000'))} ms", first)  # the sum exactly, in its unit
        p99 = nearest_rank(lat, "99")
        shown = first.split()[-2:]  # "1.23 s" or "123 ms"
        scale = {"s": Decimal(1000), "ms": Decimal(1), "µs": Decimal("0.001")}[shown[1]]
        self.assertLessEqual(abs(Decimal(shown[0]) * scale - p99), Decimal("0.015") * p99)  # 1 % and 3 digits
        r = run(self.log, *plain, "--unit", "bytes=ms", check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a field of --sum or --quantiles", r.stderr.decode())
        piece = self.path("piece.json")
        with open(piece, "wb") as f:
            f.write(run(self.log, *plain, "--format", "json").stdout)
        self.assertEqual(run("merge", "--unit", "latency_ms=ms", piece).stdout, run(self.log, *units).stdout)  # the path stays a path

    def test_plot_draws_the_measures_under_the_rate(self):
        args = ["--count-if", "status>=500", "--quantiles", "latency_ms", "--unit", "latency_ms=ms", "--per-minute"]
        chart = run(self.log, *args, "--plot", "-q").stdout.decode()
        self.assertIn("ratio(status>=500) per column, peak column ", chart)
        self.assertIn("p99(latency_ms) per column, peak column ", chart)
        # The same chart from merged --range pieces and at any thread count.
        size = os.path.getsize(self.log)
        pieces = []
        for i, (a, b) in enumerate([(0, size // 2), (size // 2, "")]):
            p = self.path(f"plot{i}.json")
            with open(p, "wb") as f:
                f.write(run("--range", f"{a}:{b}", self.log, *args, "--format", "json", "-q").stdout)
            pieces.append(p)
        self.assertEqual(run("merge", "--plot", "--unit", "latency_ms=ms", *pieces).stdout.decode(), chart)
        self.assertEqual(run(self.log, *args, "--plot", "-q", "--threads", "3").stdout.decode(), chart)
        # --follow --plot draws the measures' lines live too (on a terminal: a pty here).
        log = self.path("live.log")
        write(log, self.lines)
        master, slave = pty.openpty()
        proc = subprocess.Popen([LOGAGG, "--follow", log, *args, "--plot"], stdout=slave, stderr=subprocess.DEVNULL)
        os.close(slave)
        seen = b""
        try:
            deadline = time.time() + 20
            while b"p99(latency_ms) per column" not in seen and time.time() < deadline:
                if select.select([master], [], [], 0.5)[0]:
                    try:
                        seen += os.read(master, 1 << 16)
                    except OSError:
                        break
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.wait(20), 0)
        finally:
            os.close(master)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertIn(b"ratio(status>=500) per column, peak column ", seen)
        self.assertIn(b"p99(latency_ms) per column, peak column ", seen)

    def test_state_keeps_running_totals_and_deltas(self):
        log, state = self.path("state.log"), self.path("s.state")
        first, second = self.lines[:1500], self.lines[1500:]
        args = [*ARGS, "--format", "csv", "-q"]
        write(log, first)
        self.assertEqual(run("--state", state, log, *args).stdout, run(log, *args).stdout)
        write(log, second, mode="a")
        delta = self.path("delta.log")
        write(delta, second)
        self.assertEqual(run("--state", state, log, *args, "--delta").stdout, run(delta, *args).stdout)
        r = run("--state", state, log, "--by", "status", "--sum", "bytes", "--format", "csv", "-q", check=False)
        self.assertEqual(r.returncode, 2)

    def test_follow_rows_carry_the_measures(self):
        log = self.path("follow.log")
        write(log, self.lines[:2000])
        out = self.path("follow.out")
        with open(out, "wb") as o:
            proc = subprocess.Popen([LOGAGG, "--follow", log, *ARGS, "--format", "csv", "--late", "10s"],
                                    stdout=o, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            write(log, self.lines[2000:], mode="a")
            time.sleep(1.5)
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.wait(20), 0)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        with open(out, encoding="utf-8") as f:
            header, rows = csv_rows(f.read())
        last = {}
        for row in rows:
            last[(row[0], row[1])] = row  # a correction carries the new values
        _, want = csv_rows(run(self.log, *ARGS, "--format", "csv", "-q").stdout.decode())
        self.assertEqual(sorted(last.values()), sorted(want))

    def test_summary_counts_lines_without_a_number(self):
        err = run(self.log, *ARGS).stderr.decode()
        missing = sum(1 for _, f in self.lines if value(f, "latency_ms") is None)
        self.assertRegex(err, rf"no number in latency_ms +{missing}\n")

    def test_usage_errors(self):
        for args, says in [(["--quantiles", "x", "--percentiles", "101"], "--percentiles 101"),
                           (["--sum", "x", "--unit", "x=h"], "--unit x=h: want a unit of time"),
                           (["--count-if", "==1"], "--count-if '==1': no field"),
                           (["--sum", "timestamp"], None)]:
            r = run(self.log, *args, check=False)
            if says is None:
                self.assertEqual(r.returncode, 0, r.stderr)
                continue
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(says, r.stderr.decode())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
