// From a result to the content of the --format html page (see html_report.h):
// the series to draw, the panels of measures (all keys, and each key drawn),
// the keys' table, the totals, the statistics and the line accounting.
#include <algorithm>
#include <optional>

#include "count/count.h"
#include "report/html/html_report.h"
#include "report/measure_text.h"
#include "report/report_rows.h"
#include "report/report_text.h"
#include "report/stats.h"

namespace logagg {
namespace {

// Apps drawn without --top: more would make the stack unreadable.
constexpr size_t kDefaultChartApps = kDefaultRankedApps;

// The points' indexes of bucket starts met in ascending order: buckets since
// `first`, over `bin`. Only the starts met are walked (advance() strides over
// the empty buckets between them).
class PointOf {
 public:
  PointOf(const Bucketing& bucketing, int64_t first, uint64_t bin) : bucketing_(bucketing), at_(first), bin_(bin) {}
  uint64_t operator()(int64_t start) {
    if (start != at_) index_ += bucketing_.count_between(at_, start) - 1;
    at_ = start;
    return index_ / bin_;
  }

 private:
  const Bucketing& bucketing_;
  int64_t at_;
  uint64_t bin_;
  uint64_t index_ = 0;
};

// Fills starts and series (one per app, or one "requests") from the rows,
// every `bin` consecutive buckets summed into one point. Only the points and
// the non-empty buckets are walked, so a span of years costs no more than
// its points.
void fill_series(const ReportRows& rows, uint64_t bin, HtmlReport& page) {
  const std::vector<SecondCount>& buckets = rows.buckets();
  if (buckets.empty()) return;
  const Bucketing& bucketing = rows.bucketing();
  const int64_t first = buckets.front().second;
  const uint64_t points = (bucketing.count_between(first, buckets.back().second) + bin - 1) / bin;
  page.starts.reserve(points);
  for (int64_t start = first; page.starts.size() < points; start = bucketing.advance(start, bin)) {
    page.starts.push_back(start);
  }
  page.series.resize(rows.by_app() ? rows.apps().size() : 1);
  for (size_t i = 0; i < page.series.size(); ++i) {
    page.series[i].name =
        rows.by_app() ? key_text(rows.key(static_cast<uint32_t>(i)), rows.key_columns().size()) : "requests";
    page.series[i].values.assign(points, 0);
  }
  PointOf point_of(bucketing, first, bin);
  if (!rows.by_app()) {
    for (const SecondCount& b : buckets) page.series[0].values[point_of(b.second)] += b.count;
    return;
  }
  for (const AppCount& r : rows.app_buckets()) page.series[r.app].values[point_of(r.second)] += r.count;
}

// The panels and the measures each draws, among MeasureText's columns (see
// HtmlReport::panels); returns each measure's column.
std::vector<size_t> lay_out_panels(const MeasureText& text, const ReportOptions& report, HtmlReport& page) {
  const MeasureSpec& spec = text.spec();
  const std::string per_bucket = " per " + page.bucket_name;
  const auto unit = [&](const std::string& field) {
    const std::optional<DurationUnit> u = unit_of(report.units, field);
    return u ? std::string(unit_name(*u)) : std::string();
  };
  const auto add = [&](std::string name, bool right, std::string unit_text) {
    page.measures.push_back({std::move(name), page.panels.size() - 1, right, std::move(unit_text), {}});
  };
  if (!spec.count_if.empty()) {
    page.panels.push_back({"lines matching --count-if", "requests" + per_bucket, "% of the lines counted"});
    for (const std::string& expression : spec.count_if) add("count(" + expression + ")", false, "");
    for (const std::string& expression : spec.count_if) add("ratio(" + expression + ")", true, "ratio");
  }
  const auto in = [&](const std::string& field) { return unit(field).empty() ? "" : " (" + unit(field) + ")"; };
  for (const MeasureSpec::Field& f : spec.fields) {
    if (!f.quantiled) continue;
    page.panels.push_back({f.name, f.name + in(f.name), ""});
    for (const Percentile& p : spec.percentiles) add("p" + p.text + "(" + f.name + ")", false, unit(f.name));
  }
  for (const MeasureSpec::Field& f : spec.fields) {
    if (!f.summed) continue;
    page.panels.push_back({"sum(" + f.name + ")", "sum(" + f.name + ")" + per_bucket + in(f.name), ""});
    add("sum(" + f.name + ")", false, unit(f.name));
  }
  std::vector<size_t> drawn;
  for (const HtmlReport::Measure& measure : page.measures) {
    drawn.push_back(static_cast<size_t>(std::find(text.columns().begin(), text.columns().end(), measure.name) -
                                        text.columns().begin()));
  }
  return drawn;
}

// Appends the drawn columns' values of a point whose cells add up to `cell`
// to `out[i]`, each a JSON number or null, as a --fill-gaps row prints them:
// a point without lines has counts and sums of 0, no ratio and no quantiles.
void append_values(const MeasureText& text, const std::vector<size_t>& drawn, const MeasureCell& cell,
                   std::vector<MeasureText::Value>& scratch, std::vector<std::vector<std::string>*> out) {
  text.values(&cell, cell.count, scratch);
  for (size_t i = 0; i < drawn.size(); ++i) {
    out[i]->push_back(scratch[drawn[i]].present ? scratch[drawn[i]].text : "null");
  }
}

// Values of the per-key measures at most: beyond, the key points are binned.
constexpr uint64_t kMaxKeyValues = 600000;

// The measures of each key drawn (HtmlReport::key_values), added up one key
// point at a time: a cell per key, written out when the rows reach the next
// key point.
class KeyPoints {
 public:
  KeyPoints(size_t keys, const MeasureText& text, const std::vector<size_t>& drawn, HtmlReport& page)
      : text_(text), drawn_(drawn), empty_(text.spec().empty_cell()), cells_(keys, empty_), out_(keys) {
    const size_t points = page.starts.size();
    const uint64_t values = uint64_t{keys} * drawn.size() * points;
    bin_ = std::max<uint64_t>(1, (values + kMaxKeyValues - 1) / kMaxKeyValues);
    page.key_points_bin = bin_;
    for (size_t p = 0; p < points; p += bin_) page.key_starts.push_back(page.starts[p]);
    points_ = page.key_starts.size();
    page.key_values.assign(keys, std::vector<std::vector<std::string>>(drawn.size()));
    for (size_t k = 0; k < keys; ++k) {
      for (std::vector<std::string>& v : page.key_values[k]) {
        v.reserve(points_);
        out_[k].push_back(&v);
      }
    }
  }
  // Adds key `key`'s cell of a bucket of point `point` (met in ascending order).
  void add(uint64_t point, uint32_t key, const MeasureCell& cell) {
    write_through(point / bin_);
    cells_[key].add(cell);
  }
  void finish() { write_through(points_); }

