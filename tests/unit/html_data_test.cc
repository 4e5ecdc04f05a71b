// Tests for the content of the --format html page (report/html/html_data.cc):
// a panel per quantity measured with its axes labelled, the measures of all
// keys and of each key (checked against lines added up by hand), the keys'
// table over the whole run, the totals and the accounting with filters, and
// the per-key points binned when they would be too many. How the page draws
// them is html_report's (Chromium).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/report.h"
#include "report/html/html_report.h"

namespace logagg {
namespace {

constexpr int64_t kT0 = 1700000000;  // 2023-11-14T22:13:20Z

std::string line(int64_t second, const std::string& host, const std::string& method, int status, int latency,
                 int bytes) {
  static const std::string times[] = {"2023-11-14T22:13:20Z", "2023-11-14T22:13:21Z", "2023-11-14T22:13:22Z"};
  return R"({"app_id":"a","timestamp":")" + times[second - kT0] + R"(","host":")" + host + R"(","method":")" + method +
         R"(","status":)" + std::to_string(status) + R"(,"latency_ms":)" + std::to_string(latency) + R"(,"bytes":)" +
         std::to_string(bytes) + "}\n";
}

Options red_options() {
  Options o;
  o.by = {KeyField{"host"}, KeyField{"method"}};
  o.where = {"status!=404"};
  o.count_if = {"status>=500"};
  o.quantiles = {"latency_ms"};
  o.sum = {"bytes"};
  o.percentiles = {"50", "99"};
  return o;
}

// The measure named `name` of `page`: its index.
size_t measure(const HtmlReport& page, const std::string& name) {
  for (size_t i = 0; i < page.measures.size(); ++i) {
    if (page.measures[i].name == name) return i;
  }
  ADD_FAILURE() << "no measure " << name;
  return 0;
}

TEST(HtmlData, APanelPerQuantityTheMeasuresOfEachKeyTheKeysTableAndTotals) {
  const std::string log = line(kT0, "a", "GET", 200, 10, 100) + line(kT0, "a", "POST", 503, 30, 200) +
                          line(kT0, "b", "GET", 200, 20, 1000) + line(kT0, "b", "GET", 404, 1, 1) +
                          line(kT0 + 2, "b", "PUT", 500, 40, 4000);
  const Result result = aggregate_buffer(log, red_options(), "buf");
  ReportOptions report;
  report.units = {{"latency_ms", DurationUnit::kMillis}};
  const HtmlReport page = make_html_report(result, report);

  EXPECT_EQ(page.count_axis, "requests per second");
  ASSERT_EQ(page.panels.size(), 3u);
  EXPECT_EQ(page.panels[0].title, "lines matching --count-if");
  EXPECT_EQ(page.panels[0].left, "requests per second");
  EXPECT_EQ(page.panels[0].right, "% of the lines counted");
  EXPECT_EQ(page.panels[1].title, "latency_ms");
  EXPECT_EQ(page.panels[1].left, "latency_ms (ms)");
  EXPECT_EQ(page.panels[1].right, "");
  EXPECT_EQ(page.panels[2].title, "sum(bytes)");
  EXPECT_EQ(page.panels[2].left, "sum(bytes) per second");
  std::vector<std::string> names;
  for (const HtmlReport::Measure& m : page.measures) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"count(status>=500)", "ratio(status>=500)", "p50(latency_ms)",
                                             "p99(latency_ms)", "sum(bytes)"}));
  EXPECT_TRUE(page.measures[1].right);
  EXPECT_EQ(page.measures[1].unit, "ratio");
  EXPECT_EQ(page.measures[3].panel, 1u);
  EXPECT_EQ(page.measures[3].unit, "ms");
  EXPECT_EQ(page.measures[4].panel, 2u);

  // All keys: three points; the empty second between has counts and sums
  // of 0, no ratio and no quantiles (as a --fill-gaps row prints them).
  ASSERT_EQ(page.starts, (std::vector<int64_t>{kT0, kT0 + 1, kT0 + 2}));
  const auto& sum = page.measures[measure(page, "sum(bytes)")].values;
  EXPECT_EQ(sum, (std::vector<std::string>{"1300", "0", "4000"}));
  EXPECT_EQ(page.measures[measure(page, "count(status>=500)")].values, (std::vector<std::string>{"1", "0", "1"}));
  EXPECT_EQ(page.measures[measure(page, "ratio(status>=500)")].values[1], "null");
  EXPECT_EQ(page.measures[measure(page, "p99(latency_ms)")].values[1], "null");

  // Per key: the chart stacks by host (the first key), so each host's
  // measures are its tuples' cells added.
  ASSERT_EQ(page.series.size(), 2u);
  EXPECT_EQ(page.series[0].name, "a");
  EXPECT_EQ(page.key_points_bin, 1u);
  EXPECT_EQ(page.key_starts, page.starts);
  ASSERT_EQ(page.key_values.size(), 2u);
  const size_t s = measure(page, "sum(bytes)"), c = measure(page, "count(status>=500)"),
               r = measure(page, "ratio(status>=500)");
  EXPECT_EQ(page.key_values[0][s], (std::vector<std::string>{"300", "0", "0"}));
  EXPECT_EQ(page.key_values[1][s], (std::vector<std::string>{"1000", "0", "4000"}));  // the 404 filtered out
  EXPECT_EQ(page.key_values[0][c], (std::vector<std::string>{"1", "0", "0"}));
  EXPECT_EQ(page.key_values[0][r][2], "null");
  EXPECT_EQ(page.key_values[0][r][0], "0.5000");
  EXPECT_EQ(page.key_values[1][c][0], "0");
  EXPECT_EQ(page.key_values[1][r][2], "1.0000");

  // The keys' table: every tuple over the whole run, busiest first.
  ASSERT_TRUE(page.keys_table.has_value());
  const std::vector<std::string>& columns = page.keys_table->columns;
  ASSERT_GE(columns.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(columns.begin(), columns.begin() + 4),
            (std::vector<std::string>{"host", "method", "count", "share"}));
  ASSERT_EQ(page.keys_table->rows.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(page.keys_table->rows[0].begin(), page.keys_table->rows[0].begin() + 3),
            (std::vector<std::string>{"a", "GET", "1"}));
  EXPECT_EQ(page.keys_table_note, "Every key over the whole run, busiest first. Click a column's name to sort by it.");

  // The totals: all keys, the whole run.
  const auto total = [&](const std::string& name) {
    for (const auto& [label, value] : page.totals) {
      if (label == name) return value;
    }
    return std::string("(none)");
  };
  EXPECT_EQ(total("sum(bytes)"), "5300");
  EXPECT_EQ(total("count(status>=500)"), "2");
  EXPECT_EQ(total("p99(latency_ms)"), "40 ms");
  // The accounting tells the lines filtered, and by which filter.
  std::vector<std::string> labels;
  for (const auto& [label, value] : page.accounting) labels.push_back(label + "=" + value);
  for (const char* want : {"counted=4", "filtered=1", "  not status!=404=1"}) {
    EXPECT_NE(std::find(labels.begin(), labels.end(), want), labels.end()) << want;
  }
}

