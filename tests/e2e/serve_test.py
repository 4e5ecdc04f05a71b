#!/usr/bin/python3
"""End-to-end test of `logagg --follow --serve ADDR` (issue 42): /metrics, /events and the live
dashboard at /.

  serve_test.py LOGAGG [-k TEST]

- Counters against a batch run: `--by host --where 'status!=404' --count-if 'status>=500' --sum
  latency_ms --unit latency_ms=ms` follows a folder while a writer appends (valid lines, invalid
  ones, blank ones) and rotates the log by rename, and the test reads /metrics and /events all the
  while (each scrape's counters never go down). Once everything is read, /metrics' counters (lines
  per host, read, blank, rejected per reason, filtered, matching, the latency's sum in seconds)
  equal a batch run over every line written, and the latency's histogram (--quantiles) equals a
  count by hand of the values at most each bound; the last row /events sent for each bucket and host is
  the one logagg printed; `promtool check metrics` accepts the exposition.
- Hostile keys (quotes, a backslash, a line feed, markup, an empty one, none) are escaped:
  promtool accepts the exposition, and a real Prometheus (Debian's, started on loopback with a
  scrape config pointing at logagg) stores each key as it was and its query API returns the same
  totals. (Bytes that are not UTF-8 never reach a key: such a line is not JSON; the exposition's
  U+FFFD for them is a unit test's.)
- Safety: another method gets 405 before its body is read, another path 404, garbage 400, and
  the counting goes on; the event streams past 256 at once get 503; a client that stops reading,
  one that sends nothing and one that sends half a request do not hold the counting (the last two
  are closed at the read timeout); SIGTERM closes every client and prints the summary (status 0);
  a port in use is refused with its reason (status 1); an address not on loopback is warned about.
- The live dashboard in headless Chromium (driven through the DevTools protocol, browser_cdp.py):
  its buckets, a correction and one key's measures merged from /page-events equal a count of the
  lines written, through a rotation; a new key with no place reloads the page.
- Load: 200 clients at once (serve_load.py) while the log grows at 50,000 lines a second
  (rate_writer.py): every line counted, every stream gets every bucket's last row, none more than
  a bucket late, memory bounded.

Without prometheus and promtool (Debian's prometheus package), or Chromium, the tests that need
them skip, or fail in CI.
"""

import calendar
import http.client
import json
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
import urllib.parse
import urllib.request
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_cdp import Browser  # noqa: E402
from serve_load import Clients  # noqa: E402
from follow_test import BASE, LOGAGG, Follow, json_rows, run, summary_of, text_of, wait_for  # noqa: E402

PROMETHEUS, PROMTOOL = shutil.which("prometheus"), shutil.which("promtool")
CHROMIUM = os.environ.get("LOGAGG_CHROMIUM") or shutil.which("chromium")
SANITIZED = os.environ.get("LOGAGG_SANITIZED") == "1"  # a build 2-20 times slower: a lighter load
WRITER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rate_writer.py")
ARTIFACTS = os.environ.get("LOGAGG_ARTIFACTS")
HOSTS = ["web", "api", "db"]
RED = ["--by", "host", "--where", "status!=404", "--count-if", "status>=500", "--sum", "latency_ms",
       "--quantiles", "latency_ms", "--unit", "latency_ms=ms"]
BOUNDS = ["0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10"]  # the default, in seconds
SAMPLE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)(\{.*\})? (\S+)')


def need(program, name, package="prometheus"):
    if program:
        return
    if os.environ.get("CI") == "true":
        raise AssertionError(f"missing in CI: {name} (scripts/install-deps.sh installs the {package} package)")
    raise unittest.SkipTest(f"missing: {name} (a failure when CI=true)")


def line(rng, t, n):
    """A line of second t: host, status (some 404s, filtered out; some 5xx) and latency in ms."""
    status = rng.choice([200, 200, 200, 301, 404, 500, 503])
    return json.dumps({"app_id": "a", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)),
                       "host": rng.choice(HOSTS), "status": status, "latency_ms": rng.randint(0, 99999) / 1000,
                       "n": n}, separators=(",", ":"))


