#!/bin/bash
# `logagg --format html` end to end: the page for a day of per-second counts
# (86,400 buckets) is opened in headless Chromium, which must draw it without
# errors. Checks, with and without --by-app:
# - the page loads nothing from the network (no src= or href=);
# - the chart holds one point per bucket, empty ones included (as many as the
#   rows of `--format csv --fill-gaps`);
# - when MAX_DRAW_MS is not 0 (release builds), the first draw took less: a
#   generous bound (the draw takes 30-150 ms on a quiet machine) that guards
#   against a page that does work per point in the DOM or redraws per bucket,
#   which takes seconds for 86,400 points;
# - <title> and <h1> agree, and the accounting table shows the counted lines;
# - zoomed in on one bucket and hovered, the legend shows that bucket and each
#   series' own count (per app, not stacked, plus the total);
# - the browser console stays empty (no error, no Content-Security-Policy
#   violation: the page's own scripts and style sheets are what it allows).
# And the dashboard of a RED report (a day of per-second rows, 20 hosts,
# --count-if, --quantiles and --sum): a panel per quantity with its axes
# labelled, headed "all keys" until a key is chosen; each panel's sum over
# the day equals the log's (all keys, and the key chosen in the selector);
# the keys' table sorts by a column when its name is clicked.
# Saves screenshots as test artifacts: ARTIFACT_DIR/html_report.png,
# html_report_by_app.png, html_report_measures.png and html_report_red.png.
#
# Without Chromium it reports so and is skipped, or fails in CI
# (tests/e2e/html_browser.sh).
#
#   tests/e2e/html_report_test.sh LOGAGG_BIN CHROMIUM ARTIFACT_DIR MAX_DRAW_MS
set -euo pipefail
logagg=$1
chromium=$2
artifacts=$3
max_draw_ms=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/logagg-html.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/html_browser.sh"
mkdir -p "$artifacts"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# 2023-11-14, second s: app a1 1 or 2 lines (alternating every half hour),
# a2 2 + (hour % 4), a3 3 from noon on; nothing from 01:00:00 to 01:09:59
# (600 empty buckets).
awk 'BEGIN {
  for (s = 0; s < 86400; s++) {
    if (s >= 3600 && s < 4200) continue
    t = sprintf("2023-11-14T%02d:%02d:%02dZ", int(s / 3600), int(s / 60) % 60, s % 60)
    n[1] = 1 + int(s / 1800) % 2; n[2] = 2 + int(s / 3600) % 4; n[3] = s >= 43200 ? 3 : 0
    for (a = 1; a <= 3; a++) for (k = 0; k < n[a]; k++) printf "{\"app_id\":\"a%d\",\"timestamp\":\"%s\"}\n", a, t
  }
}' > "$work/day.log"
counted=$(wc -l < "$work/day.log")
buckets=$(("$(LC_ALL=C "$logagg" -q --format csv --fill-gaps "$work/day.log" | wc -l)" - 1))
# At 13:53:20 (s = 50000): a1 2, a2 3, a3 3.
probe_time=$(date -u -d 2023-11-14T13:53:20Z +%s)

# After the first draw, zooms to the minute around probe_time (the panels
# follow), hovers that bucket in every chart and writes the legends into
# body[data-legend] as "label=value;...".
probe='"use strict";
const probe = () => {
  const u = window.logaggChart;
  if (!u || !document.body.dataset.points) return setTimeout(probe, 10);
  u.setScale("x", {min: '$probe_time' - 30, max: '$probe_time' + 30});
  setTimeout(() => {
    const charts = [u].concat(window.logaggPanels);
    if (charts.some(c => c.scales.x.min !== '$probe_time' - 30)) document.body.dataset.legend = "zoomed apart";
    for (const c of charts) c.setCursor({left: c.valToPos('$probe_time', "x"), top: 10});
    document.body.dataset.legend ||= charts.flatMap(c => [...c.root.querySelectorAll(".u-series")])
        .map(row => row.querySelector(".u-label").textContent + "=" + row.querySelector(".u-value").textContent)
        .join(";");
  }, 0);
};
probe();'

