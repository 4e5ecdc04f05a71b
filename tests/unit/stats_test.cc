// Tests for report/stats.h: the statistics of a bucketed series (against a
// slow, obvious computation over random series that materialises every empty
// bucket), the nearest-rank percentile with its zeros and edge ranks, the
// apps ranked by lines (ties by name, "(other)" never ranked, n = 0 for all),
// report_stats gathering both, and how the report formats render them.
#include "report/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/report.h"
#include "support/report_as.h"
#include "support/report_inputs.h"

namespace logagg {
namespace {

// The obvious computation: materialise every bucket from first to last,
// zeros included, sort, and take the smallest value with at least p% of the
// series at or below it.
struct Slow {
  uint64_t n = 0, empty = 0, total = 0, max = 0, median = 0, p95 = 0, p99 = 0;
  int64_t first = 0, last = 0, peak = 0;
};
Slow slow_stats(const std::vector<SecondCount>& buckets, int64_t width) {
  Slow s;
  if (buckets.empty()) return s;
  s.first = buckets.front().second;
  s.last = buckets.back().second;
  std::vector<uint64_t> series;
  size_t next = 0;
  for (int64_t start = s.first; start <= s.last; start += width) {
    uint64_t count = 0;
    if (buckets[next].second == start) count = buckets[next++].count;
    series.push_back(count);
    if (count == 0) ++s.empty;
    s.total += count;
    if (count > s.max) {
      s.max = count;
      s.peak = start;
    }
  }
  s.n = series.size();
  std::sort(series.begin(), series.end());
  const auto percentile = [&](double p) {
    for (size_t i = 0; i < series.size(); ++i) {
      if (static_cast<double>(i + 1) >= p / 100.0 * static_cast<double>(series.size()) - 1e-9) return series[i];
    }
    return series.back();
  };
  s.median = percentile(50);
  s.p95 = percentile(95);
  s.p99 = percentile(99);
  return s;
}

TEST(Stats, MatchesTheObviousComputationOnRandomSeries) {
  std::mt19937_64 rng(2024);
  for (int round = 0; round < 3000; ++round) {
    const int64_t width = std::array<int64_t, 4>{1, 5, 60, 3600}[rng() % 4];
    const Bucketing b = Bucketing::of_seconds(width);
    std::vector<SecondCount> buckets;
    int64_t start = b.start_of(static_cast<int64_t>(rng() % 2000000) - 1000000);
    const size_t n = rng() % 60;
    const int shape = static_cast<int>(rng() % 3);  // dense, sparse, or ties of a few values
    for (size_t i = 0; i < n; ++i) {
      const uint64_t count = shape == 2 ? 1 + rng() % 3 : 1 + rng() % (shape == 0 ? 1000 : 5);
      buckets.push_back({start, count});
      start += width * static_cast<int64_t>(1 + (shape == 1 ? rng() % 50 : rng() % 2));
    }
    const BucketStats got = compute_stats(buckets, b);
    const Slow want = slow_stats(buckets, width);
    ASSERT_EQ(got.buckets, want.n) << round;
    ASSERT_EQ(got.empty, want.empty) << round;
    ASSERT_EQ(got.total, want.total) << round;
    if (n == 0) continue;
    ASSERT_EQ(got.first, want.first) << round;
    ASSERT_EQ(got.last, want.last) << round;
    ASSERT_EQ(got.peak, want.peak) << round;
    ASSERT_EQ(got.max, want.max) << round;
    ASSERT_EQ(got.median, want.median) << round;
    ASSERT_EQ(got.p95, want.p95) << round;
    ASSERT_EQ(got.p99, want.p99) << round;
  }
}

TEST(Stats, NearestRankOnSmallSeries) {
  // 1..100: the p-th percentile is p.
  std::vector<uint64_t> hundred(100);
  for (uint64_t i = 0; i < 100; ++i) hundred[i] = i + 1;
  for (unsigned p : {1u, 50u, 95u, 99u, 100u}) EXPECT_EQ(nearest_rank_percentile(hundred, 0, p), p);
  // {0, 0, 7}: rank ceil(0.5 * 3) = 2 is a zero; p95 is rank 3.
  EXPECT_EQ(nearest_rank_percentile({7}, 2, 50), 0u);
  EXPECT_EQ(nearest_rank_percentile({7}, 2, 95), 7u);
  // One bucket: every percentile is its count.
  EXPECT_EQ(nearest_rank_percentile({4}, 0, 50), 4u);
  // {3, 5}: median is the lower (rank 1), never an average.
  EXPECT_EQ(nearest_rank_percentile({3, 5}, 0, 50), 3u);
}

TEST(Stats, EarliestPeakWinsTiesAndEmptyIsAllZero) {
  const BucketStats s = compute_stats({{0, 5}, {60, 9}, {180, 9}}, Bucketing::of_seconds(60));
  EXPECT_EQ(s.peak, 60);
  EXPECT_EQ(s.max, 9u);
  EXPECT_EQ(s.buckets, 4u);
  EXPECT_EQ(s.empty, 1u);
  const BucketStats none = compute_stats({}, Bucketing{});
  EXPECT_EQ(none.buckets, 0u);
  EXPECT_EQ(none.total, 0u);
}

TEST(Stats, CountsYearsOfEmptyBucketsWithoutStoringThem) {
  // 0000-01-01 to 9999-12-31 per second: ~3.2e11 buckets, two of them non-empty.
  const int64_t first = at("0000-01-01T00:00:00Z"), last = at("9999-12-31T23:59:59Z");
  const BucketStats s = compute_stats({{first, 3}, {last, 1}}, Bucketing{});
  EXPECT_EQ(s.buckets, static_cast<uint64_t>(last - first + 1));
  EXPECT_EQ(s.empty, s.buckets - 2);
  EXPECT_EQ(s.median, 0u);
  EXPECT_EQ(s.p99, 0u);
  EXPECT_EQ(s.max, 3u);
  EXPECT_EQ(s.peak, first);
}

TEST(StatsReport, JsonAlwaysCarriesStatsAndNullsWhenNothingCounted) {
  const int64_t t = at("2023-11-14T22:13:00Z");
  const Result r = with_counts({{t, 2}, {t + 60, 3}, {t + 180, 2}});
  const std::string json = format_report(r, as(bucketed("1m", false), Format::kJson));
  EXPECT_NE(json.find("  },\n  \"stats\": {\n"
                      "    \"buckets\": 4,\n"
                      "    \"empty_buckets\": 1,\n"
                      "    \"total\": 7,\n"
                      "    \"first\": \"2023-11-14T22:13:00Z\",\n"
                      "    \"last\": \"2023-11-14T22:16:00Z\",\n"
                      "    \"peak\": {\"bucket\": \"2023-11-14T22:14:00Z\", \"count\": 3},\n"
                      "    \"mean\": 1.750,\n"
                      "    \"median\": 2,\n"
                      "    \"p95\": 3,\n"
                      "    \"p99\": 3,\n"
                      "    \"max\": 3\n"
                      "  }\n}\n"),
            std::string::npos)
      << json;
  const std::string empty = format_report(Result{}, as(Format::kJson));
  EXPECT_NE(empty.find("\"buckets\": 0,\n    \"empty_buckets\": 0,\n    \"total\": 0,\n    \"first\": null,\n"),
            std::string::npos)
      << empty;
  EXPECT_NE(empty.find("\"max\": null\n  }\n}\n"), std::string::npos) << empty;
}

TEST(StatsReport, MeanIsRoundedHalfUpToThreeDecimals) {
  const auto mean_of = [](std::vector<SecondCount> buckets) {
    const std::string json = format_report(with_counts(std::move(buckets)), as(Format::kJson));
    const size_t at = json.find("\"mean\": ") + 8;
    return json.substr(at, json.find(',', at) - at);
  };
  // Per-second buckets from 0 to the last start: N = last + 1.
  EXPECT_EQ(mean_of({{0, 2}, {2, 1}}), "1.000");                          // 3 / 3
  EXPECT_EQ(mean_of({{0, 1}, {2, 1}}), "0.667");                          // 2 / 3
  EXPECT_EQ(mean_of({{0, 1}, {7, 1}}), "0.250");                          // 2 / 8
  EXPECT_EQ(mean_of({{0, 1}, {1999, 1}}), "0.001");                       // 2 / 2000
  EXPECT_EQ(mean_of({{0, 1}, {3999, 1}}), "0.001");                       // 2 / 4000 = 0.0005, half up
  EXPECT_EQ(mean_of({{0, 1}, {4000, 1}}), "0.000");                       // 2 / 4001
  EXPECT_EQ(mean_of({{0, 1999}, {1, 1999}, {2, 1}}), "1333.000");         // 3999 / 3
  EXPECT_EQ(mean_of({{0, 2000}, {1999, 1}}), "1.001");                    // 2001 / 2000 = 1.0005, half up
  EXPECT_EQ(mean_of({{0, 1998}, {1999, 1}}), "1.000");                    // 1999 / 2000 = 0.9995, carries
  EXPECT_EQ(mean_of({{0, 7999}, {3, 1}}), "2000.000");                    // 8000 / 4
  EXPECT_EQ(mean_of({{0, 1}, {1, 1}, {2, 1}, {1000, 1996}}), "1.997");    // 1999 / 1001 = 1.99700...
}

TEST(StatsReport, TextBlockHasHeadingAndAlignedRows) {
  const int64_t t = at("2023-11-14T22:13:00Z");
  const Result r = with_counts({{t, 2}, {t + 60, 3}, {t + 180, 2}});
  EXPECT_EQ(format_stats(r, bucketed("1m", false)),
            "logagg: stats per minute: 4 buckets, 2023-11-14T22:13:00Z to 2023-11-14T22:16:00Z (1 empty)\n"
            "  total                                   7\n"
            "  peak at 2023-11-14T22:14:00Z            3\n"
            "  mean                                1.750\n"
            "  median                                  2\n"
            "  p95                                     3\n"
            "  p99                                     3\n"
            "  max                                     3\n");
  EXPECT_EQ(format_stats(Result{}, bucketed("5s", false)), "logagg: stats per 5s: no counted lines\n");
}

// ---- nearest_rank_percentile ----------------------------------------------

TEST(NearestRankPercentile, ZerosAreTheLowestRanks) {
  // {0, 0, 5, 9}: ranks 1-2 are zeros, rank 3 is 5, rank 4 is 9.
  const std::vector<uint64_t> nonzero = {5, 9};
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 1), 0u);    // rank 1
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 50), 0u);   // rank 2 exactly: the last zero
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 51), 5u);   // rank 3: the first count past the zeros
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 75), 5u);   // rank 3 exactly
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 76), 9u);   // rank 4
  EXPECT_EQ(nearest_rank_percentile(nonzero, 2, 100), 9u);  // the largest
  // Only zeros: every percentile is 0.
  for (unsigned p : {1u, 50u, 99u, 100u}) EXPECT_EQ(nearest_rank_percentile({}, 7, p), 0u) << p;
}

