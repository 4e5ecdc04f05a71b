// Tests for report/report_rows.h: per-second counts summed into the report's
// buckets (the result's own rows when buckets are seconds); with --by-app the
// apps shown (all, or the --top N busiest in name order, the rest folded into
// "(other)" with any "(other)" the result had) and their rows per bucket; and
// for_each, which with fill_gaps makes the zero rows of empty buckets while
// walking (a row per app shown), none before the first or after the last.
#include "report/report_rows.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "support/print_counts.h"
#include "support/report_inputs.h"
#include "time/civil_time.h"  // kSecondsPerDay

namespace logagg {
namespace {

using Row = std::tuple<int64_t, std::string, uint64_t>;

std::vector<Row> walk(const ReportRows& rows) {
  std::vector<Row> out;
  rows.for_each([&](int64_t start, uint32_t app, uint64_t count, const MeasureCell*) {
    out.emplace_back(start, rows.by_app() ? rows.apps()[app] : "", count);
  });
  return out;
}

// A result counted per app: `apps` in name order (then "(other)" if given),
// `app_counts` ascending by (second, app); the totals per second follow.
Result app_result(std::vector<std::string> apps, std::vector<AppCount> app_counts) {
  Result r;
  r.apps = std::move(apps);
  r.app_counts = std::move(app_counts);
  for (const AppCount& c : r.app_counts) {
    if (r.counts.empty() || r.counts.back().second != c.second) r.counts.push_back({c.second, 0});
    r.counts.back().count += c.count;
  }
  return r;
}

ReportOptions top(size_t n, const char* duration = "1s", bool fill_gaps = false) {
  ReportOptions o = bucketed(duration, fill_gaps);
  o.top = n;
  return o;
}

TEST(ReportRows, SecondsAreTheResultsOwnRows) {
  const Result r = with_counts({{-1, 2}, {0, 1}, {61, 4}});
  const ReportRows rows(r, {}, ReportOptions{});
  EXPECT_EQ(&rows.buckets(), &r.counts) << "one-second buckets are not copied";
  EXPECT_FALSE(rows.by_app());
  EXPECT_TRUE(rows.apps().empty());
  EXPECT_EQ(walk(rows), (std::vector<Row>{{-1, "", 2}, {0, "", 1}, {61, "", 4}}));
}

TEST(ReportRows, SumsSecondsIntoBuckets) {
  const Result r = with_counts({{-1, 2}, {0, 1}, {59, 1}, {61, 4}, {3600, 1}});
  const ReportRows rows(r, {}, bucketed("1m", false));
  EXPECT_EQ(rows.bucketing(), Bucketing::of_seconds(60));
  EXPECT_EQ(rows.buckets(), (std::vector<SecondCount>{{-60, 2}, {0, 2}, {60, 4}, {3600, 1}}));
  EXPECT_EQ(walk(rows), (std::vector<Row>{{-60, "", 2}, {0, "", 2}, {60, "", 4}, {3600, "", 1}}));
}

TEST(ReportRows, FillGapsWalksZeroRowsBetweenFirstAndLastOnly) {
  const Result r = with_counts({{0, 1}, {59, 1}, {200, 3}});
  EXPECT_EQ(walk(ReportRows(r, {}, bucketed("1m", true))),
            (std::vector<Row>{{0, "", 2}, {60, "", 0}, {120, "", 0}, {180, "", 3}}));
  EXPECT_EQ(walk(ReportRows(with_counts({{5, 1}, {6, 1}}), {}, bucketed("1s", true))),
            (std::vector<Row>{{5, "", 1}, {6, "", 1}}));
  EXPECT_TRUE(walk(ReportRows(Result{}, {}, bucketed("1s", true))).empty());
}

TEST(ReportRows, FilledGapsAreWalkedNotStored) {
  // A day of empty seconds between two lines.
  const Result r = with_counts({{0, 1}, {kSecondsPerDay, 1}});
  const ReportRows rows(r, {}, bucketed("1s", true));
  EXPECT_EQ(rows.buckets().size(), 2u);
  uint64_t n = 0, sum = 0;
  int64_t previous = -1;
  bool ascending = true;
  rows.for_each([&](int64_t start, uint32_t, uint64_t count, const MeasureCell*) {
    ascending = ascending && start == previous + 1;
    previous = start;
    ++n;
    sum += count;
  });
  EXPECT_EQ(n, static_cast<uint64_t>(kSecondsPerDay) + 1);
  EXPECT_EQ(sum, 2u);
  EXPECT_TRUE(ascending);
}

TEST(ReportRows, ByAppWithoutTopShowsEveryAppAndTheResultsRows) {
  const Result r = app_result({"api", "web"}, {{1, 0, 2}, {1, 1, 1}, {3, 1, 5}});
  const ReportRows rows(r, {"app_id"}, ReportOptions{});
  EXPECT_TRUE(rows.by_app());
  EXPECT_EQ(rows.apps(), r.apps);
  EXPECT_EQ(&rows.app_buckets(), &r.app_counts) << "nothing to sum: not copied";
  EXPECT_EQ(walk(rows), (std::vector<Row>{{1, "api", 2}, {1, "web", 1}, {3, "web", 5}}));
  const ReportRows all(r, {"app_id"}, top(2));  // --top as large as the apps: the same
  EXPECT_EQ(all.apps(), r.apps);
  EXPECT_EQ(walk(all), walk(rows));
}

TEST(ReportRows, TopKeepsTheBusiestInNameOrderAndFoldsTheRestIntoOther) {
  // Lines: a 3, b 1, c 4, d 4, e 1. --top 2: c and d (4 each), then a; b and e fold.
  const Result r =
      app_result({"a", "b", "c", "d", "e"}, {{0, 0, 1}, {0, 1, 1}, {0, 3, 4}, {1, 0, 2}, {1, 2, 4}, {2, 4, 1}});
  const ReportRows two(r, {"app_id"}, top(2));
  EXPECT_EQ(two.apps(), (std::vector<std::string>{"c", "d", "(other)"}));
  EXPECT_EQ(walk(two),
            (std::vector<Row>{{0, "d", 4}, {0, "(other)", 2}, {1, "c", 4}, {1, "(other)", 2}, {2, "(other)", 1}}));
  const ReportRows three(r, {"app_id"}, top(3));
  EXPECT_EQ(three.apps(), (std::vector<std::string>{"a", "c", "d", "(other)"}));
  EXPECT_EQ(three.app_buckets(),
            (std::vector<AppCount>{{0, 0, 1}, {0, 2, 4}, {0, 3, 1}, {1, 0, 2}, {1, 1, 4}, {2, 3, 1}}));
}

TEST(ReportRows, TheWholeInputsRowsAreBusiestFirstTiesInNameOrderOtherLast) {
  // Lines: a 3, b 1, c 4, d 4, e 1.
  const Result r =
      app_result({"a", "b", "c", "d", "e"}, {{0, 0, 1}, {0, 1, 1}, {0, 3, 4}, {1, 0, 2}, {1, 2, 4}, {2, 4, 1}});
  const ReportRows all(r, {"app_id"}, top(0, "overall"));
  EXPECT_TRUE(all.by_count());
  EXPECT_EQ(walk(all), (std::vector<Row>{{kWholeRunStart, "c", 4},
                                         {kWholeRunStart, "d", 4},
                                         {kWholeRunStart, "a", 3},
                                         {kWholeRunStart, "b", 1},
                                         {kWholeRunStart, "e", 1}}));
  // --top 2: (other) has more lines than either, and is still last: it is no key.
  const ReportRows two(r, {"app_id"}, top(2, "overall"));
  EXPECT_EQ(walk(two),
            (std::vector<Row>{{kWholeRunStart, "c", 4}, {kWholeRunStart, "d", 4}, {kWholeRunStart, "(other)", 5}}));
  EXPECT_FALSE(ReportRows(r, {"app_id"}, top(0)).by_count());
}

TEST(ReportRows, TopFoldsTheResultsOwnOtherWithTheRest) {
  // A capped result already has kOtherApp last; it is never one of the top.
  const Result r = app_result({"a", "b", std::string(kOtherApp)}, {{0, 0, 2}, {0, 1, 1}, {0, 2, 9}, {5, 2, 1}});
  const ReportRows one(r, {"app_id"}, top(1));
  EXPECT_EQ(one.apps(), (std::vector<std::string>{"a", "(other)"}));
  EXPECT_EQ(walk(one), (std::vector<Row>{{0, "a", 2}, {0, "(other)", 10}, {5, "(other)", 1}}));
  const ReportRows both(r, {"app_id"}, top(2));  // every named app shown: the result's apps as they are
  EXPECT_EQ(both.apps(), (std::vector<std::string>{"a", "b", "(other)"}));
  EXPECT_EQ(&both.app_buckets(), &r.app_counts) << "nothing to sum";
  EXPECT_EQ(walk(both), (std::vector<Row>{{0, "a", 2}, {0, "b", 1}, {0, "(other)", 9}, {5, "(other)", 1}}));
}

TEST(ReportRows, AnAppSpeltOtherIsNotTheOther) {
  // Ids are any JSON text since --app-pattern: a real "(other)" sorts by name, the synthetic one last.
  const Result r =
      app_result({"(other)", "a", "b", std::string(kOtherApp)}, {{0, 0, 5}, {0, 1, 2}, {0, 2, 1}, {0, 3, 9}});
  const ReportRows one(r, {"app_id"}, top(1));
  EXPECT_EQ(one.apps(), (std::vector<std::string>{"(other)", "(other)"}));
  EXPECT_FALSE(one.is_other(0)) << "the app (other), 5 lines, is the busiest";
  EXPECT_TRUE(one.is_other(1));
  std::vector<std::pair<uint64_t, bool>> rows;  // (count, is the synthetic one)
  one.for_each(
      [&](int64_t, uint32_t app, uint64_t count, const MeasureCell*) { rows.emplace_back(count, one.is_other(app)); });
  EXPECT_EQ(rows, (std::vector<std::pair<uint64_t, bool>>{{5, false}, {12, true}}));
  const ReportRows all(r, {"app_id"}, ReportOptions{});
  EXPECT_FALSE(all.is_other(0));
  EXPECT_TRUE(all.is_other(static_cast<uint32_t>(all.apps().size() - 1)));
  const Result uncapped = app_result({"(other)", "a"}, {{0, 0, 1}, {0, 1, 1}});
  const ReportRows plain(uncapped, {"app_id"}, ReportOptions{});
  EXPECT_FALSE(plain.is_other(0));
}

TEST(ReportRows, ByAppRowsAreSummedPerBucket) {
  const Result r =
      app_result({"a", "b", "c"}, {{0, 1, 1}, {30, 0, 2}, {30, 1, 1}, {59, 2, 1}, {60, 2, 3}, {130, 0, 1}});
  const ReportRows minute(r, {"app_id"}, bucketed("1m", false));
  EXPECT_EQ(minute.buckets(), (std::vector<SecondCount>{{0, 5}, {60, 3}, {120, 1}}));
  EXPECT_EQ(walk(minute), (std::vector<Row>{{0, "a", 2}, {0, "b", 2}, {0, "c", 1}, {60, "c", 3}, {120, "a", 1}}));
  const ReportRows folded(r, {"app_id"}, top(1, "1m"));  // a 3, b 2, c 4: c shown
  EXPECT_EQ(walk(folded), (std::vector<Row>{{0, "c", 1}, {0, "(other)", 4}, {60, "c", 3}, {120, "(other)", 1}}));
}

TEST(ReportRows, ByAppFillGapsGivesEveryAppShownARowInEveryBucket) {
  const Result r = app_result({"a", "b"}, {{0, 1, 1}, {30, 0, 2}, {150, 1, 4}});
  EXPECT_EQ(walk(ReportRows(r, {"app_id"}, bucketed("1m", true))),
            (std::vector<Row>{{0, "a", 2}, {0, "b", 1}, {60, "a", 0}, {60, "b", 0}, {120, "a", 0}, {120, "b", 4}}));
  const Result seconds = app_result({"a", "c"}, {{10, 1, 1}, {12, 0, 1}});
  EXPECT_EQ(walk(ReportRows(seconds, {"app_id"}, top(1, "1s", true))),  // a 1, c 1: a by name
            (std::vector<Row>{
                {10, "a", 0}, {10, "(other)", 1}, {11, "a", 0}, {11, "(other)", 0}, {12, "a", 1}, {12, "(other)", 0}}));
  EXPECT_TRUE(walk(ReportRows(Result{}, {"app_id"}, bucketed("1s", true))).empty());
}

}  // namespace
}  // namespace logagg
