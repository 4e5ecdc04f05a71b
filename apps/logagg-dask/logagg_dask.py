#!/usr/bin/python3
"""logagg-dask: logagg past one machine, on Dask distributed.

Counts JSON access-log lines per UTC second like `logagg`, with the work spread
over the workers of a Dask cluster (default: a local one). Every worker (and
this machine, which plans) must see the inputs at the same paths.

  plan   expand globs here, then paths and folders with `logagg --list-inputs
         --format json --piece-size SIZE` (logagg's own folder walk and
         --include/--exclude, so the inputs are exactly those of one logagg
         run; with each file's size, compression, name as logagg prints it and,
         for a large plain file, the byte ranges that cut it: logagg --range
         counts the lines that start in a range, so ranges tile a file
         exactly), then bundle the rest into pieces of about --piece-size bytes,
         small files and compressed files whole.
  map    one Dask task per piece runs `logagg --format json [--range S:E] ...`
         on a worker (retried by Dask on failure).
  reduce partial results are merged in groups with `logagg merge --format json`
         on the workers as they arrive, while pieces are still being counted
         (a tree); what is left at the end is merged and printed here by
         `logagg merge --format FORMAT`, byte-identical to one logagg run over
         the same inputs.

A piece that fails for good is named on stderr (`logagg-dask: PATH [START:END]:
reason`); what it did count (logagg still prints a result when an input is
unreadable or a compressed file is damaged) and every other piece is merged
and printed, and the exit status is 1, as for logagg itself.
"""

import os
import sys

# Debian's python3-distributed is installed for the system interpreter; when
# started by another python3 (pyenv, a venv) without it, use the system one.
# Only looked up here: importing it takes about half a second, which main()
# overlaps with checking the options.
import importlib.util  # noqa: E402

