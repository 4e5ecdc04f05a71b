#!/usr/bin/env python3
"""`logagg detect` end to end, on every file of data/recipes/:
- its first suggestion is the recipe's command (README's list), or counts at
  least as many lines as the recipe (two thirds, for a key whose name says
  who served: `who_named`), both run on the whole file; and so on
  the producer's real lines in data/recipes/captured/, if it has some; where
  the recipe counts none of a captured file's lines, docs/recipes.md says
  what detect suggests first for it and how many lines that counts, as it
  does;
- every command it prints runs as printed (through a shell, exit 0), and
  counts what its comment says (the recipe files are small enough to be
  sampled whole);
- `--format json` holds the same commands as the text;
- where a recipe's producer logs a status, a duration or a size, the
  measures' command (--per-minute) names them, with --count-if 'F>=500' for
  the status, and --format json's "measures" says which fields they are;
- a gzip copy and standard input give the same first suggestion;
- on each producer's real lines it picks the time, key and status fields an
  expert would (`expert` below);
- a file that is not JSON lines is said to be one, with exit status 1, an
  empty file is said to be empty, a folder of two producers gets a group of
  commands for each, naming its files, and a missing file is an error on
  stderr;
- the hint (apps/logagg/hint.h) ends the summary of a run whose lines mostly
  lack the app or time field, naming the fields they have and the detect
  command, and is absent when the run counts (at least half of the lines
  fit), with -q, and for lines that are not JSON; for standard input or a
  FIFO it names no fields (they are not read again) and says FILE.

    detect_test.py LOGAGG_BIN SOURCE_DIR
"""
import gzip
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

logagg, src = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, file=sys.stderr)


def run(command, stdin=None):
    """Runs a printed command line from the source folder, `logagg` the binary under test."""
    argv = shlex.split(command)
    assert argv[0] == "logagg", command
    return subprocess.run([logagg] + argv[1:], cwd=src, input=stdin, capture_output=True)


def counted(command):
    result = run(command)
    if result.returncode != 0:
        fail(f"exit {result.returncode}: {command}: {result.stderr.decode(errors='replace')}")
        return -1
    match = re.search(rb"^  counted +(\d+)$", result.stderr, re.M)
    return int(match.group(1)) if match else -1


def detect(*args, stdin=None):
    return subprocess.run([logagg, "detect", *args], cwd=src, input=stdin, capture_output=True)


# The fields of the measures' suggestion (status, duration, size) of the
# recipe files whose producers log them.
with_measures = {
    "data/recipes/caddy.log": ["status", "duration", "size"],
    "data/recipes/envoy.log": ["response_code", "duration", "bytes_sent"],
    "data/recipes/nginx-iso8601.log": ["status", "request_time", "body_bytes_sent"],
    "data/recipes/traefik.log": ["DownstreamStatus", "Duration", "DownstreamContentSize"],
    "data/recipes/cloudflare-rfc3339.log": ["EdgeResponseStatus", None, "EdgeResponseBytes"],
    "data/recipes/pino.log": ["/res/statusCode", "responseTime", None],
    "data/recipes/zeek.log": [None, "duration", "resp_bytes"],
}

