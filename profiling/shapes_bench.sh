#!/usr/bin/env bash
# Whole-program throughput of each log shape the field, time-format and
# app-pattern options read, against the default shape, on the same traffic:
# one loggen corpus, rewritten by reshape.py into each shape (the same lines;
# only the field the shape is about changes). One thread, warm page cache;
# each command runs once to warm up, then RUNS times; the table shows medians
# and each shape's throughput (bytes per CPU second: user + system, on one
# thread the same as the wall time on a quiet machine, and still a fair ratio
# on a busy one) as a ratio to the default's. The shapes' files differ a little
# in size (a pointer adds bytes, an epoch number takes fewer than RFC 3339), so
# the table also gives lines per CPU second and their ratio.
#
#   profiling/shapes_bench.sh [--runs N] [--bytes SIZE]
#
# The corpora are generated once into profiling/data/shapes-SIZE/ and reused
# (SIZE defaults to 256M). Builds the release preset first.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
size=256M
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift;;
    --bytes) size=$2; shift;;
    -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0;;
    *) echo "shapes_bench.sh: unknown argument '$1'" >&2; exit 2;;
  esac
  shift
done

cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
bin=build/release/apps/logagg
measure=build/release/profiling/measure
dir=profiling/data/shapes-$size

corpus() {  # the corpus of one shape, made on first use
  local file=$dir/$1.log
  if [ ! -f "$file" ]; then
    mkdir -p "$dir"
    if [ "$1" = default ]; then
      echo "generating $file ($size) ..." >&2
      build/release/data/generator/loggen --seed 1 --bytes "$size" --dirty 0.02 --shuffle 0.2 -o "$file.tmp"
    else
      echo "writing $file ..." >&2
      python3 profiling/reshape.py "$1" < "$(corpus default)" > "$file.tmp"
    fi
    mv "$file.tmp" "$file"
  fi
  echo "$file"
}

lines=$(wc -l < "$(corpus default)")
echo "corpus: $(corpus default) and its reshaped copies ($lines lines each); 1 thread; $runs runs, median, warm page cache"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo
echo "| shape | options | counted | MB | seconds | CPU seconds | MB/s of CPU | M lines/s of CPU | MB/s vs default | lines/s vs default |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"

# One row: name, shape of the corpus, then logagg's options.
row() {
  local name=$1 file
  file=$(corpus "$2")
  shift 2
  local counted s cpu
  # Each corpus is read into the page cache the same way first (evicted, then
  # read by readahead): how a file was written (loggen's large writes, Python's
  # small ones) changes the page-cache folios its mapping faults in, and with
  # them the run's time (docs/performance.md#log-shapes-fields-time-formats-app-patterns).
  dd if="$file" iflag=nocache count=0 status=none
  counted=$("$bin" --threads 1 --format csv "$@" "$file" 2>&1 >/dev/null | awk '$1 == "counted" { print $2 }')
  read -r s _ cpu < <("$measure" "$runs" "$bin" -q --format csv --threads 1 "$@" "$file")
  local bytes
  bytes=$(stat -c %s "$file")
  awk -v name="$name" -v opts="${*:-(none)}" -v c="$counted" -v b="$bytes" -v s="$s" -v cpu="$cpu" -v l="$lines" \
    -v base="${base:-$((bytes))/$cpu}" \
    'BEGIN { split(base, f, "/"); printf "| %s | `%s` | %d | %.1f | %.3f | %.3f | %.0f | %.2f | %.1f%% | %.1f%% |\n",
             name, opts, c, b / 1e6, s, cpu, b / cpu / 1e6, l / cpu / 1e6, b / cpu / (f[1] / f[2]) * 100, f[2] / cpu * 100 }'
  if [ -z "${base:-}" ]; then base=$bytes/$cpu; fi
}

row "default (top-level, RFC 3339, letters and digits)" default
row "pointer two levels deep" pointer --app-field /request/app_id
row "unix seconds, JSON numbers with fractions" unix --time-format unix
row "unix-ms, JSON integers" unix-ms --time-format unix-ms
row "clf" clf --time-format clf
row "a pattern, '%Y-%m-%d %H:%M:%S'" pattern --time-format '%Y-%m-%d %H:%M:%S' --input-tz UTC
row "one class (byte table)" default --app-pattern '[A-Za-z0-9.-]+'
row "general RE2 pattern" default --app-pattern '[A-Za-z0-9]+([.-][A-Za-z0-9]+)*'
row "per app (--by-app), the default shape" default --by-app
