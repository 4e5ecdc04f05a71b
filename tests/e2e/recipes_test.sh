#!/bin/bash
# The recipes of docs/recipes.md, and their list in the README's "Recipes"
# section, hold what they show:
# - the README's list (the table after the line `<!-- recipes-test: commands -->`,
#   one command per row in a code span) and docs/recipes.md (every fenced block
#   whose first line is `$ logagg ...`) hold the same commands, in order;
# - every producer the recipes cover (`producers` below: issue 14's list, and issue 40's GitLab and OpenSearch web logs) has
#   exactly one recipe, which reads data/recipes/<producer>.log; that file
#   exists, and every data/recipes/*.log has a recipe; the producers that log
#   a status (`with_status`) have one status breakdown too (a command with
#   --by-status-class), which the README's list leaves out;
# - the sample line shown before each recipe (the page's last ```json block
#   before it) is a line of the recipe's data file;
# - each command, run from the repository's root with `logagg` the binary
#   under test, exits 0 and prints what its block shows under the `$` line:
#   its output is stdout then stderr (logagg writes the summary after the
#   report); the block's lines before a `...` line are the output's first
#   lines, those after it its last lines, and without `...` the block is the
#   whole output. Only the run's timing figures in the summary's first line
#   (`in 0.012 s (163.2 KiB/s, 0.00 M lines/s)`) are not compared;
# - each recipe counts at least one line (so not all its lines are rejected),
#   and rejects at least one, so that its summary shows a reason (a status
#   breakdown, with --app-field none, may reject none);
# - the text of each recipe's section before it says the share it counts,
#   "counts N of the M lines", as its run does (N counted, M lines);
# - where that text names real lines, `data/recipes/captured/NAME.log` (one
#   file or several), it says "counts N of its M lines" ("of its 1 line") as
#   the recipe's command run on each such file (in place of its data file)
#   does; every file of data/recipes/captured/
#   is named by a recipe, and has its source in data/recipes/README.md.
#
#   tests/e2e/recipes_test.sh LOGAGG_BIN SOURCE_DIR
set -euo pipefail
logagg=$1
src=$(cd "$2" && pwd)
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

producers=(nginx-iso8601 nginx-msec nginx-local caddy envoy traefik pino zap ecs kubernetes-audit
  cloudflare-rfc3339 cloudflare-unixnano gitlab opensearch-web zeek)
with_status=(nginx-iso8601 caddy envoy traefik cloudflare-rfc3339 gitlab opensearch-web)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/recipe"
ln -s "$(cd "$(dirname "$logagg")" && pwd)/$(basename "$logagg")" "$work/bin/logagg"

