#!/usr/bin/env bash
# What distribution costs: a 1 GiB folder counted by one `logagg` run and by
# apps/logagg-dask on a 2-worker Dask LocalCluster (2 processes, 1 thread each)
# on this machine, for several task sizes.
#
#   profiling/dask_bench.sh [--runs N] [--sizes "16M 64M 256M 1G"] [--scale N] [--build DIR]
#
# --scale N counts a folder N times as large: N hard links to each file of the
# 1 GiB folder (profiling/data/dask-Ng/), read from the same page cache, to
# show how the fixed start-up cost of the driver shrinks relative to the work.
#
# The folder, profiling/data/dask-1g/, is 16 files of 64 MiB cut from
# profiling/data/corpus-1g.log (generated as in bench.sh if missing). Every command runs once to warm up
# (page cache, worker processes) and is checked to print exactly what logagg
# prints, then RUNS rounds run each in turn; the table shows medians.
#   - "end to end": the logagg-dask command against the running LocalCluster
#     (Python start-up, importing Dask, planning, connecting, map, reduce, output);
#   - "map+reduce": the part of it spent on the cluster (its --timings);
#   - "CPU": user + system seconds of the command, its children and the cluster's
#     processes during the run (less sensitive to other load on the machine);
#   - "own cluster": logagg-dask starting and stopping its own LocalCluster
#     (its CPU column counts the cluster it started, as its waited-for children).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
scale=1
sizes="16M 64M 256M 1G"
build=build/release
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift;;
    --sizes) sizes=$2; shift;;
    --scale) scale=$2; shift;;
    --build) build=$2; shift;;
    -h|--help) sed -n '2,23p' "$0"; exit 0;;
    *) echo "dask_bench.sh: unknown argument $1" >&2; exit 2;;
  esac
  shift
done

cmake --preset release -B "$build" >/dev/null && cmake --build "$build" --target logagg loggen >/dev/null
bin=$build/apps/logagg
driver=apps/logagg-dask/logagg-dask
corpus=profiling/data/corpus-1g.log
folder=profiling/data/dask-1g
if [ ! -f "$corpus" ]; then
  echo "generating $corpus (1 GiB) ..." >&2
  "$build"/data/generator/loggen --seed 1 --bytes 1G --dirty 0.02 --shuffle 0.2 -o "$corpus"
fi
if [ ! -d "$folder" ]; then
  echo "cutting $corpus into $folder/ ..." >&2
  mkdir -p "$folder.tmp"
  split -C 64M -d -a 3 --additional-suffix=.log "$corpus" "$folder.tmp/access-"
  mv "$folder.tmp" "$folder"
