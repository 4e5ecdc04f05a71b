// The --format html page: one self-contained HTML file (the charting library
// and its style sheet inlined, no network needed to open it), a dashboard:
// an interactive time-series chart of the report's buckets (stacked by the
// first key; zoom by dragging, hover shows the bucket and its counts), a
// panel per quantity measured under it (--count-if, --quantiles, --sum; a
// key selector shows one key's), the keys over the whole run as a sortable
// table, the measures' totals, the statistics and the line accounting; or
// with --overall a table of its rows. make_html_report (html_data.cc,
// declared below) fills an HtmlReport from a Result; write_html_report
// (html_report.cc) only draws it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
  std::string count_axis;  // the counts' axis label: "lines per second"
  // With measures, the panels under the counts' chart, each a chart of its
  // own on the same time axis (they zoom together): the lines matching the
  // --count-if expressions (their counts on the left axis, their ratios on
  // the right), then per --quantiles field its percentiles, and per --sum
  // field its sum, each on an axis labelled with the field and its --unit.
  struct Panel {
    std::string title;  // "lines matching --count-if", "latency_ms", "sum(bytes)"
    std::string left;   // the left axis' label: "lines per second", "latency_ms (ms)"
    std::string right;  // the right axis' label ("% of lines"), or "" for none
  };
  std::vector<Panel> panels;
  // The measures drawn, each a line of a panel. A point's value is that of
  // the cells of its buckets added (over all keys), as a row of them would
  // print it.
  struct Measure {
    std::string name;                 // the column: "p99(latency_ms)"
    size_t panel = 0;                 // in panels
    bool right = false;               // on the panel's right axis
    std::string unit;                 // "ratio", a --unit ("ms"), or ""
    std::vector<std::string> values;  // a JSON number or null per point
  };
  std::vector<Measure> measures;
  // With keys and measures: the measures of each key drawn (series' order,
  // "(other)" included), on points that each add key_points_bin points of
  // `starts` (more than 1 when keys x measures x points would make the page
  // slow to open): key_values[series][measure] has a value per key_starts.
  uint64_t key_points_bin = 1;
  // Whether any point adds up more than one bucket (a live page cannot
  // merge such points).
  bool binned() const { return buckets_per_point > 1 || key_points_bin > 1; }
  std::vector<int64_t> key_starts;
  std::vector<std::vector<std::vector<std::string>>> key_values;
  // With keys: a table of the keys over the whole run (the key columns,
  // count, share and the measures' columns, busiest first), and a sentence
  // saying which keys it shows.
  struct RowsTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
  };
  std::optional<RowsTable> keys_table;
  std::string keys_table_note;
  // With measures: each measure over the whole run (all keys, every bucket:
  // the sums added, the percentiles of the merged sketch), as label and value.
  std::vector<std::pair<std::string, std::string>> totals;
  std::string span = "the whole run";  // what the keys' table and the totals are over
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
  std::optional<RowsTable> rows_table;
  // A page served live (--follow --serve, LivePage): its charts follow
  // `events`, server-sent events of the same origin whose data each is a
  // document of this page's data's shape (write_html_data) for the buckets
  // it changes, and keep the last `points` points.
  struct Live {
    std::string events;  // "/page-events?after=ID"
    size_t points = 0;
  };
  std::optional<Live> live;
};

// Writes the page through `sink` in chunks (the data of a million points is
// never one string).
void write_html_report(const HtmlReport& report, const ReportSink& sink);
// The page's data alone (the JSON document its charts are drawn from), for
// the events of a live page: fit for a <script> and an event stream alike
// ('<', '>', '&', U+2028 and U+2029 escaped), and one line.
std::string write_html_data(const HtmlReport& report);

}  // namespace logagg

namespace logagg {

// The page's content for a result (html_data.cc): the report's buckets with
// gaps as zeros, at most kMaxHtmlPoints of them (more are binned: each point
// then sums the same number of buckets, and a note says so); with --by-app,
// the --top N apps (10 without --top) and "(other)", stacked.
// `span` says what the tables of keys and totals are over: a live page's are
// over the buckets the server keeps.
inline constexpr uint64_t kMaxHtmlPoints = 200000;
HtmlReport make_html_report(const Result& result, const ReportOptions& report, std::string_view span = "the whole run");
// The page of a live run (write_live_html_report): the buckets `result`
// holds, its tables over them, following `live` unless binned.
HtmlReport make_live_html_report(const Result& result, const ReportOptions& report, const LiveHtml& live);

}  // namespace logagg