 private:
  void write_through(size_t end) {
    for (; written_ < end; ++written_) {
      for (size_t k = 0; k < cells_.size(); ++k) {
        append_values(text_, drawn_, cells_[k], scratch_, out_[k]);
        cells_[k] = empty_;
      }
    }
  }

  const MeasureText& text_;
  const std::vector<size_t>& drawn_;
  const MeasureCell empty_;
  std::vector<MeasureCell> cells_;
  std::vector<std::vector<std::vector<std::string>*>> out_;
  std::vector<MeasureText::Value> scratch_;
  uint64_t bin_ = 1;
  size_t points_ = 0;
  size_t written_ = 0;  // key points written
};

// Fills the measures' values from the chart's rows (their cells per bucket,
// and per key shown), walked once: each point's cells added over all keys
// (page.measures), and with keys each key's (KeyPoints). Needs page.starts
// and the panels laid out. Returns every row's cell added: the totals.
MeasureCell fill_measures(const ReportRows& rows, const MeasureText& text, const std::vector<size_t>& drawn,
                          uint64_t bin, HtmlReport& page) {
  std::vector<MeasureCell> points(page.starts.size(), text.spec().empty_cell());
  std::optional<KeyPoints> keys;
  if (rows.by_app()) keys.emplace(rows.apps().size(), text, drawn, page);
  PointOf point_of(rows.bucketing(), page.starts.front(), bin);
  rows.for_each([&](int64_t start, uint32_t app, uint64_t, const MeasureCell* cell) {
    if (cell == nullptr) return;  // an empty bucket of --fill-gaps
    const uint64_t point = point_of(start);
    points[point].add(*cell);
    if (keys) keys->add(point, app, *cell);
  });
  if (keys) keys->finish();
  std::vector<std::vector<std::string>*> out;
  for (HtmlReport::Measure& measure : page.measures) out.push_back(&measure.values);
  std::vector<MeasureText::Value> scratch;
  MeasureCell total = text.spec().empty_cell();
  for (const MeasureCell& point : points) {
    append_values(text, drawn, point, scratch, out);
    total.add(point);
  }
  return total;
}

// Each measure over page.span (`all`: every row's cell added).
void fill_totals(const MeasureCell& all, const Result& result, const ReportOptions& report, HtmlReport& page) {
  const MeasureText text(result.query.measures(), report.units);
  std::vector<MeasureText::Value> values;
  text.values(&all, all.count, values);
  for (size_t i = 0; i < values.size(); ++i) {
    page.totals.emplace_back(text.columns()[i], values[i].present ? values[i].text : "-");
  }
}

// The rows of a report of one bucket, busiest first, as text.
HtmlReport::RowsTable rows_table(const ReportRows& rows, const Result& result, const ReportOptions& report) {
  HtmlReport::RowsTable table;
  table.columns = rows.key_columns();
  table.columns.insert(table.columns.end(), {"count", "share"});
  std::optional<MeasureText> measures;
  if (result.query.measured()) {
    measures.emplace(result.query.measures(), report.units);
    table.columns.insert(table.columns.end(), measures->columns().begin(), measures->columns().end());
  }
  const size_t parts = rows.key_columns().size();
  uint64_t total = 0;  // the share's whole: the lines counted, or those of a live page's buckets
  rows.for_each([&](int64_t, uint32_t, uint64_t count, const MeasureCell*) { total += count; });
  std::vector<MeasureText::Value> values;
  rows.for_each([&](int64_t, uint32_t app, uint64_t count, const MeasureCell* cell) {
    std::vector<std::string>& row = table.rows.emplace_back();
    if (parts > 0) {
      for (const std::string_view part : key_parts(rows.key(app), parts)) row.emplace_back(shown_key(part));
    }
    row.push_back(std::to_string(count));
    row.push_back(total == 0 ? "-" : ratio_text(count * 100, total) + "%");
    if (!measures) return;
    measures->values(cell, count, values);
    for (const MeasureText::Value& v : values) row.push_back(v.present ? v.text : "-");
  });
  return table;
}

// Keys in the table of keys without --top.
constexpr size_t kDefaultTableKeys = 100;

// The table of keys over page.span (the --top N busiest, or
// kDefaultTableKeys; the rest as "(other)").
void fill_keys_table(const Result& result, const ReportOptions& report, HtmlReport& page) {
  const std::string over = " over " + page.span;
  ReportOptions whole = report;
  whole.bucketing = Bucketing::whole();
  whole.fill_gaps = false;
  if (whole.top == 0) whole.top = kDefaultTableKeys;
  const ReportRows rows(result, result.query.key_columns(), whole);
  page.keys_table = rows_table(rows, result, whole);
  const size_t keys = result.apps.size() - (!result.apps.empty() && result.apps.back() == kOtherApp ? 1 : 0);
  if (keys > whole.top) {
    page.keys_table_note = "The " + std::to_string(whole.top) + " busiest of " + std::to_string(keys) + " keys" + over +
                           ", the rest as (other)" + (report.top == 0 ? " (--top N shows N)." : ".");
  } else {
    page.keys_table_note = "Every key" + over + ", busiest first.";
  }
  if (result.apps_capped) {
    page.keys_table_note +=
        " Keys met past --max-apps " + std::to_string(result.query.question().max_apps) + " are counted in (other).";
  }
  page.keys_table_note += " Click a column's name to sort by it.";
}

void fill_stats(const ReportStats& stats, const Query& query, HtmlReport& page) {
  const BucketStats& st = stats.buckets;
  auto& out = page.stats;
  out.emplace_back("total", std::to_string(st.total));
  if (st.buckets == 0 || !stats.over_time) return;
  out.emplace_back("buckets", std::to_string(st.buckets) + " (" + std::to_string(st.empty) + " empty)");
  out.emplace_back("first", stats.first);
  out.emplace_back("last", stats.last);
  out.emplace_back("peak", std::to_string(st.max) + " at " + stats.peak);
  for (const auto& [name, value] : stats.figures) out.emplace_back(name, value);
  for (const ReportStats::RankedApp& app : stats.ranked_apps) {
    out.emplace_back(!query.by_keys() ? "app " + std::string(app.id) : key_text(app.id, query.key_columns().size()),
                     std::to_string(app.count) + " (" + app.percent + "%)");
  }
}

void fill_accounting(const Result& result, HtmlReport& page) {
  const Summary& s = result.summary;
  const Question& question = result.query.question();
  auto& out = page.accounting;
  out.emplace_back("files", std::to_string(s.files) + " (" + std::to_string(s.unreadable) + " unreadable)");
  out.emplace_back("bytes", human_bytes(static_cast<double>(s.bytes)));
  out.emplace_back("lines", std::to_string(s.lines));
  out.emplace_back("counted", std::to_string(s.counted));
  if (question.since || question.until) out.emplace_back("outside --since/--until", std::to_string(s.outside_range));
  out.emplace_back("blank", std::to_string(s.blank));
  if (!question.where.empty()) out.emplace_back("filtered", std::to_string(s.filtered()));
  for (size_t i = 0; i < question.where.size() && i < s.filtered_by.size(); ++i) {
    if (s.filtered_by[i] != 0) out.emplace_back("  not " + question.where[i], std::to_string(s.filtered_by[i]));
  }
  out.emplace_back("rejected", std::to_string(s.rejected_total()));
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] != 0)
      out.emplace_back("  " + reason_text(static_cast<Reason>(i), question), std::to_string(s.rejected[i]));
  }
}

