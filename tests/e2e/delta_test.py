#!/usr/bin/python3
"""End-to-end test of the deltas a consumer adds up (issue 31): `logagg --state FILE --delta-dir DIR`,
and `--delta` on stdout with its exit status.

  delta_test.py LOGAGG           every case below but the last two (ctest delta_e2e)
  delta_test.py LOGAGG --tmpfs   a full disk on a small tmpfs (ctest delta_tmpfs), in a mount namespace
                                 of its own (unshare -m as root, else unshare -rm); exits 77 (skipped)
                                 where none can be made, or 1 when CI=true
  delta_test.py LOGAGG --kills   kill -9 at random instants (ctest delta_kills, slow); DELTA_KILLS=N
                                 iterations (200), DELTA_KILLS_SEED=S

The two consumers follow docs/GUIDE.md's rules to the letter:
- of DIR: add up every *.json file of DIR, each once, and remove it once added in;
- of stdout: keep the output of a run that exits 0 or 1, drop it on any other status.
Each case ends with what the consumers added up equal to a batch run over every line written (counts
per second, blank lines and rejected ones by reason):
- A run with nothing new publishes a file of nothing; a state used before without a folder publishes
  from its first run with one what that run added (the total before it holds the rest).
- Inputs that cannot be read (a path not there yet, a gzip file still being written): status 1, the
  state saved, the delta printed and published without their lines, which come with the first run
  that can read them.
- A full disk, as an injected write failure (RLIMIT_FSIZE: a write past the limit fails with EFBIG),
  below the size of the delta (its pending file fails) and between the delta's size and the state's
  (the state fails after the pending file was written); and a report to /dev/full: status 3, nothing
  published, no pending file left, the state file unchanged byte for byte; the next run has it all.
- Rotation during the runs: a writer appends (lines split across writes), rotates by rename,
  compresses rotated files (gzip, seen half written), copytruncates, all while logagg runs 40 times.
- A run stopped between its steps, as a kill -9 leaves it: the pending file of the state's own
  generation (stopped after the commit) is published by the next run; one of a later generation
  (stopped before) is deleted, also in a folder the state does not name; other files are left alone.
- Refusals (status 2, the state unchanged): --delta-dir without --state, a state made with a
  --delta-dir run without it or with another, a folder that holds the name of this run's delta (a
  delta of another state), a folder that cannot be made, the state's own folder.
- (--tmpfs) A full disk on a 512 KiB tmpfs that holds the state and DIR: room for the pending file but
  not for the state, then for neither; then room again.
- (--kills) kill -9 at random instants (uniform over a run's duration) while the writer writes and
  rotates: the deltas of DIR added up equal a batch run; some kills must have stopped runs before
  their commit, and some runs must have finished.
"""

import glob
import gzip
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from state_lines import LOGAGG, Logs, run, same, tally, tally_of  # noqa: E402

STATUS_NOT_SAVED = 3


def run_state(logs, folder, *args, paths=None, **popen):
    """logagg --state with a delta folder and --delta on stdout, as json."""
    return subprocess.run([LOGAGG, "--state", logs.state, "--delta-dir", folder, "--delta", "--format", "json", "-q",
                           *args, *(paths or [logs.dir])], stdout=popen.pop("stdout", subprocess.PIPE),
                          stderr=subprocess.PIPE, timeout=120, **popen)


def batch_tally(logs):
    return tally_of(json.loads(logs.batch("--format", "json")), "the batch run")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class Consumers:
    """The GUIDE's two consumers of one state's deltas: of the delta folder and of stdout."""

    def __init__(self, test, folder):
        self.test, self.folder = test, folder
        self.of_folder, self.of_stdout = Counter(), Counter()
        self.names = set()  # every delta file taken

    def take_files(self):
        """Adds up every *.json file of the folder once, and removes it."""
        for path in sorted(glob.glob(os.path.join(self.folder, "*.json"))):
            name = os.path.basename(path)
            self.test.assertNotIn(name, self.names, "a delta file published twice")
            self.names.add(name)
            self.of_folder += tally_of(json.loads(read_bytes(path)), name)
            os.unlink(path)

    def keep_stdout(self, r):
        """After a run ended by itself: its stdout if its status is 0 or 1."""
        self.test.assertIn(r.returncode, (0, 1, STATUS_NOT_SAVED), r.stderr.decode())
        if r.returncode in (0, 1):
            self.of_stdout += tally_of(json.loads(r.stdout), "the printed delta")

    def take(self, r):
        self.keep_stdout(r)
        self.take_files()

    def check(self, logs):
        """Both sums against a batch run over every line written."""
        want = batch_tally(logs)
        same(self.of_folder, want, "the delta files added up")
        same(self.of_stdout, want, "the printed deltas kept by their status, added up")