check_page() {
  local name=$1 legend_want=$2
  shift 2
  local page="$work/$name.html"
  "$logagg" -q --format html "$@" "$work/day.log" > "$page"
  if grep -Eiq '<[a-z]+ [^>]*(src|href)=' "$page"; then fail "$name: the page links to outside resources"; fi

  local dom
  dom=$(open_page "$page" "$probe")
  local points render_ms ready_ms legend
  points=$(body_attribute points <<< "$dom")
  render_ms=$(body_attribute render-ms <<< "$dom")
  ready_ms=$(body_attribute ready-ms <<< "$dom")
  legend=$(body_attribute legend <<< "$dom")
  [ "$points" = "$buckets" ] || fail "$name: the chart has '$points' points, want $buckets (the buckets)"
  [ -n "$render_ms" ] || fail "$name: the page did not report its first draw"
  if [ "$max_draw_ms" != 0 ] && ! awk -v ms="$render_ms" -v max="$max_draw_ms" 'BEGIN { exit !(ms < max) }'; then
    fail "$name: first draw took '$render_ms' ms, want under $max_draw_ms"
  fi
  echo "$name: $points points drawn in $render_ms ms ($ready_ms ms after the page started loading);" \
       "legend at 13:53:20: $legend"

  local title h1
  title=$(grep -o "<title>[^<]*</title>" <<< "$dom" | sed 's/<[^>]*>//g' || true)
  h1=$(grep -o "<h1>[^<]*</h1>" <<< "$dom" | sed 's/<[^>]*>//g' || true)
  if [ -z "$title" ] || [ "$title" != "$h1" ]; then fail "$name: <title> '$title' and <h1> '$h1' differ"; fi
  grep -q "logagg" <<< "$title" || fail "$name: the title '$title' does not say logagg"
  local shown
  shown=$(tr -d '\n' <<< "$dom" | grep -o '<table id="accounting">.*</table>' |
          grep -o '<th>counted</th><td>[^<]*' | sed 's/.*<td>//; s/[^0-9]//g' || true)
  [ "$shown" = "$counted" ] || fail "$name: the accounting table shows '$shown' counted, want $counted"

  for want in "13:53:20" $legend_want; do
    grep -q "$want" <<< "$legend" || fail "$name: the legend at 13:53:20 lacks '$want': '$legend'"
  done
  if grep -q ":CONSOLE" "$page.log"; then fail "$name: console messages: $(grep ":CONSOLE" "$page.log")"; fi

  screenshot "$page" "$artifacts/$name.png"
  [ -s "$artifacts/$name.png" ] || fail "$name: no screenshot"
}

check_page html_report "=8"
check_page html_report_by_app "a1=2 a2=3 a3=3 total=8" --by-app
# A measure: its lines in a panel of its own, its values at the bucket in the legend (a1: 2 of 8).
check_page html_report_measures "=8 count(app_id==a1)=2 ratio(app_id==a1)=25.00%" --count-if 'app_id==a1'

