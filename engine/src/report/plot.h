// --plot: the report's series as a terminal bar chart drawn with Unicode
// block characters, fitted to a given width and height, with axis labels for
// count (0 and the highest column) and time (column starts: the first, the
// last, and a round one near the middle).
//
// The series runs from the first non-empty bucket to the last, empty ones
// included as zeros. If its buckets fit beside the count axis, each is a
// column (a narrower chart). Otherwise they are binned into round columns:
// the first of 1s, 2s, 5s, 10s, 15s, 30s, 1m, 2m, 5m, 10m, 15m, 20m, 30m, 1h,
// 2h, 3h, 4h, 6h, 12h, 1d (whole multiples of the bucket only), 2d, 7d (from
// Monday), 14d, 1, 3 or 6 calendar months, 1, 2, 5, 10, 20, 50, ... years
// whose columns fit. Bins are aligned as buckets are: a 20m column starts at
// hh:00, hh:20, hh:40, and in a zone on its wall clock (local hours and days
// stay aligned across DST changes); multi-day bins count local days from
// 1970-01-01 (weeks from Monday 1970-01-05), months from January of year 0.
// So the first column may start before the first bucket and the last end
// after the last: the time axis labels column starts, the heading states the
// binning, "1 column = 20m (1200 buckets of 1s)" (no count in a zone or for
// months, whose bins vary), "first and last columns partial" if so, and the
// peak column's count, which also sets the count axis's width. A column
// with any count shows at least ▁. Nothing counted: "no counted lines\n".
//
// Every line fits in `width` (at least 40 is sensible: a time label with a
// UTC offset is 25 chars) and has no trailing spaces. The series is never
// materialised: a span of years of seconds costs its non-empty buckets only.
//
// Pure and thread-safe; fails only by std::bad_alloc.
#pragma once

#include <string>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/result.h"

namespace logagg {

struct PlotSize {
  unsigned width = 80;   // columns of text, labels included
  unsigned height = 12;  // rows of bars (each row has 8 sub-steps)
};

// `buckets`: non-empty buckets ascending by start, as rebucket() returns them
// (bucket starts under `bucketing`, whose zone labels the time axis).
std::string format_plot(const std::vector<SecondCount>& buckets, const Bucketing& bucketing, PlotSize size);

}  // namespace logagg