TEST(HtmlData, EachKeysPointsAreBinnedWhenTooManyAndSaySo) {
  // Two lines 100,000 s apart: 100,001 points, two keys and five measures
  // are a million values a key's measures would need: binned by two.
  const std::string log = line(kT0, "a", "GET", 200, 10, 100) +
                          R"({"app_id":"a","timestamp":"2023-11-16T02:00:00Z","host":"b","method":"GET",)"
                          R"("status":500,"latency_ms":5,"bytes":7})"
                          "\n";
  const Result result = aggregate_buffer(log, red_options(), "buf");
  const HtmlReport page = make_html_report(result, ReportOptions{});
  const size_t points = page.starts.size();
  ASSERT_EQ(points, 100001u);
  EXPECT_EQ(page.measures[0].values.size(), points);
  EXPECT_EQ(page.key_points_bin, 2u);
  ASSERT_EQ(page.key_starts.size(), 50001u);
  EXPECT_EQ(page.key_starts[1], page.starts[2]);
  const size_t s = measure(page, "sum(bytes)");
  EXPECT_EQ(page.key_values[0][s].front(), "100");
  EXPECT_EQ(page.key_values[1][s].back(), "7");
  EXPECT_EQ(page.key_values[1][s].size(), 50001u);
  ASSERT_FALSE(page.notes.empty());
  EXPECT_NE(page.notes.back().find("points of 2 buckets"), std::string::npos) << page.notes.back();
}

TEST(HtmlData, WithoutKeysNoKeyMeasuresAndNoKeysTable) {
  Options o;
  o.sum = {"bytes"};
  const Result result = aggregate_buffer(line(kT0, "a", "GET", 200, 10, 100), o, "buf");
  const HtmlReport page = make_html_report(result, ReportOptions{});
  ASSERT_EQ(page.panels.size(), 1u);
  EXPECT_TRUE(page.key_values.empty());
  EXPECT_FALSE(page.keys_table.has_value());
  ASSERT_EQ(page.totals.size(), 2u);  // n(bytes), sum(bytes)
}

}  // namespace
}  // namespace logagg
