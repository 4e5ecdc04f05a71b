#!/usr/bin/env python3
"""Writes the walkthrough's REPORT.md from what walkthrough.sh measured.

Reads, in the output folder OUT:
  run.tsv              KEY<TAB>VALUE lines: log, bytes, lines, passes, runs, machine, perf, ...
  stages.tsv           NUMBER<TAB>NAME<TAB>CHANGE (logagg-walkthrough --list)
  timings.tsv          ROW<TAB>LABEL<TAB>ELAPSED...<TAB>CPU... (seconds, one per run of --passes passes)
  stageN.folded.txt    perf's folded stacks of stage N (perf script report stackcollapse)
  stageN/record.tsv    KEY<TAB>VALUE: frequency, passes of stage N's recorded run
and links the flame graphs stageN.html beside it.

Usage: make_report.py OUT
"""
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from folded_stacks import read_folded  # noqa: E402  (profiling/folded_stacks.py)

# Each sample is put in the piece of the innermost frame on its stack that
# belongs to one (stages 0-3 call their pieces through a virtual call or a
# function pointer, so those frames always exist; stage 4's come from the
# engine's own functions). Names are the simplified ones (folded_stacks.simplify).
PIECES = [
    ("JSON", ("NlohmannReader::read", "SimdjsonReader::read", "logagg::LineParser::", "logagg::BlockParser::")),
    ("timestamp", ("logagg::walkthrough::date_parse_second", "logagg::parse_rfc3339")),
    ("app id", ("logagg::walkthrough::regex_app_id", "logagg::is_valid_app_id")),
    ("counting", ("logagg::walkthrough::count_second", "logagg::Counter::", "logagg::SharedCounts::")),
    ("reading lines", ("std::getline", "logagg::scan_lines", "logagg::StreamReader::")),
]
OTHER = "other"
PIECE_NAMES = [name for name, _ in PIECES] + [OTHER]

# What stage N+1 swaps, by piece: the walkthrough's steps.
SWAPPED_NEXT = {0: "JSON", 1: "timestamp", 2: "app id"}


def read_tsv(path):
    return [line.rstrip("\n").split("\t") for line in path.read_text().splitlines() if line.strip()]


def piece_of(frames):
    for frame in reversed(frames):
        for piece, patterns in PIECES:
            if any(p in frame for p in patterns):
                return piece
    return OTHER


# Where a completely unwound stack starts: the main thread, other threads.
THREAD_ENTRIES = ("_start", "clone3", "clone")


def profile(stacks):
    total = sum(n for _, n in stacks) or 1
    pieces = dict.fromkeys(PIECE_NAMES, 0)
    self_time, complete, unknown_leaf, unknown_inner, unknown_parents = {}, 0, 0, 0, {}
    for frames, n in stacks:
        pieces[piece_of(frames)] += n
        leaf = frames[-1] if frames else "[unknown]"
        self_time[leaf] = self_time.get(leaf, 0) + n
        complete += n if frames and frames[0] in THREAD_ENTRIES else 0
        if leaf == "[unknown]":
            unknown_leaf += n
        elif "[unknown]" in frames[1:]:  # first: where an incomplete unwinding stopped
            unknown_inner += n
            parent = frames[frames.index("[unknown]", 1) - 1]
            unknown_parents[parent] = unknown_parents.get(parent, 0) + n
    return {
        "total": sum(n for _, n in stacks),
        "pieces": {k: v / total for k, v in pieces.items()},
        "self": sorted(((v / total, k) for k, v in self_time.items()), reverse=True),
        "complete": complete / total,
        "unknown_leaf": unknown_leaf / total,
        "unknown_inner": unknown_inner / total,
        "unknown_parent": max(unknown_parents, key=unknown_parents.get) if unknown_parents else None,
    }


def unwinding(p):
    """One sentence on how well the stacks were unwound and named."""
    text = f"Unwinding: {pct(p['complete'])} of the samples reach their thread's start (`_start`, `clone3`)"
    if p["complete"] < 0.995:
        text += "; perf's DWARF unwinder gave up part way on the rest"
    if p["unknown_leaf"] > 0:
        text += f"; {pct(p['unknown_leaf'])} end in an `[unknown]` frame"
    else:
        text += "; none ends in an `[unknown]` frame"
    if p["unknown_inner"] > 0:
        text += (f"; {pct(p['unknown_inner'])} pass through one, mostly under `{p['unknown_parent']}` "
                 "(a library function whose symbol Debian strips)")
    return text + "."


def plural(n, one, many):
    return f"{n} {one if int(n) == 1 else many}"


def pct(x):
    return f"{100 * x:.0f}%" if x >= 0.005 or x == 0 else "<1%"


