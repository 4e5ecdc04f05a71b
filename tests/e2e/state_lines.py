"""Log lines that know what they count, and runs of logagg, for the end-to-end tests of incremental
runs (state_test.py, delta_test.py). Those scripts take logagg as their first argument (LOGAGG)."""

import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

from log_times import second_of, stamp

LOGAGG = os.path.abspath(sys.argv[1])

BASE = 1700000000  # 2023-11-14T22:13:20Z
SECONDS = 20  # the lines' times spread over this many seconds
APPS = ["web1", "web2", "api", "Batch7", "x9"]


def run(*args, check=True):
    r = subprocess.run([LOGAGG, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if check and r.returncode != 0:
        raise AssertionError(f"logagg {' '.join(map(str, args))}: status {r.returncode}: {r.stderr.decode()}")
    return r


class Lines:
    """Makes log lines, each with the tally key it must count under; every one is unique."""

    def __init__(self, rng, spread=SECONDS):
        self.rng = rng
        self.spread = spread  # the times are over this many seconds from BASE
        self.n = 0

    def valid(self):
        self.n += 1
        t = BASE + self.rng.randrange(self.spread)
        fields = [("app_id", self.rng.choice(APPS)), ("timestamp", stamp(self.rng, t)), ("path", f"/p/{self.n}")]
        if self.rng.random() < 0.3:
            self.rng.shuffle(fields)
        return json.dumps(dict(fields), separators=(",", ":") if self.rng.random() < 0.5 else None), \
            ("count", second_of(t))

    def invalid(self):
        self.n += 1
        n, ts = self.n, json.dumps(stamp(self.rng, BASE + self.rng.randrange(self.spread)))
        return self.rng.choice([
            (f"not json {n}", ("rejected", "invalid_json")),
            (f'{{"app_id":"web-{n}","timestamp":{ts}}}', ("rejected", "bad_app")),
            (f'{{"app_id":"web1","path":"/q/{n}"}}', ("rejected", "missing_time")),
            (f'{{"timestamp":{ts},"path":"/q/{n}"}}', ("rejected", "missing_app")),
            (f'{{"app_id":"web1","timestamp":"yesterday {n}"}}', ("rejected", "bad_time")),
            (f"[1, 2, {n}]", ("rejected", "not_object")),
            (f'{{"app_id":{n},"timestamp":{ts}}}', ("rejected", "app_not_string")),
        ])

    def batch(self, count):
        """`count` lines; the first is valid (so no two files start alike)."""
        out = [self.valid()]
        while len(out) < count:
            r = self.rng.random()
            out.append(self.valid() if r < 0.75 else self.invalid() if r < 0.9 else
                       (self.rng.choice(["", "   "]), ("blank",)))
        return out


def tally(lines):
    return Counter(key for _, key in lines)


def tally_of(doc, what="result"):
    """The tally of a json result: rows per second, blank lines and rejects per reason. Checks that
    the summary adds up, so that comparing tallies compares the summary too."""
    s = doc["summary"]
    t = Counter()
    for row in doc["counts"]:
        t[("count", row["second"])] += row["count"]
    t["blank",] = s["blank"]
    for reason, n in s["rejected_by_reason"].items():
        t["rejected", reason] = n
    counted = sum(row["count"] for row in doc["counts"])
    if (s["counted"], s["rejected"], s["lines"]) != (counted, sum(s["rejected_by_reason"].values()),
                                                     s["counted"] + s["blank"] + s["rejected"]):
        raise AssertionError(f"{what}: the summary does not add up: {s} with {counted} in its rows")
    return +t


def describe(t):
    return "{" + ", ".join(f"{'/'.join(k)}: {n}" for k, n in sorted(t.items())) + "}"


def same(got, want, what):
    """Fails unless the tallies `got` and `want` are equal, saying what differs."""
    got, want = +got, +want
    if got != want:
        raise AssertionError(f"{what}: {sum(got.values())} lines where {sum(want.values())} were due; "
                             f"extra {describe(got - want)}, missing {describe(want - got)}")


class Logs:
    """A folder logs/ and a state file S.json beside it, for one deterministic case."""

    def __init__(self, test, spread=SECONDS):
        self.test = test
        self.tmp = tempfile.mkdtemp(prefix="logagg-state-")
        test.addCleanup(shutil.rmtree, self.tmp, True)
        self.dir = os.path.join(self.tmp, "logs")
        os.mkdir(self.dir)
        self.state = os.path.join(self.tmp, "S.json")
        self.lines = Lines(random.Random(7), spread)
        self.written = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def append(self, name, count):
        """Appends `count` new lines to `name`; returns their tally."""
        lines = self.lines.batch(count)
        with open(self.path(name), "a") as out:
            out.write("".join(text + "\n" for text, _ in lines))
        self.written += [text for text, _ in lines]
        return tally(lines)

    def gzip(self, name, keep=False):
        with open(self.path(name), "rb") as src, gzip.open(self.path(name + ".gz"), "wb") as out:
            out.write(src.read())
        if not keep:
            os.unlink(self.path(name))

    def run(self, *args, delta=True):
        r = run("--state", self.state, "--format", "json", "-q", *(["--delta"] if delta else []), *args, self.dir)
        return json.loads(r.stdout)

    def delta(self, *args):
        return tally_of(self.run(*args), "the delta")

    def total(self, *args):
        return tally_of(self.run(*args, delta=False), "the cumulative result")

    def batch(self, *args):
        """A batch run over one file holding every line written, with output options `args`."""
        every = os.path.join(self.tmp, "every.log")
        with open(every, "w") as out:
            out.write("".join(text + "\n" for text in self.written))
        return run("-q", *args, every).stdout
