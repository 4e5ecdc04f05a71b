#!/bin/bash
# The documentation that ships with logagg agrees with the binary:
# - each completion script (bash, zsh, fish) offers exactly the long options
#   that `logagg --help`, `logagg split --help` and `logagg merge --help`
#   show, no more, no fewer;
# - the bash completion completes options, --format, --bucket and --tz values, the split
#   subcommand and paths (sourced and driven as bash would);
# - the zsh and fish scripts parse (where those shells are installed);
# - every reject reason the engine reports appears in the man page source, in
#   the generated man page and in the README, and the man page shows every
#   option of --help;
# - --help fits on one screen.
#
#   tests/e2e/docs_test.sh LOGAGG_BIN SOURCE_DIR MAN_PAGE
set -euo pipefail
logagg=$1
src=$(cd "$2" && pwd)
man_page=$3
completions="$src/apps/logagg/completions"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

long_options() { grep -o -- '--[a-z][a-z-]*' | sort -u; }

help_options=$( ("$logagg" --help; "$logagg" split --help; "$logagg" merge --help) | long_options)
for f in logagg.bash _logagg logagg.fish; do
  if [ "$f" = logagg.fish ]; then
    # fish spells options as `-l name`.
    offered=$(grep '^complete' "$completions/$f" | grep -o -- ' -l [a-z][a-z-]*' | sed 's/ -l /--/' | sort -u)
  else
    offered=$(grep -v '^#' "$completions/$f" | long_options)
  fi
  diff <(echo "$help_options") <(echo "$offered") > /dev/null ||
    fail "$f offers other options than --help: $(diff <(echo "$help_options") <(echo "$offered") | grep '^[<>]' | tr '\n' ' ')"
done

# Bash: complete as bash would, from COMP_WORDS and COMP_CWORD; the
# candidates sorted, as bash shows them.
complete_bash() {
  (cd "$work" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _logagg; printf "%s\n" "${COMPREPLY[@]}" | sort | xargs' \
    _ "$completions/logagg.bash" "$@")
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/access.log" "$work/access.log.1"
expect_completion() {
  local want=$1
  shift
  local got
  got=$(complete_bash "$@")
  [ "$got" = "$want" ] || fail "bash completion of '$*': got '$got', want '$want'"
}
expect_completion "--format" logagg --fo
expect_completion "csv html json table" logagg --format ""
expect_completion "csv" logagg --format c
expect_completion "--allow-long-lines" logagg split --allow
expect_completion "access.log access.log.1" logagg acc
expect_completion "access.log access.log.1 merge split" logagg ""
expect_completion "--max-size" logagg split --max
expect_completion "--fill-gaps --format" logagg merge --f
expect_completion "merge" logagg mer
expect_completion "--since" logagg --sin
expect_completion "" logagg --threads ""
expect_completion "--per-day --per-hour --per-minute --per-second" logagg --per-
expect_completion "15m 15s" logagg --bucket 15
expect_completion "--tz" logagg --tz
expect_completion "Europe/Madrid" logagg --tz Europe/Mad
expect_completion "UTC" logagg --tz UT
expect_completion "local" logagg --per-hour --tz loc

if command -v zsh > /dev/null; then zsh -n "$completions/_logagg" || fail "_logagg does not parse in zsh"; fi
if command -v fish > /dev/null; then fish --no-execute "$completions/logagg.fish" || fail "logagg.fish does not parse in fish"; fi

# Reject reasons: the engine's list, from its JSON summary of an empty input.
reasons=$("$logagg" -q --format json - < /dev/null | sed -n '/rejected_by_reason/,/}/p' | grep -o '"[a-z_]*": [0-9]' | cut -d'"' -f2)
[ "$(echo "$reasons" | wc -l)" -ge 10 ] || fail "could not read the reject reasons from the JSON report"
rendered=$(man -P cat -l "$man_page" 2> /dev/null)
for r in $reasons; do
  grep -q "$r" "$src/apps/logagg/man/logagg.h2m" || fail "reason $r missing from logagg.h2m"
  grep -q "\`$r\`" "$src/README.md" || fail "reason $r missing from the README"
  echo "$rendered" | grep -q "$r" || fail "reason $r missing from the man page"
done
for o in $("$logagg" --help | long_options); do
  echo "$rendered" | grep -q -- "$o" || fail "option $o missing from the man page"
done
for section in "COUNTING RULES" "EXIT STATUS" "EXAMPLES"; do
  echo "$rendered" | grep -q "^$section" || fail "man page has no $section section"
done

lines=$("$logagg" --help | wc -l)
[ "$lines" -le 24 ] || fail "--help is $lines lines, more than one 24-line screen"

[ "$failures" -eq 0 ] || exit 1
echo "docs: ok"
