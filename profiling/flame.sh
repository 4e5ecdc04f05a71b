#!/usr/bin/env bash
# A flame graph of any logagg run: why is this run on my logs slow?
#
#   profiling/flame.sh [--out DIR] [--frequency HZ] [--top N] -- logagg ARGS...
#
# Builds logagg with symbols and frame pointers (build/profile, reused; the
# same build the walkthrough profiles; LOGAGG_PROFILE_BUILD=DIR uses another,
# see flame_record.sh), runs `logagg ARGS...` under
# perf record (cpu-clock, DWARF call graphs) and writes to DIR
# (default profiling/out/flame):
#   flame.html      interactive flame graph (perf's flamegraph script, d3-flame-graph)
#   folded.txt      folded stacks (perf's stackcollapse script)
#   top.md          the N (default 15) frames with the most samples, self and total
#   stdout.txt      what logagg printed on stdout (its stderr is shown once it ends)
#   perf.data       the recording, for perf report -i
# and prints top.md. The command runs in the folder flame.sh is started from,
# and DIR is relative to it too. The first word after -- may be `logagg` (the
# build above) or the path of any other logagg binary. HZ defaults to 999.
# Needs perf, python3 and npm: scripts/install-deps.sh --profiling.
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/.."
root=$PWD
. profiling/flame_record.sh

out=$root/profiling/out/flame
freq=999
top=15
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift;;
    --frequency) freq=$2; shift;;
    --top) top=$2; shift;;
    --) shift; break;;
    -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0;;
    *) echo "flame.sh: unknown argument '$1' (the command goes after --)" >&2; exit 2;;
  esac
  shift
done
if [ $# -eq 0 ]; then
  echo "usage: profiling/flame.sh [--out DIR] [--frequency HZ] [--top N] -- logagg ARGS..." >&2
  exit 2
fi
cmd=("$@")
out=$(cd "$here" && mkdir -p "$out" && cd "$out" && pwd)
if [ "${cmd[0]}" = logagg ]; then
  echo "flame.sh: building $profile_build/apps/logagg" >&2
  build_for_profiling "$out/build.log" logagg
  cmd[0]=$root/$profile_build/apps/logagg
fi
rm -f "$out/perf.data" "$out/flame.html" "$out/folded.txt" "$out/top.md"

echo "flame.sh: recording ${cmd[*]}" >&2
status=0
(cd "$here" && record_flame "$out" "$freq" "$root/$flame_template" "$out/flame.html" "$out/folded.txt" -- "${cmd[@]}") ||
  status=$?
if [ "$status" != 0 ]; then
  cat "$out/record.log" >&2
  echo "flame.sh: recording failed (exit $status)" >&2
  exit "$status"
fi
grep -v '^\[ perf record' "$out/record.log" >&2 || true  # logagg's own stderr
python3 profiling/folded_stacks.py "$out/folded.txt" "$top" > "$out/top.md"
cat "$out/top.md"
echo "flame.sh: flame graph: $out/flame.html" >&2
