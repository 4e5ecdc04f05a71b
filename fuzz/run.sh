#!/usr/bin/env bash
# Builds the libFuzzer targets (in the `asan` preset: clang, ASan + UBSan) and runs
# each for SECONDS (default 60; TARGET=SECONDS sets one target's own) on a
# scratch copy of its seed corpus, so the corpus in the repository never
# grows; FUZZ_JOBS targets at once (default: one per core; each target still
# runs its SECONDS on a core of its own), the longest first. Exits 1 if any
# target finds anything (a check failure, a sanitizer report, a crash, a
# timeout or running out of memory) and prints each finding's path, hex dump
# and replay command.
#
#   fuzz/run.sh            # one minute per target
#   fuzz/run.sh 60 rfc3339=30 detect=30      # CI: the engine a minute on one core, the other two after each other on the other
#   fuzz/run.sh 1800       # a longer local run: 30 minutes per target
#   FUZZ_TARGETS=engine fuzz/run.sh 600      # one target only
#   FUZZ_WORK_DIR=/tmp/fz fuzz/run.sh 3600   # keep (and resume) a grown corpus
#
# A finding becomes a regression test: copy the artifact into
# fuzz/regressions/<target>/ (see fuzz/README.md); tests/property/fuzz_regression_test.cc
# replays every file there in the normal builds.
set -euo pipefail

all_targets="rfc3339 engine detect"
seconds=60
declare -A seconds_of  # a target's own SECONDS (TARGET=SECONDS)
for arg in "$@"; do
  [[ ${arg#*=} =~ ^[0-9]+$ ]] || { echo "fuzz: want SECONDS or TARGET=SECONDS (a whole number), not '${arg}'" >&2; exit 2; }
  case "$arg" in
    *=*)
      [[ " $all_targets " == *" ${arg%%=*} "* ]] || { echo "fuzz: no target named ${arg%%=*} (${all_targets})" >&2; exit 2; }
      seconds_of["${arg%%=*}"]="${arg#*=}" ;;
    *) seconds="$arg" ;;
  esac
done
targets="${FUZZ_TARGETS:-$all_targets}"  # a target's SECONDS given but not chosen here is left unused
for target in $targets; do : "${seconds_of[$target]:=$seconds}"; done
# The longest first, so that the shorter ones share what cores are left.
targets="$(for target in $targets; do echo "${seconds_of[$target]} $target"; done | sort -k1,1nr -s | cut -d' ' -f2 | tr '\n' ' ')"
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

cmake --preset asan >/dev/null
cmake --build --preset asan --target $(printf '%s_fuzz ' $targets)

work="${FUZZ_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/logagg-fuzz.XXXXXX")}"
echo "fuzz: $(for target in $targets; do printf '%s %s s, ' "$target" "${seconds_of[$target]}"; done)work dir ${work}"

# The longest input each target is given: a timestamp, a small log file.
max_len_of() {
  case "$1" in
    rfc3339) echo 256 ;;
    *) echo 4096 ;;
  esac
}

# Prints one finding: what it is, its bytes, and how to replay and minimize it.
show_finding() {
  local target="$1" artifact="$2"
  local binary="build/asan/fuzz/${target}_fuzz"
  echo "---- finding: ${artifact} ($(wc -c <"$artifact") bytes)"
  od -A x -t x1z -v "$artifact" | head -n 64
  echo "  replay:   ${binary} ${artifact}"
  echo "  minimize: ${binary} -minimize_crash=1 -max_total_time=60 -exact_artifact_path=/tmp/${target}.min ${artifact}"
  echo "  keep:     cp ${artifact} fuzz/regressions/${target}/<short-name>"
}

# Runs one target for SECONDS; its exit status goes to DIR/status.
run_target() {
  local target="$1" dir="${work}/$1" status=0
  "build/asan/fuzz/${target}_fuzz" "${dir}/corpus" \
    -max_total_time="${seconds_of[$target]}" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$(max_len_of "$target")" -dict="fuzz/${target}.dict" \
    -artifact_prefix="${dir}/artifacts/" -print_final_stats=1 \
    >"${dir}/fuzz.log" 2>&1 || status=$?
  echo "$status" >"${dir}/status"
}

jobs="${FUZZ_JOBS:-$(nproc)}"
running=0
for target in $targets; do
  dir="${work}/${target}"
  mkdir -p "${dir}/corpus" "${dir}/artifacts"
  cp -R "fuzz/corpus/${target}/." "${dir}/corpus/"
  echo "== ${target}: build/asan/fuzz/${target}_fuzz, log ${dir}/fuzz.log"
  run_target "$target" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

found=0
summary=""
for target in $targets; do
  dir="${work}/${target}"
  log="${dir}/fuzz.log"
  status="$(cat "${dir}/status")"
  # The last status line ("#N DONE cov: ... ft: ... corp: ... exec/s: ...").
  stats="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
  echo "${target}: ${stats:-(no status line: stopped while loading the corpus)}"
  coverage="$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$stats" || true)"
  summary+="${target}: ${seconds_of[$target]} s, ${execs:-?} runs, ${rate:-?} exec/s, ${coverage:-no coverage line}"$'\n'

  artifacts=("${dir}/artifacts/"*)
  if [[ $status -ne 0 || -e "${artifacts[0]}" ]]; then
    found=1
    echo "!! ${target} found something (exit status ${status}):"
    grep -E '==== logagg fuzz check failed|^SUMMARY|ERROR: libFuzzer|runtime error' "$log" | head -n 20 || true
    for artifact in "${artifacts[@]}"; do
      [[ -e "$artifact" ]] && show_finding "$target" "$artifact"
    done
    echo "  full log: ${log}"
  fi
done

echo "== summary"
printf '%s' "$summary"
if [[ $found -ne 0 ]]; then
  echo "fuzz: FAILED; findings kept in ${work}"
  exit 1
fi
[[ -n "${FUZZ_WORK_DIR:-}" ]] || rm -rf "$work"
echo "fuzz: no findings"