fi
if [ "$scale" -gt 1 ]; then
  scaled=profiling/data/dask-${scale}g
  if [ ! -d "$scaled" ]; then
    mkdir -p "$scaled.tmp"
    for i in $(seq "$scale"); do
      for f in "$folder"/*.log; do ln "$f" "$scaled.tmp/$i-$(basename "$f")"; done
    done
    mv "$scaled.tmp" "$scaled"
  fi
  folder=$scaled
fi
bytes=$(du -sbl "$folder" | cut -f1)
out=$(mktemp -d)
cluster_pid=
trap '[ -z "$cluster_pid" ] || { kill "$cluster_pid" 2>/dev/null; wait "$cluster_pid"; }; rm -rf "$out"' EXIT

# A LocalCluster of 2 worker processes that lives for the whole benchmark.
cat >"$out/cluster.py" <<'EOF'
import logging, os, signal, sys, time, warnings
from distributed import LocalCluster
if __name__ == "__main__":  # the worker processes import this file again
    warnings.filterwarnings("ignore")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.ERROR)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(cluster.scheduler_address)
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    signal.signal(signal.SIGTERM, lambda *_: (cluster.close(), sys.exit(0)))
    while True:
        time.sleep(3600)
EOF
/usr/bin/python3 "$out/cluster.py" "$out/address" &
cluster_pid=$!
while [ ! -s "$out/address" ]; do
  kill -0 "$cluster_pid" 2>/dev/null || { echo "dask_bench.sh: the LocalCluster did not start" >&2; exit 1; }
  sleep 0.2
done
scheduler=$(cat "$out/address")

now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.3f", m/1e9}'; }
# CPU seconds (user + system) used so far by the cluster's processes and the logagg runs they waited for.
cluster_cpu() {
  /usr/bin/python3 -c '
import psutil, sys
root = psutil.Process(int(sys.argv[1]))
t = 0.0
for p in [root] + root.children(recursive=True):
    c = p.cpu_times()
    t += c.user + c.system + c.children_user + c.children_system
print("%.0f" % (t * 1e9))' "$cluster_pid"
}
# run NAME: one run of a configuration: single (logagg), dSIZE (logagg-dask on the running cluster
# with --piece-size SIZE) or own (logagg-dask with its own LocalCluster); stdout to $out/NAME.out.
run() {
  case $1 in
    single) "$bin" -q --format csv "$folder";;
    own) "$driver" -q --logagg "$bin" --workers 2 --format csv "$folder";;
    d*) "$driver" -q --timings --logagg "$bin" --scheduler "$scheduler" --piece-size "${1#d}" --format csv "$folder";;
  esac >"$out/$1.out" 2>"$out/$1.err"
}
# measure NAME: one timed run; appends to $out/NAME.t (elapsed), NAME.m (map+reduce, from --timings)
# and NAME.c (CPU of the command, its children and the cluster's processes), in nanoseconds.
measure() {
  local c0 s e c1
  c0=$(cluster_cpu); s=$(now)
  /usr/bin/time -f "%U %S" -o "$out/time" bash -c "$(declare -f run); $(declare -p bin driver folder scheduler out); run $1"
  e=$(now); c1=$(cluster_cpu)
  echo $(( e - s )) >>"$out/$1.t"
  awk -v d=$(( c1 - c0 )) '{printf "%.0f\n", ($1 + $2) * 1e9 + d}' "$out/time" >>"$out/$1.c"
  grep -o 'map and reduce *[0-9.]*' "$out/$1.err" | awk '{printf "%.0f\n", $4*1e9}' >>"$out/$1.m" || true
}
ratio() { echo "$1 / $2" | bc -l | xargs printf %.2f; }

# Every configuration once to warm up, then RUNS rounds that take each in turn, so that a change of
# load on the machine during the benchmark falls on all of them alike.
configs="single"
for size in $sizes; do configs="$configs d$size"; done
configs="$configs own"
for c in $configs; do
  run "$c"
  cmp -s "$out/single.out" "$out/$c.out" || { echo "dask_bench.sh: $c: output differs from logagg's" >&2; exit 1; }
  : >"$out/$c.t"; : >"$out/$c.m"; : >"$out/$c.c"
done
load_before=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq "$runs"); do
  for c in $configs; do measure "$c"; done
done

single=$(median <"$out/single.t")
single_cpu=$(median <"$out/single.c")
default=$(sed -n 's/^DEFAULT_PIECE_SIZE = "\([^"]*\)".*/\1/p' apps/logagg-dask/logagg_dask.py)
echo "$scale GiB folder ($bytes bytes, $(ls "$folder" | wc -l) files), $(nproc) cores, medians of $runs rounds," \
  "load average $load_before before, $(cut -d' ' -f1 /proc/loadavg) after"
echo
echo "| command | task size | tasks | end to end, s | vs logagg | map+reduce, s | vs logagg | CPU, s | vs logagg |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "| logagg (all threads) | | | $single | 1.00 | | | $single_cpu | 1.00 |"
for size in $sizes; do
  tasks=$("$driver" --plan --logagg "$bin" --piece-size "$size" "$folder" | wc -l)
  e2e=$(median <"$out/d$size.t"); mr=$(median <"$out/d$size.m"); cpu=$(median <"$out/d$size.c")
  echo "| logagg-dask, running 2-worker LocalCluster | $size | $tasks | $e2e | $(ratio "$e2e" "$single")" \
    "| $mr | $(ratio "$mr" "$single") | $cpu | $(ratio "$cpu" "$single_cpu") |"
done
own=$(median <"$out/own.t"); own_cpu=$(median <"$out/own.c")
echo "| logagg-dask, own 2-worker LocalCluster (start-up included) | $default | | $own | $(ratio "$own" "$single")" \
  "| | | $own_cpu | $(ratio "$own_cpu" "$single_cpu") |"
