// From a result to the content of the --format html page (see html_report.h):
// the series to draw, the statistics and the line accounting as text rows.
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

// Fills starts and series (one per app, or one "requests") from the rows,
// every `bin` consecutive buckets summed into one point. Only the points and
// the non-empty buckets are walked, so a span of years costs no more than
// its points (advance() strides over the empty buckets between them).
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
    page.series[i].name = rows.by_app() ? key_text(rows.key(static_cast<uint32_t>(i)), rows.key_columns().size()) : "requests";
    page.series[i].values.assign(points, 0);
  }
  // The point of each bucket start, met in ascending order: buckets since the first, over `bin`.
  uint64_t index = 0;
  int64_t at = first;
  const auto point_of = [&](int64_t start) {
    if (start != at) index += bucketing.count_between(at, start) - 1;
    at = start;
    return index / bin;
  };
  if (!rows.by_app()) {
    for (const SecondCount& b : buckets) page.series[0].values[point_of(b.second)] += b.count;
    return;
  }
  for (const AppCount& r : rows.app_buckets()) page.series[r.app].values[point_of(r.second)] += r.count;
}

// Fills page.measures from the result's cells (plot_measures: the cells and
// their seconds, ascending), each point's cells added. Needs page.starts.
void fill_measures(const Result& result, const ReportOptions& report, const Bucketing& bucketing, uint64_t bin,
                   HtmlReport& page) {
  const std::optional<PlotMeasures> m = plot_measures(result, report);
  if (!m || page.starts.empty()) return;
  std::vector<MeasureCell> points(page.starts.size(), m->spec.empty_cell());
  const int64_t first = page.starts.front();
  MeasureCell cell;
  for (size_t row = 0; row < m->seconds.size(); ++row) {
    const uint64_t index = (bucketing.count_between(first, bucketing.start_of(m->seconds[row])) - 1) / bin;
    m->cells->get(row, cell);
    points[std::min<uint64_t>(index, points.size() - 1)].add(cell);
  }
  // The columns drawn, among MeasureText's: each ratio, sum and percentile.
  const MeasureText text(m->spec);
  const auto unit = [&](const std::string& field) {
    const std::optional<DurationUnit> u = unit_of(report.units, field);
    return u ? std::string(unit_name(*u)) : std::string();
  };
  for (const std::string& expression : m->spec.count_if) {
    page.measures.push_back({"ratio(" + expression + ")", "ratio", "ratio", {}});
  }
  for (const MeasureSpec::Field& f : m->spec.fields) {
    if (f.summed) page.measures.push_back({"sum(" + f.name + ")", "sum(" + f.name + ")", unit(f.name), {}});
    if (!f.quantiled) continue;
    for (const Percentile& p : m->spec.percentiles) {
      page.measures.push_back({"p" + p.text + "(" + f.name + ")", f.name, unit(f.name), {}});
    }
  }
  std::vector<size_t> drawn;  // each drawn measure's column
  for (const HtmlReport::Measure& measure : page.measures) {
    drawn.push_back(static_cast<size_t>(std::find(text.columns().begin(), text.columns().end(), measure.name) -
                                        text.columns().begin()));
  }
  std::vector<MeasureText::Value> values;
  for (const MeasureCell& point : points) {
    text.values(&point, point.count, values);
    for (size_t i = 0; i < drawn.size(); ++i) {
      const MeasureText::Value& v = values[drawn[i]];
      page.measures[i].values.push_back(v.present ? v.text : "null");
    }
  }
}

// The rows of the whole input's one bucket, busiest first, as text.
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
  std::vector<MeasureText::Value> values;
  rows.for_each([&](int64_t, uint32_t app, uint64_t count, const MeasureCell* cell) {
    std::vector<std::string>& row = table.rows.emplace_back();
    if (parts > 0) {
      for (const std::string_view part : key_parts(rows.key(app), parts)) row.emplace_back(shown_key(part));
    }
    row.push_back(std::to_string(count));
    row.push_back(ratio_text(count * 100, result.summary.counted) + "%");
    if (!measures) return;
    measures->values(cell, count, values);
    for (const MeasureText::Value& v : values) row.push_back(v.present ? v.text : "-");
  });
  return table;
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
  ReportStats stats = report_stats(result, query.keyed(), rows.buckets(), rows.bucketing(), report.top);
  stats.ranked_apps.clear();  // the table above has them all
  fill_stats(stats, query, page);
  fill_accounting(result, page);
  return page;
}

}  // namespace

HtmlReport make_html_report(const Result& result, const ReportOptions& report) {
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
  fill_series(rows, bin, page);
  fill_measures(result, report, bucketing, bin, page);
  fill_stats(report_stats(result, query.keyed(), rows.buckets(), bucketing, chart.top), query, page);
  fill_accounting(result, page);
  return page;
}

}  // namespace logagg
