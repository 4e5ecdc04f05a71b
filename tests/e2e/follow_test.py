#!/usr/bin/python3
"""End-to-end test of following logs: `logagg --follow [--late DURATION] [report options] PATH...`.

  follow_test.py LOGAGG [-k TEST | CLASS]   (no test named: every class at once, see run_side_by_side,
                                            but one at a time with LOGAGG_SANITIZED set)

Proves that a logagg left running on growing, rotated logs prints, for every bucket (and app), a
last row that is the bucket's total over every complete line ever written, and ends cleanly:

- Randomized writer scenarios (seeded, with --threads 1 and 2; the seed and the steps taken are
  printed on failure): `--follow --late 1s --format json logs/` runs while a writer appends to
  logs/access.log in random-size chunks (lines split across writes, 0-50 ms apart): valid lines of
  several apps (times with fractions and offsets), invalid and blank ones, late lines (seconds older
  than the newest); rotates by rename (the writer still writes to the renamed file before it
  reopens access.log), compresses rotated files later (gzip, or zstd if installed; the original
  removed, or left beside the copy for a few steps), and does copytruncate. A file is removed only
  once logagg holds it open: one gone before it could be opened is a loss logagg tells (exit 1),
  which a machine busy with other tests could cause here at random (follow_safety, run alone, has
  the short-lived files). At the end (every file
  ends with a LF) and SIGTERM (exit 0), the last row of each second equals a batch
  `logagg --format json` over one file holding every line written; the summary's lines, counted,
  blank and rejected equal the batch's, and its late count is what the corrections added; each
  bucket's first row is a plain row and the later ones are corrections with growing totals; the
  plain rows come in ascending order; corrections appeared in some seed.
- One file followed by name (--format csv): renamed away and replaced (the lines written to the
  old file just before and after the rename count, its last line without LF too once it is
  quiet); truncated by hand (restarts at 0, also when it grows past the old size at once; told
  once, "truncations without a copy" 2, status 1: what came after the last look is lost); a file that
  does not exist at the start is picked up when created; a last line without LF under its name is
  not counted and is named on stderr at exit ("not a whole line yet"), and no such message when
  every line is whole. And copytruncate in a followed folder while a big append is being read: the
  lines not read yet count from the copy. An append larger than a round (64 MiB) is read to its
  end with nothing written after it, and one line longer than a round is rejected as too long (named
  with its file and line)
  and the lines after it count.
- A late line gives a correction row with the new total (json `"correction": true`, table
  "(correction)", csv the row again) and "late (corrected rows)" 1; an idle --late flushes the open
  buckets without newer times (the latency is printed, and must be within --late + 1 s, not before
  --late); newer times complete a bucket without waiting for the idle --late.
- --by-app, --per-minute and both (json and csv) in follow mode: the last rows equal the batch
  counts with the same options.
- SIGINT, SIGTERM and SIGHUP print the open buckets and the summary, exit 0, also while 300 MB of files
  are being read (sooner than twice a batch run over one 150 MB file; each file not counted whole
  named on stderr with the bytes not read); a reader that closes the pipe
  after one row ends logagg within a couple of seconds, status 0, no error message (nothing at all
  on stderr with -q).
- --top N: each bucket shows its N busiest apps when first printed, the rest as (other), later
  lines of other apps there too; the last rows of a bucket add up to its batch total.
- Refusals (exit 2 and a message): --follow with --state, --range, a stream named twice, --fill-gaps,
  --format html, --plot; --late without --follow; a --late that is not a duration.

FOLLOW_TEST_SEEDS=10 or =10-20 runs other seeds (the default 8, each with --threads 1 and 2, take ~35 s).
"""

import csv
import gzip
import io
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from log_times import second_of, stamp  # noqa: E402

LOGAGG = os.path.abspath(sys.argv[1])
ZSTD = shutil.which("zstd")

BASE = 1700000000  # 2023-11-14T22:13:20Z
APPS = ["web1", "web2", "api", "Batch7", "x9"]
LATE = 1.0  # --late 1s, the seconds
_seeds = os.environ.get("FOLLOW_TEST_SEEDS", "8").split("-")
SEEDS = range(int(_seeds[0])) if len(_seeds) == 1 else range(int(_seeds[0]), int(_seeds[1]))
STEPS = 50
UNFINISHED = "not a whole line yet"


# ---- running logagg

