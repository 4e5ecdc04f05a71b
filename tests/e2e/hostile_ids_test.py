#!/usr/bin/python3
"""End-to-end test of hostile app ids and file names (issue 18) in every output but html.

  hostile_ids_test.py LOGAGG

Makes a log whose app ids (read with --app-pattern '(?s).+') hold commas, quotes, CR/LF, ESC
sequences, NUL, DEL, C1 and bidi controls, markup, spreadsheet formulas, a 5,000-byte id, wide and
combining characters and one spelt "(other)", in a folder whose file names are not UTF-8 or hold
control bytes; the expected counts are computed here, from the lines as written. Then: csv parses
with Python's csv module into exactly the expected rows (also with --top and --csv-safe); json
parses and goes through `logagg merge` unchanged (with --range pieces and with --max-apps, whose
(other) must stay apart from the app spelt so); the table, --plot, --stats, the summary,
--show-rejects, --list-inputs and error messages hold no control byte but LF, no DEL, no C1 or bidi
control, and are valid UTF-8; the table's columns line up by terminal width.
"""

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import unittest

LOGAGG = os.path.abspath(sys.argv[1])  # also when hostile_dask_test.py imports this file
PATTERN = ["--app-field", "host", "--app-pattern", "(?s).+"]

IDS = [
    "plain", "a,b", 'say "hi"', "two\nlines", "cr\rhere", "crlf\r\n", "tab\there",
    "\x1b]0;pwned\x07", "\x1b[2J", "nul\x00id", "del\x7f", "c1\x85\x9b", "\u202eevil", "\u2066iso\u2069",
    "</script><img src=x onerror=alert(1)>", "=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)",
    "x" * 5000, "日本語", "e\u0301", "👍", "(other)", "back\\slash", " spaced ",
]
# Lines per id (all distinct, so --top has no ties), over a few seconds.
COUNTS = {app: 3 + 2 * i for i, app in enumerate(IDS)}
COUNTS["(other)"] = 200  # the app spelt so is the busiest: --top keeps it beside the real (other)
SECONDS = ["2024-03-01T10:00:00Z", "2024-03-01T10:00:01Z", "2024-03-01T10:00:05Z"]
FILES = [b"plain.log", b"bad\xff\xfename.log", b"new\nline.log", b"esc\x1b[2J\x9b.log", b"\xe2\x80\xaertl.log"]

BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}


