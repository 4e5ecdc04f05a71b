#!/bin/bash
# `logagg --format html` with hostile app ids (issue 18): ids that are markup
# (</script><img onerror=...>, "><svg onload=...>, <iframe srcdoc=...>,
# <!--<script>, </title><script>), quotes, &amp;, U+2028/U+2029, NUL, CR and
# LF, a bidi override, ]]>, a template literal and a 5,000-byte id, counted
# with --app-field host and an --app-pattern that is markup itself (shown in
# the accounting table's bad_app row). Four pages: --by-app (the 10 busiest
# and (other)), --by-app --top 20 (every id), `logagg merge --format html
# --top 20` of a result document holding the same ids, and --by-app with a
# --count-if (a panel, and the key choice). For each:
# - in the file: the Content-Security-Policy meta is the first element of
#   <head> and allows nothing unsafe; no markup from an id survives as markup
#   (no <img, <svg, <iframe, <b>, <!--); three <script> and two
#   <style> elements, the page's own (checked before Chromium, so also where
#   it is missing);
# - in headless Chromium: no dialog opens (alert, confirm, prompt and print
#   are watched from before the page runs), no policy violation and no
#   console message at all; no element the page does not make itself (img,
#   svg, iframe, a, form, ...; the page's own scripts, styles and metas
#   counted; no on* attribute anywhere); the chart is drawn; the legend shows
#   exactly the ids as text, the statistics table "app ID" for each id (NUL
#   shown as U+FFFD, which is what HTML can hold), the keys' table every id,
#   the key choice (with measures) the ids of the legend, and a key chosen
#   heads the panel as text; the accounting table shows the pattern as text.
# Saves a screenshot of the --top 20 page: ARTIFACT_DIR/html_hostile.png.
#
#   tests/e2e/html_hostile_test.sh LOGAGG_BIN CHROMIUM ARTIFACT_DIR
set -euo pipefail
logagg=$1
chromium=$2
artifacts=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/logagg-html-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The ids as JSON string literals; the k-th (from 0) has k + 1 lines, so the
# last ten are the ten busiest.
long_id="\"$(printf 'L%.0s' {1..4990})<b>x</b>\""
ids=(
  '"</script><img src=x onerror=alert(1)>"'
  '"\"><svg onload=alert(2)>"'
  "\"'\""
  '"&amp;"'
  '"line\u2028and\u2029paragraph"'
  '"nul\u0000byte"'
  '"\u202egnp.exe"'
  '"<!--<script>alert(3)</script>"'
  '"]]>"'
  '"<iframe srcdoc=\"<script>alert(4)</script>\">"'
  '"cr\rlf\nend"'
  '"\"</title><script>alert(5)</script>"'
  '"`${alert(6)}`"'
  '"=cmd|'"'"' /C calc'"'"'!A0"'
  "$long_id"
)
pattern='(?s).+|</td><img src=x onerror=alert(7)>'
fields=(--app-field host --app-pattern "$pattern")

# The log, and the same with placeholder ids (id0, id1, ...) for the merge
# document; one line has an empty id: rejected as bad_app, so the accounting
# table names the pattern.
for k in "${!ids[@]}"; do
  for ((n = 0; n <= k; n++)); do
    printf '{"host":%s,"timestamp":"2023-11-14T22:13:%02dZ"}\n' "${ids[k]}" "$k" >> "$work/hostile.log"
    printf '{"host":"id%d","timestamp":"2023-11-14T22:13:%02dZ"}\n' "$k" "$k" >> "$work/placeholders.log"
  done
done
printf '{"host":"","timestamp":"2023-11-14T22:14:00Z"}\n' | tee -a "$work/placeholders.log" >> "$work/hostile.log"
# The merge document: logagg's result for the placeholders, each "idK"
# replaced by the hostile id (the counts still add up).
"$logagg" -q --format json --by-app "${fields[@]}" "$work/placeholders.log" |
  python3 -c 'import sys
text, ids = sys.stdin.read(), sys.argv[1:]
for k in reversed(range(len(ids))):
    text = text.replace(f"\"id{k}\"", ids[k])
sys.stdout.write(text)' "${ids[@]}" > "$work/hostile.json"

"$logagg" -q --format html --by-app "${fields[@]}" "$work/hostile.log" > "$work/by_app.html"
"$logagg" -q --format html --by-app --top 20 "${fields[@]}" "$work/hostile.log" > "$work/top.html"
"$logagg" merge --format html --top 20 "$work/hostile.json" > "$work/merge.html"
"$logagg" -q --format html --by-app --count-if 'exists host' "${fields[@]}" "$work/hostile.log" > "$work/measures.html"

for name in by_app top merge measures; do
  page="$work/$name.html"
  [ "$(sed -n 3p "$page")" = "<head>" ] &&
    sed -n 4p "$page" | grep -Eq "^<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}=';" ||
    fail "$name: the first element of <head> is not the Content-Security-Policy: $(sed -n 3,4p "$page" | cut -c1-200)"
  if grep -q "unsafe-" "$page"; then fail "$name: the policy allows something unsafe"; fi
  markup=$(grep -Eio '<(img|svg|iframe|b>)|<!--' "$page" | sort -u | tr '\n' ' ' || true)
  [ -z "$markup" ] || fail "$name: markup from the ids is in the page: $markup"
  for tag in script:3 /script:3 style:2; do
    n=$(grep -o "<${tag%:*}[ >]" "$page" | wc -l)
    [ "$n" = "${tag#*:}" ] || fail "$name: $n <${tag%:*}> in the page, want ${tag#*:}"
  done
