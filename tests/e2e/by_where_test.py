#!/usr/bin/python3
"""End-to-end test of --by, --by-status-class, --by-path-prefix, --where and --app-field none (issue 30).

  by_where_test.py LOGAGG

Writes a log whose --by keys are hostile (commas, quotes, CR/LF, ESC sequences, NUL, DEL, C1 and
bidi controls, markup, a 10 kB key, a key spelt "(none)") and computes here, from the lines as
written, what each run must count. Then: csv reads back with Python's csv module into exactly the
expected rows; json parses, writes a key without a value as null and records by and where; the table
is terminal-safe; html holds no key's markup unescaped; `logagg merge` adds --range pieces of --by
results back into the whole run and refuses results of other --by or --where; --state with --by
and --where keeps running totals (and --delta this run's part) equal to batch runs; --follow with
--by prints rows per bucket and key whose last totals are the batch run's; --app-field none counts
lines without an app id; --top and --max-apps fold key tuples into (other); usage errors exit 2.
"""

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_ids_test import unsafe  # noqa: E402  (reads LOGAGG from sys.argv[1] too)

LOGAGG = os.path.abspath(sys.argv[1])

KEYS = ["GET", "a,b", 'say "hi"', "two\nlines", "cr\rhere", "\x1b]0;pwned\x07", "\x1b[2J", "nul\x00id",
        "del\x7f", "c1\x85\x9b", "\u202eevil", "</script><img src=x onerror=alert(1)>", "=cmd|' /C calc'!A0",
        "k" * 10000, "(none)", "(other)", "日本語", " spaced "]
SECONDS = ["2024-03-01T10:00:00Z", "2024-03-01T10:00:01Z", "2024-03-01T10:00:05Z"]
STATUSES = [200, "503", 404, "2e2", 200.0, {"x": 1}, None, "ok"]


