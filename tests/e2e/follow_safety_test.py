#!/usr/bin/python3
"""End-to-end test of --follow where lines used to be lost (issue 31): one file followed through fast
rotations, streams, and a low descriptor limit.

  follow_safety_test.py LOGAGG [-k TEST]

- One file followed by name (`--follow access.log`) while a writer splits its lines across write()
  calls and rotates ten times a second between whole lines, by copytruncate (the copy known by its
  content, also once compressed) and by rename (the writer sometimes writing on to the renamed
  file): the last row of each second equals a batch run over every line written, the summary's
  numbers too, nothing on stderr but the summary, status 0. The folder's other file and the
  rotations there before the start are not counted.
- Files that live 50 ms in a followed folder (created, written, removed) are all counted: a new
  name is opened at once, not at the next round.
- Streams: standard input (`-` and /dev/stdin) and a FIFO opened before any writer are read to
  their EOF (late lines corrected, the last line counted without its LF), then logagg ends by
  itself with status 0; a compressed stream and a socket are refused by name (status 1).
- 400 files under a hard `ulimit -n 200`: every line counted (12,200, some appended while the
  files are closed), the summary says 400 files, no "Too many open files", status 0; 600 files
  that live a few milliseconds under a hard `ulimit -n 64` (issue 41): every file read (the files
  removed are read to their end at once, freeing descriptors for the new ones), at most 64 held
  open; 600 files removed 1 ms after they are closed, under 64 and 1024: all read (opened the
  moment they are created) but for at most 1 % told lost; removed the moment they are closed: each
  read or told lost (at most a third), the summary's count of lost files and the status saying so;
  and where no file can be opened at all,
  logagg says so and ends with status 1.

Uses the helpers of follow_test.py; label slow (about a minute).
"""

import gzip
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from follow_test import (BASE, LOGAGG, Follow, Lines, batch, batch_counts, check_stream, check_summary,  # noqa: E402
                         json_rows, last_rows, not_summary, same_counts, summary_of, text_of, wait_for)


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="logagg-follow-safety-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.written = []

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    def follow(self, *args, name="follow"):
        f = Follow(args, self.tmp, name)
        self.addCleanup(f.kill)
        return f

    def check_exact(self, rc, out, err, what):
        """The rows against a batch run over every line written; nothing but the summary on stderr."""
        rows = json_rows(out)
        check_stream(rows)
        doc = batch(self.tmp, self.written)
        same_counts(last_rows(rows), batch_counts(doc), what)
        check_summary(self, err, doc, f"{what}: the summary")
        self.assertEqual(not_summary(err), [], f"{what}: nothing on stderr but the summary")
        self.assertEqual(rc, 0, f"{what}: the exit status")
        return doc


