#!/usr/bin/env bash
# Whole-program throughput benchmark, side by side on one corpus:
#   wc -l (the line-scan floor), simdjson's stage 1 alone in 1 MiB blocks (the
#   floor for full validation: stage1_floor.cc) and simdjson's own full parse
#   (parse_many, one thread), logagg with 1 thread, logagg with all threads;
#   then the performance targets, each with its measured
#   value and pass or fail: the per-core speed against those, cold files
#   (logagg and wc -l on the evicted corpus), --by-app's CPU time against the
#   plain run's, compressed files (one .gz, one .zst, a folder of 8 .gz parts)
#   against their decompressors and one thread, breakdowns' and measures' CPU
#   time against the plain run's, the measures' peak memory on a day of
#   per-second rows of 20 keys, and the RFC 3339 micro-benchmark.
# Each command runs once to warm up, then RUNS times; the table shows medians.
# The targets that compare two runs (2 threads vs 1, cold vs warm, --by-app vs
# plain) take their ratio within each of RUNS rounds of the commands run in
# turns (measure --turns), and show the median of those ratios; they evict
# the corpus themselves where they need it cold, so --cold changes only the
# table.
#
#   profiling/bench.sh [--cold] [--runs N] [CORPUS]
#
# CORPUS defaults to profiling/data/corpus-1g.log, generated once (1 GiB from
# loggen: ~240-byte lines, ~10 fields, 2% dirty lines, 20% shuffled field
# order) and reused. --cold evicts the corpus from the page cache before every
# run (posix_fadvise, no root needed) to show the disk-bound figure; there is
# no warm-up run then. Builds the release preset first.
set -euo pipefail
cd "$(dirname "$0")/.."

cold=false
runs=5
corpus=profiling/data/corpus-1g.log
while [ $# -gt 0 ]; do
  case "$1" in
    --cold) cold=true;;
    --runs) runs=$2; shift;;
    -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0;;
    *) corpus=$1;;
  esac
  shift
done

cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
bin=build/release/apps/logagg
measure=build/release/profiling/measure
stage1_floor=build/release/profiling/stage1_floor

if [ ! -f "$corpus" ]; then
  mkdir -p "$(dirname "$corpus")"
  echo "generating $corpus (1 GiB) ..." >&2
  build/release/data/generator/loggen --seed 1 --bytes 1G --dirty 0.02 --shuffle 0.2 -o "$corpus" \
    --expected "${corpus%.log}.csv" --expected-summary "${corpus%.log}.json"
fi

bytes=$(stat -c %s "$corpus")
lines=$(wc -l < "$corpus")
threads=$(nproc)
if [ -f "${corpus%.log}.csv" ]; then  # the benchmark only counts if logagg is exact
  "$bin" --format csv -q "$corpus" | cmp -s - "${corpus%.log}.csv" || { echo "logagg output differs from the expected counts" >&2; exit 1; }
fi

cold_args=()
if $cold; then cold_args=(--cold "$corpus"); fi

# One row: name, cores used, then the command.
row() {
  local name=$1 ncores=$2; shift 2
  local s r
  read -r s r _ < <("$measure" "$runs" "${cold_args[@]}" "$@")
  awk -v name="$name" -v s="$s" -v r="$r" -v b="$bytes" -v l="$lines" -v c="$ncores" -v floor="${floor:-$s}" -v one="${one:-$s}" \
    'BEGIN { printf "| %-22s | %7.3f | %6.2f | %6.2f | %6.1f | %7.1f | %5.2f | %5.2f |\n",
             name, s, b / s / 1e9, b / s / 1e9 / c, l / s / 1e6, r / 1024, floor / s, one / s }'
  last=$s
}

