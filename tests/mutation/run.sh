#!/usr/bin/env bash
# The mutation check: breaks the engine on purpose, one small change at a
# time, and fails unless the tests catch every change. The changes are listed
# in tests/mutation/mutations.tsv (file, exact original text, replacement,
# build targets, ctest regex of the tests that must catch it).
#
#   tests/mutation/run.sh [NAME...]     every mutation, or only those named
#
# Works on scratch copies of the tree (the files git tracks or would track,
# uncommitted changes included), never on the tree itself: configures each
# copy once (the release preset, as the tree's build, but a warning is no
# error) and builds the targets the list names, checks that the selected
# tests pass unmutated, then for each mutation applies it, rebuilds its
# targets incrementally, runs its tests, and reverts it. Workers share the
# rows, dealt by expected cost, each in a copy of its own (a row mostly
# compiles one file and runs one test binary: one core's work). Fails loudly
# when an original text is not found exactly once, when a mutated tree does
# not build, or when a mutation survives (its tests pass).
# MUTATION_DIR=DIR keeps the scratch copies there (reused by the next run, so
# only what changed is rebuilt); by default it is a temporary folder, removed.
# MUTATION_JOBS (default 2) is passed to the build and to ctest;
# MUTATION_WORKERS (default 2) is how many rows run at once.
# MUTATION_LIST=FILE reads another list of the same form (to try mutations
# out, or to check that one test alone catches one).
# MUTATION_BASELINE=skip leaves out the check that the selected tests pass
# unmutated: for a run right after the whole suite passed on the same tree
# (CI runs the README's test command first).
set -euo pipefail
cd "$(dirname "$0")/../.."
list=${MUTATION_LIST:-tests/mutation/mutations.tsv}
jobs=${MUTATION_JOBS:-2}
workers=${MUTATION_WORKERS:-2}
say() { echo "mutation: $*" >&2; }

# The rows as NAME \t FILE \t ORIGINAL \t REPLACEMENT \t TARGETS \t TESTS,
# every row checked against the tree first: exactly six fields, the
# original text exactly once in its file, and a case named by " -k NAME"
# defined in an end-to-end script (else unittest would run none, which
# Python 3.12 and later end with status 5: a row that reads as caught).
rows=$(python3 - "$list" "$@" <<'EOF'
import glob, re, sys
path, wanted = sys.argv[1], sys.argv[2:]
e2e_cases = set(re.findall(r"^\s+def (test_\w+)\(", "".join(open(p, encoding="utf-8").read()
                                                            for p in glob.glob("tests/e2e/*.py")), re.M))
rows, problems = [], []
for number, line in enumerate(open(path, encoding="utf-8"), 1):
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        continue
    fields = line.split("\t")
    if len(fields) != 6 or not all(fields):
        problems.append(f"{path}:{number}: want 6 non-empty tab-separated fields, got {len(fields)}")
        continue
    name, file, original = fields[:3]
    try:
        found = open(file, encoding="utf-8").read().count(original)
    except OSError as e:
        problems.append(f"{path}:{number}: {name}: {e}")
        continue
    if found != 1:
        problems.append(f"{path}:{number}: {name}: the original text occurs {found} times in {file}, "
                        f"not once; update the row: {original!r}")
    if " -k " in fields[5] and fields[5].split(" -k ", 1)[1] not in e2e_cases:
        problems.append(f"{path}:{number}: {name}: no end-to-end case is named {fields[5].split(' -k ', 1)[1]}")
    rows.append(fields)
names = {r[0] for r in rows}
problems += [f"no mutation named {n}" for n in wanted if n not in names]
if problems:
    sys.exit("\n".join(problems))
for r in rows:
    if not wanted or r[0] in wanted:
        print("\t".join(r))
EOF
)
count=$(wc -l <<< "$rows")
say "$count mutations from $list"

scratch=${MUTATION_DIR:-}
if [ -z "$scratch" ]; then
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/logagg-mutation.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"  # a MUTATION_DIR that does not exist yet (a clean checkout's build/mutation)
scratch=$(cd "$scratch" && pwd)  # absolute, as the compile commands name their sources
targets=$(cut -f5 <<< "$rows" | tr ' ' '\n' | sort -u | tr '\n' ' ')