# What an expert picks on each producer's real lines: the time field, the
# key (the --app-field of the first suggestion; None: none offered) and the
# status field (None: none), checked on `--format json`.
expert = {
    "data/recipes/captured/caddy.log": ("ts", "/request/host", "status"),
    "data/recipes/captured/cloudflare.log": ("EdgeStartTimestamp", "ClientRequestHost", "EdgeResponseStatus"),
    "data/recipes/captured/ecs.log": ("@timestamp", "service.name", None),
    "data/recipes/captured/envoy.log": ("start_time", ":authority", "response_code"),
    "data/recipes/captured/gitlab-api.log": ("time", "host", "status"),
    "data/recipes/captured/gitlab-crowdsec.log": ("time", "controller", "status"),
    "data/recipes/captured/gitlab-production.log": ("time", "controller", "status"),
    "data/recipes/captured/kubernetes-audit.log": ("requestReceivedTimestamp", "/user/username", "/responseStatus/code"),
    "data/recipes/captured/nginx-iso8601-goaccess1196.log": ("log_time", None, "http_code"),
    "data/recipes/captured/nginx-iso8601-goaccess1500.log": ("time_date", "host", "status"),
    "data/recipes/captured/nginx-local-goaccess2145.log": ("time_local", "requested_domain", "status"),
    "data/recipes/captured/nginx-msec-goaccess2438.log": ("time", None, "status"),
    "data/recipes/captured/opensearch-web.log": ("timestamp", "host", "response"),
    "data/recipes/captured/pino.log": ("time", "hostname", None),
    "data/recipes/captured/traefik.log": ("StartLocal", "RequestHost", "DownstreamStatus"),
    "data/recipes/captured/zap.log": ("ts", "logger", None),
    "data/recipes/captured/zeek.log": ("ts", "proto", None),
    "data/recipes/captured/zeek-dns.log": ("ts", "id.resp_h", None),
}
for path, want in expert.items():
    doc = json.loads(detect("--format", "json", path).stdout)
    first = doc["suggestions"][0]["flags"] if doc["suggestions"] else []
    flag = lambda name: first[first.index(name) + 1] if name in first else None
    got = (flag("--time-field") or "timestamp", flag("--app-field") if "--by-app" in first else None,
           doc["measures"]["status"])
    if got != want:
        fail(f"logagg detect {path}: picks time, key, status {got}, an expert {want}")
if set(expert) != {f"data/recipes/captured/{f}" for f in os.listdir(os.path.join(src, "data/recipes/captured"))}:
    fail("every captured file needs what an expert picks on it in `expert`")

# Keys whose name says who served (detect puts them first when they count two
# thirds of the most): a first suggestion by one may count fewer lines than
# the recipe, down to two thirds (Zeek's service, absent where Zeek did not
# tell the protocol).
who_named = {"per service"}

readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
recipes = re.findall(r"^\| \[[^]]+\]\([^)]+\) \| `(logagg data/recipes/[^`]+)` \|$", readme, re.M)
files = sorted(f for f in os.listdir(os.path.join(src, "data/recipes")) if f.endswith(".log"))
if len(recipes) != len(files):
    fail(f"{len(recipes)} recipes in the README, {len(files)} files in data/recipes/")

captured_names = sorted(os.listdir(os.path.join(src, "data/recipes/captured")))
captured_seen = set()

# docs/recipes.md's sentences on real lines the recipe does not fit:
# "`logagg detect FILE` suggests first `COMMAND`, which counts N of its M
# lines" ("of its 1 line"): COMMAND is detect's first suggestion on FILE, and
# counts N of FILE's M lines.
page = " ".join(open(os.path.join(src, "docs/recipes.md"), encoding="utf-8").read().split())
said_first = {}
for file, command, n, m in re.findall(
        r"`logagg detect (data/recipes/captured/[^`]+)` suggests first `(logagg [^`]+)`, "
        r"which counts (\d+) of its (\d+) lines?\b", page):
    said_first[file] = command
    first = [line for line in detect(file).stdout.decode().splitlines() if line.startswith("logagg ")][:1]
    if first != [command]:
        fail(f"docs/recipes.md: `logagg detect {file}` suggests first {first}, the page says `{command}`")
    result = run(command)
    got_n = re.search(rb"^  counted +(\d+)$", result.stderr, re.M)
    got_m = re.search(rb" (\d+) lines in ", result.stderr)
    got = (int(got_n.group(1)) if got_n else -1, int(got_m.group(1)) if got_m else -1)
    if result.returncode != 0 or got != (int(n), int(m)):
        fail(f"docs/recipes.md: `{command}` counts {got[0]} of {got[1]} lines (exit {result.returncode}), "
             f"the page says {n} of {m}")
