// Turns a Result into text: the report on stdout (table, csv, json or html),
// one row per bucket of ReportOptions::bucketing (per second by default), and
// the human summary, statistics and reject list on stderr. The question a
// result answers comes with it (Result::query): the report names its fields
// and --since/--until, and shows apps or keys only if they were counted.
//
// Reports are deterministic: they depend only on the counts and the line
// accounting, never on thread count or timing, so any two runs over the same
// input print the same bytes. The elapsed time appears only in the summary.
//
// Every function here is pure (reads its arguments only) and thread-safe; none
// fails except by std::bad_alloc, by whatever the caller's sink throws, or, in
// a build without html (has_html_format() below), by std::invalid_argument
// for Format::kHtml.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/measures.h"
#include "logagg/query.h"
#include "logagg/result.h"

namespace logagg {

enum class Format { kTable, kCsv, kJson, kHtml };

// How a result is shown; counting never depends on these.
// A unit of time a measured field is written in (--unit): s, ms, µs or ns.
enum class DurationUnit : uint8_t { kSeconds, kMillis, kMicros, kNanos };
// "s", "ms", "us" (or "µs") and "ns" as written; throws std::invalid_argument otherwise.
DurationUnit parse_duration_unit(std::string_view text);
// "s", "ms", "µs", "ns".
std::string_view unit_name(DurationUnit unit);

struct ReportOptions {
  Bucketing bucketing;     // rows per bucket (and the zone they are aligned to); default one second, UTC
  bool fill_gaps = false;  // zero rows for empty buckets between the first and the last
  size_t top = 0;          // with Question::by_app: the `top` apps with most lines, the rest as "(other)"; 0: all
  Format format = Format::kTable;
  // csv: an app id starting with =, +, -, @, TAB or CR gets a ' in front, so
  // a spreadsheet does not run it as a formula (--csv-safe).
  bool csv_neutralise_formulas = false;
  // --unit FIELD=UNIT: FIELD (as --sum/--quantiles name it) holds durations
  // in UNIT; the table (and --stats' text) print its min, max and quantiles
  // in the unit that reads best ("12.3 ms", 3 significant digits) and its
  // sum exactly, followed by UNIT. csv and json keep the plain numbers.
  std::vector<std::pair<std::string, DurationUnit>> units;
};

// Rows are buckets with at least one counted line, ascending by start, written
// as "YYYY-MM-DDThh:mm:ssZ" (with a --tz zone: its local time and offset,
// "YYYY-MM-DDThh:mm:ss+hh:mm"); with ReportOptions::fill_gaps also every empty
// bucket between the first and the last, with count 0. COLUMN below is
// ReportOptions::bucketing.column(): "second" (the default), "minute", "hour",
// "day", or "bucket" for other widths.
// csv:   "COLUMN,count" then "YYYY-MM-DDThh:mm:ssZ,N" rows.
// table: aligned columns with a header and a total line.
// json:  {"logagg": 1, "bucket": NAME, "app_field": ..., "time_field": ...,
//         [settings in force, see below,]
//         "counts": [{COLUMN: "...Z", "count": N}, ...],
//         "summary": {"files", "unreadable", "bytes", "lines", "counted",
//                     ["outside_range",] "blank", "rejected",
//                     "rejected_by_reason": {reason_key: N, ...}},
//         "stats": {"buckets", "empty_buckets", "total", "first", "last",
//                   "peak": {"bucket", "count"}, "mean", "median", "p95", "p99",
//                   "max"}}
//        NAME is ReportOptions::bucketing.name() ("second", "minute", "5m", ...).
//        The whole input's one bucket (Bucketing::whole(), --overall, NAME
//        "overall") has no COLUMN: its rows have no time in any format, go by
//        count, busiest first (ties in key order, "(other)" last), the table
//        ends with "rows: busiest first" after its total (none without keys:
//        the one row is the total), and "stats" has null first, last, peak
//        and per-bucket figures (there is no series); html is a table of the
//        rows instead of a chart.
//        The settings in force follow the fields, only when given: "tz": ZONE
//        (a --tz zone's IANA name), then with Question::by_app "by_app": true
//        (and "top": N with --top, "max_apps": N when the app table filled
//        up), then "since" and "until" as UTC "...Z" times; with either of
//        those, "summary" also holds "outside_range". With by_app each row is
//        {COLUMN: "...", "app_id": "...", "count": N}, and "stats" ends with a
//        "top_apps" list [{"app_id", "count", "percent"}] of the top (or 10)
//        apps by lines; csv rows are "COLUMN,app_id,count" and the table gets
//        an app_id column. Rows go by bucket, then app id, "(other)" last;
//        an app whose id is spelt "(other)" is a row with "real_app": true.
//        Ids are written as decoded: json strings escaped per RFC 8259, csv
//        fields quoted per RFC 4180 where needed, in the table with their
//        control bytes escaped (docs/GUIDE.md, "Hostile ids").
//        Every number in "summary" and "counts" is a sum over lines or inputs,
//        so two documents made with the same settings merge by adding (counts
//        per bucket start; see merge.h, whose parse_partial reads these
//        documents back); "stats" (null values when nothing was counted) is
//        recomputed from the merged counts, not added.
// html:  one self-contained page with a chart, the statistics and the line
//        accounting; the charting library is inlined, no network needed.
// Writes the report through `sink`, in chunks of about 64 KiB, so memory does
// not grow with the number of rows: zero rows of filled gaps are made while
// writing, never stored. A sink that throws stops the report there (and is
// not called again).
using ReportSink = std::function<void(std::string_view chunk)>;
void write_report(const Result& result, const ReportOptions& report, const ReportSink& sink);

// The --format html page of a run followed live (--follow --serve, whose
// server makes it): it follows `events`, the address of an event stream of
// the same origin whose events each carry live_html_data for the buckets a
// round changed, and keeps the last `points` points.
struct LiveHtml {
  std::string events;
  size_t points = 0;
};
// The page of `result` (the buckets a server keeps, with the run's summary),
// following `live`: a note says what it shows, and its tables are over those
// buckets. A page whose points would be binned does not follow (its note says
// so). Throws std::invalid_argument as write_report does without html.
void write_live_html_report(const Result& result, const ReportOptions& report, const LiveHtml& live,
                            const ReportSink& sink);
// The data of the html page of `result`, its `keys` busiest keys drawn (the
// rest added up as "(other)"), as one line of JSON: an event of a live page.
// "" when the page of `result` would bin its points (the live page cannot
// merge those). Throws std::invalid_argument as write_report does without
// html.
std::string live_html_data(const Result& result, const ReportOptions& report, size_t keys);

// Whether this build writes Format::kHtml (the CMake option LOGAGG_WITH_HTML,
// on by default). Without it, write_report throws std::invalid_argument for
// Format::kHtml.
bool has_html_format() noexcept;

// The whole report as one string (convenient for small results and tests).
std::string format_report(const Result& result, const ReportOptions& report = {});

// The run summary for stderr: files, bytes, lines, elapsed time and
// throughput, then counted, outside --since/--until (if any), blank, and
// rejected with its reasons; then the `more` rows (--follow's late lines),
// aligned with them. `counted_with`: the question the lines were counted for.
struct SummaryRow {
  std::string_view label;
  uint64_t count = 0;
};
std::string format_summary(const Summary& summary, const Query& counted_with = Query(),
                           const std::vector<SummaryRow>& more = {});

// --plot: a report's series as a terminal bar chart drawn with Unicode
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
struct PlotSize {
  unsigned width = 80;   // columns of text, labels included
  unsigned height = 12;  // rows of bars (each row has 8 sub-steps)
};

// With measures (plot_measures() below), a line chart of each measure
// follows on the same columns, its height a third of the bars' (at least 2
// rows): ratio(EXPR) of each --count-if, the highest percentile of each
// --quantiles field, the sum of each field only --sum measures. A column's
// value comes from the cells of its buckets added (never an average of
// theirs); each chart's title names the measure and its peak column's value
// (in the --unit it has), which labels its axis; a column with no value is
// blank, one at or below zero a ▁ on the bottom row, any other a block of
// eighths in the row of its height.
struct PlotMeasures {
  MeasureSpec spec;
  std::vector<std::pair<std::string, DurationUnit>> units;
  // The result's cells, and the second of each, ascending (several a second when keyed).
  const MeasureTable* cells = nullptr;
  std::vector<int64_t> seconds;
};
// The measures of `result` for --plot; nullopt without measures.
std::optional<PlotMeasures> plot_measures(const Result& result, const ReportOptions& report);

// `buckets`: non-empty buckets ascending by start, as rebucket() returns them
// (bucket starts under `bucketing`, whose zone labels the time axis).
std::string format_plot(const std::vector<SecondCount>& buckets, const Bucketing& bucketing, PlotSize size,
                        const PlotMeasures* measures = nullptr);

// A byte count for people: "830.8 KiB", "1.2 GiB" (powers of 1024).
std::string human_bytes(double bytes);

// The statistics of the bucketed counts (those of the json "stats") as a text
// block for stderr: a heading with the bucket name, count and range, then
// total, peak, mean (rounded to 3 decimals), median, p95, p99 and max, one per
// line; with Question::by_app, the top (or 10) apps by lines.
std::string format_stats(const Result& result, const ReportOptions& report);

// "PATH:LINE: reason" lines for the kept reject samples.
std::string format_rejects(const Result& result);

}  // namespace logagg
