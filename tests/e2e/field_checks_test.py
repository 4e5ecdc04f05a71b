#!/usr/bin/python3
"""End-to-end test of the warnings about a run's fields (issue 40: no silent wrong answers).

  field_checks_test.py LOGAGG

Writes a web log in the OpenSearch sample's shape (the status field is called response, a number;
host a string; bytes a number, or a string on some lines) and checks that logagg names, on stderr
after the summary and in the json summary's warnings, a field no line has (with the log's fields,
nearest first, and the field that holds HTTP statuses), a comparison no value can meet by its type
(with the spelling that would), and a measure with no number (printed as absent, never 0); that
the field tallies are in the json summary and add up, through --state too; that the status stays
0 but is 4 with --strict; that -q keeps the warnings; that a run whose fields are all there warns of
nothing; and that `logagg merge` warns from the merged tallies.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

LOGAGG = os.path.abspath(sys.argv[1])


def run(*args, check_status=None):
    p = subprocess.run([LOGAGG, *args], capture_output=True, text=True, timeout=120)
    if check_status is not None and p.returncode != check_status:
        raise AssertionError(f"logagg {' '.join(args)}: status {p.returncode}, not {check_status}:\n{p.stderr}")
    return p


def warnings_of(stderr):
    return [line[len("logagg: warning: "):] for line in stderr.splitlines() if line.startswith("logagg: warning: ")]


class FieldChecks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="logagg-field-checks-")
        cls.log = os.path.join(cls.tmp, "web.log")
        with open(cls.log, "w") as out:
            for i in range(200):
                line = {"app_id": "web", "timestamp": f"2024-03-01T10:00:{i % 60:02d}Z",
                        "response": [200, 404, 503][i % 3], "host": f"h{i % 4}.example.org",
                        "bytes": 100 + i if i % 5 else str(100 + i), "request": f"/api/{i % 7}"}
                out.write(json.dumps(line) + "\n")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_a_field_no_line_has_is_named_with_the_fields_the_lines_have(self):
        p = run("--where", "status>=500", "--format", "csv", self.log, check_status=0)
        self.assertEqual(p.stdout, "second,count\n")
        self.assertEqual(warnings_of(p.stderr), [
            "--where status>=500: no line has the field status; the lines have bytes, host, app_id, request, "
            "timestamp, response; response holds HTTP statuses"])
        self.assertLess(p.stderr.index("lines in"), p.stderr.index("warning"), "the warnings after the summary")
        for key in ("--by", "--by-status-class"):
            p = run(key, "stauts", self.log, check_status=0)
            self.assertEqual(len(warnings_of(p.stderr)), 1, p.stderr)
            self.assertTrue(warnings_of(p.stderr)[0].startswith(f"{key} stauts: no line has the field stauts; "
                                                                "the lines have "), p.stderr)

    def test_strict_fails_the_run_and_quiet_keeps_the_warnings(self):
        p = run("--strict", "--where", "status>=500", self.log, check_status=4)
        self.assertEqual(len(warnings_of(p.stderr)), 1)
        p = run("-q", "--where", "status>=500", self.log, check_status=0)
        self.assertEqual(len(warnings_of(p.stderr)), 1, "-q leaves out the summary, not the warnings")
        run("--strict", "--where", "response>=500", self.log, check_status=0)

    def test_a_comparison_no_value_can_meet_says_what_would(self):
        p = run("--where", 'response=="200"', self.log, check_status=0)
        self.assertEqual(warnings_of(p.stderr), [
            "--where response==\"200\": never true: response is a number on 200 lines (every line that has it), and "
            "the comparison matches strings (a quoted value is text) only; write --where 'response==200' to "
            "compare numbers"])
        p = run("--count-if", "host==true", "--format", "csv", self.log, check_status=0)
        self.assertEqual(warnings_of(p.stderr), [
            "--count-if host==true: never true: host is a string on 200 lines (every line that has it), and the "
            "comparison matches true, false or null only"])
        # A number against strings is not told: strings may hold numbers, which compare as such.
        self.assertEqual(warnings_of(run("--count-if", "host>=5", self.log).stderr), [])
        # bytes is a number on most lines and a string on the others: a text comparison can meet those.
        self.assertEqual(warnings_of(run("--where", 'bytes=="104"', self.log).stderr), [])

    def test_a_measure_without_numbers_prints_absent_and_warns(self):
        p = run("--sum", "host", "--quantiles", "host", "--format", "csv", "--per-minute", self.log, check_status=0)
        header, row = p.stdout.splitlines()[:2]
        self.assertEqual(header, "minute,count,n(host),sum(host),min(host),max(host),p50(host),p90(host),p99(host)")
        self.assertEqual(row, "2024-03-01T10:00:00Z,200,0,,,,,,", "no sum, never 0")
        self.assertEqual(warnings_of(p.stderr), [
            "--sum host: no counted line has a number in host (it is a string on 200 lines), so its sum and "
            "quantiles are printed as absent (-)"])
        p = run("--sum", "bytes", "--format", "csv", "--per-minute", self.log, check_status=0)
        self.assertEqual(warnings_of(p.stderr), [], "strings holding numbers are numbers to --sum")

    def test_the_json_summary_carries_the_tallies_and_the_warnings(self):
        doc = json.loads(run("--by", "host", "--where", "status>=500", "--sum", "bytes", "--format", "json",
                             self.log, check_status=0).stdout)
        s = doc["summary"]
        by_name = {f["field"]: f for f in s["fields"]}
        self.assertEqual([f["field"] for f in s["fields"]], ["host", "status", "bytes"])
        self.assertEqual(by_name["status"], {"field": "status", "absent": 200, "numbers": 0, "strings": 0,
                                             "others": 0})
        self.assertEqual(by_name["host"]["strings"], 200)
        self.assertEqual((by_name["bytes"]["numbers"], by_name["bytes"]["strings"]), (160, 40))
        self.assertEqual([(w["code"], w["field"]) for w in s["warnings"]], [("no_such_field", "status")])
        self.assertIn("response holds HTTP statuses", s["warnings"][0]["message"])

    def test_a_run_whose_fields_are_there_warns_of_nothing(self):
        p = run("--by", "host", "--by-status-class", "response", "--where", "response>=400", "--sum", "bytes",
                "--quantiles", "bytes", "--count-if", "response>=500", self.log, check_status=0)
        self.assertEqual(warnings_of(p.stderr), [])
        self.assertNotIn("warning", p.stderr)

    def test_state_keeps_running_tallies(self):
        log, state = os.path.join(self.tmp, "grow.log"), os.path.join(self.tmp, "s.state")
        with open(self.log) as f:
            lines = f.readlines()
        with open(log, "w") as out:
            out.writelines(lines[:120])
        args = ["--by", "host", "--where", "status>=500", "--format", "json", "-q"]
        run("--state", state, log, *args, check_status=0)
        with open(log, "a") as out:
            out.writelines(lines[120:])
        total = json.loads(run("--state", state, log, *args, check_status=0).stdout)["summary"]
        batch = json.loads(run(log, *args, check_status=0).stdout)["summary"]
        self.assertEqual(total["fields"], batch["fields"])
        self.assertEqual(total["warnings"], batch["warnings"])

    def test_merge_warns_from_the_merged_tallies(self):
        docs = []
        for n, (start, end) in enumerate([(0, 9000), (9000, 0)]):
            path = os.path.join(self.tmp, f"part{n}.json")
            size = os.path.getsize(self.log)
            span = f"{start}:{end or size}"
            with open(path, "w") as out:
                out.write(run("--range", span, "--where", "status>=500", "--format", "json", self.log,
                              check_status=0).stdout)
            docs.append(path)
        p = run("merge", "--format", "json", *docs, check_status=0)
        merged = json.loads(p.stdout)["summary"]
        self.assertEqual(merged["fields"], [{"field": "status", "absent": 200, "numbers": 0, "strings": 0,
                                             "others": 0}])
        self.assertEqual(warnings_of(p.stderr), ["--where status>=500: no line has the field status"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
