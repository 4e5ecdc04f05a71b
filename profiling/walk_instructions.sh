#!/usr/bin/env bash
# Instructions a line for each question the walk answers (plain, --by-app, a
# --by field, --where, --sum, --quantiles, two --by fields, a RED report),
# counted by callgrind on one thread over a generated corpus, the start-up
# (the same question over an empty file) subtracted; each beside the plain
# run, with what it adds to it and issue 43's bound on that, met or not. With --functions, callgrind's per-function self instructions a line of
# the plain run, `--by status` and the RED report, the top N of each.
# Instructions, not seconds: repeatable for a binary and its inputs whatever
# else the machine does, and comparable across machines of one architecture.
#
#   profiling/walk_instructions.sh [--functions N] [--mb SIZE] [LOGAGG]
#
# The corpus is `loggen --seed 1 --bytes SIZE` (20 MiB by default: ~85,000
# lines of ~240 bytes), written under profiling/data/ once. Builds the
# release preset first unless LOGAGG is given.
set -euo pipefail
cd "$(dirname "$0")/.."

functions=0
mb=20
bin=
while [ $# -gt 0 ]; do
  case "$1" in
    --functions) functions=$2; shift;;
    --mb) mb=$2; shift;;
    -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0;;
    *) bin=$1;;
  esac
  shift
done
if [ -z "$bin" ]; then
  cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
  bin=build/release/apps/logagg
fi
corpus=profiling/data/walk-${mb}m.log
if [ ! -f "$corpus" ]; then
  mkdir -p profiling/data
  build/release/data/generator/loggen --seed 1 --bytes "${mb}M" -o "$corpus"
fi
lines=$(wc -l < "$corpus")
empty=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$empty" "$out"' EXIT

# callgrind's total instructions for logagg with the given options over FILE.
instructions() {
  local file=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" -q --format csv --threads 1 "$@" "$file" \
    >/dev/null 2>"$out/err" || { cat "$out/err" >&2; exit 1; }
  callgrind_annotate "$out/cg" | awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }'
}

# Each case: its name, its options, and issue 43's bound on what it adds to
# the plain run a line (150 instructions an extra field, 250 a quantile
# field; none for --by-app, whose field the plain run already reads) or on
# its ratio to the plain run (the RED report: 1.35x).
cases=("plain||" "--by-app|--by-app|" "--by status|--by status|+150" "--where 'status>=500'|--where status>=500|+150"
       "--sum bytes|--sum bytes|+150" "--quantiles latency_ms|--quantiles latency_ms|+250"
       "--by method --by status|--by method --by status|+300"
       "--by status --sum bytes --quantiles latency_ms|--by status --sum bytes --quantiles latency_ms|x1.35")
echo "corpus: $corpus ($lines lines); $bin on one thread; callgrind instructions, start-up subtracted"
printf '%-50s %8s %10s %8s %8s %5s\n' "run" "a line" "vs plain" "added" "bound" "pass"
plain=
for c in "${cases[@]}"; do
  IFS='|' read -r name options bound <<< "$c"
  read -r -a opts <<< "$options"
  total=$(instructions "$corpus" "${opts[@]}")
  start=$(instructions "$empty" "${opts[@]}")
  per_line=$(( (total - start) / lines ))
  [ -n "$plain" ] || plain=$per_line
  ratio=$(echo "$per_line / $plain" | bc -l)
  case "$bound" in
    +*) pass=$([ $((per_line - plain)) -le "${bound#+}" ] && echo yes || echo no);;
    x*) pass=$(echo "$ratio <= ${bound#x}" | bc -l | sed 's/1/yes/; s/0/no/');;
    *) pass=;;
  esac
  printf '%-50s %8d %9.2fx %8d %8s %5s\n' "$name" "$per_line" "$ratio" $((per_line - plain)) "$bound" "$pass"
done

[ "$functions" -gt 0 ] || exit 0
for c in "plain|" "--by status|--by status" \
         "--by status --sum bytes --quantiles latency_ms|--by status --sum bytes --quantiles latency_ms"; do
  name=${c%%|*}
  read -r -a opts <<< "${c#*|}"
  instructions "$corpus" "${opts[@]}" >/dev/null
  echo
  echo "$name: the top $functions functions, self instructions a line"
  callgrind_annotate --inclusive=no "$out/cg" 2>/dev/null |
    awk -v lines="$lines" -v top="$functions" '
      /PROGRAM TOTALS/ { next }
      /^ *[0-9,]+ \( *[0-9.]+%\) / && n < top {
        count = $1; gsub(",", "", count)
        sub(/^ *[0-9,]+ \( *[0-9.]+%\) +(\?\?\?:)?/, ""); sub(/ \[\/.*$/, "")
        printf "  %8.1f  %s\n", count / lines, substr($0, 1, 100); n++
      }'
done