TEST(NearestRankPercentile, RanksAtTheEdges) {
  // The rank is ceil(p/100 * N): an exact product is not rounded up further.
  std::vector<uint64_t> two_hundred(200);
  for (uint64_t i = 0; i < 200; ++i) two_hundred[i] = 10 * (i + 1);
  EXPECT_EQ(nearest_rank_percentile(two_hundred, 0, 50), 1000u);   // rank 100
  EXPECT_EQ(nearest_rank_percentile(two_hundred, 0, 1), 20u);      // rank 2
  EXPECT_EQ(nearest_rank_percentile(two_hundred, 0, 99), 1980u);   // rank 198
  EXPECT_EQ(nearest_rank_percentile(two_hundred, 0, 100), 2000u);  // rank N
  // A small p on a short series is rank 1, never rank 0.
  EXPECT_EQ(nearest_rank_percentile({3, 4, 8}, 0, 1), 3u);
  // p95 of 21 values is rank ceil(19.95) = 20, of 20 values rank 19.
  std::vector<uint64_t> v(21);
  for (uint64_t i = 0; i < 21; ++i) v[i] = i + 1;
  EXPECT_EQ(nearest_rank_percentile(v, 0, 95), 20u);
  v.pop_back();
  EXPECT_EQ(nearest_rank_percentile(v, 0, 95), 19u);
  EXPECT_EQ(nearest_rank_percentile(v, 1, 95), 19u);  // 21 ranks again, a zero first: rank 20 is 19
}