// The result with each key tuple cut to its first key (of `parts`): the
// chart stacks by the first --by key, whatever follows it.
Result by_first_key(const Result& result, size_t parts) {
  Result out;
  out.query = result.query;
  out.apps_capped = result.apps_capped;
  out.summary = result.summary;
  if (!result.cells.empty()) {  // the cells of a first key's tuples added
    std::vector<MeasuredRow> rows = measured_rows(result, /*keyed=*/true);
    for (MeasuredRow& r : rows) r.key = std::string(key_parts(r.key, parts)[0]);
    set_measured_rows(std::move(rows), result.query.measures(), /*keyed=*/true, out);
    return out;
  }
  std::vector<std::string> firsts;
  for (const std::string& tuple : result.apps) firsts.emplace_back(key_parts(tuple, parts)[0]);
  out.apps = firsts;
  std::sort(out.apps.begin(), out.apps.end(), app_before);
  out.apps.erase(std::unique(out.apps.begin(), out.apps.end()), out.apps.end());
  std::vector<uint32_t> to(firsts.size());
  for (size_t i = 0; i < firsts.size(); ++i) {
    to[i] = static_cast<uint32_t>(std::lower_bound(out.apps.begin(), out.apps.end(), firsts[i], app_before) -
                                  out.apps.begin());
  }
  std::vector<AppCount> rows = result.app_counts;
  for (AppCount& c : rows) c.app = to[c.app];
  add_up_app_rows(rows, out);
  return out;
}

