#!/bin/bash
# The documentation that ships with logagg agrees with the binary and with
# itself:
# - each completion script (bash, zsh, fish) offers exactly the long options
#   that `logagg --help`, `logagg split --help`, `logagg merge --help` and
#   `logagg detect --help` show, no more, no fewer;
# - the bash completion completes options, --format (detect's too), --bucket and --tz values, the
#   subcommands and paths (sourced and driven as bash would);
# - the zsh and fish scripts parse (where those shells are installed);
# - every reject reason the engine reports appears in the man page source, in
#   the generated man page and in the README's reason table, and the man page
#   shows every option of --help;
# - --help fits on one screen;
# - every relative link in README.md, CONTRIBUTING.md, docs/*.md,
#   docs/bench-notes/*.md and the READMEs of data/ and fuzz/ names a file
#   that exists, and every #anchor a heading of the markdown file it points
#   into (GitHub's slugs);
# - every command of the README's common-commands block (the fenced block
#   after the line `<!-- docs-test: commands -->`) exits 0, run in order in one
#   empty folder that holds data/sample.log, with `logagg` the binary under
#   test (commands with --format html are skipped if this build has no html);
# - the README holds the CI's test command exactly, and is under 250 lines.
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

help_options=$( ("$logagg" --help; "$logagg" split --help; "$logagg" merge --help; "$logagg" detect --help) | long_options)
for f in logagg.bash _logagg logagg.fish; do
  if [ "$f" = logagg.fish ]; then
    # fish spells options as `-l name`.
    offered=$(grep '^ *complete' "$completions/$f" | grep -o -- ' -l [a-z][a-z-]*' | sed 's/ -l /--/' | sort -u)
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
expect_completion "--follow --format" logagg --fo
expect_completion "--format" logagg --form
expect_completion "csv html json table" logagg --format ""
expect_completion "csv" logagg --format c
expect_completion "--allow-long-lines" logagg split --allow
expect_completion "access.log access.log.1" logagg acc
expect_completion "access.log access.log.1 detect merge split" logagg ""
expect_completion "detect" logagg det
expect_completion "--format" logagg detect --f
expect_completion "json text" logagg detect --format ""
expect_completion "--max-size" logagg split --max
expect_completion "--piece-size" logagg --list-inputs --pie
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
# A build without help2man has no man page (LOGAGG_WITH_MAN is turned off);
# anywhere help2man is installed, the man page must be there.
have_man=true
if [ ! -e "$man_page" ] && ! command -v help2man > /dev/null; then
  have_man=false
  echo "docs: no man page in this build (no help2man): man page checks skipped"
fi
for r in $reasons; do
  grep -q "$r" "$src/apps/logagg/man/logagg.h2m" || fail "reason $r missing from logagg.h2m"
  # A row of the reason table in README's "Which lines count".
  grep -q "^| \`$r\` |" "$src/README.md" || fail "reason $r missing from the README's reason table"
  if $have_man; then grep -q "$r" <<< "$rendered" || fail "reason $r missing from the man page"; fi
done
if $have_man; then
  for o in $("$logagg" --help | long_options); do
    grep -q -- "$o" <<< "$rendered" || fail "option $o missing from the man page"
  done
  for section in "COUNTING RULES" "EXIT STATUS" "EXAMPLES"; do
    grep -q "^$section" <<< "$rendered" || fail "man page has no $section section"
  done
fi

lines=$("$logagg" --help | wc -l)
[ "$lines" -le 24 ] || fail "--help is $lines lines, more than one 24-line screen"

# Links. Markdown outside fenced code blocks and code spans: inline links and
# images [text](target) and reference definitions `[name]: target`. Targets
# with a scheme (https:, mailto:) are not followed; a relative target must
# exist, relative to the file it is in; a #anchor (alone: in the same file)
# must be the GitHub slug of a heading in the markdown file it points into.