if importlib.util.find_spec("distributed") is None:
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists(
            "/usr/bin/python3") and not os.environ.get("LOGAGG_DASK_REEXEC"):
        os.environ["LOGAGG_DASK_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__)] + sys.argv[1:])
    sys.stderr.write("logagg-dask: needs Dask distributed (Debian: apt-get install python3-distributed)\n")
    sys.exit(2)

import argparse
import glob
import json
import logging
import shutil
import subprocess
import tempfile
import time

PROG = "logagg-dask"
DEFAULT_PIECE_SIZE = "128M"   # docs/distributed.md, "Task size", has the measurements
COMPRESSED_WEIGHT = 4        # a compressed byte costs about this many plain bytes of work

# ---------------------------------------------------------------- options


def positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return int(text)


class KeyOption(argparse.Action):
    """--by, --by-status-class, --by-path-prefix: appended to one list in the order given."""

    def __call__(self, parser, namespace, values, option_string=None):
        keys = list(getattr(namespace, self.dest, None) or [])
        keys.append([option_string] + (values if isinstance(values, list) else [values]))
        setattr(namespace, self.dest, keys)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="logagg on a Dask cluster: exact per-second request counts from JSON access logs, "
        "with the files cut into pieces counted on the workers and the results merged. "
        "Output is byte-identical to one logagg run over the same inputs.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (read recursively) or globs, at the same path on every worker")
    g = p.add_argument_group("as in logagg")
    g.add_argument("--format", choices=("table", "csv", "json", "html"), default="table", help="output, default table")
    for unit in ("second", "minute", "hour", "day"):
        g.add_argument(f"--per-{unit}", action="store_true", help=argparse.SUPPRESS if unit == "second" else
                       f"rows per {unit}")
    g.add_argument("--bucket", metavar="DURATION", help="rows per DURATION (5s, 15m, 1h, 1d)")
    g.add_argument("--overall", action="store_true", help="one row per key for the whole input, busiest first")
    g.add_argument("--fill-gaps", action="store_true", help="rows of 0 for empty buckets")
    g.add_argument("--stats", action="store_true", help="total, peak, mean, percentiles to stderr")
    g.add_argument("--plot", action="store_true", help="a chart instead of rows")
    g.add_argument("--by-app", action="store_true", help="rows per bucket and app id")
    g.add_argument("--top", type=positive_int, metavar="N", help="only the N busiest apps (implies --by-app)")
    g.add_argument("--max-apps", type=positive_int, metavar="N", help="app ids (key tuples) told apart per piece")
    # The keys, in the order given: each as the logagg arguments it stands for.
    g.add_argument("--by", metavar="FIELD", action=KeyOption, dest="keys", help="rows per bucket and FIELD's value")
    g.add_argument("--by-status-class", metavar="FIELD", action=KeyOption, dest="keys",
                   help="rows per HTTP status class of FIELD")
    g.add_argument("--by-path-prefix", nargs=2, metavar=("N", "FIELD"), action=KeyOption, dest="keys",
                   help="rows per first N segments of the URL path in FIELD")
    g.add_argument("--where", metavar="EXPR", action="append", default=[],
                   help="count only lines where FIELD OP VALUE holds (as logagg --where)")
    g.add_argument("--sum", metavar="FIELD", action="append", default=[], help="the exact sum of FIELD per row")
    g.add_argument("--quantiles", metavar="FIELD", action="append", default=[],
                   help="quantiles (within 1%%), min and max of FIELD per row")
    g.add_argument("--percentiles", metavar="P,...", help="the quantiles --quantiles shows (default 50,90,99)")
    g.add_argument("--count-if", metavar="EXPR", action="append", default=[], dest="count_if",
                   help="also count the lines where EXPR holds, and their ratio")
    g.add_argument("--unit", metavar="FIELD=UNIT", action="append", default=[],
                   help="the table prints FIELD's values (durations in s, ms, us, ns) as 12.3 ms")
    g.add_argument("--since", metavar="TIME", help="count lines from TIME (RFC 3339) on")
    g.add_argument("--until", metavar="TIME", help="count lines before TIME")
    g.add_argument("--include", metavar="GLOB", action="append", default=[], help="only folder files matching GLOB")
    g.add_argument("--exclude", metavar="GLOB", action="append", default=[], help="skip folder files matching GLOB")
    g.add_argument("--tz", metavar="ZONE", help="as logagg --tz (bucket boundaries in ZONE)")
    g.add_argument("--app-field", metavar="NAME", help="app id field or /json/pointer (default app_id)")
    g.add_argument("--time-field", metavar="NAME", help="time field or /json/pointer (default timestamp)")
    g.add_argument("--time-format", metavar="FORMAT", help="how times are written (default rfc3339)")
    g.add_argument("--input-tz", metavar="ZONE", help="the zone of a --time-format pattern without %%z")
    g.add_argument("--app-pattern", metavar="REGEX", help="app ids that count (default [A-Za-z0-9]+)")
    g.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    d = p.add_argument_group("distribution")
    d.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler, e.g. tcp://10.0.0.1:8786 (default: a local cluster)")
    d.add_argument("--workers", type=positive_int, metavar="N",
                   help="worker processes of the local cluster (default: one per core)")
    d.add_argument("--piece-size", default=DEFAULT_PIECE_SIZE, metavar="SIZE",   # read by logagg --list-inputs
                   help=f"bytes of work per task: K, M, G suffixes (default {DEFAULT_PIECE_SIZE})")
    d.add_argument("--task-threads", type=positive_int, metavar="N",
                   help="logagg --threads per task (default: a node's cores / its worker threads)")
    d.add_argument("--retries", type=int, default=2, metavar="N", help="Dask retries of a failed task (default 2)")
    d.add_argument("--fan-in", type=int, default=8, metavar="K", help="results per merge task (default 8)")
    d.add_argument("--logagg", metavar="PATH",
                   help="logagg binary, here and on the workers (default: logagg on PATH, else this "
                   "repository's build/release/apps/logagg); a bare name is looked up on each node's PATH")
    d.add_argument("--plan", action="store_true", help="print the pieces and exit")
    d.add_argument("--timings", action="store_true", help="print where the time went to stderr")
    a = p.parse_args(argv)
    if any(x == "-" for x in a.paths):
        p.error("standard input cannot be distributed; name files every worker can read")
    if a.plot and any(x == "--format" or x.startswith("--format=") for x in argv):
        p.error("--plot draws a chart instead of the rows: give --plot or --format, not both")
    if a.fan_in < 2:
        p.error("--fan-in must be at least 2")
    if a.retries < 0:
        p.error("--retries must be 0 or more")
    return a