class OneFileRotation(Case):
    """`--follow access.log` through ten rotations a second."""

    def scenario(self, kind, seed):
        rng = random.Random(seed)
        lines = Lines(rng)
        logs = self.path("logs")
        os.mkdir(logs)
        log = os.path.join(logs, "access.log")

        def at(name):
            return os.path.join(logs, name)

        # Not counted: the folder's other file, and rotations from before the start (one compressed).
        with open(at("other.log"), "w") as out:
            out.write(text_of(lines.mixed(BASE + 1, 50)))
        with open(at("access.log-20261201"), "w") as out:
            out.write(text_of(lines.mixed(BASE + 2, 40)))
        with gzip.open(at("access.log-20261130.gz"), "wt") as out:
            out.write(text_of(lines.mixed(BASE + 3, 40)))
        now = BASE + 100
        first = lines.mixed(now, 30)
        self.written += first
        with open(log, "w") as out:
            out.write(text_of(first))
        f = self.follow("--late", "1s", "--format", "json", log)
        time.sleep(0.3)
        out = open(log, "ab", buffering=0)
        rotated = []  # the numbered rotations made here: ".gz" or ""
        pending = ""
        for tick in range(40):
            for _ in range(rng.randint(2, 5)):  # lines split across write() calls
                new = lines.mixed(now, rng.randint(1, 6))
                self.written += new
                pending += text_of(new)
                size = rng.randint(1, len(pending))
                out.write(pending[:size].encode())
                pending = pending[size:]
                now += rng.choice([0, 0, 1])
                time.sleep(0.015)
            out.write(pending.encode())  # a rotation comes between whole lines
            pending = ""
            for k in range(len(rotated), 0, -1):  # .k -> .k+1
                os.rename(at(f"access.log.{k}{rotated[k - 1]}"), at(f"access.log.{k + 1}{rotated[k - 1]}"))
            rotated.insert(0, "")
            if kind == "copytruncate":
                shutil.copyfile(log, at("access.log.1"))
                os.truncate(log, 0)
            else:
                os.rename(log, at("access.log.1"))
                if rng.random() < 0.3:  # the logger writes on to the renamed file before it reopens
                    new = lines.mixed(now, 3)
                    self.written += new
                    out.write(text_of(new).encode())
                out.close()
                out = open(log, "ab", buffering=0)
            if len(rotated) > 2 and rotated[1] == "" and rng.random() < 0.5:  # delaycompress: .2 -> .2.gz
                with open(at("access.log.2"), "rb") as src, gzip.open(at("access.log.2.gz"), "wb") as dst:
                    dst.write(src.read())
                os.unlink(at("access.log.2"))
                rotated[1] = ".gz"
            with open(at("other.log"), "a") as other:
                other.write(text_of(lines.mixed(now, 2)))
            if not f.alive():
                raise AssertionError(f"logagg ended at tick {tick}: {f.errors()[-2000:]}")
        last = lines.mixed(now + 1, 5)
        self.written += last
        out.write(text_of(last).encode())
        out.close()
        time.sleep(1.5)
        rc, text, err = f.stop()
        self.check_exact(rc, text, err, f"{kind} ten times a second, one file followed")

    def test_copytruncate_ten_a_second(self):
        self.scenario("copytruncate", 1)

    def test_rename_ten_a_second(self):
        self.scenario("rename", 2)


class ShortLivedFiles(Case):
    def test_files_that_live_50_ms(self):
        logs = self.path("logs")
        os.mkdir(logs)
        lines = Lines(random.Random(3))
        f = self.follow("--late", "1s", "--format", "json", logs)
        time.sleep(0.4)
        for i in range(20):
            new = lines.mixed(BASE + i, 8)
            self.written += new
            name = os.path.join(logs, f"job-{i}.log")
            with open(name, "w") as out:
                out.write(text_of(new))
            time.sleep(0.05)
            os.unlink(name)
            time.sleep(0.05)
        time.sleep(1.5)
        rc, out, err = f.stop()
        self.check_exact(rc, out, err, "files created and removed 50 ms later")
        self.assertIn("logagg: 20 files", err)


