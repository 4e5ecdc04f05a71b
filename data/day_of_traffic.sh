#!/usr/bin/env bash
# A day of traffic for the chart examples of docs/GUIDE.md (--plot, --format html):
# loggen writes each hour at its own rate (quiet nights, a morning step, an
# afternoon peak), and awk renames the random app ids to five services by
# their first character, so a per-app view has a few apps of different sizes.
#
#   data/day_of_traffic.sh LOGGEN OUT      e.g. build/release/data/generator/loggen /tmp/day.log
set -euo pipefail
loggen=$1
out=$2
rates=(0.6 0.6 0.6 0.6 0.6 0.7 0.8 0.9 1.2 2.5 2.8 2.0 2.6 3.5 3.6 3.4 2.9 2.1 1.4 1.1 0.9 0.8 0.7 0.6)
: > "$out"
for h in $(seq 0 23); do
  rate=${rates[$h]}
  lines=$(awk -v r="$rate" 'BEGIN { printf "%d", r * 3600 }')
  "$loggen" --seed $((h + 1)) --start "$(printf '2023-11-14T%02d:00:00Z' "$h")" --rate "$rate" \
    --lines "$lines" --dirty 0 >> "$out"
done
# app ids: search 9/23, checkout 5/23, auth 4/23, api 3/23, images 2/23 of the first characters
awk 'BEGIN { split("search search search search search search search search search checkout checkout checkout checkout checkout auth auth auth auth api api api images images", names, " ") }
     match($0, /"app_id"[ \t]*:[ \t]*"[^"]*"/) {
       open = RSTART + 8 + index(substr($0, RSTART + 8), "\"")  # first character of the value
       i = index("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", substr($0, open, 1)) % 23 + 1
       $0 = substr($0, 1, open - 1) names[i] substr($0, RSTART + RLENGTH - 1)
     }
     { print }' "$out" > "$out.tmp"
mv "$out.tmp" "$out"