# docs/recipes.md: recipe N as $work/recipe/N.cmd (the command), N.shown (the
# block's other lines) and N.sample (the last json block before it).
awk -v dir="$work/recipe" '
  /^```/ {
    if (!inside) { inside = 1; info = substr($0, 4); n_lines = 0; next }
    inside = 0
    if (info == "json") sample = block
    else if (n_lines > 0 && first ~ /^\$ logagg /) {
      n++
      print substr(first, 3) > (dir "/" n ".cmd")
      printf "%s", rest > (dir "/" n ".shown")
      printf "%s", sample > (dir "/" n ".sample")
      printf "%s", prose > (dir "/" n ".prose")
      close(dir "/" n ".cmd"); close(dir "/" n ".shown"); close(dir "/" n ".sample"); close(dir "/" n ".prose")
    }
    next
  }
  !inside && /^## / { prose = ""; next }
  !inside { prose = prose $0 " " }
  inside {
    n_lines++
    if (n_lines == 1) { first = $0; rest = ""; block = $0 "\n" }
    else { rest = rest $0 "\n"; block = block $0 "\n" }
  }' "$src/docs/recipes.md"
recipes=$(find "$work/recipe" -name '*.cmd' | wc -l)
doc_commands=$(for ((i = 1; i <= recipes; i++)); do cat "$work/recipe/$i.cmd"; done)
breakdowns=$(grep -e '--by-status-class' <<< "$doc_commands" || true)
base_commands=$(grep -v -e '--by-status-class' <<< "$doc_commands" || true)

# shellcheck disable=SC2016 # the backticks are markdown's code spans
readme_commands=$(awk '
  /^<!-- recipes-test: commands -->$/ { marked = 1; next }
  marked && /^\|/ { table = 1; print; next }
  table { exit }' "$src/README.md" | sed -n 's/.*`\(logagg [^`]*\)`.*/\1/p')
[ -n "$readme_commands" ] || fail "README.md: no recipe commands in the table after <!-- recipes-test: commands -->"
[ "$readme_commands" = "$base_commands" ] ||
  fail "the README's recipes and docs/recipes.md's differ:
$(diff <(echo "$readme_commands") <(echo "$base_commands") || true)"

# The data file of each recipe: the first data/recipes/*.log it names.
data_file() { grep -o 'data/recipes/[A-Za-z0-9_.-]*\.log' <<< "$1" | head -n 1 || true; }
for p in "${producers[@]}"; do
  uses=$(grep -c -- " data/recipes/$p\.log\( \|$\)" <<< "$base_commands" || true)
  [ "$uses" -eq 1 ] || fail "producer $p: $uses recipes read data/recipes/$p.log, want 1"
done
for p in "${with_status[@]}"; do
  uses=$(grep -c -- " data/recipes/$p\.log\( \|$\)" <<< "$breakdowns" || true)
  [ "$uses" -eq 1 ] || fail "producer $p: $uses status breakdowns read data/recipes/$p.log, want 1"
done
for f in "$src"/data/recipes/*.log; do
  grep -q -- " data/recipes/$(basename "$f")\( \|$\)" <<< "$doc_commands" ||
    fail "data/recipes/$(basename "$f") has no recipe in docs/recipes.md"
done

named_captured=()  # the captured files the recipes' texts name
mask_timing() { sed -E 's/ in [0-9.]+ s \([^)]*\)$/ in (timing)/'; }
for ((i = 1; i <= recipes; i++)); do
  cmd=$(cat "$work/recipe/$i.cmd")
  data=$(data_file "$cmd")
  if [ -z "$data" ] || [ ! -f "$src/$data" ]; then
    fail "recipe without its data file (${data:-no data/recipes/*.log named}): $cmd"
    continue
  fi
  if [ ! -s "$work/recipe/$i.sample" ]; then
    fail "no sample line (a json block) before the recipe: $cmd"
  elif [ "$(wc -l < "$work/recipe/$i.sample")" -ne 1 ] || ! grep -qxF -f "$work/recipe/$i.sample" "$src/$data"; then
    fail "the sample line shown before the recipe is not one line of $data: $cmd"
  fi
  status=0
  (cd "$src" && PATH="$work/bin:$PATH" timeout 60 bash -o pipefail -c "$cmd" \
    > "$work/out" 2> "$work/err" < /dev/null) || status=$?
  [ "$status" -eq 0 ] || { fail "recipe exits $status: $cmd
$(tail -n 5 "$work/err")"; continue; }
  cat "$work/out" "$work/err" | mask_timing > "$work/real"
  mask_timing < "$work/recipe/$i.shown" > "$work/shown"
  if grep -qx '\.\.\.' "$work/shown"; then
    sed '/^\.\.\.$/,$d' "$work/shown" > "$work/head"
    sed '1,/^\.\.\.$/d' "$work/shown" > "$work/tail"
    head_n=$(wc -l < "$work/head")
    tail_n=$(wc -l < "$work/tail")
    if [ $((head_n + tail_n)) -gt "$(wc -l < "$work/real")" ] ||
      ! cmp -s "$work/head" <(head -n "$head_n" "$work/real") ||
      ! cmp -s "$work/tail" <(tail -n "$tail_n" "$work/real"); then
      fail "recipe output is not what docs/recipes.md shows: $cmd
$(cat "$work/real")"
    fi
  elif ! cmp -s "$work/shown" "$work/real"; then
    fail "recipe output is not what docs/recipes.md shows: $cmd
$(diff "$work/shown" "$work/real" || true)"
  fi
  counted=$(awk '$1 == "counted" { print $2 }' "$work/err")
  rejected=$(awk '$1 == "rejected" { print $2 }' "$work/err")
  [ "${counted:-0}" -ge 1 ] || fail "recipe counts no line (summary: ${counted:-none}): $cmd"
  if [[ $cmd != *--by-status-class* ]]; then
    [ "${rejected:-0}" -ge 1 ] || fail "recipe rejects no line, so its summary shows no reason: $cmd"
    lines=$(grep -o '[0-9]* lines in' "$work/err" | head -n 1 | cut -d' ' -f1)
    tr -s ' \n' ' ' < "$work/recipe/$i.prose" | grep -qF "counts ${counted:-0} of the ${lines:-0} lines" ||
      fail "the text before the recipe does not say it counts ${counted:-0} of the ${lines:-0} lines: $cmd"
    captures=$(grep -o 'data/recipes/captured/[A-Za-z0-9_.-]*\.log' "$work/recipe/$i.prose" | sort -u || true)
    for captured in $captures; do
      named_captured+=("$captured")
      status=0
      (cd "$src" && PATH="$work/bin:$PATH" timeout 60 bash -o pipefail -c "${cmd/$data/$captured}" \
        > /dev/null 2> "$work/err" < /dev/null) || status=$?
      counted=$(awk '$1 == "counted" { print $2 }' "$work/err")
      lines=$(grep -o '[0-9]* lines in' "$work/err" | head -n 1 | cut -d' ' -f1)
      said="counts ${counted:-0} of its ${lines:-0} lines"
      [ "${lines:-0}" != 1 ] || said="counts ${counted:-0} of its 1 line"
      [ "$status" -eq 0 ] && tr -s ' \n' ' ' < "$work/recipe/$i.prose" | grep -qF "$said" ||
        fail "the text before the recipe does not say it $said of $captured (exit $status): $cmd"
    done
  fi
done
for f in "$src"/data/recipes/captured/*.log; do
  name=data/recipes/captured/$(basename "$f")
  [[ " ${named_captured[*]} " == *" $name "* ]] || fail "$name: no recipe says how many of its lines it counts"
  grep -qF "\`captured/$(basename "$f")\`" "$src/data/recipes/README.md" ||
    fail "$name: no source in data/recipes/README.md"
done
[ "$recipes" -ge "${#producers[@]}" ] || fail "docs/recipes.md has $recipes recipes, want at least ${#producers[@]}"

[ "$failures" -eq 0 ] || exit 1
echo "recipes: ok ($recipes recipes)"