class Streams(Case):
    def feed(self, proc_stdin, lines):
        """Writes lines over ~1.5 s in pieces (late lines among them), the last without its LF."""
        rng = random.Random(5)
        text = text_of(lines)[:-1]
        while text:
            size = rng.randint(1, 400)
            proc_stdin.write(text[:size].encode())
            proc_stdin.flush()
            text = text[size:]
            time.sleep(0.01)

    def make(self):
        lines = Lines(random.Random(4))
        out = []
        for t in range(12):
            out += lines.mixed(BASE + t, 10)
            if t > 4:
                out.append(lines.valid(BASE + t - 3))  # late: a correction
        self.written += out
        return out

    def stdin_case(self, path):
        lines = self.make()
        with open(self.path("err"), "wb") as err:
            p = subprocess.Popen([LOGAGG, "--follow", "--late", "1s", "--format", "json", path],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        self.addCleanup(p.kill)
        self.feed(p.stdin, lines)
        time.sleep(0.5)
        self.assertIsNone(p.poll(), "logagg waits while the stream is open")
        try:
            out, _ = p.communicate(timeout=10)  # closes the stream: it ends by itself at EOF
        except subprocess.TimeoutExpired:
            raise AssertionError(f"--follow {path}: still running 10 s after the stream's end") from None
        rc = p.returncode
        with open(self.path("err"), "rb") as e:
            err = e.read().decode()
        self.check_exact(rc, out.decode(), err, f"--follow {path}")
        self.assertGreater(summary_of(err)["late"], 0, "late lines corrected")

    def test_standard_input(self):
        self.stdin_case("-")

    def test_dev_stdin(self):
        self.stdin_case("/dev/stdin")

    def test_fifo(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        f = self.follow("--late", "1s", "--format", "json", fifo)
        time.sleep(0.5)
        self.assertTrue(f.alive(), f"logagg waits for a writer: {f.errors()}")
        lines = self.make()
        # Opening for writing fails (ENXIO) while no reader has the FIFO open.
        opened = []
        for _ in range(100):
            try:
                opened.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                break
            except OSError:
                time.sleep(0.05)
        self.assertTrue(opened, "logagg has the FIFO open for reading")
        os.set_blocking(opened[0], True)
        with open(opened[0], "wb", buffering=0) as w:
            self.feed(w, lines)
        self.assertIsNotNone(wait_for(lambda: not f.alive(), 10), "logagg ends at the FIFO's EOF")
        self.check_exact(f.proc.returncode, f.output(), f.errors(), "--follow FIFO")

    def test_what_cannot_be_followed_is_named(self):
        data = gzip.compress(text_of(self.make()).encode())
        r = subprocess.run([LOGAGG, "--follow", "-"], input=data, capture_output=True, timeout=10)
        self.assertEqual(r.returncode, 1)
        self.assertIn("<stdin>: a gzip stream cannot be followed", r.stderr.decode())
        sock = socket.socket(socket.AF_UNIX)
        self.addCleanup(sock.close)
        sock.bind(self.path("sock"))
        r = subprocess.run([LOGAGG, "--follow", self.path("sock")], stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=10)
        self.assertEqual(r.returncode, 1)
        self.assertIn("sock: a socket cannot be followed", r.stderr.decode())


def hard_limit(n):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


class DescriptorLimit(Case):
    def follow_under_limit(self, logs, limit):
        """logagg --follow of the folder LOGS under a hard `ulimit -n LIMIT`."""
        with open(self.path("follow.out"), "wb") as out, open(self.path("follow.err"), "wb") as err:
            p = subprocess.Popen([LOGAGG, "--follow", "--late", "1s", "--format", "json", logs],
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=hard_limit(limit))
        self.addCleanup(p.kill)
        return p

    def stop(self, p):
        """SIGTERM; then the exit status, stdout and stderr."""
        p.send_signal(signal.SIGTERM)
        rc = p.wait(20)
        with open(self.path("follow.out"), "rb") as o, open(self.path("follow.err"), "rb") as e:
            return rc, o.read().decode(), e.read().decode()

    def write_files(self, count, per_file, seconds, lines):
        """COUNT files of PER_FILE lines (kept as written) in a new folder, file i's at second
        BASE + i % SECONDS; the folder and the files' names."""
        logs = self.path("logs")
        os.mkdir(logs)
        names = [os.path.join(logs, f"app-{i:03}.log") for i in range(count)]
        for i, name in enumerate(names):
            new = [lines.valid(BASE + i % seconds) for _ in range(per_file)]
            self.written += new
            with open(name, "w") as out:
                out.write(text_of(new))
        return logs, names

    def test_400_files_under_a_hard_limit_of_200(self):
        lines = Lines(random.Random(6))
        logs, names = self.write_files(400, 30, 50, lines)
        p = self.follow_under_limit(logs, 200)
        time.sleep(2.5)
        for name in names[::2]:  # most of them closed by now: opened again, read
            new = [lines.valid(BASE + 60)]
            self.written += new
            with open(name, "a") as out:
                out.write(text_of(new))
        time.sleep(2.5)
        self.assertIsNone(p.poll(), "logagg still running")
        rc, out, err = self.stop(p)
        self.assertEqual(len(self.written), 12200)
        self.assertNotIn("Too many open files", err)
        self.assertRegex(err, r"logagg: 400 files \(0 unreadable\)")
        self.check_exact(rc, out, err, "400 files under ulimit -n 200")

    def short_lived_files(self, limit, later, linger, seed):
        """600 files of 50 lines, a file every 2 ms under a hard `ulimit -n LIMIT`, each removed when
        the file LATER files on is written, or (LATER 0) LINGER seconds after it was closed (0: at
        once). Every file is read or told lost; returns how many were told lost."""
        logs = self.path(f"logs-{limit}-{later}-{linger}")
        os.mkdir(logs)
        lines = Lines(random.Random(seed))
        p = self.follow_under_limit(logs, limit)
        time.sleep(0.4)
        names, by_name = [], {}
        for i in range(600):
            new = [lines.valid(BASE + i // 20) for _ in range(50)]
            names.append(os.path.join(logs, f"job-{i:04}.log"))
            by_name[names[-1]] = new
            text = text_of(new)
            with open(names[-1], "w") as out:
                out.write(text)
            if later == 0:
                if linger:
                    time.sleep(linger)
                os.unlink(names[-1])
            elif len(names) > later:
                os.unlink(names[-later - 1])
            time.sleep(0.002)
        time.sleep(2)
        rc, out, err = self.stop(p)
        lost = set(re.findall(r"logagg: (\S+): (?:gone \(removed, or renamed out of the followed paths\)|created and "
                              r"removed) before it could be opened: its lines(?:, if any,)? are lost, not counted", err))
        self.written = [line for name in names if name not in lost for line in by_name[name]]
        held = re.search(r"files held open at most +(\d+)", err)
        self.assertIsNotNone(held, err[-2000:])
        self.assertLessEqual(int(held[1]), limit)
        self.assertNotIn("Too many open files", err)
        if lost:
            self.assertEqual(rc, 1)
            self.assertEqual(summary_of(err)["counted"], len(self.written))
            self.assertEqual(summary_of(err)["lost"], len(lost))
        else:
            self.assertRegex(err, r"logagg: 600 files \(0 unreadable\)")
            self.check_exact(rc, out, err, f"600 short-lived files under ulimit -n {limit}")
        return len(lost)

    def test_short_lived_files_under_a_hard_limit_of_64(self):
        """Each removed 20 files later (issue 41): every file is read."""
        # A slow run, under a sanitizer, may miss a few: told, status 1.
        self.assertLessEqual(self.short_lived_files(64, 20, 0, 8), 60 if os.environ.get("LOGAGG_SANITIZED") else 0)

    def test_files_removed_a_millisecond_after_they_are_closed(self):
        """Opened the moment they are created, on a thread of their own: all read but for a rare
        file whose opening the kernel held back for a millisecond (told)."""
        for limit, seed in ((64, 9), (1024, 10)):
            with self.subTest(limit=limit):
                allowed = 60 if os.environ.get("LOGAGG_SANITIZED") else 6
                self.assertLessEqual(self.short_lived_files(limit, 0, 0.001, seed), allowed)

    def test_files_removed_the_moment_they_are_closed(self):
        """A file can go before the kernel has woken the thread that opens it: each one read or told,
        most read (fewer than half told: how many depends on how soon the kernel wakes that thread,
        90-120 of 600 on one 2-core virtual machine, 135-209 on another)."""
        allowed = 500 if os.environ.get("LOGAGG_SANITIZED") else 299
        self.assertLessEqual(self.short_lived_files(1024, 0, 0, 11), allowed)

    # UBSan's vptr check needs a descriptor of its own (a pipe) to read memory: with none left it
    # reports every virtual call, so this case runs only in builds without a sanitizer.
    @unittest.skipIf(os.environ.get("LOGAGG_SANITIZED"), "UBSan itself needs a descriptor")
    def test_no_descriptor_at_all_is_said(self):
        log = self.path("access.log")
        with open(log, "w") as out:
            out.write(text_of(Lines(random.Random(7)).mixed(BASE, 5)))
        spare = [os.open(os.devnull, os.O_RDONLY) for _ in range(2)]
        self.addCleanup(lambda: [os.close(fd) for fd in spare])
        # 0-2, the 2 spare, the signalfd, the inotify for changes, and the inotify and two eventfds of the
        # thread that opens new names: 10, so no file can be opened.
        r = subprocess.run([LOGAGG, "--follow", log], stdin=subprocess.DEVNULL, capture_output=True, timeout=10,
                           preexec_fn=hard_limit(10), pass_fds=spare)
        err = r.stderr.decode()
        self.assertEqual(r.returncode, 1, err)
        self.assertIn("following cannot go on, lines are left unread", err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=1)
