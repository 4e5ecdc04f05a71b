#!/usr/bin/env bash
# The profiling walkthrough in one command: the Java access-log aggregator's
# C++ twin made fast one flame graph at a time (profiling/walkthrough/stages.h).
#
#   profiling/walkthrough.sh [--smoke] [--passes N] [--runs N] [LOG]
#
# Builds logagg-walkthrough with symbols and frame pointers (build/profile;
# LOGAGG_PROFILE_BUILD=DIR uses another build, see flame_record.sh),
# checks that every stage prints the same report for LOG, and, when loggen's
# expectations for LOG are beside it (LOG without .log, plus .csv and
# .summary.json, as for the logs this script generates), that stage 4 prints
# the counts and line accounting loggen computed, times each stage
# (RUNS runs of PASSES passes over LOG, median), records each with perf
# (cpu-clock, DWARF call graphs: Debian's libstdc++ and simdjson have no frame
# pointers) and writes to profiling/out/:
#   REPORT.md           stages, times, speedups, where the time goes, top frames
#   stageN.html         interactive flame graph (perf's flamegraph script, d3-flame-graph)
#   stageN.folded.txt   folded stacks (perf's stackcollapse script)
#   stageN/perf.data    the recording, for perf report -i
# and checks stage 0's flame graph in headless Chromium.
#
# LOG defaults to profiling/data/walkthrough-256m.log, generated once: 256 MiB
# of the same kind as bench.sh's 1 GiB corpus (which works too: pass its path).
# PASSES defaults to 1, RUNS to 5; runs go round the stages in turns.
# --smoke: a 20,000-line generated log, 1 run of 1 pass, short recordings, and
# checks that the report and every flame graph were written; CI runs it.
# Needs perf, python3, npm and chromium: scripts/install-deps.sh --profiling.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. profiling/flame_record.sh

smoke=false
passes=1
runs=5
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=true;;
    --passes) passes=$2; shift;;
    --runs) runs=$2; shift;;
    -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0;;
    *) log=$1;;
  esac
  shift
done

out=profiling/out
bin=$profile_build/profiling/walkthrough/logagg-walkthrough
loggen=$profile_build/data/generator/loggen
record_seconds=2   # each recording spans at least this long ...
record_samples=2000  # ... and takes about this many samples
if $smoke; then
  passes=1 runs=1 record_seconds=0.3 record_samples=300