def parse_labels(text):
    """{a="x",b="y\\"z"} as a dict, the values unescaped."""
    labels, i = {}, 1
    while i < len(text) - 1:
        eq = text.index("=", i)
        name, i, value = text[i:eq], eq + 2, []
        while text[i] != '"':
            if text[i] == "\\":
                value.append({"\\": "\\", '"': '"', "n": "\n"}[text[i + 1]])
                i += 2
            else:
                value.append(text[i])
                i += 1
        labels[name] = "".join(value)
        i += 2 if text[i + 1:i + 2] == "," else 1
    return labels


def parse_exposition(text):
    """{(name, frozenset of labels): value} of the samples; checks HELP and TYPE come first, once."""
    samples, typed = {}, {}
    for row in text.splitlines():
        if row.startswith("# TYPE "):
            name = row.split(" ")[2]
            assert name not in typed, f"TYPE twice for {name}"
            typed[name] = row.split(" ")[3]
            continue
        if row.startswith("#") or not row:
            continue
        m = SAMPLE.fullmatch(row)
        assert m, f"not a sample line: {row!r}"
        family = re.sub(r"_(bucket|sum|count)$", "", m[1])
        assert m[1] in typed or typed.get(family) == "histogram", f"{m[1]} has no TYPE before its samples"
        key = (m[1], frozenset(parse_labels(m[2]).items()) if m[2] else frozenset())
        assert key not in samples, f"a series twice: {key}"
        samples[key] = Decimal(m[3])
    return samples