def limit_file_size(size):
    """A preexec_fn: writes past `size` bytes fail (EFBIG), as on a full disk, not killing logagg."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


class Writer(threading.Thread):
    """Writes logs/access.log while logagg runs, as a server and logrotate would: appends (lines
    sometimes split across two writes), rotation by rename to access.log.K, gzip of the older
    rotated files (delaycompress; the .gz seen half written), copytruncate; between whole lines."""

    def __init__(self, logs, seed):
        super().__init__(daemon=True)
        self.logs, self.rng = logs, random.Random(seed)
        self.stopping = threading.Event()
        self.half = None  # (the rest, the whole line) of a line split across writes
        self.rotated = 0  # access.log.1 .. access.log.K
        self.plain = []  # rotated files not compressed yet, oldest first
        self.ops = Counter()
        self.error = None

    # At release speed the runs end long before; a sanitizer build is slow
    # enough that an unbounded writer makes each run longer than the last.
    MAX_STEPS = 1500

    def run(self):
        try:
            while not self.stopping.is_set() and sum(self.ops.values()) < self.MAX_STEPS:
                self.step()
                time.sleep(self.rng.uniform(0, 0.004))
            self.finish_line()
        except BaseException as e:  # noqa: BLE001 (reported by stop())
            self.error = e

    def stop(self):
        self.stopping.set()
        self.join()
        if self.error:
            raise self.error

    def write(self, text):
        with open(self.logs.path("access.log"), "ab") as out:
            out.write(text.encode())

    def finish_line(self):
        if self.half:
            (rest, whole), self.half = self.half, None
            self.write(rest + "\n")
            self.logs.written.append(whole)

    def step(self):
        op = self.rng.choices(["append", "split", "rotate", "compress", "copytruncate"], [12, 3, 2, 2, 1])[0]
        self.ops[op] += 1
        if op == "split" and self.half is None:
            text, _ = self.logs.lines.valid()
            cut = self.rng.randrange(1, len(text))
            self.write(text[:cut])
            self.half = (text[cut:], text)
            return
        self.finish_line()
        if op in ("append", "split"):
            lines = self.logs.lines.batch(self.rng.choice([1, 5, 20, 100]))
            self.write("".join(text + "\n" for text, _ in lines))
            self.logs.written += [text for text, _ in lines]
        elif op == "rotate":
            self.rotated += 1
            os.rename(self.logs.path("access.log"), self.logs.path(f"access.log.{self.rotated}"))
            open(self.logs.path("access.log"), "wb").close()
            self.plain.append(f"access.log.{self.rotated}")
        elif op == "compress" and len(self.plain) > 1:
            self.logs.gzip(self.plain.pop(0))
        elif op == "copytruncate":
            self.rotated += 1
            shutil.copyfile(self.logs.path("access.log"), self.logs.path(f"access.log.{self.rotated}"))
            os.truncate(self.logs.path("access.log"), 0)
            self.plain.append(f"access.log.{self.rotated}")


class DeltaCase(unittest.TestCase):
    def logs_and_consumers(self, spread=20):
        logs = Logs(self, spread)
        folder = os.path.join(logs.tmp, "deltas")
        return logs, folder, Consumers(self, folder)


class Committed(DeltaCase):
    def test_unreadable_inputs_are_status_1_and_their_lines_come_later(self):
        logs, folder, consumers = self.logs_and_consumers()
        first = logs.append("access.log", 50)
        archived = logs.lines.batch(40)
        archive = gzip.compress("".join(text + "\n" for text, _ in archived).encode())
        with open(logs.path("old.log.gz"), "wb") as out:  # gzip still writing it
            out.write(archive[:len(archive) // 2])
        missing = os.path.join(logs.tmp, "later.log")  # named, not there yet
        r = run_state(logs, folder, paths=[logs.dir, missing])
        self.assertEqual(r.returncode, 1, r.stderr.decode())
        self.assertIn("later.log: No such file or directory", r.stderr.decode())
        self.assertIn("old.log.gz: ", r.stderr.decode())
        consumers.take(r)
        same(consumers.of_stdout, first, "the delta printed with status 1")
        same(consumers.of_folder, first, "the delta published with status 1")
        self.assertEqual(consumers.names, {"000000000001.json"})
        with open(logs.path("old.log.gz"), "wb") as out:
            out.write(archive)
        later = logs.lines.batch(30)
        with open(missing, "w") as out:
            out.write("".join(text + "\n" for text, _ in later))
        logs.written += [text for text, _ in archived + later]
        r = run_state(logs, folder, paths=[logs.dir, missing])
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        consumers.take(r)
        same(tally_of(json.loads(r.stdout)), tally(archived) + tally(later), "once they can be read")
        consumers.check(logs)

    def test_a_full_disk_publishes_nothing_then_everything(self):
        logs, folder, consumers = self.logs_and_consumers(spread=3000)  # a large total: a large state
        logs.append("access.log", 4000)
        consumers.take(run_state(logs, folder))
        new = logs.lines.batch(3)
        with open(os.path.join(logs.tmp, "new.log"), "w") as out:
            out.write("".join(text + "\n" for text, _ in new))
        delta_bytes = len(run("--format", "json", "-q", os.path.join(logs.tmp, "new.log")).stdout)
        with open(logs.path("access.log"), "a") as out:
            out.write("".join(text + "\n" for text, _ in new))
        logs.written += [text for text, _ in new]
        state = read_bytes(logs.state)
        room = 16384  # for the delta's pending file, not for the state
        self.assertLess(2 * delta_bytes, room)
        self.assertGreater(len(state), 2 * room)
        for limit, what in ((64, "no room for the delta"), (room, "room for the delta, not for the state")):
            with self.subTest(what):
                r = run_state(logs, folder, preexec_fn=limit_file_size(limit))
                self.assertEqual(r.returncode, STATUS_NOT_SAVED, r.stderr.decode())
                self.assertIn("File too large", r.stderr.decode())
                self.assertIn("the state could not be saved", r.stderr.decode())
                consumers.take(r)
                self.assertEqual(os.listdir(folder), [], "nothing published, no pending file left")
                self.assertEqual(read_bytes(logs.state), state, "the state unchanged")
                self.assertFalse(os.path.exists(logs.state + ".tmp"))
        with open("/dev/full", "w") as full:  # the report cannot be written
            r = run_state(logs, folder, stdout=full)
        self.assertEqual(r.returncode, STATUS_NOT_SAVED, r.stderr.decode())
        self.assertEqual(os.listdir(folder), [])
        self.assertEqual(read_bytes(logs.state), state)
        r = run_state(logs, folder)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        consumers.take(r)
        same(tally_of(json.loads(r.stdout)), tally(new), "the next run")
        self.assertEqual(consumers.names, {"000000000001.json", "000000000002.json"})
        consumers.check(logs)

    def test_a_state_used_before_publishes_from_its_first_run_with_a_folder(self):
        logs, folder, consumers = self.logs_and_consumers()
        logs.append("access.log", 30)
        total = logs.total()  # generation 1, without a folder
        new = logs.append("access.log", 10)
        consumers.take(run_state(logs, folder))
        self.assertEqual(consumers.names, {"000000000002.json"})
        same(consumers.of_folder, new, "the first file: what its run added")
        same(consumers.of_folder + total, batch_tally(logs), "with the total before it")

    def test_rotation_during_the_runs(self):
        logs, folder, consumers = self.logs_and_consumers()
        logs.append("access.log", 100)
        writer = Writer(logs, seed=5)
        statuses = Counter()
        writer.start()
        try:
            for _ in range(40):
                r = run_state(logs, folder, "--threads", "2")
                statuses[r.returncode] += 1
                consumers.take(r)
                time.sleep(writer.rng.uniform(0, 0.01))
        finally:
            writer.stop()
        r = run_state(logs, folder)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        consumers.take(r)
        self.assertGreater(writer.ops["rotate"] + writer.ops["copytruncate"], 3, writer.ops)
        self.assertGreater(len(logs.written), 1000)
        consumers.check(logs)
        if os.environ.get("DELTA_TEST_VERBOSE"):
            print(dict(statuses), dict(writer.ops), file=sys.stderr)


class Settling(DeltaCase):
    def pending(self, folder, generation):
        return os.path.join(folder, f".{generation:012}.json.pending")

    def test_a_stopped_run_is_published_or_deleted_by_the_next(self):
        logs, folder, consumers = self.logs_and_consumers()
        logs.append("access.log", 40)
        consumers.take(run_state(logs, folder))
        # Stopped after its commit, before publishing: as it leaves the folder.
        logs.append("access.log", 10)
        consumers.keep_stdout(run_state(logs, folder))
        os.rename(os.path.join(folder, "000000000002.json"), self.pending(folder, 2))
        consumers.take_files()
        self.assertEqual(consumers.names, {"000000000001.json"}, "a pending file is not for the consumer")
        logs.append("access.log", 5)
        consumers.take(run_state(logs, folder))
        self.assertEqual(consumers.names, {f"{g:012}.json" for g in (1, 2, 3)})
        # Stopped before its commit: a pending file of the generation after the state's.
        with open(self.pending(folder, 4), "w") as out:
            out.write("{half a delta")
        for other in ("notes.txt", ".hidden", "000000000001.json.bak"):
            open(os.path.join(folder, other), "w").close()
        logs.append("access.log", 7)
        consumers.take(run_state(logs, folder))
        self.assertEqual(sorted(os.listdir(folder)), [".hidden", "000000000001.json.bak", "notes.txt"])
        self.assertIn("000000000004.json", consumers.names)
        for other in ("notes.txt", ".hidden", "000000000001.json.bak"):
            os.unlink(os.path.join(folder, other))
        # A run with nothing new saves the state: its file holds nothing.
        consumers.take(run_state(logs, folder))
        self.assertIn("000000000005.json", consumers.names)
        consumers.check(logs)

    def test_pending_files_in_a_folder_the_state_does_not_name_are_deleted(self):
        logs, folder, consumers = self.logs_and_consumers()
        os.mkdir(folder)
        with open(self.pending(folder, 1), "w") as out:
            out.write("{not this state's")
        logs.append("access.log", 20)
        consumers.take(run_state(logs, folder))
        self.assertEqual(os.listdir(folder), [])
        consumers.check(logs)


class Refusals(DeltaCase):
    def test_refusals_leave_the_state(self):
        logs, folder, consumers = self.logs_and_consumers()
        logs.append("access.log", 20)
        consumers.take(run_state(logs, folder))
        state = read_bytes(logs.state)
        other = os.path.join(logs.tmp, "other")
        not_a_folder = os.path.join(logs.tmp, "file")
        open(not_a_folder, "w").close()
        cases = [
            (["--delta-dir", folder, logs.dir], "--delta-dir needs --state"),
            (["--state", logs.state, logs.dir], "its deltas go to --delta-dir " + os.path.realpath(folder) + ": give it"),
            (["--state", logs.state, "--delta-dir", other, logs.dir],
             f"its deltas go to --delta-dir {os.path.realpath(folder)}, not {os.path.realpath(other)}"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = run(*args, check=False)
                self.assertEqual(r.returncode, 2, r.stderr.decode())
                self.assertIn(message, r.stderr.decode())
                self.assertEqual(read_bytes(logs.state), state)
        # Another state's deltas in the folder, and a folder that is a file.
        os.mkdir(other)
        open(os.path.join(other, "000000000001.json"), "w").close()
        for delta_dir, message in ((other, "is there already"), (not_a_folder, "cannot be made"),
                                   (logs.tmp, "holds the state file itself")):
            with self.subTest(delta_dir=delta_dir):
                fresh = os.path.join(logs.tmp, "fresh.json")
                r = run("--state", fresh, "--delta-dir", delta_dir, logs.dir, check=False)
                self.assertEqual(r.returncode, 2, r.stderr.decode())
                self.assertIn(message, r.stderr.decode())
                self.assertFalse(os.path.exists(fresh))
        logs.append("access.log", 5)
        consumers.take(run_state(logs, folder))
        consumers.check(logs)


class FullDiskOnTmpfs(DeltaCase):
    """Run by --tmpfs inside a mount namespace, with DELTA_TEST_TMPFS a fresh 512 KiB tmpfs."""

    def fill(self, disk, leave):
        """Fills the file system of `disk` but `leave` bytes."""
        vfs = os.statvfs(disk)
        with open(os.path.join(disk, "filler"), "ab") as out:
            out.write(b"\0" * max(0, vfs.f_bavail * vfs.f_frsize - leave))

    def test_a_full_disk(self):
        disk = os.environ["DELTA_TEST_TMPFS"]
        logs, _, consumers = self.logs_and_consumers(spread=3000)
        logs.state = os.path.join(disk, "S.json")
        consumers.folder = os.path.join(disk, "deltas")
        logs.append("access.log", 4000)
        consumers.take(run_state(logs, consumers.folder))
        self.assertEqual(consumers.names, {"000000000001.json"})
        state = read_bytes(logs.state)
        for leave, what in ((16384, "room for the delta, not for the state"), (0, "no room at all")):
            with self.subTest(what):
                self.assertGreater(len(state), 4 * 16384)
                self.fill(disk, leave)
                logs.append("access.log", 3)
                r = run_state(logs, consumers.folder)
                self.assertEqual(r.returncode, STATUS_NOT_SAVED, r.stderr.decode())
                self.assertIn("No space left on device", r.stderr.decode())
                consumers.take(r)
                self.assertEqual(os.listdir(consumers.folder), [], "nothing published, no pending file left")
                self.assertEqual(read_bytes(logs.state), state, "the state unchanged")
        os.unlink(os.path.join(disk, "filler"))
        r = run_state(logs, consumers.folder)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        consumers.take(r)
        consumers.check(logs)


class KillsAtRandomInstants(DeltaCase):
    def generation(self, state):
        try:
            return json.loads(read_bytes(state))["generation"]
        except FileNotFoundError:
            return 0

    def test_summed_deltas_equal_a_batch_run(self):
        rng = random.Random(int(os.environ.get("DELTA_KILLS_SEED", "1")))
        logs, folder, consumers = self.logs_and_consumers()
        logs.append("access.log", 200)
        writer = Writer(logs, seed=rng.randrange(1 << 30))
        command = [LOGAGG, "--state", logs.state, "--delta-dir", folder, "--format", "json", "-q", logs.dir]
        stats = Counter()
        duration = 0.02  # of a run not killed, measured every tenth iteration
        writer.start()
        try:
            for i in range(int(os.environ.get("DELTA_KILLS", "200"))):
                before = self.generation(logs.state)
                threads = str(rng.choice([1, 2]))
                start = time.monotonic()
                p = subprocess.Popen(command + ["--threads", threads], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
                if i % 10 == 0:
                    p.wait()
                    duration = time.monotonic() - start
                else:
                    time.sleep(rng.uniform(0, 1.2 * duration))
                    p.kill()
                    p.wait()
                saved = self.generation(logs.state) > before
                if p.returncode == -signal.SIGKILL:
                    stats["killed after its commit" if saved else "killed before its commit"] += 1
                    if any(name.endswith(".pending") for name in os.listdir(folder)):
                        stats["killed with its delta pending"] += 1
                else:
                    stats[f"finished, status {p.returncode}"] += 1
                consumers.take_files()
        finally:
            writer.stop()
        r = run_state(logs, folder)
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        consumers.take_files()
        print(f"kills: {dict(stats)}; writer: {dict(writer.ops)}; {len(logs.written)} lines", file=sys.stderr)
        same(consumers.of_folder, batch_tally(logs), "the delta files added up")
        self.assertGreater(stats["killed before its commit"], 0, stats)
        self.assertGreater(sum(n for k, n in stats.items() if k.startswith("finished")), 0, stats)


def on_a_small_tmpfs():
    """Runs FullDiskOnTmpfs in a mount namespace of its own, on a fresh 512 KiB tmpfs."""
    unshare = shutil.which("unshare")
    flags = ["-m"] if os.geteuid() == 0 else ["-r", "-m"]
    mount = 'mount -t tmpfs -o size=512k tmpfs "$0"'
    with tempfile.TemporaryDirectory(prefix="logagg-tmpfs-") as disk:
        probe = subprocess.run([unshare, *flags, "sh", "-c", mount, disk], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT) if unshare else None
        if probe is None or probe.returncode != 0:
            why = "unshare (util-linux)" if probe is None else \
                f"a tmpfs in a mount namespace ({' '.join(['unshare', *flags])}: {probe.stdout.decode().strip()})"
            if os.environ.get("CI") == "true":
                print(f"delta_test: FAIL: missing in CI: {why}", file=sys.stderr)
                return 1
            print(f"delta_test: SKIPPED: missing: {why} (a failure when CI=true)")
            return 77
        return subprocess.run([unshare, *flags, "sh", "-c", mount + ' && exec "$@"', disk, sys.executable,
                               os.path.abspath(__file__), LOGAGG, "--in-tmpfs"],
                              env={**os.environ, "DELTA_TEST_TMPFS": disk}).returncode


if __name__ == "__main__":
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    if mode == "--tmpfs":
        sys.exit(on_a_small_tmpfs())
    cases = {"": ["Committed", "Settling", "Refusals"], "--kills": ["KillsAtRandomInstants"],
             "--in-tmpfs": ["FullDiskOnTmpfs"]}[mode]
    unittest.main(argv=[sys.argv[0], *cases], verbosity=1)