def piece_options(a):
    """The logagg options every piece runs with (--fill-gaps, --stats, --plot and --top apply to the
    final merge only: the pieces' results must be whole to add up)."""
    keys = a.keys or []
    opts = ["--by-app"] if a.by_app or (a.top and not keys) else []
    for key in keys:
        opts += key
    opts += ["--where=" + w for w in a.where]
    opts += ["--sum=" + f for f in a.sum] + ["--quantiles=" + f for f in a.quantiles]
    opts += ["--count-if=" + e for e in a.count_if]
    for unit in ("second", "minute", "hour", "day"):
        if getattr(a, f"per_{unit}"):
            opts.append(f"--per-{unit}")
    if a.overall:
        opts.append("--overall")
    for name in ("bucket", "since", "until", "tz", "app_field", "time_field", "time_format", "input_tz",
                 "app_pattern", "max_apps", "percentiles"):
        value = getattr(a, name)
        if value is not None:
            # One argument, so that a value starting with '-' (a pattern) is never taken for an option.
            opts.append("--" + name.replace("_", "-") + "=" + str(value))
    return opts


def find_logagg(requested):
    if requested:
        if "/" in requested:
            return os.path.abspath(requested)
        if shutil.which(requested):
            return requested
        sys.exit(f"{PROG}: --logagg: '{requested}' not found on PATH")
    if shutil.which("logagg"):
        return "logagg"
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    built = os.path.join(repo, "build", "release", "apps", "logagg")
    if os.access(built, os.X_OK):
        return built
    sys.exit(f"{PROG}: no logagg binary: not on PATH, nor at {built} (use --logagg PATH)")

# ---------------------------------------------------------------- plan


class Input:
    """One input file, as `logagg --list-inputs --format json` describes it (apps/logagg/list_inputs.h):
    its path (absolute, as the workers are given it), the path as logagg prints it in messages, its size
    (0 if it is not a regular file), whether it is compressed, and the --range pieces of a large plain
    file (None: read whole)."""

    def __init__(self, doc):
        self.path = os.fsdecode(bytes.fromhex(doc["path_hex"])) if "path_hex" in doc else doc["path"]
        self.shown = doc["shown"]
        self.size = doc["bytes"] or 0
        self.compressed = doc["compression"] not in (None, "plain")
        self.ranges = doc.get("ranges")


