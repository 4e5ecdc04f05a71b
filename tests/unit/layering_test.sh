#!/bin/sh
# The engine's layering, checked on its #include lines and definitions:
# - each stage folder of engine/src includes only its own headers, those of
#   the stages below it and the public headers (logagg/...); the public
#   headers include only public headers. Data flows input -> parse -> count
#   -> report -> merge (the report reads result documents back and merge adds
#   them, so both share the count stage's result order); split sits on input
#   alone; state (incremental runs) on all of them but split, and follow on
#   state.
# - each public header is implemented in its stage's folder (home, below):
#   a function it declares, or a member of a class it defines, defined in
#   another folder's file fails.
# - the command line (apps/logagg) uses the public headers; a private one
#   (engine/src) it includes says why in a comment on the #include line.
#
#   tests/unit/layering_test.sh ENGINE_DIR
set -eu
engine=$1
status=0

# allowed STAGE: the folders STAGE's files may include from.
allowed() {
  case $1 in
    input) echo "input" ;;
    parse) echo "input parse" ;;
    count) echo "input parse count" ;;
    report) echo "input parse count report" ;;
    merge) echo "input parse count report merge" ;;
    split) echo "input split" ;;
    state) echo "input parse count report merge state" ;;
    follow) echo "input parse count report merge state follow" ;;
    detect) echo "input parse detect" ;;
    *) echo "UNKNOWN" ;;
  esac
}

for dir in "$engine"/src/*/; do
  stage=$(basename "$dir")
  ok=$(allowed "$stage")
  [ "$ok" != UNKNOWN ] || { echo "FAIL: engine/src/$stage is not a known stage (add it to $0)"; status=1; continue; }
  for file in $(find "$dir" -name '*.h' -o -name '*.cc'); do
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
      top=${inc%%/*}
      [ "$top" = logagg ] && continue
      case " $ok " in *" $top "*) continue ;; esac
      echo "FAIL: ${file#"$engine"/} ($stage) includes $inc"
      status=1
    done
  done
done
for file in "$engine"/include/logagg/*.h; do
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
    case $inc in logagg/*) [ -e "$engine/include/$inc" ] && continue ;; esac
    echo "FAIL: public header ${file#"$engine"/} includes $inc"
    status=1
  done
done

# home HEADER: the stage folder that implements the public header HEADER.
home() {
  case $1 in
    options.h | result.h | time_zone.h) echo parse ;;
    aggregate.h | measures.h | measure_table.h) echo count ;;
    buckets.h | report.h | terminal_text.h) echo report ;;
    merge.h) echo merge ;;
    split.h) echo split ;;
    state.h) echo state ;;
    follow.h) echo follow ;;
    *) echo UNKNOWN ;;
  esac
}

# The names a public header declares at namespace scope, one a line: "NAME"
# for a function declared without a body, "CLASS::" for a class or struct it
# defines. (Declarations start in column 0, as clang-format writes them.)
declared() {
  awk '
    /^(\/\/|#|namespace|}|template|using|inline|constexpr|enum|typedef)/ { next }
    /^(class|struct) [A-Za-z_][A-Za-z0-9_]* *(final *)?(: [^{]*)?\{/ { sub(/^(class|struct) /, ""); sub(/[^A-Za-z0-9_].*/, ""); print $0 "::"; next }
    /^[A-Za-z_].*[A-Za-z0-9_]\(/ && !/\) *(const *)?(noexcept *)?\{/ { line = $0; sub(/\(.*/, "", line); sub(/.*[^A-Za-z0-9_]/, "", line); print line }
  ' "$1" | sort -u
}

for header in "$engine"/include/logagg/*.h; do
  name=$(basename "$header")
  stage=$(home "$name")
  [ "$stage" != UNKNOWN ] || { echo "FAIL: public header $name has no home stage (add it to $0)"; status=1; continue; }
  for decl in $(declared "$header"); do
    case $decl in
      *::) pattern="^[A-Za-z_].*[^A-Za-z0-9_:]${decl}~?[A-Za-z_][A-Za-z0-9_]*\(" ;;
      *) pattern="^[A-Za-z_][^(]*[^A-Za-z0-9_:]${decl}\(" ;;
    esac
    for file in $(grep -rlE "$pattern" "$engine/src" --include='*.cc'); do
      rel=${file#"$engine"/src/}
      [ "${rel%%/*}" = "$stage" ] && continue
      echo "FAIL: engine/src/$rel defines $decl of logagg/$name, whose home is engine/src/$stage"
      status=1
    done
  done
done

apps=$engine/../apps/logagg
for file in "$apps"/*.cc "$apps"/*.h; do
  for inc in $(sed -n 's/^#include "\([a-z]*\/[^"]*\)"[^/]*$/\1/p' "$file"); do
    case ${inc%%/*} in logagg) continue ;; esac
    [ -e "$engine/src/$inc" ] || continue
    echo "FAIL: apps/logagg/$(basename "$file") includes the engine's private $inc without a comment saying why"
    status=1
  done
done

[ $status -eq 0 ] && echo "layering: ok"
exit $status