def main():
    out = Path(sys.argv[1])
    run = dict(read_tsv(out / "run.tsv"))
    stages = read_tsv(out / "stages.tsv")
    timings = read_tsv(out / "timings.tsv")
    seconds = {row: statistics.median(float(s) for s in values.split()) for row, _, values, _ in timings}
    cpu = {row: statistics.median(float(s) for s in values.split()) for row, _, _, values in timings}
    labels = {row: label for row, label, _, _ in timings}
    profiles = {int(n): profile(read_folded(out / f"stage{n}.folded.txt")) for n, _, _ in stages}
    records = {int(n): dict(read_tsv(out / f"stage{n}" / "record.tsv")) for n, _, _ in stages}
    mb = int(run["bytes"]) / 1e6

    lines = [
        "# Profiling walkthrough: from the Java aggregator's C++ twin to the engine",
        "",
        f"Made by `profiling/walkthrough.sh` on {run['date']}. Log: `{run['log']}`, "
        f"{mb:,.0f} MB, {int(run['lines']):,} lines. Each run makes {plural(run['passes'], 'pass', 'passes')} over "
        f"the log in one process; the table shows the median of {plural(run['runs'], 'run', 'runs')}. "
        f"Machine: {run['machine']}; load average {run['load']} at the end of the timed runs"
        + (" (shared with other work: elapsed times are longer than CPU times). " if float(run["load"]) > 1.5
           else ". ") +
        f"Profiles: {run['perf']}, `perf record -e cpu-clock --call-graph dwarf` (no hardware counters here).",
        "",
        "All stages printed byte-identical reports (the JSON report: counts and line accounting by reason)"
        + (", equal to the generator's expected counts." if run.get("expected") == "yes" else "."),
        "",
        "| stage | what changed | elapsed (s) | CPU (s) | speedup vs previous | vs baseline | MB/s | flame graph |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    base = seconds["0"]
    previous = None
    for row, _, _, _ in timings:
        s = seconds[row]
        n = int(row.split("-")[0])
        change = stages[n][2] if row == str(n) else "the same, on one thread"
        graph = f"[stage{n}.html](stage{n}.html)" if row == str(n) else ""
        vs_prev = f"{previous / s:.2f}x" if previous else "-"
        lines.append(f"| {labels[row]} | {change} | {s:.3f} | {cpu[row]:.3f} | {vs_prev} | {base / s:.2f}x | "
                     f"{mb * int(run['passes']) / s:,.0f} | {graph} |")
        if row == str(n):
            previous = s
    lines += [
        "",
        "Elapsed is wall-clock time, which the speedups compare; CPU is user + system time of all threads, "
        "which depends less on other load on the machine. Speedup vs previous compares each stage with the stage "
        "above it that has a flame graph.",
        "",
        "## Where the time goes",
        "",
        "Share of each stage's samples by piece: a sample belongs to the innermost piece on its stack "
        "(JSON reader, timestamp parser, app id check, counting, reading and splitting lines; `other` is the "
        "loop itself, start-up and the report).",
        "",
        "| piece | " + " | ".join(f"{n} {name}" for n, name, _ in stages) + " |",
        "|---|" + "---:|" * len(stages),
    ]
    for piece in PIECE_NAMES:
        lines.append(f"| {piece} | " + " | ".join(pct(profiles[int(n)]["pieces"][piece]) for n, _, _ in stages)
                     + " |")
    lines.append("| samples | " + " | ".join(f"{profiles[int(n)]['total']:,}" for n, _, _ in stages) + " |")
    lines.append("")
    lines += [
        "The same in CPU seconds (share times the stage's median CPU time), to see what each swap saved and "
        "whether the other pieces changed too:",
        "",
        "| piece | " + " | ".join(f"{n} {name}" for n, name, _ in stages) + " |",
        "|---|" + "---:|" * len(stages),
    ]
    for piece in PIECE_NAMES:
        lines.append(f"| {piece} | " + " | ".join(f"{cpu[n] * profiles[int(n)]['pieces'][piece]:.3f}"
                                                   for n, _, _ in stages) + " |")
    lines.append("")

    for n, name, _ in stages:
        n = int(n)
        p = profiles[n]
        ranked = sorted(((v, k) for k, v in p["pieces"].items() if k != OTHER), reverse=True)
        widest_share, widest = ranked[0]
        lines += [f"## Stage {n}: {name}", ""]
        sentence = (f"Flame graph: [stage{n}.html](stage{n}.html) ({p['total']:,} samples at "
                    f"{records[n]['frequency']} Hz over {plural(records[n]['passes'], 'pass', 'passes')}; folded stacks: "
                    f"`stage{n}.folded.txt`). Widest piece: {widest}, {pct(widest_share)} of the samples.")
        swapped = SWAPPED_NEXT.get(n)
        if swapped is not None and str(n + 1) in seconds:
            share, after = p["pieces"][swapped], profiles[n + 1]
            bound = 1 / (1 - share) if share < 1 else float("inf")
            speedup = cpu[str(n)] / cpu[str(n + 1)]
            sentence += (f" Stage {n + 1} replaces the {swapped} piece: without it at all, this stage would be at "
                         f"most {bound:.2f}x faster; with the replacement it was {seconds[str(n)] / seconds[str(n + 1)]:.2f}x "
                         f"faster ({speedup:.2f}x in CPU time).")
            if speedup > bound * 1.02:
                rest_before = cpu[str(n)] * (1 - share)
                rest_after = cpu[str(n + 1)] * (1 - after["pieces"][swapped])
                sentence += (f" More than the flame graph promised: the other pieces took {rest_after:.2f} s of CPU "
                             f"instead of {rest_before:.2f} s (see the table of CPU seconds by piece).")
        sentence += " " + unwinding(p)
        lines += [sentence, "", "| top frames (self time) | share |", "|---|---:|"]
        for share, frame in p["self"][:8]:
            lines.append(f"| `{frame}` | {pct(share)} |")
        lines.append("")

    (out / "REPORT.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