done
[ "$failures" -eq 0 ] || exit 1

. "$(dirname "$0")/html_browser.sh"

# What the probe checks the page against, as base64 (JSON would hold
# </script>): every id, the ten busiest, and the pattern.
json_list() { local IFS=,; echo "[$*]"; }
want=$(printf '{"all":%s,"busiest":%s,"pattern":%s}' "$(json_list "${ids[@]}")" \
         "$(json_list "${ids[@]: -10}")" "\"$pattern\"" | base64 -w0)

# Runs first in <head>: watches dialogs and policy violations, then, after
# the first draw, writes what is wrong into body[data-problems] ("none").
probe_for() {  # LEGEND (all or busiest) OTHER (true: "(other)" is drawn) TABLES (how many) CHOICE (true: a key choice)
  cat <<EOF
"use strict";
const seen = {dialogs: [], violations: []};
for (const name of ["alert", "confirm", "prompt", "print"]) window[name] = () => { seen.dialogs.push(name); };
document.addEventListener("securitypolicyviolation", e => seen.violations.push(e.violatedDirective), true);
const want = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob("$want"), c => c.charCodeAt(0))));
const check = () => {
  const u = window.logaggChart;
  if (!u || !document.body.dataset.points) return setTimeout(check, 10);
  const problems = [];
  const same = (what, got, expected) => {
    const a = JSON.stringify([...got].sort()), b = JSON.stringify([...expected].sort());
    if (a !== b) problems.push(what + ": " + a.slice(0, 300) + ", want " + b.slice(0, 300));
  };
  problems.push(...seen.dialogs.map(d => "dialog " + d), ...seen.violations.map(v => "policy violation " + v));
  const csp = document.head.children[1];
  if (csp.httpEquiv !== "Content-Security-Policy") problems.push("the policy is not first in <head>");
  const foreign = document.querySelectorAll("img, svg, iframe, frame, object, embed, base, form, a, math, link, " +
      "input, button, textarea, video, audio, template, noscript, b");
  if (foreign.length) problems.push(foreign.length + " injected elements: " + foreign[0].outerHTML.slice(0, 100));
  same("elements", ["script", "style", "meta", "title", "h1", "table"].map(t => t + document.getElementsByTagName(t).length),
       ["script4", "style2", "meta4", "title1", "h11", "table$3"]);
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) if (a.name.startsWith("on")) problems.push("attribute " + a.name + " on " + e.localName);
  }
  const labels = [...u.root.querySelectorAll(".u-series .u-label")].map(e => e.textContent);
  same("legend", labels.slice(1, -1), want.$1.concat($2 ? ["(other)"] : []));
  const keys = [...document.querySelectorAll("#keys tr")].slice(1).map(r => r.cells[0].textContent);
  same("keys table", keys, want.all.map(id => id.replaceAll("\0", "\uFFFD")));
  const choice = document.getElementById("key");
  if (!choice !== !$4) problems.push("a key choice where none is wanted, or none where one is");
  if (choice) {
    const names = [...choice.options].map(o => o.textContent);
    same("key choice", names.slice(1), want.$1.concat($2 ? ["(other)"] : []));
    if (names[0] !== "all keys") problems.push("the key choice starts with " + names[0]);
    choice.selectedIndex = 1;
    choice.dispatchEvent(new Event("change"));
    const heading = document.querySelector(".panel h2").textContent;
    if (heading !== "lines matching --count-if, key " + names[1]) problems.push("panel heading: " + heading);
  }
  const apps = [...document.querySelectorAll("#stats th")].map(e => e.textContent).filter(t => t.startsWith("app "));
  same("statistics", apps, want.$1.map(id => "app " + id.replaceAll("\0", "\uFFFD")));
  const reasons = [...document.querySelectorAll("#accounting th")].map(e => e.textContent.trim());
  if (!reasons.includes("app id does not match " + want.pattern)) problems.push("accounting: " + JSON.stringify(reasons));
  document.body.dataset.problems = problems.join(" | ") || "none";
};
check();
EOF
}

check_page() {  # NAME LEGEND OTHER TABLES CHOICE
  local page="$work/$1.html" dom problems
  dom=$(open_page "$page" "$(probe_for "$2" "$3" "$4" "$5")" | tr -d '\0')
  problems=$(body_attribute problems <<< "$dom" | sed "s/&quot;/\"/g; s/&#39;/'/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g")
  [ "$problems" = none ] || fail "$1: ${problems:-the probe did not finish (the chart was not drawn)}"
  if grep -q ":CONSOLE" "$page.log"; then fail "$1: console messages: $(grep ":CONSOLE" "$page.log" | cut -c1-300)"; fi
  echo "$1: $(body_attribute points <<< "$dom") points drawn, problems: ${problems:-?}"
}

check_page by_app busiest true 4 false    # the legend, the keys, the statistics, the lines
check_page top all false 4 false
check_page merge all false 4 false
check_page measures busiest true 6 true   # and a panel's legend, the totals; the key choice
screenshot "$work/top.html" "$artifacts/html_hostile.png"
[ -s "$artifacts/html_hostile.png" ] || fail "no screenshot"

[ "$failures" -eq 0 ] || exit 1
echo "html_hostile: ok (screenshot in $artifacts)"