fi
say() { echo "walkthrough: $*" >&2; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

mkdir -p "$out"
rm -rf "$out"/REPORT.md "$out"/stage* "$out"/*.tsv "$out"/smoke.*

say "building $bin"
build_for_profiling "$out/build.log" logagg-walkthrough loggen

if $smoke; then
  log=$out/smoke.log
  "$loggen" --seed 7 --lines 20000 --dirty 0.05 --crlf 0.1 -o "$log" --expected "$out/smoke.csv" \
    --expected-summary "$out/smoke.summary.json"
elif [ -z "$log" ]; then
  log=profiling/data/walkthrough-256m.log
  if [ ! -f "$log" ]; then
    mkdir -p "$(dirname "$log")"
    say "generating $log"
    "$loggen" --seed 1 --bytes 256M --dirty 0.02 --shuffle 0.2 -o "$log" --expected "${log%.log}.csv" \
      --expected-summary "${log%.log}.summary.json"
  fi
fi
[ -f "$log" ] || { say "$log: no such file"; exit 1; }
expected=${log%.log}.csv
expected_summary=${log%.log}.summary.json

"$bin" --list > "$out/stages.tsv"
stage_name() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$out/stages.tsv"; }
stages=$(cut -f1 "$out/stages.tsv")
threads=$(nproc)

# Timed runs, taken in turns (run 1 of every stage, then run 2, ...) so that
# other load on a shared machine spreads over all stages. A row is a stage, or
# 4-1: the engine on one thread.
rows=""
for stage in $stages; do
  if [ "$stage" = 4 ] && [ "$threads" -gt 1 ]; then rows="$rows 4-1"; fi
  rows="$rows $stage"
done
for run in $(seq "$runs"); do
  for row in $rows; do
    args=(--stage "${row%-1}" --passes "$passes")
    [ "$row" = 4-1 ] && args+=(--threads 1)
    "$bin" "${args[@]}" --format json "$log" > "$out/stage$row.json" 2> "$out/stage$row.time"
    read -r elapsed cpu < <(awk '{ print $(NF - 4), $(NF - 2) }' "$out/stage$row.time")
    echo "$elapsed" >> "$out/stage$row.times"
    echo "$cpu" >> "$out/stage$row.cpu"
  done
  say "run $run of $runs: $(for row in $rows; do printf '%s: %ss  ' "$row" "$(tail -1 "$out/stage$row.times")"; done)"
done
load=$(cut -d' ' -f1 /proc/loadavg)
for row in $rows; do
  stage=${row%-1}
  label="$stage $(stage_name "$stage")"
  if [ "$row" = 4-1 ]; then
    label="$label, 1 thread"
  elif [ "$row" = 4 ]; then
    label="$label, $threads threads"
  fi
  printf '%s\t%s\t%s\t%s\n' "$row" "$label" "$(paste -sd' ' "$out/stage$row.times")" \
    "$(paste -sd' ' "$out/stage$row.cpu")" >> "$out/timings.tsv"
done

# Every stage must print the engine's report: counts and line accounting.
for stage in $stages; do
  cmp -s "$out/stage$stage.json" "$out/stage4.json" ||
    { say "stage $stage's report differs from the engine's: diff $out/stage$stage.json $out/stage4.json"; exit 1; }
done
# Stage 4 (and so every stage) against the generator's own expectations.
has_expected=no
if [ -f "$expected" ]; then
  "$bin" --stage 4 --format csv "$log" 2>/dev/null | cmp -s - "$expected" ||
    { say "the reports differ from the generator's expected counts ($expected)"; exit 1; }
  has_expected=yes
fi
if [ -f "$expected_summary" ]; then
  python3 - "$out/stage4.json" "$expected_summary" <<'EOF' ||
import json, sys
got, want = json.load(open(sys.argv[1]))["summary"], json.load(open(sys.argv[2]))
same = all(got[k] == want[k] for k in ("lines", "counted", "blank")) and \
    got["rejected_by_reason"] == want["rejected"] and got["rejected"] == sum(want["rejected"].values())
sys.exit(0 if same else 1)
EOF
    { say "the line accounting differs from the generator's ($expected_summary)"; exit 1; }
fi
say "all stages printed the same report"

# One recording per stage, long enough for the frequency to stay at or under
# 999 Hz while taking about record_samples samples.
for stage in $stages; do
  dir=$out/stage$stage
  mkdir -p "$dir"
  median=$(median < "$out/stage$stage.times")
  used=1
  [ "$stage" = 4 ] && used=$threads
  read -r rec_passes freq < <(awk -v m="$median" -v p="$passes" -v s="$record_seconds" -v n="$record_samples" -v u="$used" '
    BEGIN { pass = m / p; k = int(s / pass); if (k * pass < s) k++; if (k < 1) k = 1
            f = int(n / (k * pass * u)); if (f > 999) f = 999; if (f < 49) f = 49; print k, f }')
  printf 'frequency\t%s\npasses\t%s\n' "$freq" "$rec_passes" > "$dir/record.tsv"
  say "recording stage $stage: $rec_passes pass(es) at $freq Hz"
  record_flame "$dir" "$freq" "$root/$flame_template" "$root/$out/stage$stage.html" "$root/$out/stage$stage.folded.txt" -- \
    "$bin" --stage "$stage" --passes "$rec_passes" --format csv "$log"
done

{
  printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'log\t%s\n' "$log"
  printf 'bytes\t%s\n' "$(stat -c %s "$log")"
  printf 'lines\t%s\n' "$(sed -n 's/.*"lines": *\([0-9]*\).*/\1/p' "$out/stage4.json")"
  printf 'passes\t%s\nruns\t%s\nexpected\t%s\nload\t%s\n' "$passes" "$runs" "$has_expected" "$load"
  printf 'machine\t%s, %s cores, %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
    "$threads" "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
  printf 'perf\t%s\n' "$(perf version)"
} > "$out/run.tsv"
python3 profiling/walkthrough/make_report.py "$out"

# The flame graph renders in a browser and shows stage 0's three pieces.
python3 profiling/walkthrough/check_flamegraph.py "$out/stage0.html" \
  NlohmannReader::read date_parse_second regex_app_id

if $smoke; then
  for stage in $stages; do
    grep -q "^| $stage $(stage_name "$stage")" "$out/REPORT.md" || { say "REPORT.md lacks stage $stage"; exit 1; }
    [ -s "$out/stage$stage.folded.txt" ] || { say "stage $stage: no folded stacks"; exit 1; }
    grep -q '"n": "logagg::' "$out/stage$stage.html" || { say "stage $stage: flame graph without logagg frames"; exit 1; }
  done
  say "smoke test passed"
fi
say "report: $out/REPORT.md"
