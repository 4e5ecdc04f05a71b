#!/usr/bin/env bash
# Batch-job benchmark: the same log as one big file, as thousands of small
# files, and as a folder of mixed plain, gzip and zstd files, side by side.
#
#   profiling/batch_bench.sh [--runs N] [--mb SIZE] [--file-kb SIZE]
#
# Generates SIZE MB (default 100) with loggen once into profiling/data/batch/,
# cuts it into files of --file-kb KB (default 10, so 10,000 files) with
# `logagg split`, and makes a mixed folder of the same files: a third each
# plain, gzip -6 and zstd -3. The two folders must print the same counts, and
# the same number of lines as the big file. Builds the release preset first. Prints medians over --runs runs
# (default 5, after a warm-up) with the throughput of the uncompressed bytes.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
mb=100
file_kb=10
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift;;
    --mb) mb=$2; shift;;
    --file-kb) file_kb=$2; shift;;
    -h|--help) sed -n '2,12p' "$0"; exit 0;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
  shift
done

cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
bin=build/release/apps/logagg
measure=build/release/profiling/measure
data=profiling/data/batch
big=$data/big-${mb}m.log
small=$data/small-${mb}m-${file_kb}k
mixed=$data/mixed-${mb}m-${file_kb}k

if [ ! -f "$big" ]; then
  mkdir -p "$data"
  build/release/data/generator/loggen --seed 7 --bytes "${mb}M" --dirty 0.02 --shuffle 0.2 -o "$big"
fi
if [ ! -d "$small" ]; then
  "$bin" split -q --max-size "${file_kb}K" "$big" "$small"
fi
if [ ! -d "$mixed" ]; then
  mkdir -p "$mixed"
  i=0
  for f in "$small"/*; do
    case $((i % 3)) in
      0) cp "$f" "$mixed/";;
      1) gzip -6 -c "$f" > "$mixed/$(basename "$f").gz";;
      2) zstd -q -3 -c "$f" > "$mixed/$(basename "$f").zst";;
    esac
    i=$((i + 1))
  done
fi

# The small files and the mixed folder must count exactly alike. Against the
# big file only the line total is compared: a dirty line that starts with a
# UTF-8 BOM is invalid inside a file but valid at the start of a small one.
[ "$("$bin" -q --format csv "$small" | md5sum)" = "$("$bin" -q --format csv "$mixed" | md5sum)" ] ||
  { echo "$mixed counts differ from $small" >&2; exit 1; }
lines_of() { "$bin" --format json "$1" 2>/dev/null | grep -m1 '"lines"' | tr -dc 0-9; }
[ "$(lines_of "$big")" = "$(lines_of "$small")" ] || { echo "$small has other lines than $big" >&2; exit 1; }

bytes=$(stat -c %s "$big")
files=$(find "$small" -type f | wc -l)
on_disk=$(du -sb "$mixed" | cut -f1)
echo "data: $bytes bytes of log; $files files of about ${file_kb} KB; the mixed folder is $on_disk bytes on disk"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $runs runs, median, warm page cache"
echo
echo "| input | files | seconds | GB/s (uncompressed) | vs one big file |"
echo "|---|---:|---:|---:|---:|"
row() {
  local name=$1 nfiles=$2; shift 2
  local s r
  read -r s r _ < <("$measure" "$runs" "$@")
  awk -v name="$name" -v n="$nfiles" -v s="$s" -v b="$bytes" -v one="${one:-$s}" \
    'BEGIN { printf "| %s | %d | %.3f | %.2f | %.2f |\n", name, n, s, b / s / 1e9, one / s }'
  last=$s
}
row "one big file" 1 "$bin" -q --format csv "$big"; one=$last
row "${files} files of ${file_kb} KB" "$files" "$bin" -q --format csv "$small"
row "same files, 1/3 each plain, gzip, zstd" "$files" "$bin" -q --format csv "$mixed"