echo "corpus: $corpus ($bytes bytes, $lines lines); $threads hardware threads; $runs runs, median$($cold && echo ', cold page cache' || echo ', warm page cache')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo
echo "| command                | seconds |   GB/s | GB/s per core | M lines/s | peak RSS MiB | speed vs wc -l | speed vs 1 thread |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
row "wc -l" 1 wc -l "$corpus"; floor=$last
read -r stage1_s stage1_bytes parse_s parse_bytes < <("$stage1_floor" "$runs" "$corpus")
simdjson_row() {  # name, seconds, bytes
  awk -v name="$1" -v s="$2" -v b="$3" -v floor="$floor" \
    'BEGIN { printf "| %-22s | %7.3f | %6.2f | %6.2f | %6s | %7s | %5.2f | %5s |\n",
             name, s, b / s / 1e9, b / s / 1e9, "-", "-", floor / s, "-" }'
}
simdjson_row "simdjson stage 1 alone" "$stage1_s" "$stage1_bytes"
simdjson_row "simdjson full parse" "$parse_s" "$parse_bytes"
row "logagg --threads 1" 1 "$bin" -q --format csv --threads 1 "$corpus"; one=$last
row "logagg --threads $threads" "$threads" "$bin" -q --format csv --threads "$threads" "$corpus"

echo
echo "stage 1 alone: the lines it passes on their own ($stage1_bytes of $bytes bytes), in 1 MiB blocks, timed in process"
echo "full parse: simdjson's parse_many on one thread (stage 1, then stage 2 checks each line and writes its tape), over the lines it parses on their own ($parse_bytes bytes), 1 MiB batches, timed in process"
awk -v s="$stage1_s" -v sb="$stage1_bytes" -v p="$parse_s" -v pb="$parse_bytes" -v o="$one" -v b="$bytes" \
  'BEGIN { printf "for reference: simdjson full parse %.2fx of stage 1 alone; logagg --threads 1 %.2fx of the full parse\n",
           (pb / p) / (sb / s), (b / o) / (pb / p) }'
echo
echo "| target | measured | pass |"
echo "|---|---:|:---:|"
target() {  # label, measured value, at least / at most, the bound, unit
  awk -v label="$1" -v got="$2" -v op="$3" -v bound="$4" -v unit="$5" \
    'BEGIN { pass = op == "at least" ? got >= bound : got <= bound
             printf "| %s %s %s%s | %.2f%s | %s |\n", label, (op == "at least" ? ">=" : "<="), bound, unit, got, unit,
                    (pass ? "yes" : "no") }'
}
target "1 thread, throughput vs stage 1 alone" "$(awk -v s="$stage1_s" -v sb="$stage1_bytes" -v o="$one" -v b="$bytes" \
  'BEGIN { print (b / o) / (sb / s) }')" "at least" 0.5 x

# The other ratios are taken within rounds of the commands run in turns
# (measure --turns), and the median over the rounds is shown: this machine's
# speed drifts between runs, which moves a ratio of two medians more.
rounds=$(mktemp)
trap 'rm -f "$rounds"' EXIT
median_of() {  # an awk expression of one round's numbers ($1 $2: the first command's seconds and CPU, $3 $4 the second's, ...)
  awk "{ print $1 }" "$rounds" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'
}
plain=("$bin" -q --format csv --threads 1 "$corpus")
all_threads=("$bin" -q --format csv --threads "$threads" "$corpus")
if [ "$threads" -ge 2 ]; then
  "$measure" "$runs" --turns "${plain[@]}" --next "${all_threads[@]}" > "$rounds"
  target "$threads threads, speed vs 1 thread" "$(median_of '$1 / $3')" "at least" 1.85 x
fi

# Cold files: logagg with all threads on the evicted corpus against the longer
# of wc -l on it (the disk's rate) and logagg warm.
"$measure" "$runs" --turns --cold "$corpus" "${all_threads[@]}" --next --cold "$corpus" wc -l "$corpus" \
  --next "${all_threads[@]}" > "$rounds"