def run(*args, check=True, timeout=30):
    r = subprocess.run([LOGAGG, *map(str, args)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"logagg {' '.join(map(str, args))}: status {r.returncode}: {r.stderr.decode()}")
    return r


def wait_for(predicate, timeout, step=0.02):
    """Seconds until `predicate()` held (polled every `step`), or None after `timeout`."""
    start = time.monotonic()
    while True:
        if predicate():
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            return None
        time.sleep(step)


class Follow:
    """A `logagg --follow ARGS` in the background, its stdout and stderr going to files in `tmp`."""

    def __init__(self, args, tmp, name="follow"):
        self.args = ["--follow", *map(str, args)]
        self.out_path = os.path.join(tmp, name + ".out")
        self.err_path = os.path.join(tmp, name + ".err")
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen([LOGAGG, *self.args], stdin=subprocess.DEVNULL, stdout=out, stderr=err)

    def what(self):
        return "logagg " + " ".join(self.args)

    def output(self):
        with open(self.out_path, "rb") as f:
            return f.read().decode()

    def errors(self):
        with open(self.err_path, "rb") as f:
            return f.read().decode()

    def rows(self):
        """The NDJSON rows printed so far (whole lines only)."""
        text = self.output()
        return json_rows(text[:text.rfind("\n") + 1])

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Sends `sig`; returns the exit status, stdout and stderr."""
        if not self.alive():
            raise AssertionError(f"{self.what()} ended before {sig.name}: status {self.proc.returncode}: "
                                 f"{self.errors()[-2000:]}")
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"{self.what()} still running {timeout} s after {sig.name}") from None
        return rc, self.output(), self.errors()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# ---- the lines

class Lines:
    """Makes log lines (text without LF); every one is unique."""

    def __init__(self, rng):
        self.rng = rng
        self.n = 0

    def valid(self, t, app=None):
        self.n += 1
        fields = [("app_id", app or self.rng.choice(APPS)), ("timestamp", stamp(self.rng, t)), ("path", f"/p/{self.n}")]
        if self.rng.random() < 0.3:
            self.rng.shuffle(fields)
        return json.dumps(dict(fields), separators=(",", ":") if self.rng.random() < 0.5 else None)

    def invalid(self, t):
        self.n += 1
        n, ts = self.n, json.dumps(stamp(self.rng, t))
        return self.rng.choice([
            f"not json {n}",
            f'{{"app_id":"web-{n}","timestamp":{ts}}}',
            f'{{"app_id":"web1","path":"/q/{n}"}}',
            f'{{"timestamp":{ts},"path":"/q/{n}"}}',
            f'{{"app_id":"web1","timestamp":"yesterday {n}"}}',
            f"[1, 2, {n}]",
        ])

    def mixed(self, t, count):
        """`count` lines at second `t`: mostly valid, some invalid or blank."""
        out = []
        for _ in range(count):
            r = self.rng.random()
            out.append(self.valid(t) if r < 0.85 else self.invalid(t) if r < 0.93 else self.rng.choice(["", "  "]))
        return out


def is_counted(line):
    """Whether `line` is one that logagg counts (as Lines makes them)."""
    try:
        doc = json.loads(line)
    except ValueError:
        return False
    return isinstance(doc, dict) and isinstance(doc.get("app_id"), str) and doc["app_id"].isascii() and \
        doc["app_id"].isalnum() and isinstance(doc.get("timestamp"), str) and doc["timestamp"][:1].isdigit()


def text_of(lines):
    return "".join(line + "\n" for line in lines)


def append(path, lines):
    with open(path, "a") as out:
        out.write(text_of(lines))


# ---- what logagg printed

def json_rows(text):
    rows = []
    for i, line in enumerate(text.splitlines()):
        try:
            row = json.loads(line)
        except ValueError as e:
            raise AssertionError(f"line {i + 1} of the NDJSON output is not JSON ({e}): {line!r}") from None
        if not isinstance(row, dict):
            raise AssertionError(f"line {i + 1} of the NDJSON output is not an object: {line!r}")
        rows.append(row)
    return rows


def csv_rows(text, key="second", by_app=False):
    """The rows of --follow --format csv, as json_rows gives them (no correction mark in csv)."""
    table = list(csv.reader(io.StringIO(text)))
    want = [key, "app_id", "count"] if by_app else [key, "count"]
    if not table or table[0] != want:
        raise AssertionError(f"the csv header is {table[:1]}, not {want}: {text[:300]!r}")
    rows = []
    for r in table[1:]:
        if len(r) != len(want) or not r[-1].isdigit():
            raise AssertionError(f"a csv row that is not {','.join(want)}: {r}")
        rows.append({key: r[0], "count": int(r[-1]), **({"app_id": r[1]} if by_app else {})})
    return rows


TABLE_HEAD = re.compile(r"second +count(  app_id)?")
TABLE_ROW = re.compile(r"(\S+Z) +(\d+)(?:  ([A-Za-z0-9]+))?(  \(correction\))?")
TABLE_TOTAL = re.compile(r"total +(\d+)")


def table_rows(text):
    """The rows of the table and its total line's count."""
    lines = text.splitlines()
    if not lines or not TABLE_HEAD.fullmatch(lines[0]):
        raise AssertionError(f"no table header: {text[:300]!r}")
    total = TABLE_TOTAL.fullmatch(lines[-1]) if len(lines) > 1 else None
    if not total:
        raise AssertionError(f"no total line at the end of the table: {text[-300:]!r}")
    rows = []
    for line in lines[1:-1]:
        m = TABLE_ROW.fullmatch(line)
        if not m:
            raise AssertionError(f"a table line that is not a row: {line!r}")
        rows.append({"second": m[1], "count": int(m[2]), **({"app_id": m[3]} if m[3] else {}),
                     **({"correction": True} if m[4] else {})})
    return rows, int(total[1])


def group_of(row, key, by_app):
    return (row[key], row["app_id"]) if by_app else row[key]


def last_rows(rows, key="second", by_app=False):
    """The last row's count of each bucket (and app)."""
    return {group_of(row, key, by_app): row["count"] for row in rows}


def check_stream(rows, key="second", by_app=False, marked=True, ordered=True):
    """Checks the rows as a stream: each bucket's (and app's) rows have growing totals, the first a
    plain row (or a correction from zero, for a bucket older than a plain row before it) and the
    later ones corrections (if the format `marked` them); the plain rows in ascending bucket order
    (if `ordered`: not with --by-app). Returns the corrections' count and what they added to the
    first rows."""
    seen = {}
    corrections = added = 0
    last_plain = None
    for i, row in enumerate(rows):
        where = f"row {i + 1} {row}"
        if key not in row or not isinstance(row.get("count"), int) or row["count"] <= 0:
            raise AssertionError(f"{where}: not a row with a {key} and a positive count")
        if by_app and "app_id" not in row:
            raise AssertionError(f"{where}: no app_id with --by-app")
        if row.get("correction", True) is not True:
            raise AssertionError(f"{where}: correction is true or absent")
        group = group_of(row, key, by_app)
        if group in seen:
            corrections += 1
            if marked and not row.get("correction"):
                raise AssertionError(f"{where}: a second row of {group} that is not marked a correction")
            if row["count"] <= seen[group][-1]:
                raise AssertionError(f"{where}: a correction of {group} whose total {row['count']} is not above "
                                     f"the previous row's {seen[group][-1]}")
            seen[group].append(row["count"])
        elif marked and row.get("correction") and not by_app:
            # A bucket older than the last plain row: handed out empty with it, so corrected from zero.
            if last_plain is None or row[key] >= last_plain:
                raise AssertionError(f"{where}: the first row of {group} is marked a correction, "
                                     f"yet no later bucket's row came before it")
            corrections += 1
            seen[group] = [0, row["count"]]
        else:
            seen[group] = [row["count"]]
            if ordered:
                if last_plain is not None and row[key] <= last_plain:
                    raise AssertionError(f"{where}: a new bucket's row after the row of {last_plain}")
                last_plain = row[key]
    for counts in seen.values():
        added += counts[-1] - counts[0]
    return corrections, added


def same_counts(got, want, what):
    if not want:
        raise AssertionError(f"{what}: the batch run counted nothing (the test is broken)")
    if got != want:
        diff = [f"{k}: {got.get(k)} (due {want.get(k)})" for k in sorted(set(got) | set(want), key=str)
                if got.get(k) != want.get(k)]
        raise AssertionError(f"{what}: {len(diff)} of {len(want)} buckets differ "
                             f"({sum(got.values())} counted, {sum(want.values())} due): " + ", ".join(diff)[:3000])


SUMMARY_HEAD = re.compile(r"logagg: (\d+) files? \((\d+) unreadable\), [^,]+, (\d+) lines in [\d.]+ s \(.*\)")
SUMMARY_ITEM = re.compile(r"(  +)(\S.*?) +(\d+)")


def summary_of(err):
    """The numbers of the summary on stderr: lines, and each top-level label's ("counted", "late")."""
    lines = err.splitlines()
    heads = [i for i, line in enumerate(lines) if SUMMARY_HEAD.fullmatch(line)]
    if len(heads) != 1:
        raise AssertionError(f"{len(heads)} summaries on stderr, not one: {err[-2000:]!r}")
    numbers = {"lines": int(SUMMARY_HEAD.fullmatch(lines[heads[0]])[3])}
    for line in lines[heads[0] + 1:]:
        m = SUMMARY_ITEM.fullmatch(line)
        if not m:
            break
        if len(m[1]) == 2:
            numbers[m[2].split(" ")[0]] = int(m[3])
    for label in ("counted", "blank", "rejected", "late"):
        if label not in numbers:
            raise AssertionError(f"no {label!r} line in the summary: {err[-2000:]!r}")
    return numbers


def not_summary(err):
    """The lines of stderr that are not the summary's."""
    return [line for line in err.splitlines() if not SUMMARY_HEAD.fullmatch(line) and not SUMMARY_ITEM.fullmatch(line)]


def batch(tmp, written, *args):
    """A batch `logagg --format json ARGS` over one file holding the lines `written`."""
    every = os.path.join(tmp, "every.log")
    with open(every, "w") as out:
        out.write(text_of(written))
    return json.loads(run("--format", "json", "-q", *args, every).stdout)


def batch_counts(doc, key="second", by_app=False):
    return {group_of(row, key, by_app): row["count"] for row in doc["counts"]}


def check_summary(test, err, doc, what):
    got = summary_of(err)
    for label in ("lines", "counted", "blank", "rejected"):
        test.assertEqual(got[label], doc["summary"][label], f"{what}: the summary's {label} against the batch run's")
    return got


# ---- the randomized writer

class Scenario:
    """One seed's writer: a logger appending to logs/access.log in chunks, and a logrotate."""

    def __init__(self, seed, threads, tmp):
        self.seed, self.threads, self.tmp = seed, threads, tmp
        self.rng = random.Random(seed * 1000 + int(threads))
        self.lines = Lines(self.rng)
        self.dir = os.path.join(tmp, "logs")
        os.mkdir(self.dir)
        self.written = []  # every line written, in order (text without LF)
        self.pending = ""  # whole lines still to write to the logger's file
        self.out = None  # the logger's file (O_APPEND, unbuffered)
        self.rotated = []  # access.log.1, .2, ...: [suffix, steps until the plain twin goes, or None]
        self.now = BASE + 30
        self.used = set()  # the seconds of the valid lines written
        self.steps = []
        self.stats = Counter()
        self.follow = None  # the logagg following self.dir, once started

    def path(self, name):
        return os.path.join(self.dir, name)

    def remove(self, name):
        """Removes `name` once logagg holds it open (its descriptors, in /proc, lead to it)."""
        path = os.path.realpath(self.path(name))
        fds = f"/proc/{self.follow.proc.pid}/fd"

        def held():
            if not self.follow.alive():
                return True  # the step's check says how it ended
            try:
                links = [os.readlink(os.path.join(fds, fd)) for fd in os.listdir(fds)]
            except OSError:  # a descriptor closed meanwhile, or logagg ended: look again
                return False
            return path in links

        if wait_for(held, 20, step=0.005) is None:
            raise AssertionError(f"logagg did not open {name} within 20 s")
        os.unlink(path)

    def add(self, lines, t):
        if any(map(is_counted, lines)):
            self.used.add(t)
        self.written += lines
        self.pending += text_of(lines)

    def write_some(self):
        """Writes a random-size start of the pending lines (often ending mid-line)."""
        if not self.pending:
            return 0
        size = self.rng.randint(1, min(len(self.pending), self.rng.choice([20, 150, 800, 5000])))
        self.out.write(self.pending[:size].encode())
        self.pending = self.pending[size:]
        return size

    def write_all(self):
        if self.pending:
            self.out.write(self.pending.encode())
            self.pending = ""

    def rotated_name(self, k, plain=False):
        return f"access.log.{k + 1}" + ("" if plain else self.rotated[k][0])

    def drop_twins(self, now=False):
        for k, r in enumerate(self.rotated):
            if r[1] is not None:
                r[1] -= 1
                if now or r[1] <= 0:
                    self.remove(self.rotated_name(k, plain=True))
                    r[1] = None
                    self.steps.append(f"  remove {self.rotated_name(k, plain=True)} (its {r[0]} stays)")

    def shift(self):
        self.drop_twins(now=True)
        for k in range(len(self.rotated) - 1, -1, -1):
            os.rename(self.path(self.rotated_name(k)), self.path(f"access.log.{k + 2}{self.rotated[k][0]}"))

    # ---- the steps

    def op_lines(self):
        t = self.now
        lines = self.lines.mixed(t, self.rng.choice([1, 1, 2, 3, 5, 8, 20, 40]))
        self.add(lines, t)
        r = self.rng.random()
        self.now += 1 if r < 0.55 else self.rng.randint(2, 4) if r < 0.6 else 0
        return f"{len(lines)} lines at +{t - BASE} s, write {self.write_some()} bytes"

    def op_late(self):
        older = sorted(s for s in self.used if self.now - 6 <= s <= self.now - 2)
        if not older:
            return self.op_lines()
        t = self.rng.choice(older)
        self.add([self.lines.valid(t)], t)
        self.stats["late lines"] += 1
        return f"a late line at +{t - BASE} s (newest +{self.now - BASE} s), write {self.write_some()} bytes"

    def op_write(self):
        return f"write {self.write_some()} bytes"

    def op_rotate(self):
        self.shift()
        os.rename(self.path("access.log"), self.path("access.log.1"))
        self.rotated.insert(0, ["", None])
        told = ["rotate by rename"]
        if self.rng.random() < 0.5:  # the logger writes on to the renamed file before it reopens
            self.add(self.lines.mixed(self.now, self.rng.randint(1, 5)), self.now)
            told.append(f"write {self.write_some()} bytes to the renamed file")
            time.sleep(self.rng.uniform(0, 0.05))
        self.write_all()
        self.out.close()
        pause = self.rng.choice([0, self.rng.uniform(0, 0.15)])
        time.sleep(pause)
        self.out = open(self.path("access.log"), "ab", buffering=0)
        told.append(f"the rest of its lines to it, a new access.log {pause * 1000:.0f} ms later")
        self.stats["rotations"] += 1
        return ", ".join(told)

    def op_compress(self):
        plain = [k for k, r in enumerate(self.rotated) if r[0] == ""]
        if not plain:
            return self.op_lines()
        k = self.rng.choice(plain)
        name = self.path(self.rotated_name(k))
        suffix = ".zst" if ZSTD and self.rng.random() < 0.3 else ".gz"
        if suffix == ".zst":
            subprocess.run([ZSTD, "-q", "-f", name, "-o", name + suffix], check=True)
        else:
            with open(name, "rb") as src, gzip.open(name + suffix, "wb", compresslevel=self.rng.choice([1, 6, 9])) as out:
                out.write(src.read())
        self.rotated[k][0] = suffix
        self.stats["compressions"] += 1
        if self.rng.random() < 0.3:
            self.rotated[k][1] = self.rng.randint(1, 5)
            self.stats["twins"] += 1
            return f"compress access.log.{k + 1} to {suffix}, leaving both for {self.rotated[k][1]} steps"
        self.remove(self.rotated_name(k, plain=True))
        return f"compress access.log.{k + 1} to {suffix}, removing it"

    def op_copytruncate(self):
        self.write_all()  # logrotate copies at a line's end: the logger wrote whole lines
        self.shift()
        shutil.copyfile(self.path("access.log"), self.path("access.log.1"))
        os.truncate(self.path("access.log"), 0)
        self.rotated.insert(0, ["", None])
        self.stats["copytruncates"] += 1
        return "copytruncate"

    def play(self):
        """Writes the first lines, starts logagg, writes and rotates; returns the Follow."""
        if self.rng.random() < 0.5:  # a rotated file there before the start
            old = self.lines.mixed(BASE + 5, 30)
            self.written += old
            with open(self.path("access.log.1"), "w") as out:
                out.write(text_of(old))
            self.rotated.append(["", None])
            self.used.add(BASE + 5)
        self.out = open(self.path("access.log"), "ab", buffering=0)
        self.add(self.lines.mixed(self.now, 40), self.now)
        self.write_some()
        self.steps.append(f"start with {len(self.written)} lines, {len(self.pending)} bytes not yet written")
        follow = self.follow = Follow(["--late", "1s", "--format", "json", "--threads", self.threads, self.dir + "/"],
                                      self.tmp)
        try:
            for i in range(STEPS):
                self.steps.append(f"{i}: (failed here)")
                ops = [(self.op_lines, 10), (self.op_write, 3), (self.op_late, 2), (self.op_compress, 1.5)]
                if len(self.rotated) < 5:
                    ops += [(self.op_rotate, 1.5), (self.op_copytruncate, 1)]
                op = self.rng.choices([o for o, _ in ops], [w for _, w in ops])[0]
                self.steps[-1] = f"{i}: {op()}"
                self.drop_twins()
                if not follow.alive():
                    raise AssertionError(f"logagg ended at step {i}: status {follow.proc.returncode}: "
                                         f"{follow.errors()[-2000:]}")
                time.sleep(self.rng.choice([0, 0, self.rng.uniform(0, 0.05)]))
            self.write_all()
            self.steps.append("the end: the pending lines written (every file ends with a LF)")
        except BaseException:
            follow.kill()
            raise
        self.out.close()
        return follow


class RandomWriters(unittest.TestCase):
    def test_random_writers(self):
        totals = Counter()
        for seed in SEEDS:
            for threads in ("1", "2"):
                with self.subTest(seed=seed, threads=threads):
                    tmp = tempfile.mkdtemp(prefix="logagg-follow-")
                    s = Scenario(seed, threads, tmp)
                    follow = None
                    try:
                        follow = s.play()
                        time.sleep(1.5)
                        s.steps.append("SIGTERM after 1.5 s (failed here)")
                        rc, out, err = follow.stop(signal.SIGTERM)
                        rows = json_rows(out)
                        corrections, added = check_stream(rows)
                        doc = batch(tmp, s.written)
                        self.assertGreater(len(doc["counts"]), 8)
                        self.assertGreater(doc["summary"]["rejected"], 0)
                        self.assertGreater(doc["summary"]["blank"], 0)
                        same_counts(last_rows(rows), batch_counts(doc), "the last row of each second against a batch run")
                        self.assertEqual(rc, 0, "the exit status after SIGTERM")
                        got = check_summary(self, err, doc, "the summary")
                        self.assertEqual(got["late"], added, "late (corrected rows): the lines the corrections added")
                        self.assertNotIn(UNFINISHED, err, "every file ends with a LF")
                        self.assertEqual(not_summary(err), [], "nothing on stderr but the summary")
                        totals["corrections"] += corrections
                        totals["late"] += got["late"]
                        totals["runs"] += 1
                    except Exception as e:  # noqa: BLE001 (any failure: say which seed and steps)
                        self.fail(f"seed {seed}, --threads {threads}: {e!s:.4000}\nsteps:\n  " + "\n  ".join(s.steps) +
                                  (f"\nstderr:\n{follow.errors()[-3000:]}" if follow else ""))
                    finally:
                        if follow:
                            follow.kill()
                        shutil.rmtree(tmp, ignore_errors=True)
                        totals += s.stats
        if os.environ.get("FOLLOW_TEST_VERBOSE"):
            print(dict(totals), file=sys.stderr)
        if totals["runs"] == 2 * len(SEEDS):  # else a failure above says why
            self.assertGreater(totals["late lines"], 0, dict(totals))
            self.assertGreater(totals["corrections"], 0, f"no late line gave a correction: {dict(totals)}")
            for what in ("rotations", "compressions", "copytruncates"):
                self.assertGreater(totals[what], 0, f"no {what}: {dict(totals)}")


# ---- deterministic cases

class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="logagg-follow-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.lines = Lines(random.Random(7))
        self.written = []

    def path(self, name):
        return os.path.join(self.tmp, name)

    def follow(self, *args, name="follow"):
        f = Follow(args, self.tmp, name)
        self.addCleanup(f.kill)
        return f

    def make(self, t, count, app=None):
        lines = [self.lines.valid(t, app) for _ in range(count)]
        self.written += lines
        return lines

    def expect_alive(self, *followers):
        for f in followers:
            self.assertTrue(f.alive(), f"{f.what()} ended early: status {f.proc.returncode}: {f.errors()[-2000:]}")


class SingleFile(Case):
    def test_rename_away_and_a_new_file(self):
        log = self.path("access.log")
        append(log, self.make(BASE, 10) + self.make(BASE + 1, 5))
        f = self.follow("--late", "1s", "--format", "csv", log)
        out = open(log, "a", buffering=1)
        self.addCleanup(out.close)
        time.sleep(0.3)
        out.write(text_of(self.make(BASE + 2, 7)))
        time.sleep(0.3)
        # Lines written just before the rename, then more by the logger still writing to the old
        # file, the last without a LF (it counts once the file is quiet for 1 s).
        out.write(text_of(self.make(BASE + 3, 6)))
        os.rename(log, self.path("access.log.1"))
        out.write(text_of(self.make(BASE + 3, 4)) + self.make(BASE + 4, 1)[0])
        out.close()
        time.sleep(0.2)
        append(log, self.make(BASE + 4, 3) + self.make(BASE + 5, 2))
        time.sleep(0.3)
        # A second rotation, with no pause between the rename and the new file.
        append(log, self.make(BASE + 6, 3))
        os.rename(log, self.path("access.log.2"))
        append(log, self.make(BASE + 7, 4))
        time.sleep(1.6)  # the renamed files go quiet
        append(log, self.make(BASE + 8, 2))
        time.sleep(1.2)
        self.expect_alive(f)
        rc, out_text, err = f.stop()
        self.assertEqual(rc, 0, err)
        rows = csv_rows(out_text)
        check_stream(rows, marked=False)
        doc = batch(self.tmp, self.written)
        same_counts(last_rows(rows), batch_counts(doc), "a file followed by name through two renames")
        check_summary(self, err, doc, "the summary")
        self.assertNotIn(UNFINISHED, err, "the renamed file's last line counted once it was quiet")

    def test_truncation_restarts_at_zero(self):
        log = self.path("access.log")
        append(log, self.make(BASE, 12) + self.make(BASE + 1, 8) + self.make(BASE + 3, 2))
        f = self.follow("--late", "1s", "--format", "csv", log)
        first = second_of(BASE)
        self.assertIsNotNone(wait_for(lambda: f"\n{first},12\n" in f.output(), 3), f"the row of {first}: {f.output()!r}")
        size = os.path.getsize(log)
        # Truncated, then shorter new content a while later.
        os.truncate(log, 0)
        time.sleep(0.3)
        append(log, self.make(BASE + 4, 3))
        self.assertLess(os.path.getsize(log), size)
        time.sleep(0.5)
        # Truncated and at once longer than before.
        size = os.path.getsize(log)
        os.truncate(log, 0)
        append(log, self.make(BASE + 5, 20) + self.make(BASE + 6, 10))
        self.assertGreater(os.path.getsize(log), size)
        time.sleep(0.5)
        append(log, self.make(BASE + 7, 4))
        time.sleep(1.5)
        self.expect_alive(f)
        rc, out, err = f.stop()
        # Truncated by hand, no copy taken: what was written after the last
        # look could not be counted, and logagg says so (issue 41), once.
        self.assertEqual(rc, 1, err)
        self.assertEqual(err.count("access.log: truncated with no copy holding its bytes: every byte seen was counted, "
                                   "but bytes written after the last look at it cannot be counted"), 1, err)
        self.assertRegex(err, r"\n  truncations without a copy +2\n")
        rows = csv_rows(out)
        check_stream(rows, marked=False)
        doc = batch(self.tmp, self.written)
        same_counts(last_rows(rows), batch_counts(doc), "a file truncated twice by hand")
        check_summary(self, err, doc, "the summary")
        self.assertNotIn(UNFINISHED, err, f"every line of {log} ends with a LF")

    def test_file_created_later_and_a_line_without_lf(self):
        log = self.path("later.log")
        f = self.follow("--late", "1s", "--format", "csv", log)
        time.sleep(0.6)
        self.expect_alive(f)
        self.assertEqual(f.output(), "second,count\n", "nothing but the header before the file exists")
        append(log, self.make(BASE, 5) + self.make(BASE + 1, 3))
        time.sleep(0.3)
        append(log, self.make(BASE + 2, 4))
        # A whole line but its LF: it waits for the LF, and is not counted at the end.
        partial = self.lines.valid(BASE + 2)
        with open(log, "a") as out:
            out.write(partial)
        time.sleep(1.5)
        self.expect_alive(f)
        rc, out, err = f.stop()
        self.assertEqual(rc, 0, f"a followed file created after the start is no error: {err}")
        rows = csv_rows(out)
        doc = batch(self.tmp, self.written)
        self.assertEqual(doc["summary"]["counted"], 12)
        same_counts(last_rows(rows), batch_counts(doc), "a file created after the start (its line without LF aside)")
        check_summary(self, err, doc, "the summary")
        told = [line for line in err.splitlines() if UNFINISHED in line]
        self.assertEqual(len(told), 1, f"the bytes without LF named once on stderr: {err}")
        self.assertIn("later.log", told[0])
        self.assertIn(f" {len(partial)} bytes", told[0], "how many bytes are not counted")


class Top(Case):
    def test_top_shows_each_buckets_busiest(self):
        log = self.path("access.log")
        # Second 0: web1 x3, web2 x2, api x1; second 1: api x4, web1 x1.
        for t, app, n in ((BASE, "web1", 3), (BASE, "web2", 2), (BASE, "api", 1), (BASE + 1, "api", 4),
                          (BASE + 1, "web1", 1)):
            append(log, self.make(t, n, app))
        f = self.follow("--late", "1s", "--top", "1", "--format", "json", log)
        time.sleep(1.8)  # idle: both buckets printed
        append(log, self.make(BASE, 2, "web2"))  # late lines of an app second 0 does not show
        time.sleep(1.5)
        rc, out, err = f.stop()
        self.assertEqual(rc, 0, err)
        rows = json_rows(out)
        self.assertEqual([(r["second"], r["app_id"], r["count"], r.get("correction", False)) for r in rows],
                         [(second_of(BASE), "web1", 3, False), (second_of(BASE), "(other)", 3, False),
                          (second_of(BASE + 1), "api", 4, False), (second_of(BASE + 1), "(other)", 1, False),
                          (second_of(BASE), "(other)", 5, True)])
        doc = batch(self.tmp, self.written)
        totals = Counter()
        for (second, _), count in last_rows(rows, by_app=True).items():
            totals[second] += count
        same_counts(dict(totals), batch_counts(doc), "the last rows of each bucket, added up")


    def test_max_apps_caps_the_whole_run_and_says_so(self):
        log = self.path("access.log")
        append(log, self.make(BASE, 2, "web1") + self.make(BASE, 1, "web2"))
        f = self.follow("--late", "1s", "--by-app", "--max-apps", "2", "--format", "json", log)
        time.sleep(0.8)
        append(log, self.make(BASE + 1, 3, "api") + self.make(BASE + 1, 1, "web2"))  # a round later: api is a third
        time.sleep(1.8)
        rc, out, err = f.stop()
        self.assertEqual(rc, 0, err)
        self.assertIn("logagg: warning: a run met more than 2 distinct app ids (--max-apps)", err)
        rows = {(r["second"], r["app_id"]): r["count"] for r in json_rows(out)}
        self.assertEqual(rows, {(second_of(BASE), "web1"): 2, (second_of(BASE), "web2"): 1,
                                (second_of(BASE + 1), "web2"): 1, (second_of(BASE + 1), "(other)"): 3})


class CopytruncateDuringARead(Case):
    def test_copytruncate_while_a_big_append_is_read(self):
        """logrotate's copytruncate while logagg reads what was just appended: the lines it had not
        read yet are in the copy, and count from there."""
        logs = self.path("logs")
        os.mkdir(logs)
        log = os.path.join(logs, "access.log")
        append(log, self.make(BASE, 5))
        f = self.follow("--late", "1s", "--format", "json", "--threads", "1", logs)
        for k, pause in enumerate((0, 0.03)):  # the copy is made while logagg reads (17 MB, 1 thread)
            time.sleep(0.5)
            big = [json.dumps({"app_id": APPS[i % 5], "timestamp": second_of(BASE + 1 + 50 * k + i % 40), "n": i})
                   for i in range(300000)]
            self.written += big
            append(log, big)
            time.sleep(pause)
            shutil.copyfile(log, os.path.join(logs, f"access.log.{k + 1}"))
            os.truncate(log, 0)
            append(log, self.make(BASE + 50 * k + 45, 3))
            self.assertIsNotNone(wait_for(lambda: not f.alive() or second_of(BASE + 50 * k + 40) in f.output(), 20),
                                 "the rows of the big append")
        time.sleep(1.2)
        rc, out, err = f.stop()
        doc = batch(self.tmp, self.written)
        same_counts(last_rows(json_rows(out)), batch_counts(doc), "copytruncate during a read")
        check_summary(self, err, doc, "the summary")
        self.assertEqual(rc, 0, f"the exit status: {err[-2000:]}")


    def test_appends_larger_than_a_round(self):
        """An append of more than a round reads (64 MiB) is read over several rounds to its end with
        nothing more written; then one line longer than a round (rejected as too long) and the
        lines after it."""
        logs = self.path("logs")
        os.mkdir(logs)
        log = os.path.join(logs, "access.log")
        append(log, self.make(BASE, 5))
        f = self.follow("--late", "1s", "--format", "json", "--threads", "1", logs)
        time.sleep(0.5)
        pad = "p" * 200
        big = [json.dumps({"app_id": APPS[i % 5], "timestamp": second_of(BASE + 1 + i % 30), "pad": pad})
               for i in range(300000)]  # 70 MB
        self.written += big
        append(log, big)
        self.assertIsNotNone(wait_for(lambda: not f.alive() or second_of(BASE + 30) in f.output(), 30),
                             "the rows of the big append")
        long_line = '{"app_id":"web1","pad":"' + "q" * (65 << 20) + '"}'
        self.written.append(long_line)
        long_at = len(self.written)  # its line number in the file
        append(log, [long_line] + self.make(BASE + 40, 3))
        self.assertIsNotNone(wait_for(lambda: not f.alive() or second_of(BASE + 40) in f.output(), 30),
                             "the rows after the long line")
        rc, out, err = f.stop()
        doc = batch(self.tmp, self.written)
        self.assertEqual(doc["summary"]["rejected_by_reason"]["line_too_long"], 1, doc["summary"])
        same_counts(last_rows(json_rows(out)), batch_counts(doc), "appends larger than a round")
        check_summary(self, err, doc, "the summary")
        self.assertEqual(rc, 0, f"the exit status: {err[-2000:]}")
        # Named with its file and line, without --show-rejects (issue 41).
        self.assertIn(f"{log}:{long_at}: line too long", err)


class LateAndIdle(Case):
    def test_corrections_and_idle_flush(self):
        log, other = self.path("access.log"), self.path("other.log")
        for p in (log, other):
            open(p, "w").close()
        js = self.follow("--late", "1s", "--format", "json", log, name="json")
        cs = self.follow("--late", "1s", "--format", "csv", log, name="csv")
        tb = self.follow("--late", "1s", log, name="table")
        slow = self.follow("--late", "5s", "--format", "json", other, name="slow")
        time.sleep(0.5)
        self.expect_alive(js, cs, tb, slow)
        s0, s1 = second_of(BASE), second_of(BASE + 1)

        # Nothing newer than the lines: their buckets complete when no line has come for --late.
        append(log, self.make(BASE, 3) + self.make(BASE + 1, 2))
        other_lines = [self.lines.valid(BASE) for _ in range(2)]
        append(other, other_lines)
        latency = wait_for(lambda: {r["second"] for r in js.rows()} >= {s0, s1}, 5)
        self.assertIsNotNone(latency, f"the rows of {s0} and {s1} never came without newer lines: {js.output()!r}")
        print(f"\nidle flush with --late 1s: the rows came {latency:.3f} s after their lines", file=sys.stderr)
        self.assertLessEqual(latency, LATE + 1.0 + 0.05, "the idle flush comes within --late + 1 s")
        self.assertGreaterEqual(latency, LATE - 0.1, "not before --late without a line")
        self.assertEqual(js.rows(), [{"second": s0, "count": 3}, {"second": s1, "count": 2}])
        # The csv and table followers print the same rows, each in its own time (a busy machine may
        # delay one): both before the late line below, so that it comes to each as a correction.
        self.assertIsNotNone(wait_for(lambda: s1 in cs.output() and s1 in tb.output(), 5),
                             f"the csv and table rows: {cs.output()!r} {tb.output()!r}")

        # Newer times complete a bucket long before the idle 5 s.
        start = time.monotonic()
        append(other, [self.lines.valid(BASE + 7)])
        taken = wait_for(lambda: len(slow.rows()) >= 1, 4.5)
        self.assertIsNotNone(taken, f"--late 5s: the row of {s0} did not come when a line 7 s newer did: "
                                    f"{slow.output()!r}")
        print(f"--late 5s: the row came {taken:.3f} s after a line 7 s newer", file=sys.stderr)
        self.assertLess(taken, 2.0, "completed by the newer line, without waiting for the idle --late")
        self.assertEqual(slow.rows(), [{"second": s0, "count": 2}], "the newer line's own bucket is open")

        # A late line: a correction row with the new total.
        append(log, self.make(BASE, 1))
        self.assertIsNotNone(wait_for(lambda: len(js.rows()) >= 3, 3), f"no correction row: {js.output()!r}")
        time.sleep(0.2)
        self.assertEqual(js.rows(), [{"second": s0, "count": 3}, {"second": s1, "count": 2},
                                     {"second": s0, "count": 4, "correction": True}])
        self.assertLess(time.monotonic() - start, 4.5, "the slow follower's idle --late has not come yet")
        self.assertEqual(len(slow.rows()), 1, "the newer line's bucket still open")

        rc, out, err = js.stop(signal.SIGTERM)
        self.assertEqual(rc, 0, err)
        self.assertEqual(summary_of(err)["late"], 1, f"late (corrected rows): {err}")
        self.assertEqual(summary_of(err)["counted"], 6)
        rc, out, err = cs.stop(signal.SIGHUP)  # a closed terminal: a stop like the others
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, f"second,count\n{s0},3\n{s1},2\n{s0},4\n", "csv: the corrected row again")
        self.assertEqual(summary_of(err)["late"], 1)
        rc, out, err = tb.stop(signal.SIGINT)
        self.assertEqual(rc, 0, err)
        rows, total = table_rows(out)
        self.assertEqual(rows, [{"second": s0, "count": 3}, {"second": s1, "count": 2},
                                {"second": s0, "count": 4, "correction": True}], out)
        self.assertEqual(total, 6, "the table's total line")
        rc, out, err = slow.stop(signal.SIGTERM)
        self.assertEqual(rc, 0, err)
        self.assertEqual(json_rows(out), [{"second": s0, "count": 2}, {"second": second_of(BASE + 7), "count": 1}],
                         "the open bucket printed at SIGTERM")
        self.assertEqual(summary_of(err)["late"], 0)

    def test_sub_second_late_completes_by_time(self):
        """--late 500ms: against the newest second counted, a --late that is not whole seconds is
        rounded up (times are counted in whole seconds): a line in the second after a bucket's end
        does not complete it, one two seconds after does, while lines keep coming (so that the idle
        --late, which is exact, never falls due)."""
        log = self.path("access.log")
        append(log, self.make(BASE, 3))
        f = self.follow("--late", "500ms", "--format", "json", log)
        time.sleep(0.3)
        for newer in (BASE + 1, BASE + 2):
            for i in range(8):
                line = json.dumps({"app_id": "web1", "timestamp": second_of(newer)[:-1] + ".6Z", "n": i})
                append(log, [line])
                self.written.append(line)
                time.sleep(0.1)
            if newer == BASE + 1:
                self.assertEqual(f.rows(), [], "a line in the next second does not complete the bucket")
        rows = f.rows()
        rc, out, err = f.stop()
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows[:1], [{"second": second_of(BASE), "count": 3}],
                         f"--late 500ms: the row of {second_of(BASE)} once lines two seconds past it came")
        same_counts(last_rows(json_rows(out)), batch_counts(batch(self.tmp, self.written)), "the rows at the end")


