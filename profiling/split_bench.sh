#!/usr/bin/env bash
# Split benchmark, the case of the article behind issue 9: a file of 10 million
# lines "This is line number N" (266 MiB) cut into 1 MiB chunks by
#   logagg split --max-size 1M     (in-kernel copies, backward search for each cut;
#                                   chunks written by all hardware threads, then by one)
#   naive_split 1048576            (std::getline + std::ofstream, profiling/naive_split.cc)
#   split -C 1M                    (GNU coreutils)
# side by side. Each round runs every command once, in turn, so background load
# hits them alike; the table shows medians over the rounds. Before every run the
# output folder is emptied and the page cache flushed to disk (sync, not timed),
# so every command writes new files into a warm-read, clean-write cache. Every
# command's output is checked once: chunks concatenate to the input, each ends
# with a LF, none exceeds 1 MiB.
#
#   profiling/split_bench.sh [--runs N] [--build-dir DIR]
#
# Defaults: 5 rounds after one warm-up round; DIR build/release (configured
# with the release preset and built first). The input is generated once into
# profiling/data/lines-10m.log and reused; the chunks go to
# profiling/data/split-out/ (same file system), removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
build=build/release
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift;;
    --build-dir) build=$2; shift;;
    -h|--help) sed -n '2,20p' "$0"; exit 0;;
    *) echo "split_bench.sh: unknown argument $1" >&2; exit 2;;
  esac
  shift
done

cmake --preset release -B "$build" >/dev/null && cmake --build "$build" --target logagg naive_split >/dev/null
logagg=$build/apps/logagg
naive=$build/profiling/naive_split
input=profiling/data/lines-10m.log
out=profiling/data/split-out
max=1048576

if [ ! -f "$input" ]; then
  mkdir -p "$(dirname "$input")"
  echo "generating $input ..." >&2
  seq 1 10000000 | sed 's/^/This is line number /' > "$input"
fi
trap 'rm -rf "$out"' EXIT

threads=$(nproc)
names=("logagg split ($threads threads, the default)" "logagg split --threads 1" "naive getline/ofstream" "split -C 1M (coreutils)")
run() {  # run INDEX: one command into an empty $out
  case $1 in
    0) "$logagg" split -q --max-size 1M "$input" "$out";;
    1) "$logagg" split -q --max-size 1M --threads 1 "$input" "$out";;
    2) "$naive" "$max" "$input" "$out";;
    3) split -C 1M "$input" "$out/x";;
  esac
}
check() {  # check INDEX: the chunks are the input, cut at line ends, none too big
  local big
  cat "$out"/* | cmp -s - "$input" || { echo "${names[$1]}: chunks do not concatenate to the input" >&2; exit 1; }
  [ -z "$(tail -qc1 "$out"/* | tr -d '\n')" ] || { echo "${names[$1]}: a chunk does not end with a LF" >&2; exit 1; }
  big=$(find "$out" -type f -size +"$max"c | head -1)
  [ -z "$big" ] || { echo "${names[$1]}: $big is larger than 1 MiB" >&2; exit 1; }
  if (($1 == 0)); then chunks=$(find "$out" -type f | wc -l); fi
}

declare -A ms
for ((round = 0; round <= runs; round++)); do  # round 0 warms up and checks
  for i in 0 1 2 3; do
    rm -rf "$out" && mkdir -p "$out" && sync
    start=$(date +%s%N)
    run "$i"
    end=$(date +%s%N)
    if ((round == 0)); then check "$i"; else ms[$i]+="$(((end - start) / 1000000)) "; fi
  done
done

median() { tr ' ' '\n' <<< "$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
bytes=$(stat -c %s "$input")
echo "input: $input ($bytes bytes, 10000000 lines); $chunks chunks of at most 1 MiB; file system: $(df -T "$out" | awk 'NR == 2 { print $2 }')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, kernel $(uname -r); $runs rounds, median"
echo
echo "| command | ms (median) | all runs, ms | MiB/s | speed vs naive | speed vs split -C |"
echo "|---|---:|---|---:|---:|---:|"
naive_ms=$(median "${ms[2]}")
coreutils_ms=$(median "${ms[3]}")
for i in 0 1 2 3; do
  m=$(median "${ms[$i]}")
  awk -v n="${names[$i]}" -v m="$m" -v all="${ms[$i]% }" -v b="$bytes" -v nv="$naive_ms" -v cu="$coreutils_ms" \
    'BEGIN { printf "| %s | %d | %s | %.0f | %.1fx | %.2fx |\n", n, m, all, b / 1048576 / (m / 1000), nv / m, cu / m }'
done
echo "| *the article: naive, read lines / write lines* | *1179* | | | *1.0x* | |"
echo "| *the article: FileChannel.transferTo (sendfile)* | *77* | | | *15.3x* | |"
