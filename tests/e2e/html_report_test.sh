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
# Saves screenshots as test artifacts: ARTIFACT_DIR/html_report.png and
# html_report_by_app.png.
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

# After the first draw, zooms to the minute around probe_time, hovers that
# bucket and writes the legend into body[data-legend] as "label=value;...".
probe='"use strict";
const probe = () => {
  const u = window.logaggChart;
  if (!u || !document.body.dataset.points) return setTimeout(probe, 10);
  u.setScale("x", {min: '$probe_time' - 30, max: '$probe_time' + 30});
  setTimeout(() => {
    u.setCursor({left: u.valToPos('$probe_time', "x"), top: 10});
    document.body.dataset.legend = [...u.root.querySelectorAll(".u-series")]
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
# A measure: its line on an axis of its own, its value at the bucket in the legend (a1: 2 of 8).
check_page html_report_measures "=8 ratio(app_id==a1)=25.00%" --count-if 'app_id==a1'

[ "$failures" -eq 0 ] || exit 1
echo "html_report: ok (screenshots in $artifacts)"