for recipe in recipes:
    path = shlex.split(recipe)[1]
    text = detect(path)
    if text.returncode != 0:
        fail(f"logagg detect {path}: exit {text.returncode}")
        continue
    lines = text.stdout.decode().splitlines()
    commands = [line for line in lines if line.startswith("logagg ")]
    comments = [line for line in lines if line.startswith("# ")]
    if not commands or len(commands) != len(comments):
        fail(f"logagg detect {path}: want a comment before each command, got {lines}")
        continue
    for comment, command in zip(comments, commands):
        said = int(re.match(r"# (\d+) of \d+ sampled lines", comment).group(1))
        got = counted(command)
        if got != said:
            fail(f"{command}: counts {got}, its comment says {said}")
    first, wanted = counted(commands[0]), counted(recipe)
    first_json = json.loads(detect("--format", "json", path).stdout)["suggestions"][0]
    names_who = "--by-app" in first_json["flags"] and first_json["what"].split(",")[0] in who_named
    if commands[0] != recipe and first < wanted and not (names_who and first * 3 >= wanted * 2):
        fail(f"{path}: the first suggestion counts {first}, the recipe {wanted}: {commands[0]}")
    # The producer's real lines, if any: data/recipes/captured/NAME.log and
    # NAME-*.log (one file per source: nginx-iso8601-goaccess1196.log), NAME
    # the recipe file's name (kubernetes-audit, nginx-iso8601), or else its
    # name up to its first '-' (cloudflare-unixnano: cloudflare).
    name = os.path.basename(path).removesuffix(".log")
    real_files = [f"data/recipes/captured/{f}" for f in captured_names
                  if f == f"{name}.log" or f.startswith(f"{name}-")]
    if not real_files and f"{name.split('-')[0]}.log" in captured_names:
        real_files = [f"data/recipes/captured/{name.split('-')[0]}.log"]
    for captured in real_files:
        real = [line for line in detect(captured).stdout.decode().splitlines() if line.startswith("logagg ")]
        first, wanted = (counted(real[0]) if real else -1), counted(recipe.replace(path, captured))
        if first < wanted:
            fail(f"{captured}: the first suggestion counts {first}, the recipe {wanted}: {real[:1]}")
        # Where the recipe counts none of them (nginx's fields are whatever a
        # log_format names), docs/recipes.md says what detect suggests first.
        if wanted == 0 and captured not in said_first:
            fail(f"{captured}: the recipe counts none of its lines, and docs/recipes.md does not say "
                 f"what `logagg detect {captured}` suggests first")
        captured_seen.add(captured)
    as_json = json.loads(detect("--format", "json", path).stdout)
    if [s["command"] for s in as_json["suggestions"]] != commands:
        fail(f"{path}: --format json holds other commands than the text")
    measures = as_json["measures"]
    red = [c for c in commands if "--per-minute" in c]
    if path in with_measures:
        want = with_measures[path]
        if [measures["status"], measures["duration"], measures["size"]] != want:
            fail(f"{path}: the measures' fields are {measures}, want {want}")
        flags = [f for f, name in zip(("--by-status-class", "--quantiles", "--sum"), want) if name]
        if len(red) != 1 or not all(f in red[0] for f in flags) or \
                (want[0] and f"--count-if '{want[0]}>=500'" not in red[0]):
            fail(f"{path}: want one measures' command with {flags}: {red}")
    if as_json["files"] != [path] or as_json["sampled_lines"] < 1:
        fail(f"{path}: --format json: files {as_json['files']}, sampled_lines {as_json['sampled_lines']}")

captured_all = {f"data/recipes/captured/{f}" for f in captured_names}
if captured_seen != captured_all:
    fail(f"captured lines of no recipe: {sorted(captured_all - captured_seen)}")

with tempfile.TemporaryDirectory() as work:
    raw = open(os.path.join(src, "data/recipes/caddy.log"), "rb").read()
    packed = os.path.join(work, "caddy.log.gz")
    with gzip.open(packed, "wb") as out:
        out.write(raw)
    plain = detect("data/recipes/caddy.log").stdout.decode().splitlines()[1]
    zipped = detect(packed).stdout.decode().splitlines()[1]
    piped = detect("-", stdin=raw).stdout.decode().splitlines()[1]
    if zipped != plain.replace("data/recipes/caddy.log", packed) or piped != plain.replace("data/recipes/caddy.log", "-"):
        fail(f"gzip and stdin suggest otherwise than the file: {zipped} / {piped} / {plain}")

    text_log = os.path.join(work, "access.log")
    with open(text_log, "w") as out:
        for i in range(20):
            out.write(f'203.0.113.{i} - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 200 512\n')
    result = detect(text_log)
    if result.returncode != 1 or not result.stdout.startswith(b"# not JSON lines: 0 of 20 sampled lines"):
        fail(f"a text log: exit {result.returncode}, {result.stdout[:200]!r}")