// ---- top_apps -------------------------------------------------------------

TEST(TopApps, BusiestFirstSummedOverSecondsTiesByName) {
  // Names deliberately not in index order: ties go by name, not by index.
  const std::vector<std::string> apps = {"web", "api", "db", "cron"};
  const std::vector<AppCount> counts = {{1, 0, 4}, {1, 1, 2}, {2, 1, 2}, {2, 2, 4}, {3, 3, 1}};
  const std::vector<AppTotal> top = top_apps(apps, counts, 0);
  ASSERT_EQ(top.size(), 4u);
  // api 4, db 4, web 4 (a tie of three, by name), then cron 1.
  EXPECT_EQ(apps[top[0].app], "api");
  EXPECT_EQ(apps[top[1].app], "db");
  EXPECT_EQ(apps[top[2].app], "web");
  EXPECT_EQ(apps[top[3].app], "cron");
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(top[i].count, 4u) << i;
  EXPECT_EQ(top[3].count, 1u);
}

TEST(TopApps, OtherIsNeverRankedNorAreAppsWithoutLines) {
  const std::vector<std::string> apps = {"a", "b", "quiet", std::string(kOtherApp)};
  const std::vector<AppCount> counts = {{0, 0, 2}, {0, 1, 1}, {0, 3, 100}};
  const std::vector<AppTotal> top = top_apps(apps, counts, 0);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(apps[top[0].app], "a");
  EXPECT_EQ(apps[top[1].app], "b");
  ASSERT_EQ(top_apps(apps, counts, 1).size(), 1u);
  EXPECT_EQ(apps[top_apps(apps, counts, 1)[0].app], "a");  // not the busier "(other)"
}