target "cold, $threads threads, time vs max(wc -l cold, warm)" "$(median_of '$1 / ($3 > $5 ? $3 : $5)')" "at most" 1.15 x
all_cold=$(median_of '$1') wc_cold=$(median_of '$3') all_warm=$(median_of '$5')

# Compressed files, each beside its floor, in turns: one .gz (gzip -6, as
# logrotate writes it) against `igzip -d -c`, one .zst (zstd -3) against
# `zstd -d -c` (each to /dev/null: the decompressor's time alone), and a folder
# of the corpus in 8 .gz parts on all threads against one thread. The
# compressed copies are made once beside the corpus (CORPUS.gz, CORPUS.zst,
# CORPUS.parts/) and reused; the rows are skipped without igzip (Debian's
# isal) or zstd.
if command -v igzip > /dev/null && command -v zstd > /dev/null; then
  [ -f "$corpus.gz" ] || gzip -6 -c "$corpus" > "$corpus.gz"
  [ -f "$corpus.zst" ] || zstd -q -3 -c "$corpus" > "$corpus.zst"
  if [ ! -d "$corpus.parts" ]; then
    "$bin" split --max-size "$(( bytes / 8 + (1 << 20) ))" "$corpus" "$corpus.parts" > /dev/null  # 8 parts: cuts come before the limit
    for part in "$corpus.parts"/*; do gzip -6 "$part"; done
  fi
  logagg=("$bin" -q --format csv --threads)
  "$measure" "$runs" --turns igzip -d -c "$corpus.gz" --next "${logagg[@]}" "$threads" "$corpus.gz" \
    --next zstd -d -c "$corpus.zst" --next "${logagg[@]}" "$threads" "$corpus.zst" \
    --next "${logagg[@]}" 1 "$corpus.parts" --next "${logagg[@]}" "$threads" "$corpus.parts" > "$rounds"
  target "one .gz, $threads threads, time vs igzip -d -c" "$(median_of '$3 / $1')" "at most" 1.15 x
  target "one .zst, $threads threads, time vs zstd -d -c" "$(median_of '$7 / $5')" "at most" 1.15 x
  target "8 .gz parts, $threads threads, time vs 1 thread" "$(median_of '$11 / $9')" "at most" 0.6 x
  compressed_medians="igzip -d -c $(median_of '$1') s, logagg .gz $(median_of '$3') s; zstd -d -c $(median_of '$5') s, logagg .zst $(median_of '$7') s; 8 .gz parts: 1 thread $(median_of '$9') s, $threads threads $(median_of '$11') s"
else
  compressed_medians="compressed rows skipped: no igzip (Debian's isal) or zstd"
fi

# --by-app: CPU time (user + system) against the plain run's, one thread.
"$measure" "$runs" --turns "${plain[@]}" --next "${plain[@]}" --by-app > "$rounds"
target "--by-app, CPU vs the plain run" "$(median_of '$4 / $2')" "at most" 1.2 x
plain_cpu=$(median_of '$2') by_app_cpu=$(median_of '$4')

# Breakdowns and filters: CPU time against the plain run's, one thread.
"$measure" "$runs" --turns "${plain[@]}" --next "${plain[@]}" --by status --next "${plain[@]}" --by status --by method \
  --next "${plain[@]}" --where 'status>=500' > "$rounds"
target "--by status, CPU vs the plain run" "$(median_of '$4 / $2')" "at most" 1.15 x
target "--by status --by method, CPU vs the plain run" "$(median_of '$6 / $2')" "at most" 1.25 x
target "--where status>=500, CPU vs the plain run" "$(median_of '$8 / $2')" "at most" 1.1 x

# Measures: CPU time against the plain run's, one thread (bytes and
# latency_ms are in every line of the corpus).
"$measure" "$runs" --turns "${plain[@]}" --next "${plain[@]}" --sum bytes --next "${plain[@]}" --quantiles latency_ms \
  --next "${plain[@]}" --by status --sum bytes --quantiles latency_ms > "$rounds"
target "--sum bytes, CPU vs the plain run" "$(median_of '$4 / $2')" "at most" 1.15 x
target "--quantiles latency_ms, CPU vs the plain run" "$(median_of '$6 / $2')" "at most" 1.3 x
target "--by status --sum bytes --quantiles latency_ms, CPU vs plain" "$(median_of '$8 / $2')" "at most" 1.35 x

# Measures' memory: a day of per-second rows with 20 keys and one quantile
# field, 3 values a row (1,728,000 rows; 5,184,000 lines, made once by awk).
day=profiling/data/day-20-keys.log
if [ ! -f "$day" ]; then
  awk 'BEGIN { srand(7); for (s = 0; s < 86400; s++) {
         t = sprintf("2026-01-01T%02d:%02d:%02dZ", int(s / 3600), int(s % 3600 / 60), s % 60)
         for (r = 0; r < 3; r++) for (k = 0; k < 20; k++)
           printf "{\"app_id\":\"web\",\"timestamp\":\"%s\",\"svc\":\"s%d\",\"latency_ms\":%.3f}\n", t, k, exp(rand() * 6) } }' > "$day"
fi
read -r _ day_kib _ < <("$measure" 1 "$bin" -q --format csv --by svc --quantiles latency_ms "$day")
target "a day of per-second rows of 20 keys, --quantiles, peak RSS" "$(awk -v k="$day_kib" 'BEGIN { print k * 1024 / 1e6 }')" "at most" 256 " MB"

# RFC 3339: the mixed-format micro-benchmark (micro_bench's BM_Rfc3339_Logagg).
rfc3339_ns=$(build/release/profiling/micro_bench --benchmark_filter='^BM_Rfc3339_Logagg$' --benchmark_repetitions="$runs" \
  --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
  awk -F, '$1 ~ /_median"?$/ { print $4 }')
target "RFC 3339 parse, mixed formats" "$rfc3339_ns" "at most" 12 " ns"
echo
echo "$compressed_medians"
echo "wc -l cold $(awk -v s="$wc_cold" 'BEGIN { printf "%.3f", s }') s, logagg --threads $threads cold $(awk -v s="$all_cold" 'BEGIN { printf "%.3f", s }') s, warm $(awk -v s="$all_warm" 'BEGIN { printf "%.3f", s }') s; CPU one thread $(awk -v s="$plain_cpu" 'BEGIN { printf "%.3f", s }') s, --by-app $(awk -v s="$by_app_cpu" 'BEGIN { printf "%.3f", s }') s"

# DuckDB beside logagg --by status, all threads each, on the same file, and
# their outputs compared row by row (profiling/duckdb: installed from the npm
# registry; skipped without node and npm). DuckDB reads the same fields but
# its own rules: a timestamp DuckDB casts is one RFC 3339 may not accept, and
# it has no exact line accounting, so rows can differ; the count says how many.
if command -v node > /dev/null && (cd profiling/duckdb && npm ci --silent --no-audit --no-fund > /dev/null 2>&1); then
  duck_sql="SELECT strftime(date_trunc('second', CAST(timestamp AS TIMESTAMPTZ)) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ'), status, count(*)
    FROM read_json('FILE', format = 'newline_delimited', ignore_errors = true,
                   columns = {timestamp: 'VARCHAR', app_id: 'VARCHAR', status: 'BIGINT'})
    WHERE regexp_full_match(app_id, '[A-Za-z0-9]+') AND TRY_CAST(timestamp AS TIMESTAMPTZ) IS NOT NULL
    GROUP BY ALL ORDER BY 1, 2"
  duck=(node profiling/duckdb/group_by.mjs "$corpus" "$duck_sql")
  by_status=("$bin" -q --format csv --threads "$threads" --by status "$corpus")
  "$measure" "$runs" --turns "${by_status[@]}" --next "${duck[@]}" > "$rounds"
  logagg_rows=$(mktemp) duck_rows=$(mktemp)
  "${by_status[@]}" | tail -n +2 > "$logagg_rows"
  "${duck[@]}" 2>/dev/null > "$duck_rows"
  echo
  echo "--by status beside DuckDB (GROUP BY second, status), $threads threads each: logagg $(median_of '$1') s, DuckDB $(median_of '$3') s: DuckDB takes $(median_of '$3 / $1')x logagg's time"
  echo "rows: logagg $(wc -l < "$logagg_rows"), DuckDB $(wc -l < "$duck_rows"), in both alike $(comm -12 <(sort "$logagg_rows") <(sort "$duck_rows") | wc -l);" \
    "lines counted: logagg $(awk -F, '{ n += $3 } END { print n }' "$logagg_rows"), DuckDB $(awk -F, '{ n += $3 } END { print n }' "$duck_rows")"
  rm -f "$logagg_rows" "$duck_rows"

  # Measures per second beside DuckDB's sum(bytes), quantile_cont and
  # approx_quantile (time, in turns), then how far each p99 is from the
  # exact nearest-rank one (DuckDB's sorted list of each second's values).
  # On a corpus without dirty lines (256 MiB, made once), whose times DuckDB
  # casts once upper-cased (2023-11-14t22:13:20z), so that both count the
  # same lines in every second and the values can be compared second by second.
  clean=profiling/data/corpus-clean-256m.log
  [ -s "$clean" ] || build/release/data/generator/loggen --seed 2 --bytes 256M --dirty 0 -o "$clean"
  duck_time="CAST(upper(timestamp) AS TIMESTAMPTZ)"
  duck_from="FROM read_json('FILE', format = 'newline_delimited', ignore_errors = true,
                   columns = {timestamp: 'VARCHAR', app_id: 'VARCHAR', bytes: 'BIGINT', latency_ms: 'DOUBLE'})
    WHERE regexp_full_match(app_id, '[A-Za-z0-9]+') AND TRY_$duck_time IS NOT NULL
    GROUP BY 1 ORDER BY 1"
  duck_second="strftime(date_trunc('second', $duck_time) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ')"
  duck=(node profiling/duckdb/group_by.mjs "$clean" "SELECT $duck_second, count(*), sum(bytes),
    quantile_cont(latency_ms, 0.99), approx_quantile(latency_ms, 0.99) $duck_from")
  duck_exact=(node profiling/duckdb/group_by.mjs "$clean" "SELECT $duck_second, count(*),
    list_sort(list(latency_ms))[CAST(ceil(0.99 * count(latency_ms)) AS BIGINT)] $duck_from")
  measured=("$bin" -q --format csv --threads "$threads" --sum bytes --quantiles latency_ms --percentiles 99 "$clean")
  "$measure" "$runs" --turns "${measured[@]}" --next "${duck[@]}" > "$rounds"
  logagg_rows=$(mktemp) duck_rows=$(mktemp) exact_rows=$(mktemp)
  "${measured[@]}" > "$logagg_rows"
  "${duck[@]}" 2>/dev/null > "$duck_rows"
  "${duck_exact[@]}" 2>/dev/null > "$exact_rows"
  echo
  echo "--sum bytes --quantiles latency_ms beside DuckDB (sum, quantile_cont, approx_quantile per second), 256 MiB" \
    "without dirty lines, $threads threads each: logagg $(median_of '$1') s, DuckDB $(median_of '$3') s:" \
    "DuckDB takes $(median_of '$3 / $1')x logagg's time"
  python3 profiling/measure_errors.py "$logagg_rows" "$duck_rows" "$exact_rows"
  rm -f "$logagg_rows" "$duck_rows" "$exact_rows"
else
  echo
  echo "DuckDB beside --by status: skipped (no node, or the npm registry cannot be reached)"
fi
