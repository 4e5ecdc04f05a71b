#!/usr/bin/python3
"""End-to-end test of incremental runs: `logagg --state FILE [--delta] PATH...`.

  state_test.py LOGAGG            every case but the kills (ctest state_e2e)
  state_test.py LOGAGG --kills    the kills alone (ctest state_kills, slow); names after either choose cases

Proves that a cron job that runs logagg with a state file counts every complete line of its logs
exactly once, whatever logrotate does between the runs and whenever a run is killed:

- Randomized scenarios (seeded; the seed and the steps taken are printed on failure) in a folder
  logs/ with access.log: lines are appended (valid ones for ~20 seconds and apps, invalid ones of
  each reason, blank ones), a line is written in two halves, the logs are rotated by rename (the
  writer may still append to access.log.1), the newest rotated file is compressed (gzip, or zstd if
  the `zstd` command exists; the original removed, or left beside it for one run), copytruncate'd,
  the oldest rotated file deleted once a completed run has counted it, and logagg is run with
  --threads 1 or 2, with and without --delta, or killed with SIGKILL or SIGHUP (a crash, a closed
  terminal) 0-30 ms after it starts. Every
  run's output is compared with what the lines written so far must give: the cumulative result
  always, the delta against what the state held (the last completed run, or a killed run whose
  state file changed; a killed run must leave the old state or a complete new one). At the end the
  cumulative result equals a batch `logagg --format json` over one file holding every line ever
  written (counts, lines, counted, blank, rejected and rejected_by_reason), and, in the seeds where
  no run was killed, so does the sum of the deltas.
- Deterministic cases: a rename, a compression after a rename and a rotated file beside its .gz add
  nothing; the lines in a rotated file and its .gz that no run counted yet are counted once (also
  when the state never saw the file); lines appended and then renamed and compressed before the
  next run are counted once;
  copytruncate and replacement by other content start the file over; a line without its LF waits
  for it (a compressed file is read to its end); --by-app, --format csv and --per-minute on the
  cumulative result print what a batch run over the same lines prints, byte for byte; a --state
  run's json result goes through `logagg merge` with another run's into what one batch run prints;
  150 changed files under a descriptor limit of 64 are each counted once; a delta that cannot be
  written (/dev/full) leaves the state, and the next run prints it; a gzip member appended to a
  compressed file counts once.
- Refusals (exit 2, a message, the state file unchanged byte for byte): a state file that is not
  JSON, damaged or of another version, one made with other counting options (--by-app or not,
  another --app-field or --time-field), --delta without --state, --state with - or with --range, and a state whose
  STATE.lock another process holds ("in use").
- (--kills) 1,000 runs (50 under a sanitizer: LOGAGG_SANITIZED) killed with SIGKILL at random
  instants, each followed at once by a run (not waiting for the killed one to end): none is refused
  (the lock of a run that is ending is waited for).
"""

import fcntl
import gzip
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from state_lines import LOGAGG, SECONDS, Lines, Logs, run, same, tally, tally_of  # noqa: E402

ZSTD = shutil.which("zstd")

# STATE_TEST_SEEDS=100 or =100-200 tries other seeds (the test's 16 take a few seconds).
_seeds = os.environ.get("STATE_TEST_SEEDS", "16").split("-")
SEEDS = range(int(_seeds[0])) if len(_seeds) == 1 else range(int(_seeds[0]), int(_seeds[1]))
STEPS = 40


class LogFile:
    """One file of logs/ as the test made it (access.log, access.log.K[.gz|.zst])."""

    def __init__(self):
        self.suffix = ""  # "", ".gz" or ".zst"
        self.twin = False  # the plain file it was compressed from is still beside it
        self.partial = None  # (rest of a line written in halves, the whole line)
        self.lines = 0  # complete lines in it
        self.clean = True  # every complete line in it was counted by a completed run