def run(*args, stdin=None, check=True):
    r = subprocess.run([LOGAGG, *args], input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise AssertionError(f"logagg {args!r}: status {r.returncode}: {r.stderr!r}")
    return r


def unsafe(data):
    """Why `data` (bytes) is not safe for a terminal, or None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8: {e}"
    for c in text:
        o = ord(c)
        if (o < 0x20 and c != "\n") or o == 0x7F or 0x80 <= o <= 0x9F or o in BIDI:
            return f"raw U+{o:04X} in {text[max(0, text.index(c) - 30):text.index(c) + 30]!r}"
    return None


def columns_of(c):
    """Terminal columns of one character, as wcwidth counts them for this corpus."""
    return 0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1


def width(text):
    return sum(map(columns_of, text))


def cut(text, columns):
    """The start of `text` that takes `columns` columns."""
    taken = 0
    for i, c in enumerate(text):
        if taken >= columns:
            return text[:i]
        taken += columns_of(c)
    return text


def write_corpus(folder):
    """Writes the log into FILES in `folder` (bytes); returns its lines per (second, id)."""
    os.mkdir(folder)
    expected = {}
    lines = {f: [] for f in FILES}
    n = 0
    for app in IDS:
        for k in range(COUNTS[app]):
            second = SECONDS[(k + len(app)) % len(SECONDS)]
            # Half the ids as \u escapes, half as raw UTF-8 (json still escapes controls).
            host = json.dumps(app, ensure_ascii=(k % 2 == 0))
            lines[FILES[n % len(FILES)]].append(f'{{"host": {host}, "timestamp": "{second}"}}')
            expected[(second, app)] = expected.get((second, app), 0) + 1
            n += 1
    lines[FILES[2]].append('{"host": "", "timestamp": "2024-03-01T10:00:00Z"}')  # bad_app
    lines[FILES[3]].append("not json")
    for f, ls in lines.items():
        with open(os.path.join(folder, f), "wb") as out:
            out.write(("\n".join(ls) + "\n").encode())
    return expected


class HostileIds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="logagg-hostile-")
        cls.dir = os.path.join(cls.tmp, "logs").encode()
        cls.expected = write_corpus(cls.dir)
        cls.whole = os.path.join(cls.tmp, "whole.log").encode()
        with open(cls.whole, "wb") as out:
            for f in FILES:
                with open(os.path.join(cls.dir, f), "rb") as part:
                    out.write(part.read())
        cls.totals = {}
        for (second, _), c in cls.expected.items():
            cls.totals[second] = cls.totals.get(second, 0) + c

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def assertSafe(self, data, what):
        self.assertIsNone(unsafe(data), what)

    def csv_rows(self, *args):
        out = run(self.dir, *PATTERN, "--format", "csv", "-q", *args).stdout
        return list(csv.reader(io.StringIO(out.decode("utf-8"), newline="")))

    def test_csv_reads_back_into_the_ids(self):
        rows = self.csv_rows("--by-app")
        self.assertEqual(rows[0], ["second", "app_id", "count"])
        got = {(s, a): int(c) for s, a, c in rows[1:]}
        self.assertEqual(len(got), len(rows) - 1, "one row per (second, id)")
        self.assertEqual(got, self.expected)
        order = [(s, a.encode()) for s, a, _ in rows[1:]]
        self.assertEqual(order, sorted(order), "by second, then id bytewise")
        totals = self.csv_rows()
        self.assertEqual({s: int(c) for s, c in totals[1:]}, self.totals)

    def test_csv_top_keeps_the_app_spelt_other_apart(self):
        rows = self.csv_rows("--top", "3")
        busiest = sorted(COUNTS, key=lambda a: (-COUNTS[a], a.encode()))[:3]
        want = {}
        for (second, app), c in self.expected.items():
            key = (second, app if app in busiest else "(other) synthetic")
            want[key] = want.get(key, 0) + c
        got = {}
        for s, a, c in rows[1:]:
            # Both print as (other): the real one comes first (ids in name order), the synthetic last.
            key = (s, a if (s, a) not in got else "(other) synthetic")
            got[key] = int(c)
        self.assertEqual(got, want)

    def test_csv_safe_neutralises_formulas(self):
        rows = self.csv_rows("--by-app", "--csv-safe")
        apps = {a for _, a, _ in rows[1:]}
        for app in IDS:
            formula = app[:1] in ("=", "+", "-", "@", "\t", "\r")
            self.assertIn("'" + app if formula else app, apps)
        self.assertNotIn("=cmd|' /C calc'!A0", apps)

    def test_json_parses_and_merges_back_exactly(self):
        whole = run(self.whole, *PATTERN, "--by-app", "--format", "json", "-q").stdout
        doc = json.loads(whole)
        got = {(r["second"], r["app_id"]): r["count"] for r in doc["counts"]}
        self.assertEqual(got, self.expected)
        self.assertEqual([r.get("real_app") for r in doc["counts"] if r["app_id"] == "(other)"],
                         [True] * len(SECONDS), "the app spelt (other) says so")
        self.assertEqual({t["app_id"] for t in doc["stats"]["top_apps"]} - set(IDS), set())
        cut = os.path.getsize(self.whole) // 2
        pieces = []
        for i, r in enumerate((f"0:{cut}", f"{cut}:")):
            path = os.path.join(self.tmp, f"piece{i}.json")
            with open(path, "wb") as out:
                out.write(run(self.whole, *PATTERN, "--by-app", "--format", "json", "-q", "--range", r).stdout)
            pieces.append(path)
        self.assertEqual(run("merge", *pieces, "--format", "json").stdout, whole, "merged pieces = whole run")
        one = os.path.join(self.tmp, "whole.json")
        with open(one, "wb") as out:
            out.write(whole)
        self.assertEqual(run("merge", one, "--format", "json").stdout, whole)
        merged_csv = run("merge", *pieces, "--format", "csv").stdout
        self.assertEqual(merged_csv, run(self.whole, *PATTERN, "--by-app", "--format", "csv", "-q").stdout)
        self.assertEqual(run("merge", *pieces, "--format", "csv", "--csv-safe").stdout,
                         run(self.whole, *PATTERN, "--by-app", "--format", "csv", "--csv-safe", "-q").stdout)
        self.assertNotEqual(run("merge", *pieces, "--format", "csv", "--csv-safe").stdout, merged_csv)

    def test_max_apps_other_stays_apart_through_merge(self):
        r = run(self.whole, *PATTERN, "--max-apps", "3", "--threads", "1", "--format", "json", "-q")
        doc = json.loads(r.stdout)
        others = [row for row in doc["counts"] if row["app_id"] == "(other)"]
        self.assertEqual(sum(row["count"] for row in others if "real_app" not in row),
                         sum(COUNTS.values()) - sum(row["count"] for row in doc["counts"]
                                                    if row["app_id"] != "(other)" or "real_app" in row))
        path = os.path.join(self.tmp, "capped.json")
        with open(path, "wb") as out:
            out.write(r.stdout)
        self.assertEqual(run("merge", path, "--format", "json").stdout, r.stdout)

    def test_text_outputs_are_terminal_safe(self):
        for args in (["--by-app"], ["--top", "4"], ["--by-app", "--stats"], ["--by-app", "--per-minute"],
                     ["--plot"], ["--by-app", "--show-rejects", "10"], ["--stats", "--show-rejects", "5"]):
            r = run(self.dir, *PATTERN, *args)
            self.assertSafe(r.stdout, f"stdout of {args}")
            self.assertSafe(r.stderr, f"stderr of {args}")
        rejects = run(self.dir, *PATTERN, "--show-rejects", "10", "-q").stderr.decode()
        self.assertIn("new\\nline.log:", rejects)
        self.assertIn("esc\\x1b[2J\\x9b.log:", rejects)
        stats = run(self.dir, *PATTERN, "--by-app", "--stats", "-q").stderr.decode()
        self.assertIn("\n    back\\\\slash  ", stats, "ids in the ranked apps too")

    def test_table_columns_line_up_by_width(self):
        table = run(self.dir, *PATTERN, "--by-app", "-q").stdout.decode()
        lines = table.rstrip("\n").split("\n")
        self.assertEqual(len(lines), len(self.expected) + 2, "header, a line per row, total")
        widths = {width(line) for line in lines}
        self.assertEqual(len(widths), 1, f"every line as wide: {sorted(widths)}")
        # The count column starts where the header's does, in every row: after the widest id.
        head = re.fullmatch(r"(second +app_id +  )( *count)", lines[0])
        self.assertIsNotNone(head, lines[0][:80])
        for line in lines[1:-1]:
            self.assertRegex(line[len(cut(line, width(head.group(1)))):], r"^ *\d+$", line)
            self.assertRegex(cut(line, width(head.group(1))), r"  $", line)
        self.assertIn("\\x1b]0;pwned\\x07", table)
        self.assertIn("日本語 ", table)
        self.assertIn("c1\\u0085\\u009b", table)
        self.assertIn("nul\\x00id", table)
        self.assertIn("back\\\\slash", table)
        self.assertIn("x" * 5000, table, "long ids are not cut: the column widens")

    def test_list_inputs_is_one_escaped_line_per_file(self):
        out = run("--list-inputs", self.dir).stdout
        self.assertSafe(out, "--list-inputs")
        names = out.decode().rstrip("\n").split("\n")
        self.assertEqual(len(names), len(FILES))
        self.assertIn(os.path.join(self.dir, b"bad").decode() + "\\xff\\xfename.log", names)
        self.assertIn(os.path.join(self.dir, b"").decode() + "\\u202ertl.log", names)

    def test_messages_are_terminal_safe(self):
        missing = run(os.path.join(self.dir, b"gone\x1b]0;pwned\x07\n"), check=False)
        self.assertEqual(missing.returncode, 1)
        self.assertSafe(missing.stderr, "a missing file's message")
        self.assertIn(b"gone\\x1b]0;pwned\\x07\\n: No such file", missing.stderr)
        for args in (["--tz", "\x1b[2J\u202e"], ["--app-pattern", "(\x1b"], ["--since", "\x9b\x07"],
                     [b"--bad\xff\x1b"]):
            r = run(self.dir, *args, check=False)
            self.assertEqual(r.returncode, 2, args)
            self.assertSafe(r.stderr, f"usage error for {args}")
        odd_field = run(self.dir, "--app-field", b"/\xff\x1b", "--format", "json", "-q").stdout
        self.assertEqual(json.loads(odd_field)["app_field"], "/\ufffd\x1b", "not UTF-8: U+FFFD")
        bad = os.path.join(self.tmp, "not\x1b[2J.json")
        with open(bad, "w") as out:
            out.write('{"x": "\u202e"}')
        r = run("merge", bad, check=False)
        self.assertEqual(r.returncode, 1)
        self.assertSafe(r.stderr, "merge's refusal")
        r = run("split", "--max-size", "1K", os.path.join(self.dir, FILES[2]), os.path.join(os.fsencode(self.tmp), b"out\x1b"),
                check=False)
        self.assertSafe(r.stderr, "split's messages")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
