#!/usr/bin/python3
"""logagg-dask on hostile app ids and file names (issue 18), on a LocalCluster of 2 workers.

  hostile_dask_test.py LOGAGG

The corpus of hostile_ids_test.py (ids with controls, quotes, bidi controls, an id spelt "(other)";
file names that are not UTF-8 or hold LF and ESC) read through logagg-dask, which plans from
`logagg --list-inputs --format json` (exact paths, and names as logagg shows them) and merges json
results: every format must be byte-identical to one logagg run, and a file that fails is named as
logagg names it. Without Dask distributed it exits 77 (skipped), or 1 in CI.
"""

import os
import subprocess
import sys

try:
    import distributed  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and not os.environ.get("LOGAGG_DASK_TEST_REEXEC"):
        os.environ["LOGAGG_DASK_TEST_REEXEC"] = "1"  # Debian's python3-distributed is the system one's
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__)] + sys.argv[1:])
    print(f"hostile_dask_test: {'FAIL: missing in CI' if os.environ.get('CI') == 'true' else 'SKIPPED: missing'}:"
          " python3-distributed", file=sys.stderr)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

import gzip
import logging
import shutil
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_ids_test as corpus  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)  # tornado's, on Debian 12
DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps", "logagg-dask", "logagg-dask")


class HostileDask(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="logagg-hostile-dask-")
        cls.dir = os.path.join(cls.tmp, "logs").encode()
        corpus.write_corpus(cls.dir)
        cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.ERROR)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_every_format_is_byte_identical(self):
        for args in (["--format", "csv"], ["--format", "json"], ["--format", "table"], ["--top", "3"]):
            with self.subTest(args=args):
                want = subprocess.run([corpus.LOGAGG, "-q", "--by-app", *corpus.PATTERN, *args, self.dir],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                got = subprocess.run([sys.executable, DRIVER, "-q", "--logagg", corpus.LOGAGG, "--piece-size", "2K",
                                      "--scheduler", self.cluster.scheduler_address, "--by-app", *corpus.PATTERN,
                                      *args, self.dir], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                self.assertEqual(want.returncode, 0, want.stderr[-300:])
                self.assertEqual(got.returncode, 0, got.stderr[-300:])
                self.assertEqual(got.stdout, want.stdout, "not byte-identical")

    def test_the_plan_names_files_as_logagg_does(self):
        # --plan (and every message) prints names as logagg shows them: the names of the plan are the
        # lines of --list-inputs.
        listed = subprocess.run([corpus.LOGAGG, "--list-inputs", self.dir], stdout=subprocess.PIPE, check=True)
        plan = subprocess.run([sys.executable, DRIVER, "--logagg", corpus.LOGAGG, "--plan", "--piece-size", "1G",
                               self.dir], stdout=subprocess.PIPE, check=True)
        lines = plan.stdout.splitlines()
        self.assertEqual(len(lines), 1, "one piece of every (small) file")
        self.assertEqual(lines[0].split(b"\t", 2)[2], b" ".join(listed.stdout.splitlines()))
        self.assertIn(b"\\x1b", lines[0], "the corpus has names that need escaping")
        self.assertFalse(any(b < 0x20 and b != 0x09 for b in lines[0]), lines[0])

    def test_a_failing_file_is_named_as_logagg_names_it(self):
        # A damaged gzip file with a hostile name, in one piece with another file: logagg on the worker
        # names it in its message, and logagg-dask finds it there by the name --list-inputs showed.
        folder = os.path.join(os.fsencode(self.tmp), b"damaged")
        os.mkdir(folder)
        data = gzip.compress(b'{"host": "a", "timestamp": "2024-03-01T10:00:00Z"}\n' * 1000)
        with open(os.path.join(folder, b"cut\xff\x1b[2J.gz"), "wb") as f:
            f.write(data[:len(data) // 2])
        shutil.copy(os.path.join(self.dir, corpus.FILES[2]), os.path.join(folder, corpus.FILES[2]))
        got = subprocess.run([sys.executable, DRIVER, "-q", "--logagg", corpus.LOGAGG, "--piece-size", "1G",
                              "--scheduler", self.cluster.scheduler_address, "--format", "csv", folder],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(got.returncode, 1, got.stderr[-300:])
        # The whole stderr in the message: unittest cuts long bytes short in its own (once, in a
        # loaded CI run, this stderr held more than the one line, and the report did not show it).
        self.assertEqual(got.stderr, b"logagg-dask: " + folder + b"/cut\\xff\\x1b[2J.gz [0:%d]: " % (len(data) // 2) +
                         b"gzip data truncated (unexpected end of file)\n", got.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