class ReportOptions(unittest.TestCase):
    def test_by_app_and_per_minute(self):
        tmp = tempfile.mkdtemp(prefix="logagg-follow-")
        self.addCleanup(shutil.rmtree, tmp, True)
        logs = os.path.join(tmp, "logs")
        os.mkdir(logs)
        rng = random.Random(4)
        lines = Lines(rng)
        variants = [(["--by-app", "--format", "json", "--threads", "2"], "second", True, "json"),
                    (["--per-minute", "--format", "json"], "minute", False, "json"),
                    (["--by-app", "--per-minute", "--format", "csv"], "minute", True, "csv"),
                    (["--by-app", "--format", "csv", "--threads", "1"], "second", True, "csv")]
        followers = []
        for i, (args, _, _, _) in enumerate(variants):
            f = Follow(["--late", "1s", *args, logs], tmp, f"f{i}")
            self.addCleanup(f.kill)
            followers.append(f)
        written, used, now = [], [], BASE + 100
        out = open(os.path.join(logs, "access.log"), "ab", buffering=0)
        self.addCleanup(out.close)
        pending = ""
        for step in range(45):
            done = [s for s in used if (s // 60 + 1) * 60 + 1 <= max(used)]
            if step % 15 == 14 and done:  # a late line well after its minute was printed
                out.write(pending.encode())
                pending = ""
                time.sleep(0.35)
                new = [lines.valid(rng.choice(done))]
            elif rng.random() < 0.15 and used:
                new = [lines.valid(rng.choice([s for s in used if s >= now - 30] or used))]
            else:
                new = lines.mixed(now, rng.choice([3, 10, 30]))
                used.append(now)
                now += rng.randint(0, 15)
            written += new
            pending += text_of(new)
            size = rng.randint(1, len(pending))
            out.write(pending[:size].encode())
            pending = pending[size:]
            if step == 25:  # rotate by rename, then compress the rotated file
                out.write(pending.encode())
                pending = ""
                out.close()
                os.rename(os.path.join(logs, "access.log"), os.path.join(logs, "access.log.1"))
                out = open(os.path.join(logs, "access.log"), "ab", buffering=0)
                self.addCleanup(out.close)
            if step == 35:
                rotated = os.path.join(logs, "access.log.1")
                with open(rotated, "rb") as src, gzip.open(rotated + ".gz", "wb") as dst:
                    dst.write(src.read())
                os.unlink(rotated)
            time.sleep(rng.uniform(0, 0.03))
        out.write(pending.encode())
        out.close()
        self.assertGreater(now - BASE - 100, 180, "over a few minutes")
        time.sleep(1.5)
        for f, (args, key, by_app, fmt) in zip(followers, variants):
            with self.subTest(args=args):
                rc, text, err = f.stop()
                self.assertEqual(rc, 0, err)
                rows = json_rows(text) if fmt == "json" else csv_rows(text, key, by_app)
                corrections, added = check_stream(rows, key, by_app, marked=fmt == "json", ordered=not by_app)
                doc = batch(tmp, written, *[a for a in args if a in ("--by-app", "--per-minute")])
                want = batch_counts(doc, key, by_app)
                if by_app:
                    self.assertGreater(len({app for _, app in want}), 2)
                self.assertGreater(len({k[0] if by_app else k for k in want}), 3)
                same_counts(last_rows(rows, key, by_app), want, f"{' '.join(args)}: the last rows against a batch run")
                got = check_summary(self, err, doc, "the summary")
                self.assertGreater(corrections, 0, f"{args}: the late lines gave corrections")
                self.assertGreater(got["late"], 0)
                if not by_app:
                    self.assertEqual(got["late"], added, "late (corrected rows): the lines the corrections added")


class Ending(Case):
    def test_signals_print_the_open_buckets(self):
        log = self.path("access.log")
        append(log, self.make(BASE, 4) + self.make(BASE + 1, 3) + ["not json", ""])
        self.written += ["not json", ""]
        kinds = [(signal.SIGTERM, "json"), (signal.SIGINT, "json"), (signal.SIGINT, "table"), (signal.SIGTERM, "csv")]
        followers = [self.follow("--late", "5s", "--format", fmt, log, name=f"f{i}") for i, (_, fmt) in enumerate(kinds)]
        time.sleep(0.4)
        append(log, self.make(BASE + 2, 5) + self.make(BASE, 1))
        time.sleep(1.2)  # read, but with --late 5s no bucket is complete yet
        doc = batch(self.tmp, self.written)
        want = batch_counts(doc)
        self.assertEqual(sum(want.values()), 13)
        for f, (sig, fmt) in zip(followers, kinds):
            with self.subTest(signal=sig.name, format=fmt):
                header = {"json": "", "csv": "second,count\n", "table": f.output()[:f.output().find("\n") + 1]}[fmt]
                self.assertEqual(f.output(), header, "no row before the signal")
                if fmt == "table":
                    self.assertTrue(TABLE_HEAD.fullmatch(header.rstrip("\n")), f"the table's header: {header!r}")
                rc, out, err = f.stop(sig)
                self.assertEqual(rc, 0, f"{sig.name}: {err}")
                if fmt == "json":
                    rows = json_rows(out)
                elif fmt == "csv":
                    rows = csv_rows(out)
                else:
                    rows, total = table_rows(out)
                    self.assertEqual(total, 13, "the table's total line")
                check_stream(rows)
                same_counts(last_rows(rows), want, f"the rows printed at {sig.name}")
                check_summary(self, err, doc, f"the summary at {sig.name}")
                self.assertEqual(not_summary(err), [], "nothing on stderr but the summary")

    def test_a_stop_while_catching_up_ends_soon(self):
        """A signal while big files are read (in rounds of at most 64 MiB over all files) ends logagg
        after a round or two: the rows counted so far add up to the summary, and every file not
        counted whole is named with the bytes not read."""
        names = ["big1.log", "big2.log", "small.log"]
        per_line = {}
        for k, name in enumerate(names):  # each file's lines in seconds of its own
            block = text_of([self.lines.valid(BASE + 100 * k + i % 20) for i in range(1000)])
            with open(self.path(name), "w") as out:
                for _ in range(150 * (1 << 20) // len(block) if k < 2 else 1):  # 150 MB, 150 MB, 1000 lines
                    out.write(block)
            per_line[name] = os.path.getsize(self.path(name)) // len(block) * 1000
        # "Soon": within two rounds' reading, less than a batch run over one 150 MB file takes (on
        # this build: sanitizers are slow), and at least 5 s.
        start = time.monotonic()
        run("-q", self.path(names[0]), timeout=600)
        soon = max(5.0, 2 * (time.monotonic() - start))
        f = self.follow("--late", "1s", "--format", "csv", *[self.path(n) for n in names])
        self.assertIsNotNone(wait_for(lambda: not f.alive() or f.output().startswith("second,count\n"), 10),
                             "the header")
        start = time.monotonic()
        rc, out, err = f.stop(signal.SIGINT, timeout=4 * soon)
        self.assertEqual(rc, 0, err[-2000:])
        self.assertLess(time.monotonic() - start, soon, "it ends soon after the signal")
        rows = last_rows(csv_rows(out))
        self.assertEqual(sum(rows.values()), summary_of(err)["counted"], "the rows add up to the summary")
        self.assertLess(sum(rows.values()), sum(per_line.values()), "it stopped before the end")
        for k, name in enumerate(names):
            seconds = {second_of(BASE + 100 * k + i) for i in range(20)}
            counted = sum(n for second, n in rows.items() if second in seconds)
            if counted < per_line[name]:
                self.assertRegex(err, re.escape(name) + r": the last \d+ bytes were not read yet",
                                 f"{name}: {counted} of {per_line[name]} lines counted, and it is not named")

    def test_closed_reader_ends_quietly(self):
        for quiet in (True, False):
            with self.subTest(quiet=quiet):
                log = self.path(f"access{int(quiet)}.log")
                append(log, self.make(BASE, 3) + self.make(BASE + 5, 1))
                err_path = self.path(f"closed{int(quiet)}.err")
                with open(err_path, "wb") as err:
                    p = subprocess.Popen([LOGAGG, "--follow", "--late", "1s", "--format", "json",
                                          *(["-q"] if quiet else []), log],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
                self.addCleanup(end, p)
                ready, _, _ = select.select([p.stdout], [], [], 5)
                self.assertTrue(ready, "no row within 5 s")
                first = p.stdout.readline()
                self.assertEqual(json.loads(first), {"second": second_of(BASE), "count": 3})
                p.stdout.close()  # the reader goes: `logagg --follow ... | head -1`
                start = time.monotonic()
                t = BASE + 6
                while p.poll() is None and time.monotonic() - start < 5:
                    append(log, [self.lines.valid(t)])  # newer lines: more rows to write
                    t += 1
                    time.sleep(0.1)
                took = time.monotonic() - start
                self.assertIsNotNone(p.poll(), "logagg still running 5 s after its reader closed the pipe")
                self.assertEqual(p.returncode, 0, "the status when the reader has gone")
                self.assertLess(took, 2.5, "it ends within a couple of seconds")
                with open(err_path, "rb") as f:
                    err = f.read().decode()
                if quiet:
                    self.assertEqual(err, "", "-q: nothing on stderr")
                else:
                    self.assertEqual(not_summary(err), [], f"no error message, only the summary: {err!r}")
                    summary_of(err)


def end(p):
    if p.poll() is None:
        p.kill()
        p.wait()


class Refusals(unittest.TestCase):
    def test_refused(self):
        tmp = tempfile.mkdtemp(prefix="logagg-follow-")
        self.addCleanup(shutil.rmtree, tmp, True)
        log = os.path.join(tmp, "access.log")
        append(log, ['{"app_id":"web1","timestamp":"2023-11-14T22:13:20Z"}'])
        state = os.path.join(tmp, "S.json")
        cases = [["--follow", "--state", state, log], ["--follow", "--range", "0:10", log],
                 ["--follow", "-", "-"],
                 ["--follow", "--fill-gaps", log], ["--follow", "--format", "html", log], ["--follow", "--plot", log],
                 ["--late", "1s", log], ["--late", "1s", "--format", "json", log],
                 ["--follow", "--late", "soon", log], ["--follow", "--late", "-1s", log]]
        for args in cases:
            with self.subTest(args=args):
                try:
                    r = run(*args, check=False, timeout=10)
                except subprocess.TimeoutExpired:
                    self.fail(f"logagg {' '.join(args)}: still running after 10 s, not refused")
                self.assertEqual(r.returncode, 2, f"{args}: {r.stderr.decode()}")
                self.assertTrue(r.stderr.strip(), f"{args}: a message")
                self.assertEqual(r.stdout, b"", f"{args}: nothing on stdout")
        self.assertFalse(os.path.exists(state), "--follow --state made no state file")


def run_side_by_side():
    """Every test class at once, each in a process of its own (RandomWriters as two, half of the seeds
    each): the cases spend their time waiting for logagg's rounds and for buckets to go idle, not
    computing, so the test takes about as long as its longest part instead of their sum. Each part's
    output is printed whole once it ends; fails if any part fails."""
    names = [name for name, value in globals().items()
             if isinstance(value, type) and issubclass(value, unittest.TestCase) and value is not Case]
    parts = [(name, None) for name in names if name != "RandomWriters"]
    half = SEEDS.start + len(SEEDS) // 2
    parts += [("RandomWriters", f"{SEEDS.start}-{half}"), ("RandomWriters", f"{half}-{SEEDS.stop}")]
    procs = []
    for name, seeds in parts:
        env = dict(os.environ, **({"FOLLOW_TEST_SEEDS": seeds} if seeds else {}))
        procs.append((name, seeds, subprocess.Popen([sys.executable, os.path.abspath(__file__), LOGAGG, name], env=env,
                                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
    failed = []
    for name, seeds, proc in procs:
        out = proc.communicate()[0].decode(errors="replace")
        label = name + (f" (seeds {seeds})" if seeds else "")
        print(f"---- {label}: exit {proc.returncode}\n{out}", flush=True)
        if proc.returncode != 0:
            failed.append(label)
    if failed:
        sys.exit("failed: " + ", ".join(failed))


if __name__ == "__main__":
    # A test named (unittest's own arguments: -k NAME, or a class; or the
    # mutation check's one case, LOGAGG_TEST_ONLY, tests/mutation/run.sh), or
    # a sanitized build (LOGAGG_SANITIZED), whose slower logagg processes, all
    # at once on a machine's cores, would miss the cases' timings: one at a time.
    only = os.environ.get("LOGAGG_TEST_ONLY")
    if len(sys.argv) > 2 or os.environ.get("LOGAGG_SANITIZED") or only:
        unittest.main(argv=sys.argv[:1] + sys.argv[2:] + (["-k", only] if only else []), verbosity=1)
    else:
        run_side_by_side()
