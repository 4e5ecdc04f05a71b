#!/usr/bin/env bash
# Incremental-run benchmark (--state): a folder of thousands of log files of
# which only a little is new costs about the new bytes plus a stat per file.
#
#   profiling/state_bench.sh [--runs N] [--mb SIZE] [--file-kb SIZE] [--new-kb SIZE]
#
# Generates SIZE MB (default 1024) with loggen once into profiling/data/state/,
# cuts it into files of --file-kb KB (default 256: 4,096 files for 1 GiB),
# counts it once with --state, then appends --new-kb KB (default 1024) of new
# lines to one file. Prints medians over --runs runs (default 5, after a
# warm-up, warm page cache) of: the incremental run over the folder (from a
# copy of the state each time), the same with nothing new, logagg over the new
# bytes alone, and a stat of every file (find -printf), and the ratio of the
# incremental run to the last two together. The incremental run's total must
# equal a plain run over the folder.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
mb=1024
file_kb=256
new_kb=1024
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift;;
    --mb) mb=$2; shift;;
    --file-kb) file_kb=$2; shift;;
    --new-kb) new_kb=$2; shift;;
    -h|--help) sed -n '2,15p' "$0"; exit 0;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
  shift
done

cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
bin=build/release/apps/logagg
measure=build/release/profiling/measure
loggen=build/release/data/generator/loggen
data=profiling/data/state
big=$data/big-${mb}m.log
folder=$data/folder-${mb}m-${file_kb}k
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -f "$big" ]; then
  mkdir -p "$data"
  "$loggen" --seed 7 --bytes "${mb}M" --dirty 0.02 --shuffle 0.2 -o "$big"
fi
rm -rf "$folder"  # the last file is appended to below: start from the split each time
"$bin" split -q --max-size "${file_kb}K" "$big" "$folder"
files=$(find "$folder" -type f | wc -l)
"$loggen" --seed 8 --bytes "${new_kb}K" --dirty 0.02 -o "$work/new.log"

start=$(date +%s.%N)
"$bin" --state "$work/base.state" -q "$folder" >/dev/null
first=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
last=$(find "$folder" -type f | sort | tail -1)
cat "$work/new.log" >> "$last"
cp "$work/base.state" "$work/check.state"
[ "$("$bin" --state "$work/check.state" -q --format csv "$folder" | md5sum)" = "$("$bin" -q --format csv "$folder" | md5sum)" ] ||
  { echo "the incremental total differs from a plain run over $folder" >&2; exit 1; }
cp "$work/base.state" "$work/done.state"
"$bin" --state "$work/done.state" -q "$folder" >/dev/null  # this one has seen the new bytes

cat > "$work/incremental.sh" <<SCRIPT
#!/bin/sh
cp "$work/\$1" "$work/run.state" && exec "$bin" --state "$work/run.state" -q "$folder"
SCRIPT
chmod +x "$work/incremental.sh"

echo "data: $files files, $(du -sb "$folder" | cut -f1) bytes; $((new_kb * 1024)) new bytes in one file; state $(stat -c %s "$work/base.state") bytes"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $runs runs, median, warm page cache"
plain=$("$measure" 3 "$bin" -q "$folder" | cut -d' ' -f1)
echo "the first run over everything: $first s (a plain run over the folder, median of 3: $plain s)"
echo
echo "| run | seconds |"
echo "|---|---:|"
median() { "$measure" "$runs" "$@" | cut -d' ' -f1; }
inc=$(median "$work/incremental.sh" base.state)
idle=$(median "$work/incremental.sh" done.state)
copy=$(median cp "$work/base.state" "$work/copy.state")
alone=$(median "$bin" -q "$work/new.log")
stats=$(median find "$folder" -type f -printf '%s %T@\n')
printf '| --state, %s KB new | %.3f |\n| --state, nothing new | %.3f |\n| (copying the state, in both) | %.3f |\n' "$new_kb" "$inc" "$idle" "$copy"
printf '| logagg over the new bytes alone | %.3f |\n| a stat of every file (find -printf) | %.3f |\n' "$alone" "$stats"
echo
awk -v i="$inc" -v c="$copy" -v a="$alone" -v s="$stats" \
  'BEGIN { printf "incremental run / (new bytes alone + a stat per file): %.2f\n", (i - c) / (a + s) }'