# One scratch copy per worker, src0, src1, ...: each laid out and configured
# as the tree's own release build (build/release in the copy, the release
# preset: the same flags), so that a compiler cache whose base directory
# holds them all (ccache's CCACHE_BASEDIR, as .ci/run sets it) finds the
# objects the tree's build made; compile.sh, ahead of the tree's launcher,
# compiles what a row's mutation reaches at -O1. But a warning does not fail a copy's build:
# a mutation may leave a parameter or a function unused, and must build,
# not build cleanly. (-Werror, which LOGAGG_WERROR gives the tree's build,
# changes no object; .ci/run leaves it out of the cache's hash.) A file
# whose bytes are already there is left alone, so a kept scratch build stays
# incremental.
worker_targets() {  # WORKER: the build targets its rows name, each once
  cut -f5 "$scratch/rows$1.tsv" | tr ' ' '\n' | sort -u | tr '\n' ' '
}
# Where lld is installed (CI installs it for the sanitized presets), the
# copies link with it: a row relinks two or three binaries, which lld links
# in about half of the default linker's time.
linker=()
if command -v ld.lld > /dev/null; then linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld); fi
prepare_copy() {  # WORKER: copies the tree, configures and builds the targets of its rows
  local src=$scratch/src$1 build=$scratch/src$1/build/release
  mkdir -p "$src"
  git ls-files -z --cached --others --exclude-standard | python3 -c '
import filecmp, os, shutil, sys
for path in sys.stdin.read().split("\0"):
    target = os.path.join(sys.argv[1], path)
    if not path or not os.path.isfile(path) or (os.path.isfile(target) and filecmp.cmp(path, target, False)):
        continue
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy2(path, target)
' "$src"
  {
    cmake -S "$src" --preset release -DCMAKE_COMPILE_WARNING_AS_ERROR=OFF "${linker[@]}" \
      -DCMAKE_CXX_COMPILER_LAUNCHER="$src/tests/mutation/compile.sh${CMAKE_CXX_COMPILER_LAUNCHER:+;$CMAKE_CXX_COMPILER_LAUNCHER}" &&
      cmake --build "$build" -j "$jobs" --target $(worker_targets "$1")
  } > "$scratch/build$1.log" 2>&1 ||
    { cat "$scratch/build$1.log" >&2; say "the unmutated scratch copy does not build"; exit 1; }
}