// The page of the whole input's one bucket: its rows (every key, or the
// --top N and "(other)") as a table, the measures and the accounting.
HtmlReport make_whole_run_page(const Result& result, const ReportOptions& report) {
  const Query& query = result.query;
  const ReportRows rows(result, query.key_columns(), report);
  HtmlReport page;
  page.bucket_name = report.bucketing.name();
  page.time_zone = "UTC";
  page.title = "logagg: requests over the whole input";
  for (size_t c = 0; c < rows.key_columns().size(); ++c) {
    page.title.append(c == 0 ? " by " : ", ").append(query.by_keys() ? rows.key_columns()[c] : "app");
  }
  page.rows_table = rows_table(rows, result, report);
  if (!result.cells.empty()) {
    MeasureCell all = query.measures().empty_cell();
    rows.for_each([&](int64_t, uint32_t, uint64_t, const MeasureCell* cell) {
      if (cell != nullptr) all.add(*cell);
    });
    fill_totals(all, result, report, page);
  }
  ReportStats stats = report_stats(result, query.keyed(), rows.buckets(), rows.bucketing(), report.top);
  stats.ranked_apps.clear();  // the table above has them all
  fill_stats(stats, query, page);
  fill_accounting(result, page);
  return page;
}

}  // namespace

HtmlReport make_html_report(const Result& result, const ReportOptions& report, std::string_view span) {
  const Query& query = result.query;
  if (report.bucketing.is_whole()) return make_whole_run_page(result, report);
  ReportOptions chart = report;
  if (query.keyed() && chart.top == 0) chart.top = kDefaultChartApps;
  const std::vector<std::string>& columns = query.key_columns();
  const Result first_key = columns.size() > 1 ? by_first_key(result, columns.size()) : Result{};
  const ReportRows rows(columns.size() > 1 ? first_key : result,
                        columns.empty() ? columns : std::vector<std::string>{columns.front()}, chart);
  const Bucketing& bucketing = rows.bucketing();

  HtmlReport page;
  page.span = span;
  page.bucket_name = bucketing.name();
  page.time_zone = bucketing.zone() != nullptr ? time_zone_name(*bucketing.zone()) : "UTC";
  page.title = "logagg: requests per " + page.bucket_name +
               (!rows.by_app()     ? ""
                : !query.by_keys() ? " by app"
                                   : " by " + columns.front());
  page.stacked = rows.by_app();
  uint64_t bin = 1;
  if (!rows.buckets().empty()) {
    const uint64_t n = bucketing.count_between(rows.buckets().front().second, rows.buckets().back().second);
    bin = (n + kMaxHtmlPoints - 1) / kMaxHtmlPoints;
    if (bin > 1) {
      page.notes.push_back("The report has " + std::to_string(n) + " buckets; each point of the chart sums " +
                           std::to_string(bin) + " of them, to draw at most " + std::to_string(kMaxHtmlPoints) +
                           " points. Use a larger --bucket for exact points.");
    }
  }
  if (rows.by_app() && report.top == 0 && rows.apps().size() > kDefaultChartApps) {
    page.notes.push_back("The chart stacks the " + std::to_string(kDefaultChartApps) +
                         (!query.by_keys() ? " busiest apps" : " busiest keys") +
                         " and sums the rest as (other); --top N draws N.");
  }
  if (result.apps_capped) {
    page.notes.push_back(
        "More than " + std::to_string(query.question().max_apps) +
        (!query.by_keys() ? " distinct app ids: the lines of ids" : " distinct keys: the lines of keys") +
        " met after that are counted as (other) (--max-apps).");
  }
  page.buckets_per_point = bin;
  page.count_axis = "requests per " + page.bucket_name;
  fill_series(rows, bin, page);
  if (!result.cells.empty() && !page.starts.empty()) {
    const MeasureText text(query.measures());
    const std::vector<size_t> drawn = lay_out_panels(text, report, page);
    const MeasureCell all = fill_measures(rows, text, drawn, bin, page);
    if (page.key_points_bin > 1) {
      page.notes.push_back("The measures of one key are drawn on points of " +
                           std::to_string(page.key_points_bin * bin) + " buckets each (those of all keys on " +
                           std::to_string(bin) + "), to keep the page quick to open.");
    }
    fill_totals(all, result, report, page);
  }
  if (query.keyed()) fill_keys_table(result, report, page);
  fill_stats(report_stats(result, query.keyed(), rows.buckets(), bucketing, chart.top), query, page);
  fill_accounting(result, page);
  return page;
}

HtmlReport make_live_html_report(const Result& result, const ReportOptions& report, const LiveHtml& live) {
  const std::string kept = "the last " + std::to_string(live.points) + " buckets kept";
  HtmlReport page = make_html_report(result, report, kept);
  page.title += ", live";
  if (page.binned()) {
    page.notes.push_back(
        "Too many points to follow live: this page shows the buckets as they were when it "
        "loaded (a smaller --serve-history follows).");
    return page;
  }
  page.live = HtmlReport::Live{live.events, live.points};
  page.notes.push_back("Live: the charts show " + kept +
                       " (--serve-history) and follow each bucket as it completes and each correction. "
                       "The tables are as of the page's load, and the keys stacked the busiest then; "
                       "reload to update them. The lines are counted since logagg started. This server also "
                       "answers /metrics (for Prometheus) and /events (the rows, as server-sent events).");
  return page;
}

}  // namespace logagg