with tempfile.TemporaryDirectory() as work:
    empty = os.path.join(work, "empty.log")
    open(empty, "w").close()
    result = detect(empty)
    if result.returncode != 1 or result.stdout != b"# no lines: the inputs are empty (or hold only blank lines)\n":
        fail(f"an empty file: exit {result.returncode}, {result.stdout!r}")
    # A folder of two producers: a group of commands each, naming its files.
    mixed = os.path.join(work, "mixed")
    os.mkdir(mixed)
    for name in ("caddy.log", "traefik.log"):
        with open(os.path.join(mixed, name), "wb") as out:
            out.write(open(os.path.join(src, "data/recipes", name), "rb").read())
    result = detect(mixed)
    text = result.stdout.decode()
    if result.returncode != 0 or not text.startswith("# 2 shapes of lines in 2 files: the commands of each, for its files\n"):
        fail(f"a folder of two producers: exit {result.returncode}, {text[:200]!r}")
    for name, flags in (("caddy.log", "--time-field ts --time-format unix --app-field /request/host"),
                        ("traefik.log", "--time-field StartLocal --app-field RequestHost")):
        path = os.path.join(mixed, name)
        if f"files: {path}\n" not in text.replace("file: ", "files: ") or f"logagg {path} {flags}" not in text:
            fail(f"a folder of two producers: no group for {name} with {flags}: {text}")
    groups = json.loads(detect("--format", "json", mixed).stdout)["groups"]
    if [g["files"] for g in groups] != [[os.path.join(mixed, "caddy.log")], [os.path.join(mixed, "traefik.log")]]:
        fail(f"a folder of two producers, json: {[g['files'] for g in groups]}")

result = detect("no/such/file.log")
if result.returncode != 1 or b"no/such/file.log: No such file or directory" not in result.stderr:
    fail(f"a missing file: exit {result.returncode}, stderr {result.stderr!r}")
if detect().returncode != 2:
    fail("no input is a usage error")



def last_stderr_line(*args, stdin=None):
    result = subprocess.run([logagg, *args], cwd=src, input=stdin, capture_output=True)
    lines = result.stderr.decode().splitlines()
    return lines[-1] if lines else ""


hint = last_stderr_line("data/recipes/caddy.log")
if not (hint.startswith("hint: 13 of 13 lines have no app or time field these options read; they have level, ts,")
        and hint.endswith("; `logagg detect data/recipes/caddy.log` prints the options that count them")):
    fail(f"the hint of caddy.log with the defaults: {hint}")
piped = last_stderr_line("-", stdin=raw)
if not piped.startswith("hint: 13 of 13") or "`logagg detect FILE`" not in piped or "they have" in piped:
    fail(f"the hint of standard input: {piped}")
for args in (["data/sample.log"], ["data/recipes/caddy.log", "-q"], shlex.split(recipes[3])[1:]):
    if "hint:" in subprocess.run([logagg, *args], cwd=src, capture_output=True).stderr.decode():
        fail(f"a hint for logagg {' '.join(args)}")
with tempfile.TemporaryDirectory() as work:
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$0" > "$1"', os.path.join(src, "data/recipes/caddy.log"), fifo])
    fifo_hint = subprocess.run([logagg, fifo], cwd=src, capture_output=True, timeout=20).stderr.decode()
    writer.wait()
    if "hint: 13 of 13" not in fifo_hint or "`logagg detect FILE`" not in fifo_hint:
        fail(f"the hint of a FIFO (not opened again): {fifo_hint}")
good = b'{"app_id":"a","timestamp":"2023-11-14T22:13:20Z"}\n'
bad_time = b'{"app_id":"a","timestamp":"yesterday"}\n'
for log, shown in ((good + bad_time, False), (good + bad_time * 2, True), (good + b"{\n" * 3, False),
                   (good + b'{"app_id":"a b","timestamp":1}\n' * 2 + b"\n" * 5, True)):
    got = last_stderr_line("-", stdin=log).startswith("hint: ")
    if got != shown:
        fail(f"hint {'absent' if shown else 'shown'} for {log!r}")

sys.exit(1 if failures else 0)