class Server:
    """A `logagg --follow --serve 127.0.0.1:0 ARGS` and its port."""

    def __init__(self, test, *args):
        self.follow = Follow(["--serve", "127.0.0.1:0", *args], test.tmp)
        test.addCleanup(self.follow.kill)
        found = []
        said = re.compile(r"serving the dashboard, /metrics and /events on http://127\.0\.0\.1:(\d+)/")
        wait_for(lambda: found.append(said.search(self.follow.errors())) or found[-1], 10)
        if not found or not found[-1]:
            raise AssertionError(f"logagg did not say where it serves: {self.follow.errors()[-2000:]}")
        self.port = int(found[-1][1])

    def get(self, path, method="GET", body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, dict(r.getheaders()), data

    def metrics(self):
        status, headers, data = self.get("/metrics")
        assert status == 200, status
        assert headers["Content-Type"].startswith("text/plain; version=0.0.4"), headers
        return data.decode()


class EventStream:
    """An open GET /events: its events, read as they come."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        self.events = []

    def read_until(self, predicate, timeout):
        end, event = time.monotonic() + timeout, {}
        while not predicate(self.events):
            if time.monotonic() > end:
                return False
            row = self.response.readline().decode()
            if row in ("\n", ""):
                if "data" in event:
                    self.events.append(event)
                event = {}
                if row == "":
                    return predicate(self.events)
                continue
            name, _, value = row.rstrip("\n").partition(": ")
            event[name] = value
        return True

    def rows(self):
        return [json.loads(e["data"]) for e in self.events if "event" not in e]

    def close(self):
        self.conn.close()


def last_of_each(rows):
    """The last row of each bucket and host."""
    return {(row["second"], row["host"]): row for row in rows}


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="logagg-serve-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.logs = os.path.join(self.tmp, "logs")
        os.mkdir(self.logs)


class Counters(Case):
    def test_counters_and_events_equal_a_batch_run_through_rotations(self):
        need(PROMTOOL, "promtool")
        rng = random.Random(42)
        log = os.path.join(self.logs, "access.log")
        open(log, "w").close()
        server = Server(self, "--late", "1s", "--format", "json", *RED, self.logs)
        stream = EventStream(server.port)
        written, n, last = [], 0, {}
        for step in range(40):
            t = BASE + step // 4
            new = [line(rng, t, n + i) for i in range(50)]
            n += len(new)
            new += ["not json", "", '{"app_id":"a","timestamp":"yesterday"}'] if step % 5 == 0 else []
            rng.shuffle(new)
            written += new
            with open(log, "a") as out:
                out.write(text_of(new))
            if step % 10 == 9:
                os.rename(log, f"{log}.{step}")  # rotated by rename; the writer starts a new file
                open(log, "w").close()
            if step % 4 == 0:  # a scrape: no counter ever goes down
                now = parse_exposition(server.metrics())
                for key, value in last.items():
                    self.assertGreaterEqual(now.get(key, Decimal(0)), value, key)
                last = now
            time.sleep(0.03)

        # Everything read: /metrics equals a batch run over every line written.
        every = os.path.join(self.tmp, "every.log")
        with open(every, "w") as out:
            out.write(text_of(written))
        doc = json.loads(run("--format", "json", "-q", "--overall", *RED, every).stdout)
        total = doc["summary"]["lines"]
        self.assertIsNotNone(wait_for(lambda: parse_exposition(server.metrics()).get(
            ("logagg_lines_read_total", frozenset())) == total, 10), "every line read")
        text = server.metrics()
        samples = parse_exposition(text)
        for row in doc["counts"]:
            host = frozenset({("host", row["host"])})
            self.assertEqual(samples[("logagg_lines_total", host)], row["count"], row)
            self.assertEqual(samples[("logagg_lines_matching_total", host | {("count_if", "status>=500")})],
                             row["count(status>=500)"], row)
            self.assertEqual(samples[("logagg_latency_seconds_total", host)] * 1000,
                             Decimal(row["sum(latency_ms)"]), row)
        summary = doc["summary"]
        # The histogram: each bound against every value counted, exactly (a slow count by hand).
        latencies = {}
        for written_line in written:
            try:
                doc_line = json.loads(written_line, parse_float=Decimal)
            except ValueError:
                continue
            if isinstance(doc_line, dict) and doc_line.get("status") != 404 and doc_line.get("timestamp", "")[:1] == "2":
                latencies.setdefault(doc_line["host"], []).append(Decimal(doc_line["latency_ms"]))
        for host, values in latencies.items():
            labels = frozenset({("host", host)})
            for le in BOUNDS:
                want = sum(1 for v in values if v <= Decimal(le) * 1000)
                self.assertEqual(samples[("logagg_latency_seconds_bucket", labels | {("le", le)})], want, (host, le))
            self.assertEqual(samples[("logagg_latency_seconds_bucket", labels | {("le", "+Inf")})], len(values))
            self.assertEqual(samples[("logagg_latency_seconds_count", labels)], len(values))
            self.assertEqual(samples[("logagg_latency_seconds_sum", labels)] * 1000, sum(values))
        self.assertEqual(samples[("logagg_lines_blank_total", frozenset())], summary["blank"])
        self.assertEqual(samples[("logagg_lines_filtered_total", frozenset({("filter", "status!=404")}))],
                         summary["filtered"])
        rejected = {k: v for (name, labels), v in samples.items() if name == "logagg_lines_rejected_total"
                    for _, k in labels}
        self.assertEqual(sum(rejected.values()), summary["rejected"])
        self.assertGreater(rejected["invalid_json"], 0)
        check = subprocess.run([PROMTOOL, "check", "metrics"], input=text.encode(), capture_output=True)
        self.assertEqual(check.returncode, 0, check.stderr.decode() + text)

        # The rows of /events: the last of each bucket and host is the one printed.
        rc, out, err = server.follow.stop()
        self.assertEqual(rc, 0, err[-2000:])
        stream.read_until(lambda events: False, 5)  # to the stream's end: the server closed it
        printed = last_of_each(json_rows(out))
        streamed = last_of_each(stream.rows())
        self.assertEqual(streamed, printed)
        self.assertGreater(len(streamed), 5)
        self.assertEqual(summary_of(err)["counted"], summary["counted"])


HOSTILE = ['x"y', "back\\slash", "line\nfeed", "</script><b>", "caf\u00e9", "le", ""]


class Hostile(Case):
    def hostile_log(self):
        """A line per hostile key, each at its own second, and one whose host is no key (an object)."""
        hosts = HOSTILE + [{"o": 1}]
        lines = [json.dumps({"app_id": "a", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BASE + i)),
                             "host": h, "status": 200, "latency_ms": 1}) for i, h in enumerate(hosts)]
        with open(os.path.join(self.logs, "access.log"), "w") as out:
            out.write(text_of(lines))
        return len(lines)

    def test_hostile_keys_pass_promtool_and_a_real_prometheus(self):
        need(PROMTOOL, "promtool")
        need(PROMETHEUS, "prometheus")
        lines = self.hostile_log()
        server = Server(self, "--by", "host", "--sum", "latency_ms", self.logs)
        self.assertIsNotNone(wait_for(lambda: f"logagg_lines_read_total {lines}\n" in server.metrics(), 10))
        text = server.metrics()
        check = subprocess.run([PROMTOOL, "check", "metrics"], input=text.encode(), capture_output=True)
        self.assertEqual(check.returncode, 0, check.stderr.decode() + text)
        samples = parse_exposition(text)
        hosts = {dict(labels)["host"] for name, labels in samples if name == "logagg_lines_total"}
        self.assertEqual(hosts, set(HOSTILE) | {"(none)"})

        # A real Prometheus scrapes it on loopback; its query API gives the same totals.
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            prom_port = s.getsockname()[1]
        config = os.path.join(self.tmp, "prometheus.yml")
        with open(config, "w") as out:
            out.write("global: {scrape_interval: 1s, scrape_timeout: 1s}\n"
                      "scrape_configs:\n  - job_name: logagg\n"
                      f"    static_configs: [{{targets: ['127.0.0.1:{server.port}']}}]\n")
        with open(os.path.join(self.tmp, "prometheus.log"), "wb") as log:
            prom = subprocess.Popen([PROMETHEUS, f"--config.file={config}",
                                     f"--storage.tsdb.path={os.path.join(self.tmp, 'tsdb')}",
                                     f"--web.listen-address=127.0.0.1:{prom_port}"], stdout=log, stderr=log)
        self.addCleanup(prom.wait)
        self.addCleanup(prom.terminate)

        def query(expr):
            url = f"http://127.0.0.1:{prom_port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    return json.load(r)["data"]["result"]
            except OSError:
                return []

        # The first scrape comes some 5 s after Prometheus starts (its discovery's batching).
        self.assertIsNotNone(wait_for(lambda: query("logagg_lines_total"), 40, step=0.5),
                             "Prometheus never stored a scrape")
        stored = {r["metric"].get("host", ""): int(r["value"][1]) for r in query("logagg_lines_total")}
        self.assertEqual(stored, {h: 1 for h in hosts})
        self.assertEqual(query("sum(logagg_lines_total)")[0]["value"][1], str(lines))
        self.assertEqual(query('logagg_lines_total{host="x\\"y"}')[0]["value"][1], "1")


class Safety(Case):
    def test_bad_requests_get_4xx_and_counting_goes_on(self):
        log = os.path.join(self.logs, "access.log")
        rng = random.Random(7)
        with open(log, "w") as out:
            out.write(text_of([line(rng, BASE, i) for i in range(10)]))
        server = Server(self, "--by", "host", self.logs)
        self.assertEqual(server.get("/nowhere")[0], 404)
        self.assertEqual(server.get("/metrics", method="DELETE")[0], 405)
        self.assertEqual(server.get("/metrics", method="POST", body=b"x" * 100)[0], 405)
        # A body sent in chunks is not read at all: answered at once, the connection closed.
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + b"10000\r\n" + b"x" * 4096)
            self.assertRegex(s.recv(100), rb"^HTTP/1\.1 405 ")
        self.assertEqual(server.get("/../../etc/passwd")[0], 404)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            self.assertRegex(s.recv(100), rb"^HTTP/1\.1 400 ")
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertRegex(s.recv(100), rb"^HTTP/1\.1 414 ")
        status, headers, index = server.get("/")
        self.assertEqual(status, 200)
        self.assertIn(b"/metrics", index)
        # Still counting.
        with open(log, "a") as out:
            out.write(text_of([line(rng, BASE + 1, i) for i in range(5)]))
        self.assertIsNotNone(wait_for(lambda: "logagg_lines_read_total 15\n" in server.metrics(), 10))

    def test_streams_past_the_cap_get_503_and_a_stalled_client_holds_nothing(self):
        log = os.path.join(self.logs, "access.log")
        rng = random.Random(8)
        open(log, "w").close()
        server = Server(self, "--late", "1s", self.logs)
        streams = [EventStream(server.port) for _ in range(stream_cap())]
        self.addCleanup(lambda: [s.close() for s in streams])
        self.assertEqual(server.get("/events")[0], 503)
        self.assertEqual(server.get("/page-events")[0], 503)  # the two streams share the cap
        self.assertEqual(server.get("/metrics")[0], 200)  # the rest is still served
        # A client that never reads: rows pile up in its socket, never in the counting.
        streams[0].close()  # its slot is free once the server's next write to it fails (a second at most)
        self.assertIsNotNone(wait_for(lambda: server.get("/events", method="HEAD")[0] == 200, 10))
        stalled = socket.socket()
        self.addCleanup(stalled.close)
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.settimeout(10)
        stalled.connect(("127.0.0.1", server.port))
        stalled.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        self.assertRegex(stalled.recv(12), rb"^HTTP/1\.1 200")  # then never read again
        # Clients that open a connection and send nothing, or half a request (as a peer that
        # vanished would): each is closed once the read timeout (5 s) passes.
        silent = [socket.create_connection(("127.0.0.1", server.port), timeout=15) for _ in range(2)]
        self.addCleanup(lambda: [c.close() for c in silent])
        silent[1].sendall(b"GET /metr")
        opened = time.monotonic()
        for step in range(20):
            with open(log, "a") as out:
                out.write(text_of([line(rng, BASE + step, i) for i in range(200)]))
            time.sleep(0.05)
        self.assertIsNotNone(wait_for(lambda: "logagg_lines_read_total 4000\n" in server.metrics(), 10))
        self.assertTrue(streams[1].read_until(lambda events: len(events) >= 15, 10), "rows reach the others")
        for c in silent:
            self.assertEqual(c.recv(100), b"")  # closed by the server, not by the test's own timeout
        self.assertLess(time.monotonic() - opened, 12)
        rc, out, err = server.follow.stop()
        self.assertEqual(rc, 0, err[-2000:])
        self.assertEqual(summary_of(err)["counted"], 4000)

    def test_a_port_in_use_is_refused_and_other_addresses_are_warned_about(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen()
            r = run("--follow", "--serve", f"127.0.0.1:{s.getsockname()[1]}", self.logs, check=False)
            self.assertEqual(r.returncode, 1)
            self.assertIn(f"--serve: cannot listen on 127.0.0.1:{s.getsockname()[1]}", r.stderr.decode())
        for bad in ("127.0.0.1:99999", "::1:80", "host:", "127.0.0.1:x"):
            r = run("--follow", "--serve", bad, self.logs, check=False)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("--serve", r.stderr.decode())
        r = run("--serve", "127.0.0.1:0", self.logs, check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--serve needs --follow", r.stderr.decode())
        f = Follow(["--serve", "0.0.0.0:0", self.logs], self.tmp, "any")
        self.addCleanup(f.kill)
        self.assertIsNotNone(wait_for(lambda: "is not a loopback address" in f.errors(), 10), f.errors())
        rc, _, err = f.stop()
        self.assertEqual(rc, 0, err)


class LivePage(Case):
    def need_dashboard(self):
        """Skips in a build without --format html (its / has no dashboard)."""
        if run("-q", "--format", "html", os.devnull, check=False).returncode != 0:
            self.skipTest("a build without --format html: no dashboard")

    def test_the_page_follows_each_bucket_and_correction(self):
        """The dashboard at / in headless Chromium: loaded with the buckets so far, then fed by
        /page-events while the writer appends and rotates the log. Its last bucket (each host
        stacked, "(other)" adding up the rest, the total drawn, the lines matching --count-if of all
        keys and of one key chosen) and a corrected earlier bucket equal a count of the lines
        written; --serve-history 6 keeps six points."""
        need(CHROMIUM, "chromium", "chromium")
        rng = random.Random(11)
        self.need_dashboard()
        log = os.path.join(self.logs, "access.log")
        open(log, "w").close()
        server = Server(self, "--late", "1s", "--serve-history", "6", *RED, self.logs)
        stream = EventStream(server.port)
        written = []

        def write(seconds, per=60):
            """Lines of 12 hosts: the page stacks the 10 busiest, the others in "(other)"."""
            new = [json.loads(line(rng, BASE + t, t * 1000 + i)) for t in seconds for i in range(per)]
            for x in new:
                x["host"] = f"h{min(rng.randrange(14), 11)}"
            written.extend(new)
            new = [json.dumps(x) for x in new]
            with open(log, "a") as out:
                out.write(text_of(new))

        def expected(start, names):
            """Lines counted at `start` by name ("(other)": the rest), and those with status >= 500."""
            counted = [x for x in written if x["timestamp"] == iso(start) and x["status"] != 404]
            counts = {n: sum(1 for x in counted if x["host"] == n) for n in names}
            counts["(other)"] = sum(1 for x in counted if x["host"] not in names)
            return {n: f"{c:,}" for n, c in counts.items()}, sum(1 for x in counted if x["status"] >= 500)

        def page_point(start, key=""):
            """At bucket `start`: the page's counts by name, the total it draws (the stack's top, and
            the total series) and count(status>=500) of all keys, or of `key` chosen in the selector."""
            return page.evaluate(f"""(() => {{
                const select = document.getElementById("key");
                select.selectedIndex = [...select.options].findIndex(o => o.textContent === {json.dumps(key or "all keys")});
                select.dispatchEvent(new Event("change"));
                const u = logaggChart, i = u.data[0].indexOf({start});
                if (i < 0) return null;
                const names = JSON.parse(document.getElementById("logagg-data").textContent).names;
                return [Object.fromEntries(names.map((name, k) => [name, u.series[1 + k].value(u, null, 1 + k, i)])),
                        u.data[names.length][i], u.data[names.length + 1][i], logaggPanels[0].data[1][i]];
            }})()""")

        def expected(start, names, key=""):
            counted = [x for x in written if x["timestamp"] == iso(start) and x["status"] != 404]
            counts = {n: sum(1 for x in counted if x["host"] == n) for n in names}
            counts["(other)"] = sum(1 for x in counted if x["host"] not in names)
            matching = sum(1 for x in counted if x["status"] >= 500 and x["host"] == (key or x["host"]))
            return [{n: f"{c:,}" for n, c in counts.items()}, len(counted), len(counted), matching]

        write(range(0, 4))
        self.assertTrue(stream.read_until(lambda events: any(
            json.loads(e["data"])["second"] == iso(BASE + 1) for e in events if "event" not in e), 10))
        with Browser(CHROMIUM, self.tmp) as browser:
            page = browser.open(f"http://127.0.0.1:{server.port}/")
            self.assertIsNotNone(page.wait_for("document.body.dataset.drawnMs", 20), "the page draws")
            names = page.evaluate("JSON.parse(document.getElementById('logagg-data').textContent).names")
            self.assertEqual(len(names), 11, names)  # the ten busiest hosts, and (other)
            self.assertEqual(names[-1], "(other)")
            for t in range(4, 10):
                if t == 7:  # rotated by rename; the writer starts a new file
                    os.rename(log, log + ".1")
                    open(log, "w").close()
                write([t])
                time.sleep(0.1)
            write([12], per=1)  # completes bucket 9 (--late 1s)
            self.assertIsNotNone(page.wait_for(f"document.body.dataset.liveLast === '{BASE + 9}'", 20),
                                 page.evaluate("document.body.dataset.liveLast"))
            self.assertGreaterEqual(int(page.evaluate("document.body.dataset.liveEvents")), 1)
            for start in (BASE + 5, BASE + 9):
                self.assertEqual(page_point(start), expected(start, names[:-1]), start)
            self.assertEqual(page_point(BASE + 9, names[0]), expected(BASE + 9, names[:-1], names[0]))
            # --serve-history 6: the page keeps the last six points.
            self.assertEqual(page.evaluate("[logaggChart.data[0].length, logaggChart.data[0][0]]"), [6, BASE + 4])
            # Late lines for bucket 4: a correction, merged into the page's point.
            write([4], per=7)
            self.assertIsNotNone(wait_for(lambda: page_point(BASE + 4) == expected(BASE + 4, names[:-1]), 10),
                                 (page_point(BASE + 4), expected(BASE + 4, names[:-1])))
            if ARTIFACTS:
                os.makedirs(ARTIFACTS, exist_ok=True)
                page.screenshot(os.path.join(ARTIFACTS, "live-page.png"))
        stream.close()
        rc, _, err = server.follow.stop()
        self.assertEqual(rc, 0, err[-2000:])

    def test_a_new_key_reloads_a_page_that_has_no_place_for_it(self):
        """Three hosts stacked, no "(other)": a fourth reloads the page (10 s after it loaded, at the
        earliest), which then stacks it."""
        need(CHROMIUM, "chromium", "chromium")
        rng = random.Random(12)
        self.need_dashboard()
        log = os.path.join(self.logs, "access.log")
        with open(log, "w") as out:
            out.write(text_of([line(rng, BASE + t, i) for t in range(3) for i in range(30)]))
        server = Server(self, "--late", "1s", "--by", "host", self.logs)
        self.assertIsNotNone(wait_for(lambda: "logagg_lines_read_total 90\n" in server.metrics(), 10))
        names = "JSON.parse(document.getElementById('logagg-data').textContent).names"
        with Browser(CHROMIUM, self.tmp) as browser:
            page = browser.open(f"http://127.0.0.1:{server.port}/")
            self.assertIsNotNone(page.wait_for("document.body.dataset.drawnMs", 20), "the page draws")
            self.assertEqual(sorted(page.evaluate(names)), sorted(HOSTS))
            with open(log, "a") as out:
                out.write(text_of([line(rng, BASE + 3, i).replace('"host":"', '"host":"new-') for i in range(5)]))
                out.write(text_of([line(rng, BASE + 6, 0)]))  # completes bucket 3
            self.assertIsNotNone(page.wait_for("document.body.textContent.includes('Reloading the page: a new key')",
                                               10))
            self.assertIsNotNone(page.wait_for(f"{names}.some(n => n.startsWith('new-'))", 20), page.evaluate(names))
        rc, _, err = server.follow.stop()
        self.assertEqual(rc, 0, err[-2000:])


class Load(Case):
    def test_200_clients_while_the_log_grows_at_50000_lines_a_second(self):
        """150 /events streams, 25 /page-events streams and 25 clients scraping /metrics every
        second, all at once, while a writer appends 50,000 lines a second (10,000 in a sanitized
        build) for 5 s: every line is counted, every stream gets every bucket's last row as logagg
        printed it, none more than a bucket after the bucket's end plus --late, and logagg's memory
        stays bounded."""
        if stream_cap() < 175:
            self.skipTest(f"the descriptor limit allows {stream_cap()} event streams; this test needs 175")
        log = os.path.join(self.logs, "access.log")
        open(log, "w").close()
        server = Server(self, "--late", "1s", "--format", "json", "--by", "host", "--count-if", "status>=500",
                        "--quantiles", "latency_ms", self.logs)
        clients = Clients(server.port, events=150, pages=25, scrapers=25)
        self.addCleanup(clients.stop)
        since = time.time()
        writer = subprocess.run([sys.executable, WRITER, log, "10000" if SANITIZED else "50000", "5"],
                                capture_output=True, check=True)
        written, writer_done = int(writer.stdout), time.time()
        self.assertIsNotNone(wait_for(lambda: f"logagg_lines_read_total {written}\n" in server.metrics(), 20),
                             "every line read")
        hwm = int(re.search(r"^VmHWM:\s+(\d+) kB", open(f"/proc/{server.follow.proc.pid}/status").read(), re.M)[1])
        clients.stop_scraping()
        rc, out, err = server.follow.stop()
        self.assertEqual(rc, 0, err[-2000:])
        clients.drain()
        self.assertEqual(clients.errors, [], clients.errors[:5])
        self.assertEqual(summary_of(err)["counted"], written)
        printed = {(row["second"], row["host"]): row for row in json_rows(out)}
        delays = []
        for rows, arrivals in zip(clients.rows, clients.arrivals):
            self.assertEqual(last_of_each(rows), printed)
            for second, at in arrivals.items():
                end = calendar.timegm(time.strptime(second, "%Y-%m-%dT%H:%M:%SZ")) + 1
                if since + 1 < end and end + 1 <= writer_done:  # completed (end + --late) while lines came
                    delays.append(at - end - 1.0)
        self.assertGreater(len(delays), 150)
        self.assertLess(max(delays), 1.0 if not SANITIZED else 3.0, "a row later than the next bucket")
        self.assertTrue(all(n > 0 for n in clients.page_events), clients.page_events)
        self.assertTrue(all(n > 0 for n in clients.scrapes), clients.scrapes)
        if not SANITIZED:
            self.assertLess(hwm, 128 * 1024, "logagg's memory (VmHWM, kB)")


def stream_cap():
    """The event streams logagg allows at once here: 256, or fewer under a low descriptor limit
    (ServeOptions::fit_to_descriptors; logagg raises its soft limit to the hard one)."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if limit == resource.RLIM_INFINITY:
        return 256
    room = (limit // 4 - min(limit // 4, 1)) // 2
    return min(256, max(1, room - 16 if room > 16 else 0))


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


if __name__ == "__main__":
    # LOGAGG_TEST_ONLY: the mutation check's one case (tests/mutation/run.sh).
    only = os.environ.get("LOGAGG_TEST_ONLY")
    unittest.main(argv=sys.argv[:1] + sys.argv[2:] + (["-k", only] if only else []))