# The dashboard of a RED report: a day, a line a second, host h00..h19 in
# turn; status 500 every tenth second; latency_ms and bytes from the second.
awk 'BEGIN {
  for (s = 0; s < 86400; s++) {
    t = sprintf("2023-11-14T%02d:%02d:%02dZ", int(s / 3600), int(s / 60) % 60, s % 60)
    printf "{\"app_id\":\"a\",\"timestamp\":\"%s\",\"host\":\"h%02d\",\"status\":%d,\"latency_ms\":%d,\"bytes\":%d}\n",
           t, s % 20, s % 10 ? 200 : 500, s % 1000, s % 5000 + 1
  }
}' > "$work/red.log"
bytes_all=$(awk -F'"bytes":' '{ sum += $2 + 0 } END { print sum }' "$work/red.log")
bytes_h03=$(grep '"host":"h03"' "$work/red.log" | awk -F'"bytes":' '{ sum += $2 + 0 } END { print sum }')
# Reads the panels, then chooses h03 and reads them again; then sorts the
# keys' table by its count column. body[data-red]: what was found, ";"-joined.
red_probe='"use strict";
const probe = () => {
  const u = window.logaggChart;
  if (!u || !document.body.dataset.points) return setTimeout(probe, 10);
  const panels = window.logaggPanels;
  const headings = () => [...document.querySelectorAll(".panel h2")].map(h => h.textContent).join("|");
  const sumOf = p => p.data[1].reduce((a, v) => a + (v || 0), 0);
  const found = ["panels=" + panels.length,
                 "axes=" + [u].concat(panels).map(c => c.axes.map(a => a.label || "").join(",")).join("|"),
                 "headings=" + headings(), "bytes=" + sumOf(panels[2])];
  const select = document.getElementById("key");
  select.selectedIndex = [...select.options].findIndex(o => o.textContent === "h03");
  select.dispatchEvent(new Event("change"));
  setTimeout(() => {
    found.push("key=" + document.body.dataset.key, "key headings=" + headings(), "key bytes=" + sumOf(panels[2]));
    // The key'"'"'s percentiles are drawn (a value a key point, between empty
    // ones: as points): pixels of p99'"'"'s colour, drawn last, in the latency panel.
    const canvas = panels[1].ctx.getImageData(0, 0, panels[1].ctx.canvas.width, panels[1].ctx.canvas.height).data;
    let drawnPixels = 0;
    for (let i = 0; i < canvas.length; i += 4) {
      if (canvas[i] === 0xff && canvas[i + 1] === 0x72 && canvas[i + 2] === 0x5c) drawnPixels++;
    }
    found.push("key p99 drawn=" + (drawnPixels >= 100));
    const keys = document.getElementById("keys");
    keys.rows[0].cells[0].click();
    found.push("sorted=" + [...keys.rows].slice(1, 4).map(r => r.cells[0].textContent).join(","));
    document.body.dataset.red = found.join(";");
  }, 100);
};
probe();'
red_page="$work/html_report_red.html"
"$logagg" -q --format html --by host --count-if 'status>=500' --quantiles latency_ms --sum bytes \
  --unit latency_ms=ms "$work/red.log" > "$red_page"
red_dom=$(open_page "$red_page" "$red_probe")
red=$(body_attribute red <<< "$red_dom" | sed 's/&amp;/\&/g; s/&gt;/>/g; s/&lt;/</g')
drawn_ms=$(body_attribute drawn-ms <<< "$red_dom")
echo "html_report_red: every chart drawn $drawn_ms ms after the page started loading; $red"
for want in "panels=3" \
    "axes=,requests per second|,requests per second,% of the lines counted|,latency_ms (ms)|,sum(bytes) per second" \
    "headings=lines matching --count-if, all keys|latency_ms, all keys|sum(bytes), all keys" "bytes=$bytes_all;" \
    "key=h03" "key headings=lines matching --count-if, key h03|latency_ms, key h03|sum(bytes), key h03" \
    "key bytes=$bytes_h03;" "key p99 drawn=true" "sorted=h19,h18,h17"; do
  grep -qF -- "$want" <<< "$red;" || fail "html_report_red: the dashboard lacks '$want': '$red'"
done
if grep -q ":CONSOLE" "$red_page.log"; then fail "html_report_red: console messages: $(grep ":CONSOLE" "$red_page.log")"; fi
[ -n "$drawn_ms" ] || fail "html_report_red: the page did not report every chart drawn"
if [ "$max_draw_ms" != 0 ] && ! awk -v ms="$drawn_ms" -v max="$max_draw_ms" 'BEGIN { exit !(ms < max) }'; then
  fail "html_report_red: every chart drawn after '$drawn_ms' ms, want under $max_draw_ms"
fi
screenshot "$red_page" "$artifacts/html_report_red.png"
[ -s "$artifacts/html_report_red.png" ] || fail "html_report_red: no screenshot"

[ "$failures" -eq 0 ] || exit 1
echo "html_report: ok (screenshots in $artifacts)"