def run(*args, check=True, stdin=None):
    r = subprocess.run([LOGAGG, *map(str, args)], input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise AssertionError(f"logagg {args!r}: status {r.returncode}: {r.stderr[-2000:]!r}")
    return r


def make_lines(seed=0, count=600, with_app=True):
    """The log's lines (text) and, per line, what the keys and filters see: a dict of the fields."""
    lines = []
    for i in range(count):
        k = (i * 7 + seed) % len(KEYS)
        fields = {"timestamp": SECONDS[(i + seed) % len(SECONDS)], "method": KEYS[k]}
        if with_app and i % 11 != 0:
            fields["app_id"] = ["web1", "api2", "db3"][i % 3]
        s = STATUSES[(i // 3 + seed) % len(STATUSES)]
        if s is not None:
            fields["status"] = s
        if i % 5:
            fields["path"] = ["/api/v1/orders/7?x=1", "/api/v2", "/", "/api/v1/users#a/b",
                              "https://shop.example:8443/api/v1/x?y=/z", "api/v3"][i % 6]
        lines.append((json.dumps(fields, ensure_ascii=(i % 2 == 0)), fields))
    return lines


def write(path, lines, mode="w"):
    with open(path, mode, encoding="utf-8", newline="\n") as f:
        for text, _ in lines:
            f.write(text + "\n")


def number_text(v):
    """A number as json.dumps wrote it."""
    return json.dumps(v)


def key_of(fields, name):
    """A --by key of one line, or None for no value."""
    v = fields.get(name)
    if v is None or isinstance(v, (dict, list)):
        return None
    return v if isinstance(v, str) else number_text(v)


def status_class(fields):
    v = key_of(fields, "status")
    if v is None:
        return None
    return f"{v[0]}xx" if len(v) == 3 and v.isdigit() and "100" <= v <= "599" else "other"


def numeric(fields):
    """The status as a float if it is a JSON number or a string of one, else None (exact enough here)."""
    v = fields.get("status")
    if isinstance(v, str) and re.fullmatch(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?", v):
        return float(v)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def path_prefix(fields, n):
    """--by-path-prefix N path: the path (an absolute URL's path; "other" for neither), up to '?' or
    '#', then the first N segments."""
    p = fields.get("path")
    if not isinstance(p, str):
        return None
    url = re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*(.*)", p, re.S)
    if url:
        p = url.group(1) if url.group(1).startswith("/") else "/"
    elif not p.startswith("/"):
        return "other"
    p = re.split("[?#]", p)[0]
    segments = p[1:].split("/")
    return p if len(segments) <= n else "/" + "/".join(segments[:n])


def expected(lines, keys, keep=lambda f: True, with_app=True):
    """Rows (second, key..., count) of the counted lines, in logagg's order (no value last)."""
    counts = Counter()
    for _, f in lines:
        if with_app and "app_id" not in f:
            continue
        if not keep(f):
            continue
        counts[(f["timestamp"], *[k(f) for k in keys])] += 1

    def order(row):
        return (row[0], *[(1, b"") if part is None else (0, part.encode()) for part in row[1:]])
    return [(*(("(none)" if p is None else p) for p in row), n) for row, n in sorted(counts.items(), key=lambda i: order(i[0]))]


def csv_rows(text):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], [(*r[:-1], int(r[-1])) for r in rows[1:]]


class ByWhere(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="logagg-by-where-")
        cls.log = os.path.join(cls.tmp, "access.log")
        cls.lines = make_lines()
        write(cls.log, cls.lines)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_csv_reads_back_into_the_expected_rows(self):
        method = lambda f: key_of(f, "method")  # noqa: E731
        for args, keys, keep in [
            (["--by", "method"], [method], lambda f: True),
            (["--by", "method", "--by-status-class", "status"], [method, status_class], lambda f: True),
            (["--by-path-prefix", "2", "path", "--by", "status", "--where", "status>=2e2"],
             [lambda f: path_prefix(f, 2),
              lambda f: key_of(f, "status")],
             lambda f: numeric(f) is not None and numeric(f) >= 200),
        ]:
            out = run(self.log, *args, "--format", "csv", "-q").stdout.decode("utf-8")
            header, rows = csv_rows(out)
            self.assertEqual(len(header), len(keys) + 2, header)
            self.assertEqual(rows, expected(self.lines, keys, keep), args)

    def test_json_parses_with_null_for_no_value_and_records_by_and_where(self):
        doc = json.loads(run(self.log, "--by", "method", "--by", "status", "--where", "exists method",
                             "--format", "json", "-q").stdout)
        self.assertEqual(doc["logagg"], 2)
        self.assertEqual(doc["where"], ["exists method"])
        self.assertEqual([b["field"] for b in doc["by"]], ["method", "status"])
        got = [(r["second"], r["method"], r["status"], r["count"]) for r in doc["counts"]]
        want = expected(self.lines, [lambda f: key_of(f, "method"), lambda f: key_of(f, "status")])
        self.assertEqual(got, [(sec, m, None if st == "(none)" else st, n) for sec, m, st, n in want])
        self.assertTrue(any(r["status"] is None for r in doc["counts"]))
        no_status = sum(1 for _, f in self.lines if "app_id" in f and key_of(f, "status") is None)
        self.assertEqual(doc["summary"]["no_value"][1]["lines"], no_status)

    def test_table_and_html_are_safe(self):
        table = run(self.log, "--by", "method", "--by-status-class", "status").stdout
        self.assertIsNone(unsafe(table))
        self.assertIn(b"\\x1b[2J", table)
        html = run(self.log, "--by", "method", "--format", "html", "-q").stdout.decode("utf-8")
        self.assertNotIn("<img src=x", html)
        self.assertIn("&lt;/script&gt;&lt;img src=x", html)  # the key, as text
        self.assertEqual(html.count("<script"), 3)  # the data, uPlot, the page's own: no key's

    def test_merge_adds_range_pieces_and_refuses_other_keys_or_filters(self):
        size = os.path.getsize(self.log)
        args = ["--by", "method", "--by-status-class", "status", "--where", "status != 404", "--format", "json", "-q"]
        whole = run(self.log, *args).stdout
        pieces = []
        for i, (a, b) in enumerate([(0, size // 3), (size // 3, 2 * size // 3), (2 * size // 3, "")]):
            p = self.path(f"piece{i}.json")
            with open(p, "wb") as f:
                f.write(run("--range", f"{a}:{b}", self.log, *args).stdout)
            pieces.append(p)
        merged = json.loads(run("merge", *pieces, "--format", "json").stdout)
        want = json.loads(whole)
        self.assertEqual(merged["counts"], want["counts"])
        for key in ["lines", "counted", "filtered", "filtered_by", "no_value"]:
            self.assertEqual(merged["summary"][key], want["summary"][key], key)
        other_by = self.path("other_by.json")
        other_where = self.path("other_where.json")
        with open(other_by, "wb") as f:
            f.write(run(self.log, "--by", "status", "--where", "status != 404", "--format", "json", "-q").stdout)
        with open(other_where, "wb") as f:
            f.write(run(self.log, "--by", "method", "--by-status-class", "status", "--format", "json", "-q").stdout)
        for other, says in [(other_by, "different --by"), (other_where, "different --where")]:
            r = run("merge", pieces[0], other, check=False)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(says, r.stderr.decode())

    def test_state_keeps_running_totals_and_deltas(self):
        log, state = self.path("state.log"), self.path("s.state")
        first, second = make_lines(1, 300), make_lines(2, 200)
        args = ["--by", "method", "--by", "status", "--where", "exists path", "--format", "csv", "-q"]
        write(log, first)
        total1 = run("--state", state, log, *args).stdout
        self.assertEqual(total1, run(log, *args).stdout)
        write(log, second, mode="a")
        delta = self.path("delta.log")
        write(delta, second)
        total2 = run("--state", state, log, *args, "--delta").stdout
        self.assertEqual(total2, run(delta, *args).stdout)
        write(log, first, mode="a")
        self.assertEqual(run("--state", state, log, *args).stdout, run(log, *args).stdout)
        r = run("--state", state, log, "--by", "method", "--format", "csv", "-q", check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--by", r.stderr.decode())

    def test_follow_prints_rows_per_bucket_and_key(self):
        log = self.path("follow.log")
        lines = make_lines(3, 400)
        write(log, lines[:200])
        out, err = self.path("follow.out"), self.path("follow.err")
        args = ["--by", "method", "--by-status-class", "status", "--format", "csv", "--late", "10s"]
        with open(out, "wb") as o, open(err, "wb") as e:
            proc = subprocess.Popen([LOGAGG, "--follow", log, *args], stdout=o, stderr=e)
        try:
            time.sleep(1)
            write(log, lines[200:], mode="a")
            time.sleep(1.5)
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.wait(20), 0)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        with open(out, encoding="utf-8", newline="") as f:
            header, rows = csv_rows(f.read())
        last = {}
        for row in rows:
            last[row[:-1]] = row[-1]  # a correction carries the new total
        batch_log = self.path("batch.log")
        write(batch_log, lines)
        _, want = csv_rows(run(batch_log, *args[:-2], "-q").stdout.decode("utf-8"))
        self.assertEqual(sorted(last.items()), sorted((r[:-1], r[-1]) for r in want))

    def test_app_field_none_counts_lines_without_an_app(self):
        log = self.path("noapp.log")
        lines = make_lines(4, 300, with_app=False)
        write(log, lines)
        _, rows = csv_rows(run(log, "--app-field", "none", "--by", "status", "--format", "csv", "-q").stdout.decode())
        self.assertEqual(rows, expected(lines, [lambda f: key_of(f, "status")], with_app=False))
        self.assertEqual(sum(r[-1] for r in rows), 300)
        plain = run(log, "--app-field", "none", "--format", "csv", "-q").stdout.decode()
        self.assertEqual(len(plain.splitlines()), 1 + len(SECONDS))

    def test_top_and_max_apps_fold_key_tuples_into_other(self):
        args = ["--by", "method", "--format", "csv", "-q"]
        _, all_rows = csv_rows(run(self.log, *args).stdout.decode("utf-8"))
        totals = Counter()
        for r in all_rows:
            totals[r[1]] += r[2]
        _, top = csv_rows(run(self.log, *args, "--top", "2").stdout.decode("utf-8"))
        self.assertLessEqual(len({r[1] for r in top}), 3)
        self.assertIn("(other)", {r[1] for r in top})
        self.assertEqual(sum(r[2] for r in top), sum(totals.values()))
        capped = run(self.log, *args[:-1], "--max-apps", "3")
        _, rows = csv_rows(capped.stdout.decode("utf-8"))
        self.assertEqual(len({r[1] for r in rows} - {"(other)"}), 3)
        self.assertIn("(other)", {r[1] for r in rows})
        self.assertEqual(sum(r[2] for r in rows), sum(totals.values()))
        self.assertIn("--max-apps", capped.stderr.decode())

    def test_usage_errors(self):
        for args, says in [
            (["--where", "status = 5"], "--where 'status = 5'"),
            (["--where", "status"], "no operator"),
            (["--where", "path ~ ("], "pattern does not compile"),
            (["--by-path-prefix", "0", "path"], "--by-path-prefix"),
            (["--by", "a", "--by", "b", "--by", "c", "--by", "d", "--by", "e"], "at most 4 keys"),
            (["--by-app", "--by", "a", "--by", "b", "--by", "c", "--by", "d"], "at most 4 keys"),
            (["--app-field", "none", "--top", "2"], "--top"),
            (["--app-field", "none", "--by-app"], "--by-app"),
            (["--by", "/req", "--by", "/req/host"], "inside or around"),
        ]:
            r = run(self.log, *args, check=False)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(says, r.stderr.decode(), args)
            self.assertEqual(r.stdout, b"", args)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