class Scenario:
    """One seed's random run of logging, rotating and counting."""

    def __init__(self, test, seed, tmp):
        self.test = test
        self.seed = seed
        self.kills = seed % 2 == 0  # the odd seeds never kill a run, so their deltas must add up
        self.rng = random.Random(seed)
        self.lines = Lines(self.rng)
        self.dir = os.path.join(tmp, "logs")
        self.state = os.path.join(tmp, "S.json")
        os.mkdir(self.dir)
        self.files = [LogFile()]  # index K is access.log.K; 0 is access.log
        open(self.path(0), "wb").close()
        self.written = []  # every complete line ever written, in order (text)
        self.model = Counter()  # the tally of those lines
        self.base = Counter()  # what the state file holds
        self.deltas = Counter()  # the sum of the completed runs' deltas
        self.force_run = False
        self.steps = []
        self.stats = Counter()

    # ---- the files

    def path(self, k, plain=False):
        if k == 0:
            return os.path.join(self.dir, "access.log")
        return os.path.join(self.dir, f"access.log.{k}" + ("" if plain else self.files[k].suffix))

    def write(self, k, data):
        with open(self.path(k), "ab") as out:
            out.write(data.encode())
        self.files[k].lines += data.count("\n")
        self.files[k].clean = False

    def add_lines(self, k, lines):
        self.write(k, "".join(text + "\n" for text, _ in lines))
        self.written += [text for text, _ in lines]
        self.model.update(tally(lines))

    def finish(self, k, cut=False):
        """Writes the rest of file K's half-written line; or, if `cut`, only its LF."""
        f = self.files[k]
        if f.partial is None:
            return
        (tail, (text, key)), f.partial = f.partial, None
        if cut:  # what was written of the line is the line: a start of a JSON object is not JSON
            text, key, tail = text[:len(text) - len(tail)], ("rejected", "invalid_json"), ""
        self.write(k, tail + "\n")
        self.written.append(text)
        self.model[key] += 1

    def shift(self):
        """access.log.K -> access.log.K+1, from the oldest."""
        for k in range(len(self.files) - 1, 0, -1):
            os.rename(self.path(k), os.path.join(self.dir, f"access.log.{k + 1}{self.files[k].suffix}"))
            assert not self.files[k].twin

    # ---- the steps

    def op_append(self):
        k = 1 if len(self.files) > 1 and self.files[1].suffix == "" and self.rng.random() < 0.2 else 0
        self.finish(k)
        count = self.rng.choice([1, 2, 5, 20, 60, 150, 400]) if self.rng.random() < 0.95 else 4000
        self.add_lines(k, self.lines.batch(count))
        return f"append {count} lines to {os.path.basename(self.path(k))}"

    def op_split(self):
        text, key = self.lines.valid()
        cut = self.rng.randrange(1, len(text))
        self.write(0, text[:cut])
        self.files[0].partial = (text[cut:], (text, key))
        return f"write {cut} of {len(text)} bytes of a line to access.log"

    def op_finish(self):
        k = next(k for k, f in enumerate(self.files) if f.partial)
        self.finish(k)
        return f"write the rest of the line to {os.path.basename(self.path(k))}"

    def op_rotate(self):
        self.shift()
        os.rename(self.path(0), os.path.join(self.dir, "access.log.1"))
        self.files.insert(0, LogFile())
        open(self.path(0), "wb").close()
        return "rotate by rename"

    def op_compress(self):
        k = next(k for k in range(1, len(self.files)) if self.files[k].suffix == "")
        self.finish(k)
        f = self.files[k]
        plain = self.path(k)
        with open(plain, "rb") as src:
            data = src.read()
        if ZSTD and self.rng.random() < 0.5:
            f.suffix = ".zst"
            subprocess.run([ZSTD, "-q", "-f", plain, "-o", self.path(k)], check=True)
        else:
            f.suffix = ".gz"
            with gzip.open(self.path(k), "wb") as out:
                out.write(data)
        if self.rng.random() < 0.3:
            f.twin = True
            self.force_run = True  # the next run sees both, then the plain file goes
            return f"compress access.log.{k} to {os.path.basename(self.path(k))}, leaving both"
        os.unlink(plain)
        return f"compress access.log.{k} to {os.path.basename(self.path(k))}"

    def op_copytruncate(self):
        self.finish(0)
        self.shift()
        shutil.copyfile(self.path(0), os.path.join(self.dir, "access.log.1"))
        copy = LogFile()
        copy.lines, copy.clean = self.files[0].lines, self.files[0].clean
        self.files.insert(1, copy)
        os.truncate(self.path(0), 0)
        self.files[0].lines, self.files[0].clean = 0, True
        return "copytruncate"

    def op_delete(self):
        k = len(self.files) - 1
        os.unlink(self.path(k))
        del self.files[k]
        return f"delete access.log.{k} (counted)"

    def op_run(self, delta=None):
        threads = str(self.rng.choice([1, 2]))
        if delta is None:  # where no run is killed, the deltas must add up: every run but the last prints one
            delta = not self.kills or self.rng.random() < 0.6
        args = ["--state", self.state, "--threads", threads, "--format", "json", "-q"] + \
            (["--delta"] if delta else []) + [self.dir]
        r = run(*args)
        doc = json.loads(r.stdout)
        got = tally_of(doc, "the run's output")
        same(got, self.model - self.base if delta else self.model, "the delta" if delta else "the cumulative result")
        if delta:
            self.deltas += got
        else:
            self.check_files(doc)
        self.base = +self.model
        for f in self.files:
            f.clean = f.partial is None
        self.stats["runs"] += 1
        return f"run --threads {threads}" + (" --delta" if delta else "") + f": {sum(got.values())} lines"

    def op_kill(self):
        threads = str(self.rng.choice([1, 2]))
        before = self.state_bytes()
        wait = self.rng.uniform(0, 0.030)
        sig = self.rng.choice([signal.SIGKILL, signal.SIGHUP])  # a crash, or a closed terminal
        p = subprocess.Popen([LOGAGG, "--state", self.state, "--threads", threads, "--delta", "--format", "json",
                              "-q", self.dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(wait)
        p.send_signal(sig)
        p.wait()
        after = self.state_bytes()
        if after != before:  # the run saved: the state must be whole, and what it holds is all there is
            try:
                saved = json.loads(after)
            except ValueError as e:
                raise AssertionError(f"a killed run left a state that is neither old nor new: {e}: {after[:200]!r}")
            self.test.assertEqual(saved.get("logagg_state"), 1, "a killed run's new state")
            self.test.assertIn("result", saved)
            self.base = +self.model
        self.stats["interrupted" if p.returncode == -sig else "finished"] += 1
        self.stats["saved" if after != before else "not saved"] += 1
        return f"run --threads {threads} sent {sig.name} after {wait * 1000:.1f} ms: " + \
            ("interrupted" if p.returncode == -sig else f"status {p.returncode}") + \
            (", state saved" if after != before else ", state unchanged")

    def state_bytes(self):
        try:
            with open(self.state, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def check_files(self, doc):
        """The cumulative summary's files are the files that hold complete lines (a compressed file
        beside its plain twin is the same file)."""
        want = sum(1 for f in self.files if f.lines > 0)
        self.test.assertEqual(doc["summary"]["files"], want, "the cumulative result's files")

    def step(self):
        if self.force_run:
            self.force_run = False
            self.steps[-1] = f"{len(self.steps) - 1}: the run after a compression leaving both (failed here)"
            line = self.op_kill() if self.kills and self.rng.random() < 0.3 else self.op_run()
            for k, f in enumerate(self.files):
                if f.twin:
                    os.unlink(self.path(k, plain=True))
                    f.twin = False
            return line + "; then the compressed file's original is removed"
        pending = any(f.partial for f in self.files)
        oldest = self.files[-1]
        ops = [(self.op_append, 6), (self.op_run, 4), (self.op_rotate, 2), (self.op_copytruncate, 1)]
        if self.kills:
            ops.append((self.op_kill, 3))
        if not pending:
            ops.append((self.op_split, 2))
        else:
            ops.append((self.op_finish, 2))
        if any(f.suffix == "" for f in self.files[1:]):
            ops.append((self.op_compress, 3))
        if len(self.files) > 1 and oldest.clean and oldest.partial is None:
            ops.append((self.op_delete, 2))
        op = self.rng.choices([o for o, _ in ops], [w for _, w in ops])[0]
        self.steps[-1] = f"{len(self.steps) - 1}: {op.__name__[3:]} (failed here)"
        return op()

    def play(self):
        for i in range(STEPS):
            self.steps.append(f"{i}: (failed here)")
            self.steps[-1] = f"{i}: {self.step()}"
        # The end: the half line ends, the last run counts everything, the twins go.
        for k, f in enumerate(self.files):
            if f.partial:
                self.finish(k, cut=True)
                self.steps.append(f"end the half line in {os.path.basename(self.path(k))} with LF")
        if self.files[0].lines == 0:
            self.add_lines(0, self.lines.batch(3))
        self.steps.append("final run (failed here)")
        self.steps[-1] = "final " + self.op_run(delta=True)
        for k, f in enumerate(self.files):
            if f.twin:
                os.unlink(self.path(k, plain=True))
                f.twin = False
        self.steps.append("final run (failed here)")
        self.steps[-1] = "final " + self.op_run(delta=False)
        self.steps.append("final comparison with a batch run (failed here)")

    def check_against_batch(self):
        """The cumulative result against a batch run over one file of every line written."""
        every = os.path.join(os.path.dirname(self.dir), "every.log")
        with open(every, "w") as out:
            out.write("".join(text + "\n" for text in self.written))
        batch = json.loads(run("--format", "json", "-q", every).stdout)
        total = json.loads(run("--state", self.state, "--format", "json", "-q", self.dir).stdout)
        self.test.assertGreater(len(batch["counts"]), 0)
        self.test.assertGreater(batch["summary"]["rejected"], 0)
        self.test.assertGreater(batch["summary"]["blank"], 0)
        same(tally_of(batch, "the batch run"), self.model, "the batch run against the test's tally of its lines")
        self.test.assertEqual(total["counts"], batch["counts"], "cumulative counts = batch counts")
        for key in ("lines", "counted", "blank", "rejected", "rejected_by_reason"):
            self.test.assertEqual(total["summary"][key], batch["summary"][key], f"summary {key}")
        if not self.kills:
            same(self.deltas, tally_of(batch), "the sum of the deltas against the batch run")


class RandomScenarios(unittest.TestCase):
    def test_random_rotations_and_kills(self):
        totals = Counter()
        for seed in SEEDS:
            with self.subTest(seed=seed):
                tmp = tempfile.mkdtemp(prefix="logagg-state-")
                s = Scenario(self, seed, tmp)
                try:
                    s.play()
                    s.check_against_batch()
                except Exception as e:  # noqa: BLE001 (any failure: say which seed and steps)
                    self.fail(f"seed {seed} ({'with' if s.kills else 'without'} kills): {e!r:.3000}\nsteps:\n  " +
                              "\n  ".join(s.steps))
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
                    totals += s.stats
        # The kills must have tested something: some runs were stopped halfway.
        self.assertGreater(totals["interrupted"], 0, f"no run was killed while it ran: {dict(totals)}")
        self.assertGreater(totals["runs"], len(SEEDS) * 3, dict(totals))
        if os.environ.get("STATE_TEST_VERBOSE"):
            print(dict(totals), file=sys.stderr)


class KilledAndRunAgainAtOnce(unittest.TestCase):
    def test_a_run_killed_is_never_in_the_way_of_the_next(self):
        """1,000 runs (50 under a sanitizer) killed with SIGKILL at a random instant, each followed at once
        (without waiting for the killed one to end) by a run that must not be refused: the lock of a run
        that is ending is waited for (issue 41)."""
        tmp = tempfile.mkdtemp(prefix="logagg-state-kills-")
        self.addCleanup(shutil.rmtree, tmp, True)
        logs = os.path.join(tmp, "logs")
        os.mkdir(logs)
        rng = random.Random(11)
        lines = Lines(rng)
        state = os.path.join(tmp, "st.state")
        cycles = 50 if os.environ.get("LOGAGG_SANITIZED") else 1000
        with open(os.path.join(logs, "access.log"), "w") as out:
            out.write("".join(lines.valid()[0] + "\n" for _ in range(2000)))
        for cycle in range(cycles):
            p = subprocess.Popen([LOGAGG, "--state", state, "-q", "--format", "csv", logs],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0, 0.01))
            p.kill()  # no wait: the next run starts while this one may still be ending
            with open(os.path.join(logs, "access.log"), "a") as out:
                out.write(lines.valid()[0] + "\n")
            r = run("--state", state, "-q", "--format", "csv", logs, check=False)
            p.wait()
            self.assertEqual(r.returncode, 0, f"cycle {cycle}: {r.stderr.decode()}")


class Deterministic(unittest.TestCase):
    def test_rename_adds_nothing(self):
        logs = Logs(self)
        first = logs.append("access.log", 50)
        same(logs.delta(), first, "the delta")
        os.rename(logs.path("access.log"), logs.path("access.log.1"))
        same(logs.delta(), Counter(), "a renamed file is not counted again")
        open(logs.path("access.log"), "w").close()
        same(logs.delta(), Counter(), "nor beside a new empty access.log")
        new = logs.append("access.log", 5)
        same(logs.delta(), new, "the new access.log is counted")
        total = logs.run(delta=False)
        same(tally_of(total), first + new, "the cumulative result")
        self.assertEqual(total["summary"]["files"], 2, "access.log and access.log.1")

    def test_compress_after_rename_adds_nothing(self):
        for compress in (["gzip"], ["zstd", "--rm", "-q"]):
            if compress[0] == "zstd" and not ZSTD:
                continue
            with self.subTest(compress[0]):
                logs = Logs(self)
                first = logs.append("access.log", 80)
                same(logs.delta(), first, "the delta")
                os.rename(logs.path("access.log"), logs.path("access.log.1"))
                same(logs.delta(), Counter(), "a renamed file adds nothing")
                subprocess.run([*compress, logs.path("access.log.1")], check=True)
                self.assertEqual(sorted(os.listdir(logs.dir)), ["access.log.1" + (".gz" if compress[0] == "gzip"
                                                                                   else ".zst")])
                same(logs.delta(), Counter(), f"access.log.1 compressed with {compress[0]}")
                same(logs.total(), first, "the cumulative result")

    def test_rotated_file_beside_its_gz_adds_nothing(self):
        logs = Logs(self)
        first = logs.append("access.log", 40)
        same(logs.delta(), first, "the delta")
        os.rename(logs.path("access.log"), logs.path("access.log.1"))
        logs.gzip("access.log.1", keep=True)
        same(logs.delta(), Counter(), "access.log.1 and access.log.1.gz")
        self.assertEqual(logs.run(delta=False)["summary"]["files"], 1, "one file under two names")
        os.unlink(logs.path("access.log.1"))
        same(logs.delta(), Counter(), "access.log.1.gz alone")
        same(logs.total(), first, "the cumulative result")

    def test_uncounted_lines_in_both_twins_are_counted_once(self):
        logs = Logs(self)
        first = logs.append("access.log", 40)
        same(logs.delta(), first, "the delta")
        more = logs.append("access.log", 30)
        os.rename(logs.path("access.log"), logs.path("access.log.1"))
        logs.gzip("access.log.1", keep=True)
        same(logs.delta(), more, "the new lines once, though in two files")
        os.unlink(logs.path("access.log.1"))
        same(logs.delta(), Counter(), "the delta")
        same(logs.total(), first + more, "the cumulative result")

    def test_twins_unknown_to_the_state_are_counted_once(self):
        """Rotated and compressed (the original left beside it) before any run saw the file."""
        logs = Logs(self)
        lines = logs.append("access.log", 30)
        os.rename(logs.path("access.log"), logs.path("access.log.1"))
        logs.gzip("access.log.1", keep=True)
        new = logs.append("access.log", 3)
        same(logs.delta(), lines + new, "access.log.1 and access.log.1.gz, both new, and access.log")
        self.assertEqual(logs.run(delta=False)["summary"]["files"], 2)

    def test_lines_appended_before_rename_and_compress_count_once(self):
        for threads in ("1", "2"):
            with self.subTest(threads=threads):
                logs = Logs(self)
                first = logs.append("access.log", 200)
                same(logs.delta("--threads", threads), first, "the delta")
                more = logs.append("access.log", 100)
                os.rename(logs.path("access.log"), logs.path("access.log.1"))
                logs.gzip("access.log.1")
                new = logs.append("access.log", 7)
                self.assertGreater(sum(more.values()), 0)
                same(logs.delta("--threads", threads), more + new, "lines appended before the rename and compression")
                same(logs.delta(), Counter(), "the delta")
                same(logs.total(), first + more + new, "the cumulative result")

    def test_copytruncate(self):
        logs = Logs(self)
        first = logs.append("access.log", 60)
        same(logs.delta(), first, "the delta")
        more = logs.append("access.log", 25)  # not counted before the copy
        shutil.copyfile(logs.path("access.log"), logs.path("access.log.1"))
        os.truncate(logs.path("access.log"), 0)
        new = logs.append("access.log", 10)
        same(logs.delta(), more + new, "the copy goes on where the file stopped; the rest is new")
        newer = logs.append("access.log", 3)
        same(logs.delta(), newer, "the delta")
        # Truncated and not written to yet, then a second copytruncate.
        shutil.copyfile(logs.path("access.log"), logs.path("access.log.2"))
        os.truncate(logs.path("access.log"), 0)
        same(logs.delta(), Counter(), "the delta")
        last = logs.append("access.log", 4)
        same(logs.delta(), last, "the delta")
        same(logs.total(), first + more + new + newer + last, "the cumulative result")

    def test_replacement_by_other_content_starts_over(self):
        logs = Logs(self)
        first = logs.append("access.log", 30)
        same(logs.delta(), first, "the delta")
        # Another file renamed over it, longer than the first.
        lines = logs.lines.batch(60)
        with open(logs.path("new"), "w") as out:
            out.write("".join(t + "\n" for t, _ in lines))
        os.rename(logs.path("new"), logs.path("access.log"))
        same(logs.delta(), tally(lines), "a replaced file is counted from its start")
        # The same file rewritten in place with other content, longer, then shorter.
        for count in (90, 5):
            lines = logs.lines.batch(count)
            with open(logs.path("access.log"), "w") as out:
                out.write("".join(t + "\n" for t, _ in lines))
            same(logs.delta(), tally(lines), f"rewritten with {count} other lines")

    def test_line_without_lf_waits_for_it(self):
        logs = Logs(self)
        first = logs.append("access.log", 10)
        text, key = logs.lines.valid()
        with open(logs.path("access.log"), "a") as out:
            out.write(text[:20])
        same(logs.delta(), first, "the half line is held")
        with open(logs.path("access.log"), "a") as out:
            out.write(text[20:])
        same(logs.delta(), Counter(), "the whole line without its LF is still held")
        with open(logs.path("access.log"), "a") as out:
            out.write("\n")
        same(logs.delta(), Counter({key: 1}), "counted once its LF arrives")
        same(logs.total(), first + Counter({key: 1}), "the cumulative result")
        # A compressed file is read to its end, LF or not.
        lines = logs.lines.batch(5)
        with gzip.open(logs.path("archive.gz"), "wb") as out:
            out.write("\n".join(t for t, _ in lines).encode())
        same(logs.delta(), tally(lines), "a .gz without a last LF")

    def rotations(self, logs, *args):
        """Runs with state options `args` over a few rotations and a compression."""
        logs.append("access.log", 300)
        logs.run(*args)
        logs.append("access.log", 100)
        os.rename(logs.path("access.log"), logs.path("access.log.1"))
        logs.append("access.log", 50)
        logs.run(*args)
        logs.gzip("access.log.1")
        logs.append("access.log", 20)
        logs.run(*args)

    def test_by_app_equals_batch(self):
        logs = Logs(self, spread=300)
        self.rotations(logs, "--by-app")
        state = logs.run("--by-app", delta=False)
        batch = json.loads(logs.batch("--by-app", "--format", "json"))
        self.assertGreater(len({row["app_id"] for row in batch["counts"]}), 2)
        self.assertEqual(state["counts"], batch["counts"])
        for args in (["--format", "csv"], ["--format", "csv", "--per-minute"], ["--per-minute", "--top", "2"],
                     ["--overall", "--format", "csv", "--fill-gaps"], ["--overall", "--top", "2"]):
            with self.subTest(args=args):
                want = logs.batch("--by-app", *args)
                self.assertGreater(want.count(b"\n"), 5, want)
                self.assertEqual(run("--state", logs.state, "--by-app", "-q", *args, logs.dir).stdout.decode(),
                                 want.decode())

    def test_output_options_print_the_cumulative_result_as_batch(self):
        logs = Logs(self, spread=300)  # over 6 minutes, so that --per-minute has rows to add up
        self.rotations(logs)
        for args in (["--format", "csv"], ["--format", "csv", "--per-minute"], ["--per-minute"],
                     ["--format", "csv", "--bucket", "5s"], ["--format", "table"]):
            with self.subTest(args=args):
                want = logs.batch(*args)
                self.assertGreater(want.count(b"\n"), 5, want)
                got = run("--state", logs.state, "-q", *args, logs.dir).stdout
                self.assertEqual(got.decode(), want.decode())
        # --delta prints what the run adds with the same options.
        only = Logs(self, spread=300)
        only.append("access.log", 30)
        only.run()
        only.written = []
        only.append("access.log", 40)
        got = run("--state", only.state, "--delta", "--format", "csv", "--per-minute", "-q", only.dir).stdout
        self.assertEqual(got.decode(), only.batch("--format", "csv", "--per-minute").decode())


    def test_many_changed_files_under_a_low_descriptor_limit(self):
        """More changed files than the process may open at once (a limit of 64, soft and hard): each
        is counted once, and the state saved."""
        import resource
        logs = Logs(self)
        want = Counter()
        for k in range(150):
            want += logs.append(f"app{k}.log", 2)

        def low_limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

        for what in ("the first run", "appended to every file"):
            r = subprocess.run([LOGAGG, "--state", logs.state, "--format", "json", "-q", "--delta", logs.dir],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, preexec_fn=low_limit)
            self.assertEqual(r.returncode, 0, f"{what}: {r.stderr.decode()[-2000:]}")
            same(tally_of(json.loads(r.stdout)), want, what)
            want = Counter()
            for k in range(150):
                want += logs.append(f"app{k}.log", 1)
        same(logs.delta(), want, "then without the limit")
        self.assertEqual(logs.run(delta=False)["summary"]["files"], 150)

    def test_report_not_written_leaves_the_state(self):
        """A delta that cannot be written (a full disk) is not lost: the state is not saved, and the
        next run prints it."""
        logs = Logs(self)
        first = logs.append("access.log", 30)
        with open("/dev/full", "w") as full:
            r = subprocess.run([LOGAGG, "--state", logs.state, "--format", "json", "-q", "--delta", logs.dir],
                               stdout=full, stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(r.returncode, 3, "the state not saved (status 1 before issue 31, as for an unreadable input)")
        self.assertIn("the state was not saved", r.stderr.decode())
        self.assertFalse(os.path.exists(logs.state))
        same(logs.delta(), first, "the next run's delta")
        same(logs.delta(), Counter(), "then saved")

    def test_gzip_member_appended_counts_once(self):
        """A compressed file that grows by a member (`cat more.gz >> x.gz`) continues where it stopped."""
        logs = Logs(self)
        first = logs.append("x", 40)
        logs.gzip("x")
        same(logs.delta(), first, "the compressed file")
        more = logs.append("y", 25)
        with open(logs.path("y"), "rb") as src, open(logs.path("x.gz"), "ab") as out:
            out.write(gzip.compress(src.read()))
        os.unlink(logs.path("y"))
        same(logs.delta(), more, "the member appended")
        same(logs.delta(), Counter(), "then nothing")
        same(logs.total(), first + more, "the cumulative result")

    def test_merge_adds_a_state_result_to_others(self):
        logs = Logs(self)
        self.rotations(logs)
        other = os.path.join(logs.tmp, "other.log")
        with open(other, "w") as out:
            out.write("".join(text + "\n" for text, _ in Lines(random.Random(8), SECONDS).batch(200)))
        state_json = os.path.join(logs.tmp, "state.json")
        other_json = os.path.join(logs.tmp, "other.json")
        with open(state_json, "wb") as out:
            out.write(run("--state", logs.state, "--format", "json", "-q", logs.dir).stdout)
        with open(other_json, "wb") as out:
            out.write(run("--format", "json", "-q", other).stdout)
        merged = run("merge", "--format", "csv", state_json, other_json).stdout
        logs.written += open(other).read().splitlines()
        want = logs.batch("--format", "csv")
        self.assertGreater(want.count(b"\n"), 5)
        self.assertEqual(merged.decode(), want.decode())


class Refusals(unittest.TestCase):
    def setUp(self):
        self.logs = Logs(self)
        self.logs.append("access.log", 20)
        self.logs.run()
        self.pending = self.logs.append("access.log", 5)

    def assertStillCounts(self):
        """After the refusals the state still works: the lines written since its run are new."""
        self.assertGreater(sum(self.pending.values()), 0)
        same(self.logs.delta(), self.pending, "the delta after the refusals")

    def assertRefused(self, args, message=None, state=None):
        """logagg ARGS exits 2 with `message` in its stderr and leaves the state file as it was."""
        path = state or self.logs.state
        with open(path, "rb") as f:
            before = f.read()
        r = run(*args, check=False)
        self.assertEqual(r.returncode, 2, f"{args}: {r.stderr.decode()}")
        self.assertTrue(r.stderr.strip(), f"{args}: a message")
        if message:
            self.assertIn(message, r.stderr.decode(), args)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before, f"{args}: the state file is unchanged")
        return r

    def with_state(self, content):
        path = os.path.join(self.logs.tmp, "other.json")
        with open(path, "wb") as out:
            out.write(content)
        return path

    def test_bad_state_files(self):
        with open(self.logs.state, "rb") as f:
            good = f.read()
        doc = json.loads(good)
        self.assertEqual(doc["logagg_state"], 1)
        damaged = [b"", b"not json at all\n", b"[1, 2]", good[:len(good) // 2], b'{"logagg_state": 1}',
                   json.dumps({**doc, "files": [{"path": "x"}]}).encode(),
                   json.dumps({**doc, "result": {"counts": 7}}).encode(),
                   json.dumps({k: v for k, v in doc.items() if k != "logagg_state"}).encode()]
        for content in damaged:
            with self.subTest(content=content[:40]):
                path = self.with_state(content)
                self.assertRefused(["--state", path, "--delta", self.logs.dir], state=path)
        for version in (2, 0):
            path = self.with_state(json.dumps({**doc, "logagg_state": version}).encode())
            self.assertRefused(["--state", path, self.logs.dir], "another version", state=path)
        self.assertStillCounts()

    def test_other_counting_options(self):
        for args in (["--by-app"], ["--app-field", "host"], ["--time-field", "time"]):
            with self.subTest(args=args):
                self.assertRefused(["--state", self.logs.state, "--delta", *args, self.logs.dir])
        by_app = Logs(self)
        by_app.append("access.log", 10)
        by_app.run("--by-app")
        self.assertRefused(["--state", by_app.state, by_app.dir], state=by_app.state)
        self.assertStillCounts()

    def test_usage_errors(self):
        self.assertRefused(["--delta", self.logs.dir])
        self.assertRefused(["--state", self.logs.state, "-"])
        self.assertRefused(["--state", self.logs.state, self.logs.dir, "-"])
        self.assertRefused(["--state", self.logs.state, "--range", "0:100", self.logs.path("access.log")])
        self.assertStillCounts()

    def test_lock_held(self):
        lock = open(self.logs.state + ".lock", "a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self.assertRefused(["--state", self.logs.state, "--delta", self.logs.dir], "in use")
        finally:
            lock.close()
        self.assertStillCounts()


if __name__ == "__main__":
    # --kills: the kills alone (ctest state_kills, the slow part); else every other case. Names
    # after them (a class, Class.test_name) choose among those cases, as unittest takes them.
    kills = len(sys.argv) > 2 and sys.argv[2] == "--kills"
    cases = sys.argv[3 if kills else 2:] or [
        name for name, case in list(globals().items())
        if isinstance(case, type) and issubclass(case, unittest.TestCase) and (case is KilledAndRunAgainAtOnce) == kills]
    # LOGAGG_TEST_ONLY: the mutation check's one case (tests/mutation/run.sh).
    only = os.environ.get("LOGAGG_TEST_ONLY")
    unittest.main(argv=[sys.argv[0], *cases, *(["-k", only] if only else [])], verbosity=1)
