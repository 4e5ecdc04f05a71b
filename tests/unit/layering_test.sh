#!/bin/sh
# The engine's layering, checked on its #include lines: each stage folder of
# engine/src includes only its own headers, those of the stages below it and
# the public headers (logagg/...); the public headers include only public
# headers. Data flows input -> parse -> count -> report -> merge (the report
# reads result documents back and merge adds them, so both share the count
# stage's result order); split sits on input alone; state (incremental runs)
# on all of them but split, and follow on state.
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
[ $status -eq 0 ] && echo "layering: ok"
exit $status
