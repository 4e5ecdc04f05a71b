#!/bin/sh
# The engine's layering, checked on its #include lines and definitions:
# - each stage folder of engine/src includes only its own headers and those
#   of the stages below it; a public header (logagg/...) counts as its home
#   stage's (below), so no include runs back up the layers. At the bottom,
#   the base: text (bytes, UTF-8, JSON text), time (civil time, RFC 3339,
#   zones) and model (the question as asked and the parts of a result:
#   options, result_parts, measures; and line_verdict.h, what parsing hands
#   to counting for each line). The Query (the question read and
#   checked once, with the line parsers' rules) is parse's, and so is the
#   Result, which carries it. Data flows input -> parse -> count -> report ->
#   merge (the report reads result documents back and merge adds them, both
#   through the count stage's result order); run (the workers, opening and
#   reading the inputs) drives input, parse and count; split sits on input
#   alone, detect on parse; state (incremental runs) on all of them but split
#   and detect, follow on state, and serve (HTTP for a followed run) on follow.
# - each stage has one face: the one header of its folder that another
#   stage may include (face, below; the base's headers are open to all).
#   Everything else a stage offers is in a public header (logagg/...), and
#   every other header of its folder is private to it.
# - the public headers include only public headers, of their own home stage
#   or one below it; each is implemented in its stage's folder (home, below):
#   a function it declares, or a member of a class it defines, defined in
#   another folder's file fails.
# - the command line (apps/logagg) includes only public headers and its own.
#
#   tests/unit/layering_test.sh ENGINE_DIR
set -eu
engine=$1
status=0

# allowed STAGE: the folders STAGE's files may include from.
base="text time model"
allowed() {
  case $1 in
    text) echo "text" ;;
    time) echo "text time" ;;
    model) echo "text model" ;;
    input) echo "$base input" ;;
    parse) echo "$base input parse" ;;
    count) echo "$base input parse count" ;;
    run) echo "$base input parse count run" ;;
    detect) echo "$base input parse detect" ;;
    report) echo "$base input parse count report" ;;
    merge) echo "$base input parse count report merge" ;;
    split) echo "$base input split" ;;
    state) echo "$base input parse count run report merge state" ;;
    follow) echo "$base input parse count run report merge state follow" ;;
    serve) echo "$base input parse count run report merge state follow serve" ;;
    *) echo "UNKNOWN" ;;
  esac
}

# face STAGE: the header of STAGE that other stages may include; none for the
# stages reached only through public headers.
face() {
  case $1 in
    input) echo input/input.h ;;
    parse) echo parse/line_parser.h ;;
    count) echo count/count.h ;;
    run) echo run/spans.h ;;
    state) echo state/file_tracker.h ;;
    *) echo NONE ;;
  esac
}

# home HEADER: the stage folder that implements the public header HEADER.
home() {
  case $1 in
    json_text.h | edit_distance.h) echo text ;;
    time_zone.h | rfc3339.h) echo time ;;
    options.h | result_parts.h | measures.h | measure_table.h) echo model ;;
    inputs.h) echo input ;;
    query.h | result.h | field_checks.h) echo parse ;;
    aggregate.h) echo run ;;
    detect.h) echo detect ;;
    buckets.h | report.h | terminal_text.h | result_document.h | follow_rows.h) echo report ;;
    merge.h) echo merge ;;
    split.h) echo split ;;
    state.h) echo state ;;
    follow.h) echo follow ;;
    serve.h) echo serve ;;
    *) echo UNKNOWN ;;
  esac
}

# The stage an include names: its folder, or a public header's home.
stage_of() {
  case $1 in
    logagg/*) home "${1#logagg/}" ;;
    *) echo "${1%%/*}" ;;
  esac
}

for dir in "$engine"/src/*/; do
  stage=$(basename "$dir")
  ok=$(allowed "$stage")
  [ "$ok" != UNKNOWN ] || { echo "FAIL: engine/src/$stage is not a known stage (add it to $0)"; status=1; continue; }
  for file in $(find "$dir" -name '*.h' -o -name '*.cc'); do
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
      top=$(stage_of "$inc")
      case " $ok " in *" $top "*) ;; *)
        echo "FAIL: ${file#"$engine"/} ($stage) includes $inc ($top)"
        status=1
        continue ;;
      esac
      case $inc in logagg/*) continue ;; esac
      case " $stage $base " in *" $top "*) continue ;; esac
      [ "$inc" = "$(face "$top")" ] && continue
      echo "FAIL: ${file#"$engine"/} ($stage) includes $inc, private to $top (its face: $(face "$top"))"
      status=1
    done
  done
done
for file in "$engine"/include/logagg/*.h; do
  ok=$(allowed "$(home "$(basename "$file")")")
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
    case $inc in
      logagg/*)
        [ -e "$engine/include/$inc" ] || { echo "FAIL: public header ${file#"$engine"/} includes $inc, not a public header"; status=1; continue; }
        case " $ok " in *" $(stage_of "$inc") "*) continue ;; esac ;;
    esac
    echo "FAIL: public header ${file#"$engine"/} includes $inc"
    status=1
  done
done

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
  for inc in $(sed -n 's/^#include "\([^"]*\/[^"]*\)".*/\1/p' "$file"); do
    case $inc in logagg/*) [ -e "$engine/include/$inc" ] || [ "$inc" = logagg/version.h ] && continue ;; esac
    echo "FAIL: apps/logagg/$(basename "$file") includes $inc: the command line uses the engine's public headers only"
    status=1
  done
done

[ $status -eq 0 ] && echo "layering: ok"
exit $status