# md_text FILE: FILE without fenced code blocks, code spans and HTML comments,
# each line prefixed with its number ("12:text").
md_text() {
  awk '
    /^[ ]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    {
      line = $0
      gsub(/<!--.*-->/, "", line)
      gsub(/`[^`]*`/, "", line)
      print NR ":" line
    }' "$1"
}

# md_slugs FILE: the anchors GitHub gives FILE's headings, one per line:
# lower case; everything but letters, digits, spaces, `-` and `_` dropped;
# spaces as `-`; the second heading with the same slug gets `-1`, and so on.
md_slugs() {
  awk '
    /^[ ]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    /^#+ / {
      h = $0
      sub(/^#+ +/, "", h); sub(/ +#+ *$/, "", h)
      while (match(h, /\[[^]]*\]\([^)]*\)/)) {
        t = substr(h, RSTART + 1, RLENGTH - 2); sub(/\]\(.*$/, "", t)
        h = substr(h, 1, RSTART - 1) t substr(h, RSTART + RLENGTH)
      }
      h = tolower(h)
      gsub(/[^a-z0-9 _-]/, "", h)
      gsub(/ /, "-", h)
      s = h
      if (h in seen) s = h "-" seen[h]
      seen[h]++
      print s
    }' "$1"
}

# md_links FILE: "LINE TARGET" for every link of FILE.
md_links() {
  md_text "$1" | awk -F: '{
    n = $1; line = substr($0, length(n) + 2)
    if (match(line, /^ *\[[^]]+\]: +[^ ]+/)) {
      t = line; sub(/^ *\[[^]]+\]: +/, "", t); sub(/ .*$/, "", t)
      print n, t
      next
    }
    while (match(line, /\]\([^)]*\)/)) {
      t = substr(line, RSTART + 2, RLENGTH - 3)
      sub(/ .*$/, "", t)       # drop a "title"
      sub(/^</, "", t); sub(/>$/, "", t)
      print n, t
      line = substr(line, RSTART + RLENGTH)
    }
  }'
}

docs=("$src/README.md" "$src/CONTRIBUTING.md" "$src"/docs/*.md "$src"/docs/bench-notes/*.md "$src/data/README.md"
  "$src/fuzz/README.md")
links_checked=0
for doc in "${docs[@]}"; do
  [ -e "$doc" ] || { fail "${doc#"$src"/} does not exist"; continue; }
  name=${doc#"$src"/}
  while read -r n target; do
    case $target in
      *://* | mailto:*) continue ;;
      "") fail "$name:$n: empty link"; continue ;;
    esac
    links_checked=$((links_checked + 1))
    path=${target%%#*}
    anchor=""
    case $target in *#*) anchor=${target#*#} ;; esac
    if [ -z "$path" ]; then
      file=$doc
    else
      file=$(dirname "$doc")/$path
      if [ ! -e "$file" ]; then
        fail "$name:$n: link to $target: no such file"
        continue
      fi
    fi
    if [ -n "$anchor" ]; then
      case $file in
        *.md) grep -qxF -- "$anchor" <<< "$(md_slugs "$file")" ||
                fail "$name:$n: link to $target: no heading with the anchor #$anchor in ${file#"$src"/}" ;;
        *) fail "$name:$n: link to $target: an anchor into a file that is not markdown" ;;
      esac
    fi
  done < <(md_links "$doc")
done
[ "$links_checked" -ge 20 ] || fail "only $links_checked links found: is the link extraction broken?"

# The README's common commands, run in order in one scratch folder that holds
# data/sample.log (so files they write land there), with `logagg` on PATH as
# the binary under test.
readme=$src/README.md
commands=$(awk '
  /^<!-- docs-test: commands -->$/ { marked = 1; next }
  marked && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' "$readme")
count=$(printf '%s\n' "$commands" | grep -c '[^[:space:]]' || true)
[ "$count" -ge 8 ] || fail "the README's common-commands block (after <!-- docs-test: commands -->) has $count commands, want at least 8"
run_dir=$work/commands
mkdir -p "$run_dir/data" "$work/bin"
cp "$src/data/sample.log" "$run_dir/data/"
ln -s "$(cd "$(dirname "$logagg")" && pwd)/$(basename "$logagg")" "$work/bin/logagg"
has_html=true
"$logagg" -q --format html - < /dev/null > /dev/null 2>&1 || has_html=false
while IFS= read -r cmd; do
  case $cmd in "" | "#"*) continue ;; esac
  if ! $has_html && [[ $cmd == *"--format html"* ]]; then
    echo "docs: this build has no html: skipped: $cmd"
    continue
  fi
  status=0
  (cd "$run_dir" && PATH="$work/bin:$PATH" COLUMNS=80 timeout 60 bash -o pipefail -c "$cmd" \
    > "$work/command.out" 2> "$work/command.err" < /dev/null) || status=$?
  [ "$status" -eq 0 ] || fail "README command exits $status: $cmd
$(tail -n 5 "$work/command.err")"
done <<< "$commands"

# The Quick start's test command is the one CI runs.
ci_command='cmake --preset release && cmake --build --preset release && ctest --preset release'
grep -qxF -- "$ci_command" "$readme" || fail "the README lacks the test command: $ci_command"
grep -qxF -- "$ci_command" "$src/.ci/run" || fail ".ci/run does not run the README's test command: $ci_command"

readme_lines=$(wc -l < "$readme")
[ "$readme_lines" -lt 250 ] || fail "README.md is $readme_lines lines, want under 250 (move the rest to docs/)"

[ "$failures" -eq 0 ] || exit 1
echo "docs: ok ($links_checked links, $count README commands)"