def expand(logagg, paths, include, exclude, piece_size):
    """The input files in logagg's order, the piece size in bytes, and what logagg says about the paths it
    cannot read ("PATH: reason"). Globs that name no existing path are expanded here (sorted, or kept as
    given if nothing matches); everything else is `logagg --list-inputs`, so the inputs are always the
    ones that one logagg run would read. The paths are made absolute first: the workers run elsewhere,
    and logagg there names them as they are listed here. Exits as logagg did if it fails."""
    args = []
    for arg in paths:
        if not os.path.lexists(arg) and glob.has_magic(arg):
            args += sorted(glob.glob(arg, recursive=True), key=os.fsencode) or [arg]
        else:
            args.append(arg)
    # A flag before the paths: right after a repeatable option such as --exclude, the command-line
    # parser would take them for more of its values. They are absolute, so none starts with '-'.
    cmd = [logagg] + [f"--include={g}" for g in include] + [f"--exclude={g}" for g in exclude]
    cmd += ["--format=json", f"--piece-size={piece_size}", "--list-inputs"]
    r = subprocess.run(cmd + [os.path.abspath(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode == 2:   # a usage error, such as a bad --piece-size: logagg's message
        sys.stderr.write(os.fsdecode(r.stderr))
        sys.exit(2)
    if r.returncode not in (0, 1):
        sys.stderr.write(f"{PROG}: {logagg} --list-inputs failed: " + os.fsdecode(r.stderr).strip() + "\n")
        sys.exit(1)
    doc = json.loads(r.stdout)
    prefix = b"logagg: "
    errors = [os.fsdecode(line[len(prefix):] if line.startswith(prefix) else line)
              for line in r.stderr.splitlines() if line.strip()]
    return [Input(i) for i in doc["inputs"]], doc["piece_size"], errors


class Piece:
    """Work for one task: one file's byte range, or several whole files (Input objects)."""

    def __init__(self, inputs, start=None, end=None, size=0):
        self.inputs, self.start, self.end, self.size = inputs, start, end, size

    def range_arg(self):
        return None if self.start is None else f"{self.start}:{'' if self.end is None else self.end}"

    def describe(self, i):
        return f"{i.shown} [{self.range_arg() or f'0:{i.size}'}]"


def plan(inputs, piece_size):
    """Pieces of about piece_size bytes of work: a file logagg cut into ranges, one piece per range; the
    others bundled whole, in order (a compressed file cannot be cut)."""
    pieces, bundle, bundle_size = [], [], 0

    def flush():
        nonlocal bundle, bundle_size
        if bundle:
            pieces.append(Piece(bundle, size=bundle_size))
        bundle, bundle_size = [], 0

    for i in inputs:
        if i.ranges:
            flush()
            pieces += [Piece([i], start, end, (end or i.size) - start) for start, end in i.ranges]
            continue
        work = i.size * COMPRESSED_WEIGHT if i.compressed else i.size
        if bundle and bundle_size + work > piece_size:
            flush()
        bundle.append(i)
        bundle_size += work
    flush()
    return pieces

# ---------------------------------------------------------------- map and reduce (run on the workers)


def run_piece(logagg, options, files, range_arg, threads):
    """Runs logagg on one piece; returns its JSON result or raises RuntimeError(PROG, stderr, partial)."""
    from distributed import get_worker
    try:
        n = threads.get(get_worker().address, 1) if isinstance(threads, dict) else threads
    except ValueError:
        n = 1
    cmd = [logagg, "--format", "json", "-q", "--threads", str(n)] + options
    if range_arg is not None:
        cmd += ["--range", range_arg]
    cmd += files   # absolute paths (expand)
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise RuntimeError(PROG, f"cannot run {logagg}: {e.strerror}", None)
    if r.returncode == 0:
        return r.stdout
    partial = None
    if r.returncode == 1:   # some input could not be read; logagg still counted the rest
        try:
            json.loads(r.stdout)
            partial = r.stdout
        except ValueError:
            pass
    reason = r.stderr.strip() or (f"logagg killed by signal {-r.returncode}" if r.returncode < 0
                                  else f"logagg exited with status {r.returncode}")
    raise RuntimeError(PROG, reason, partial)


def merge_results(logagg, *results):
    """`logagg merge --format json` of JSON results, on a worker."""
    with tempfile.TemporaryDirectory(prefix="logagg-dask-") as tmp:
        names = []
        for i, text in enumerate(results):
            names.append(os.path.join(tmp, f"{i}.json"))
            with open(names[-1], "w") as f:
                f.write(text)
        r = subprocess.run([logagg, "merge", "--format", "json"] + names, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError(PROG, "logagg merge: " + (r.stderr.strip() or f"exit status {r.returncode}"), None)
    return r.stdout

# ---------------------------------------------------------------- driver


def threads_per_worker(client):
    """logagg threads per task: a node's cores shared by the worker threads on that node."""
    info = client.scheduler_info()["workers"]
    cores = client.run(os.cpu_count)
    per_host = {}
    for addr, w in info.items():
        per_host.setdefault(w["host"], []).append(addr)
    out = {}
    for host, addrs in per_host.items():
        slots = sum(info[a]["nthreads"] for a in addrs)
        for a in addrs:
            out[a] = max(1, (cores.get(a) or 1) // max(1, slots))
    return out


def report_failure(piece, exc):
    """Prints `logagg-dask: PATH [START:END]: reason` for a piece that failed for good."""
    reason = exc.args[1] if isinstance(exc, RuntimeError) and exc.args[:1] == (PROG,) else \
        f"{type(exc).__name__}: {exc}"
    lines = [ln for ln in reason.splitlines() if ln.strip()] or [reason]
    for line in lines:
        named = None
        for i in piece.inputs:   # logagg on the worker names the path as it was listed here
            prefix = f"logagg: {i.shown}: "
            if line.startswith(prefix):
                named, line = i, line[len(prefix):]
        if named is None and len(piece.inputs) == 1:
            named = piece.inputs[0]
        if named is None:
            where = ", ".join(piece.describe(i) for i in piece.inputs)
        else:
            where = piece.describe(named)
        sys.stderr.write(f"{PROG}: {where}: {line}\n")


def partial_of(piece, exc):
    """What a failed piece counted, if logagg printed a result, with an unreadable file counted once."""
    if not (isinstance(exc, RuntimeError) and exc.args[:1] == (PROG,) and exc.args[2]):
        return None
    doc = json.loads(exc.args[2])
    if piece.start:          # the range at 0 of this file counts it (as files or as unreadable)
        doc["summary"]["unreadable"] = 0
    return json.dumps(doc)


def start_empty_result(logagg, options):
    """Starts logagg on no input with the pieces' options: it checks them, while this process goes on."""
    return subprocess.Popen([logagg, "--format", "json", "-q", "--threads", "1"] + options + ["/dev/null"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def empty_result(check):
    """The result of no input from start_empty_result; exits on a usage error (status 2) as logagg did."""
    out, err = check.communicate()
    if check.returncode != 0:
        sys.stderr.write(err)
        sys.exit(2 if check.returncode == 2 else 1)
    doc = json.loads(out)
    doc["summary"]["files"] = 0
    return doc


def distribute(client, a, logagg, options, pieces):
    """Map and tree-reduce on the cluster; returns (merged JSON results, extra local results, failed?)."""
    from distributed import as_completed
    threads = a.task_threads or threads_per_worker(client)
    futures = {}
    for p in pieces:
        f = client.submit(run_piece, logagg, options, [i.path for i in p.inputs], p.range_arg(), threads,
                          pure=False, retries=a.retries)
        futures[f] = p
    ac = as_completed(list(futures))
    ready, merging, extra, failed = [], {}, [], False
    for fut in ac:
        if fut.status != "finished":
            exc = fut.exception()
            if fut in futures:
                failed = True
                report_failure(futures[fut], exc)
                partial = partial_of(futures[fut], exc)
                if partial:
                    extra.append(partial)
            else:   # a merge failed for good: say so, and merge its inputs here instead
                reason = exc.args[1] if isinstance(exc, RuntimeError) and exc.args[:1] == (PROG,) else exc
                sys.stderr.write(f"{PROG}: a merge on the cluster failed, merging its results here: {reason}\n")
                extra += client.gather(merging.pop(fut))
        else:
            merging.pop(fut, None)
            ready.append(fut)
        # Merge on the cluster while pieces are still being counted; what is left at the end
        # joins the final merge here, which saves a round trip on the critical path.
        while len(ready) >= a.fan_in and ac.count() > 0:
            group, ready = ready[:a.fan_in], ready[a.fan_in:]
            m = client.submit(merge_results, logagg, *group, pure=False, retries=a.retries)
            merging[m] = group
            ac.add(m)
    return client.gather(ready), extra, failed


def print_summary(doc, seconds, npieces, nworkers):
    s = doc["summary"]
    mib = s["bytes"] / (1 << 20)
    size = f"{mib / 1024:.1f} GiB" if mib >= 1024 else f"{mib:.1f} MiB" if mib >= 1 else f"{s['bytes'] / 1024:.1f} KiB"
    rate = mib / seconds if seconds > 0 else 0.0
    out = [f"{PROG}: {s['files']} file{'' if s['files'] == 1 else 's'} ({s['unreadable']} unreadable), {size}, "
           f"{s['lines']} lines in {seconds:.3f} s ({rate:.1f} MiB/s), {npieces} piece"
           f"{'' if npieces == 1 else 's'} on {nworkers} worker{'' if nworkers == 1 else 's'}"]
    for key in ("counted", "blank", "rejected", "filtered"):  # filtered: only with --where
        if key in s:
            out.append(f"  {key:<30}{s[key]:>10}")
    sys.stderr.write("\n".join(out) + "\n")


def main(argv):
    t0 = time.monotonic()
    a = parse_args(argv)
    marks = []

    def mark(what):
        marks.append((what, time.monotonic()))
    logagg = find_logagg(a.logagg)
    options = piece_options(a)
    check = start_empty_result(logagg, options)
    inputs, piece_size, walk_errors = expand(logagg, a.paths, a.include, a.exclude, a.piece_size)
    pieces = plan(inputs, piece_size)
    if not a.plan:
        from distributed import Client, LocalCluster  # the slow import, while logagg checks the options
    empty = empty_result(check)
    if a.plan:
        for p in pieces:
            print(f"{p.size}\t{p.range_arg() or 'whole'}\t" + " ".join(i.shown for i in p.inputs))
        return 0
    for error in walk_errors:
        sys.stderr.write(f"{PROG}: {error}\n")
    status = 1 if walk_errors else 0
    start = time.monotonic()
    mark("plan")
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)
    try:
        nworkers = len(client.scheduler_info()["workers"])
        mark("connect" if a.scheduler else "start local cluster")
        merged, extra, failed = distribute(client, a, logagg, options, pieces) if pieces else ([], [], False)
        mark("map and reduce")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        mark("disconnect" if a.scheduler else "stop local cluster")
    status = 1 if failed else status

    with tempfile.TemporaryDirectory(prefix="logagg-dask-") as tmp:
        docs = merged + extra
        if walk_errors or not docs:
            doc = dict(empty)
            doc["summary"] = dict(empty["summary"], unreadable=len(walk_errors))
            docs.append(json.dumps(doc))
        names = []
        total = None
        for i, text in enumerate(docs):
            names.append(os.path.join(tmp, f"{i}.json"))
            with open(names[-1], "w") as f:
                f.write(text)
            s = json.loads(text)["summary"]
            # The line counts, added up (the lists, such as the warnings, come from `logagg merge` below).
            total = {k: (total or {}).get(k, 0) + v for k, v in s.items() if isinstance(v, (int, float))}
        if not a.quiet:
            print_summary({"summary": total}, time.monotonic() - start, len(pieces), nworkers)
        sys.stdout.flush()
        cmd = [logagg, "merge"] + (["--plot"] if a.plot else ["--format", a.format]) + \
            (["--fill-gaps"] if a.fill_gaps else []) + (["--stats"] if a.stats else []) + \
            (["--top", str(a.top)] if a.top else []) + ["--unit=" + u for u in a.unit] + names
        r = subprocess.run(cmd)
        if r.returncode != 0:
            status = 1
    mark("final merge")
    if a.timings:
        prev = t0
        for what, t in marks:
            sys.stderr.write(f"{PROG}: {what:<22}{t - prev:8.3f} s\n")
            prev = t
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