# The rows' test regexes, each once, joined into alternations short enough
# for ctest's regular expressions (which refuse a long one and then match
# nothing): one per line.
test_groups=$(cut -f6 <<< "$rows" | sed 's/ -k .*//' | sort -u | python3 -c '
import sys
group = ""
for regex in sys.stdin.read().split():
    if group and len(group) + 1 + len(regex) > 1000:
        print(group)
        group = ""
    group = group + "|" + regex if group else regex
print(group)
')

# ctest's exit status is 0 when no test matches, so count the matches first.
# TESTS is a ctest regex, optionally followed by " -k NAME": the one case of
# an end-to-end script that the row needs, passed to it as LOGAGG_TEST_ONLY
# (unittest's -k), so that the row does not wait for the script's others.
run_tests() {  # BUILD TESTS LOG: 0 if they all pass
  local n regex=${2%% -k *} only=
  if [[ $2 == *" -k "* ]]; then only=${2#* -k }; fi
  n=$(ctest --test-dir "$1" -N -R "$regex" | sed -n 's/^Total Tests: //p')
  if [ "${n:-0}" -eq 0 ]; then say "no test matches '$regex'"; exit 1; fi
  LOGAGG_TEST_ONLY=$only ctest --test-dir "$1" -R "$regex" -j "$jobs" --timeout 300 --stop-on-failure \
    < /dev/null > "$3" 2>&1
}

# The rows dealt to the workers by expected cost, the costliest first, each to
# the worker with the least so far: rowsW.tsv for worker W. A row costs one
# per source file its mutation recompiles (its own, or every .cc that
# includes it, directly or not: a public header is most of the engine), plus
# five for its links and tests (a fit of CI's row times: docs/testing.md); a
# row whose targets are all tests linked without the engine (HEADERS_ONLY in
# tests/CMakeLists.txt) recompiles only them.
workers=$(python3 -c '
import re, subprocess, sys
scratch, workers = sys.argv[1], int(sys.argv[2])
rows = sys.stdin.read().splitlines()
sources = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "*.h", "*.cc"],
                         capture_output=True, text=True, check=True).stdout.split("\0")
includes = {p: re.findall(r"^#include \"([^\"]+)\"", open(p, encoding="utf-8").read(), re.M) for p in sources if p}
def compiled_in(file):  # the .cc files that compile FILE: itself, or those that include it
    reached, todo = {file}, [file]
    while todo:
        f = todo.pop()
        for path, included in includes.items():
            if path not in reached and any(f == i or f.endswith("/" + i) for i in included):
                reached.add(path)
                todo.append(path)
    return sorted(path for path in reached if path.endswith(".cc"))
headers_only = set(re.findall(r"logagg_add_test\(\w+ (\w+)[^)]*\bHEADERS_ONLY\b", open("tests/CMakeLists.txt").read()))
compiled = {file: compiled_in(file) for file in {row.split("\t")[1] for row in rows}}
# FILE \t the .cc files its mutation recompiles (compile.sh builds those at -O1)
open(f"{scratch}/reaches.tsv", "w", encoding="utf-8").write("".join(f + "\t" + " ".join(c) + "\n" for f, c in compiled.items()))
def cost(row):
    file, targets = row.split("\t")[1], row.split("\t")[4].split()
    return 5 + (len(targets) if set(targets) <= headers_only else len(compiled[file]))
dealt = [[] for _ in range(max(1, min(workers, len(rows))))]
load = [0] * len(dealt)
for row in sorted(rows, key=cost, reverse=True):
    w = load.index(min(load))
    dealt[w].append(row)
    load[w] += cost(row)
for w, rows in enumerate(dealt):
    open(f"{scratch}/rows{w}.tsv", "w", encoding="utf-8").write("".join(r + "\n" for r in rows))
print(len(dealt))
' "$scratch" "$workers" <<< "$rows")

started=$(date +%s)
say "configuring and building $workers scratch copies in $scratch"
for ((w = 0; w < workers; ++w)); do prepare_copy "$w"; done
if [ "${MUTATION_BASELINE:-}" = skip ]; then
  say "the unmutated check left out (MUTATION_BASELINE=skip)"
else
  say "unmutated, the selected tests must pass"
  # Worker 0's copy builds only its rows' targets: the rest first.
  cmake --build "$scratch/src0/build/release" -j "$jobs" --target $targets > "$scratch/build0.log" 2>&1 ||
    { cat "$scratch/build0.log" >&2; say "the unmutated scratch copy does not build"; exit 1; }
  while read -r -u 3 group; do
    run_tests "$scratch/src0/build/release" "$group" "$scratch/baseline.log" ||
      { cat "$scratch/baseline.log" >&2; say "the tests fail without any mutation"; exit 1; }
  done 3<<< "$test_groups"
fi
say "built and checked in $(($(date +%s) - started)) s"

# A worker's rows, in its copy, one at a time; a row that survives or does
# not build is written to the worker's verdicts file.
mutate_rows() {  # WORKER
  local src=$scratch/src$1 build=$scratch/src$1/build/release t0 verdict
  : > "$scratch/verdicts$1"
  while IFS=$'\t' read -r -u 3 name file original replacement mutation_targets tests; do
    t0=$(date +%s)
    cp -p "$src/$file" "$scratch/original$1"
    python3 -c '
import sys
path, original, replacement = sys.argv[1:]
text = open(path, encoding="utf-8").read()
if text.count(original) != 1:
    sys.exit(f"{path}: the original text is not there exactly once")
open(path, "w", encoding="utf-8").write(text.replace(original, replacement))
' "$src/$file" "$original" "$replacement"
    verdict=caught
    # The sources the mutation reaches, for compile.sh.
    awk -F'\t' -v file="$file" -v src="$src" \
      '$1 == file { n = split($2, cc, " "); for (i = 1; i <= n; ++i) print src "/" cc[i] }' \
      "$scratch/reaches.tsv" > "$scratch/reached$1"
    if ! MUTATION_REACHED="$scratch/reached$1" cmake --build "$build" -j "$jobs" --target $mutation_targets \
      < /dev/null > "$scratch/$name.build.log" 2>&1; then
      verdict="DOES NOT BUILD (see $scratch/$name.build.log)"
      echo "broken $name" >> "$scratch/verdicts$1"
    elif run_tests "$build" "$tests" "$scratch/$name.test.log"; then
      verdict="SURVIVED: $tests passed"
      echo "survived $name" >> "$scratch/verdicts$1"
    fi
    cp "$scratch/original$1" "$src/$file"  # a new time stamp: the next build recompiles it
    printf 'mutation: %-34s %-10s %4d s  %s\n' "$name" "${verdict%%:*}" "$(($(date +%s) - t0))" "$file" >&2
    [ "$verdict" = caught ] || say "  $name: $verdict"
  done 3< "$scratch/rows$1.tsv"
  # Leave a kept scratch build matching the tree.
  cmake --build "$build" -j "$jobs" --target $(worker_targets "$1") > "$scratch/build$1.log" 2>&1 || true
}
pids=()
for ((w = 0; w < workers; ++w)); do
  mutate_rows "$w" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

survived=() broken=()
for ((w = 0; w < workers; ++w)); do
  while read -r verdict name; do
    if [ "$verdict" = survived ]; then survived+=("$name"); else broken+=("$name"); fi
  done < "$scratch/verdicts$w"
done
say "$count mutations in $(($(date +%s) - started)) s: $((count - ${#survived[@]} - ${#broken[@]})) caught," \
  "${#survived[@]} survived, ${#broken[@]} did not build"
if [ ${#survived[@]} -gt 0 ] || [ ${#broken[@]} -gt 0 ]; then
  say "FAILED: ${survived[*]} ${broken[*]}"
  exit 1
fi
