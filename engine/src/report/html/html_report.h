// The --format html page: one self-contained HTML file (the charting library
// and its style sheet inlined, no network needed to open it) with an
// interactive time-series chart of the report's buckets (zoom by dragging,
// hover shows the bucket and its count), or with --overall a table of its
// rows, the summary statistics and the line accounting. make_html_report (html_data.cc, declared below) fills an
// HtmlReport from a Result; write_html_report (html_report.cc) only draws it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "logagg/report.h"

namespace logagg {

struct HtmlSeries {
  std::string name;              // "requests", or an app id, or "(other)"
  std::vector<uint64_t> values;  // one per HtmlReport::starts
};

struct HtmlReport {
  std::string title;        // e.g. "logagg: requests per second"
  std::string bucket_name;  // Bucketing::name(): "second", "5m", ...
  std::string time_zone;    // IANA zone the buckets are shown in ("UTC" by default)
  // Point starts (UTC seconds since the epoch), ascending: every bucket from
  // the first non-empty one to the last, empty ones included, or every
  // buckets_per_point-th of them when the report is binned.
  std::vector<int64_t> starts;
  uint64_t buckets_per_point = 1;  // more when a long report is binned (see the notes)
  // The lines of the chart, each as long as `starts`. One series ("requests")
  // without --by-app; with it, one per app shown and "(other)" last, drawn
  // stacked so the top edge is the total.
  std::vector<HtmlSeries> series;
  bool stacked = false;
  // With measures: each drawn as a line over the counts, read on an axis of
  // its own kind at the right: ratio(EXPR) of each --count-if (axis "ratio"),
  // pP(F) of each percentile of each --quantiles field (axis F, in its
  // --unit), sum(F) of each --sum field (axis "sum(F)"). A point's value is
  // that of the cells of its buckets added, as a row of them would print it.
  struct Measure {
    std::string name;                 // the column: "p99(latency_ms)"
    std::string axis;                 // "ratio", F or "sum(F)"
    std::string unit;                 // "ratio", a --unit ("ms"), or ""
    std::vector<std::string> values;  // a JSON number or null per point
  };
  std::vector<Measure> measures;
  // Label and value rows shown beside the chart, in order: the statistics
  // ("peak", "42 at 2023-11-14T22:13:20Z"), then the accounting ("counted", ...).
  std::vector<std::pair<std::string, std::string>> stats;
  std::vector<std::pair<std::string, std::string>> accounting;
  // Sentences shown above the chart, e.g. why apps were folded into (other).
  std::vector<std::string> notes;
  // The whole input's one bucket (--overall) is no series: the page shows
  // its rows as a table instead of the chart, busiest first: the key
  // columns, count, share of the counted lines and the measures' columns,
  // as the table format writes them.
  struct RowsTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
  };
  std::optional<RowsTable> rows_table;
};

// Writes the page through `sink` in chunks (the data of a million points is
// never one string).
void write_html_report(const HtmlReport& report, const ReportSink& sink);

}  // namespace logagg

namespace logagg {

// The page's content for a result (html_data.cc): the report's buckets with
// gaps as zeros, at most kMaxHtmlPoints of them (more are binned: each point
// then sums the same number of buckets, and a note says so); with --by-app,
// the --top N apps (10 without --top) and "(other)", stacked.
inline constexpr uint64_t kMaxHtmlPoints = 200000;
HtmlReport make_html_report(const Result& result, const ReportOptions& report);

}  // namespace logagg