TEST(TopApps, NIsACutZeroMeansAllAndMoreThanThereAreIsAll) {
  const std::vector<std::string> apps = {"a", "b", "c"};
  const std::vector<AppCount> counts = {{0, 0, 1}, {0, 1, 3}, {0, 2, 2}};
  const auto names = [&](size_t n) {
    std::string out;
    for (const AppTotal& t : top_apps(apps, counts, n)) out += apps[t.app];
    return out;
  };
  EXPECT_EQ(names(0), "bca");
  EXPECT_EQ(names(1), "b");
  EXPECT_EQ(names(2), "bc");
  EXPECT_EQ(names(3), "bca");
  EXPECT_EQ(names(4), "bca");
  EXPECT_EQ(names(1000), "bca");
  EXPECT_TRUE(top_apps({}, {}, 0).empty());
  EXPECT_TRUE(top_apps({}, {}, 5).empty());
}

// ---- report_stats ---------------------------------------------------------

Result with_apps(size_t n) {
  // apps a00..a(n-1), app i with i + 1 lines in second 10; sorted by name.
  Result r;
  for (uint32_t i = 0; i < n; ++i) {
    r.apps.push_back("a" + std::string(i < 10 ? "0" : "") + std::to_string(i));
    r.app_counts.push_back({10, i, i + 1});
  }
  uint64_t total = 0;
  for (const AppCount& c : r.app_counts) total += c.count;
  r.counts = {{10, total}};
  return r;
}

TEST(ReportStats, BucketStatsComeFromTheBucketsGiven) {
  const Result r = with_counts({{0, 1}, {1, 1}});
  const std::vector<SecondCount> buckets = {{0, 5}, {120, 7}};  // not result.counts: the rebucketed rows
  const Bucketing minute = Bucketing::of_seconds(60);
  const ReportStats s = report_stats(r, false, buckets, minute, 0);
  EXPECT_EQ(s.buckets.buckets, 3u);
  EXPECT_EQ(s.buckets.empty, 1u);
  EXPECT_EQ(s.buckets.total, 12u);
  EXPECT_EQ(s.buckets.peak, 120);
  EXPECT_EQ(s.buckets.median, 5u);
  EXPECT_EQ(s.first, "1970-01-01T00:00:00Z");
  EXPECT_EQ(s.peak, "1970-01-01T00:02:00Z");
  const std::vector<std::pair<std::string_view, std::string>> figures = {
      {"mean", "4.000"}, {"median", "5"}, {"p95", "7"}, {"p99", "7"}, {"max", "7"}};
  EXPECT_EQ(s.figures, figures);
  EXPECT_TRUE(s.ranked_apps.empty());
}

TEST(ReportStats, RanksAppsOnlyWhenCountedPerAppTopOrTen) {
  const Result r = with_apps(12);
  EXPECT_TRUE(report_stats(r, false, r.counts, Bucketing{}, 3).ranked_apps.empty()) << "not counted per app";
  const ReportStats ten = report_stats(r, true, r.counts, Bucketing{}, 0);
  ASSERT_EQ(ten.ranked_apps.size(), kDefaultRankedApps);
  EXPECT_EQ(ten.ranked_apps.front().id, "a11");
  EXPECT_EQ(ten.ranked_apps.front().count, 12u);
  EXPECT_EQ(ten.ranked_apps.back().id, "a02");
  const ReportStats three = report_stats(r, true, r.counts, Bucketing{}, 3);
  ASSERT_EQ(three.ranked_apps.size(), 3u);
  EXPECT_EQ(three.ranked_apps[2].id, "a09");
  EXPECT_EQ(three.ranked_apps[0].percent, "15.385");  // 12 of 78 lines
  EXPECT_EQ(report_stats(r, true, r.counts, Bucketing{}, 50).ranked_apps.size(), 12u);
  EXPECT_EQ(three.buckets.total, 78u);
}

}  // namespace
}  // namespace logagg
