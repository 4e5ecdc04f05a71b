// Tests for buckets and statistics: duration parsing and names, alignment to
// the UTC epoch (before 1970 too), rebucketing, gap filling in every report
// format, and the statistics against a slow, obvious computation over random
// series (a differential test that materialises every empty bucket).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "logagg/buckets.h"
#include "parse/civil_time.h"
#include "logagg/report.h"
#include "support/report_as.h"
#include "parse/rfc3339.h"
#include "report/stats.h"

namespace logagg {
namespace {

std::string utc(int64_t second) {
  char buf[kUtcSecondMaxChars];
  return std::string(buf, static_cast<size_t>(format_utc_second(second, buf)));
}

int64_t at(const char* rfc3339) { return *parse_rfc3339(rfc3339); }

TEST(Bucketing, ParsesDurationsAndNamesThemCanonically) {
  const std::pair<const char*, std::pair<int64_t, const char*>> cases[] = {
      {"1s", {1, "second"}},     {"60s", {60, "minute"}},  {"1m", {60, "minute"}},   {"1h", {3600, "hour"}},
      {"60m", {3600, "hour"}},   {"1d", {86400, "day"}},   {"24h", {86400, "day"}},  {"86400s", {86400, "day"}},
      {"5s", {5, "5s"}},         {"90s", {90, "90s"}},     {"120s", {120, "2m"}},    {"15m", {900, "15m"}},
      {"7200s", {7200, "2h"}},   {"12h", {43200, "12h"}},  {"0005s", {5, "5s"}},     {"1440m", {86400, "day"}}};
  for (const auto& [text, want] : cases) {
    const Bucketing b = parse_bucketing(text);
    EXPECT_EQ(b.width_seconds(), want.first) << text;
    EXPECT_EQ(b.name(), want.second) << text;
  }
  EXPECT_EQ(Bucketing{}.name(), "second");
}

TEST(Bucketing, ColumnIsTheUnitNameOrBucket) {
  EXPECT_EQ(Bucketing{}.column(), "second");
  EXPECT_EQ(parse_bucketing("1m").column(), "minute");
  EXPECT_EQ(parse_bucketing("1h").column(), "hour");
  EXPECT_EQ(parse_bucketing("1d").column(), "day");
  EXPECT_EQ(parse_bucketing("5s").column(), "bucket");
  EXPECT_EQ(parse_bucketing("15m").column(), "bucket");
}

TEST(Bucketing, EveryDivisorOfADayParsesAndItsNameRoundTrips) {
  int divisors = 0;
  for (int64_t w = 1; w <= kSecondsPerDay; ++w) {
    if (kSecondsPerDay % w != 0) {
      if (w < 5000) {
        EXPECT_THROW(parse_bucketing(std::to_string(w) + "s"), std::invalid_argument) << w;
      }
      continue;
    }
    ++divisors;
    const Bucketing b = parse_bucketing(std::to_string(w) + "s");
    EXPECT_EQ(b.width_seconds(), w);
    EXPECT_EQ(parse_bucketing(b.name()), b) << b.name();  // "minute" too: what name() prints reads back
  }
  EXPECT_EQ(divisors, 96);
}

TEST(Bucketing, RefusesWithAMessageQuotingTheValue) {
  for (const char* bad : {"", "s", "5", "5x", "5S", "5M", "0s", "0d", "7s", "7m", "2d", "25h", "48h", "-5s", "+5s",
                          " 5s", "5s ", "1.5h", "1e3s", "5 s", "99999999999999999999999s", "1h30m"}) {
    try {
      parse_bucketing(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + std::string(bad) + "'"), std::string::npos) << e.what();
    }
  }
  try {
    parse_bucketing("7s");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not divide a day"), std::string::npos) << e.what();
  }
}

TEST(Bucketing, AlignsToTheUtcEpochBeforeAndAfter1970) {
  const Bucketing minute = Bucketing::of_seconds(60), day = Bucketing::of_seconds(kSecondsPerDay);
  const Bucketing five = Bucketing::of_seconds(5);
  EXPECT_EQ(minute.start_of(0), 0);
  EXPECT_EQ(minute.start_of(59), 0);
  EXPECT_EQ(minute.start_of(60), 60);
  EXPECT_EQ(minute.start_of(-1), -60);
  EXPECT_EQ(minute.start_of(-60), -60);
  EXPECT_EQ(minute.start_of(-61), -120);
  EXPECT_EQ(day.start_of(-1), -kSecondsPerDay);
  EXPECT_EQ(five.start_of(-5), -5);
  EXPECT_EQ(five.start_of(-6), -10);
  EXPECT_EQ(utc(day.start_of(at("1969-12-31T23:59:59Z"))), "1969-12-31T00:00:00Z");
  EXPECT_EQ(utc(Bucketing::of_seconds(3600).start_of(at("0000-01-01T05:59:59Z"))), "0000-01-01T05:00:00Z");
  EXPECT_EQ(utc(parse_bucketing("15m").start_of(at("2023-11-14T22:44:59Z"))), "2023-11-14T22:30:00Z");
  EXPECT_EQ(Bucketing{}.start_of(-7), -7);
  EXPECT_EQ(day.next(day.start_of(-1)), 0);
  EXPECT_EQ(minute.count_between(-120, 60), 4u);
  EXPECT_EQ(minute.count_between(60, 60), 1u);
}

// Property: for random seconds in years 0..9999, a day bucket starts at
// 00:00:00 of the same date, an hour bucket at hh:00:00, and every bucket
// holds its second, starts on a multiple of the width from midnight and is
// one width long.
TEST(Bucketing, BucketsOfEveryWidthLineUpWithTheCivilDay) {
  std::mt19937_64 rng(7);
  const int64_t lo = days_from_civil(0, 1, 1) * kSecondsPerDay, hi = days_from_civil(10000, 1, 1) * kSecondsPerDay;
  std::uniform_int_distribution<int64_t> second(lo, hi - 1);
  for (const char* d : {"1s", "5s", "1m", "15m", "1h", "3h", "1d"}) {
    const Bucketing b = parse_bucketing(d);
    for (int i = 0; i < 20000; ++i) {
      const int64_t s = second(rng);
      const int64_t start = b.start_of(s);
      ASSERT_LE(start, s);
      ASSERT_LT(s, b.next(start));
      const int64_t midnight = floor_div(s, kSecondsPerDay) * kSecondsPerDay;
      ASSERT_EQ((start - midnight) % b.width_seconds(), 0) << d << " " << s;
      ASSERT_GE(start, midnight);
      ASSERT_EQ(b.start_of(start), start);
    }
  }
  for (int i = 0; i < 1000; ++i) {
    const std::string s = utc(second(rng));
    EXPECT_EQ(utc(parse_bucketing("1d").start_of(at(s.c_str()))), s.substr(0, s.size() - 9) + "00:00:00Z");
    EXPECT_EQ(utc(parse_bucketing("1h").start_of(at(s.c_str()))), s.substr(0, s.size() - 6) + "00:00Z");
  }
}

TEST(Rebucket, SumsSortedSecondsIntoBuckets) {
  const std::vector<SecondCount> seconds = {{-61, 1}, {-60, 2}, {-1, 3}, {0, 4}, {59, 5}, {60, 6}, {3600, 7}};
  EXPECT_EQ(rebucket(seconds, Bucketing::of_seconds(60)),
            (std::vector<SecondCount>{{-120, 1}, {-60, 5}, {0, 9}, {60, 6}, {3600, 7}}));
  EXPECT_EQ(rebucket(seconds, Bucketing::of_seconds(3600)), (std::vector<SecondCount>{{-3600, 6}, {0, 15}, {3600, 7}}));
  EXPECT_EQ(rebucket(seconds, Bucketing{}), seconds);
  EXPECT_TRUE(rebucket({}, Bucketing::of_seconds(60)).empty());
}

Result with_counts(std::vector<SecondCount> counts) {
  Result r;
  r.counts = std::move(counts);
  for (const SecondCount& c : r.counts) r.summary.counted += c.count;
  r.summary.lines = r.summary.counted;
  return r;
}

ReportOptions bucketed(const char* duration, bool fill_gaps) {
  ReportOptions o;
  o.bucketing = parse_bucketing(duration);
  o.fill_gaps = fill_gaps;
  return o;
}

TEST(BucketReport, CsvHeaderNamesTheBucketAndRowsHoldItsStart) {
  const int64_t t = at("2023-11-14T22:13:20Z");
  const Result r = with_counts({{t, 2}, {t + 50, 3}, {t + 200, 1}});
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("1m", false), Format::kCsv)),
            "minute,count\n2023-11-14T22:13:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:16:00Z,1\n");
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("1h", false), Format::kCsv)), "hour,count\n2023-11-14T22:00:00Z,6\n");
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("1d", false), Format::kCsv)), "day,count\n2023-11-14T00:00:00Z,6\n");
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("2m", false), Format::kCsv)),
            "bucket,count\n2023-11-14T22:12:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:16:00Z,1\n");
}

TEST(BucketReport, FillGapsAddsZeroRowsBetweenFirstAndLastInEveryFormat) {
  const int64_t t = at("2023-11-14T22:13:20Z");
  const Result r = with_counts({{t, 2}, {t + 50, 3}, {t + 200, 1}});
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("1m", true), Format::kCsv)),
            "minute,count\n2023-11-14T22:13:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:15:00Z,0\n"
            "2023-11-14T22:16:00Z,1\n");
  EXPECT_EQ(format_report(r, Options{}, as(bucketed("1m", true), Format::kTable)),
            "minute                count\n"
            "2023-11-14T22:13:00Z      2\n"
            "2023-11-14T22:14:00Z      3\n"
            "2023-11-14T22:15:00Z      0\n"
            "2023-11-14T22:16:00Z      1\n"
            "total                     6\n");
  const std::string json = format_report(r, Options{}, as(bucketed("1m", true), Format::kJson));
  EXPECT_NE(json.find("\"bucket\": \"minute\""), std::string::npos);
  EXPECT_NE(json.find("{\"minute\": \"2023-11-14T22:14:00Z\", \"count\": 3},\n"
                      "    {\"minute\": \"2023-11-14T22:15:00Z\", \"count\": 0},\n"
                      "    {\"minute\": \"2023-11-14T22:16:00Z\", \"count\": 1}\n  ],"),
            std::string::npos)
      << json;
  // Per second, gaps of one and of many seconds; none before the first or after the last.
  const std::string csv = format_report(with_counts({{-2, 1}, {0, 1}, {5, 2}}), Options{}, as(bucketed("1s", true), Format::kCsv));
  EXPECT_EQ(csv,
            "second,count\n1969-12-31T23:59:58Z,1\n1969-12-31T23:59:59Z,0\n1970-01-01T00:00:00Z,1\n"
            "1970-01-01T00:00:01Z,0\n1970-01-01T00:00:02Z,0\n1970-01-01T00:00:03Z,0\n1970-01-01T00:00:04Z,0\n"
            "1970-01-01T00:00:05Z,2\n");
  EXPECT_EQ(format_report(Result{}, Options{}, as(bucketed("1s", true), Format::kCsv)), "second,count\n");
}

TEST(BucketReport, FillingYearsOfGapsIsStreamedInChunks) {
  // Two lines 90 days apart, per second: 7.8 M rows (170 MB) that must
  // arrive in chunks of about 64 KiB, never as one string.
  const int64_t t = at("2023-01-01T00:00:00Z");
  const Result r = with_counts({{t, 1}, {t + 90 * kSecondsPerDay, 1}});
  size_t chunks = 0, largest = 0, rows = 0;
  write_report(r, Options{}, as(bucketed("1s", true), Format::kCsv), [&](std::string_view chunk) {
    ++chunks;
    largest = std::max(largest, chunk.size());
    rows += static_cast<size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
  });
  EXPECT_EQ(rows, 1u + 90 * 86400 + 1);
  EXPECT_LT(largest, size_t{128} << 10);
  EXPECT_GT(chunks, 1000u);
}

TEST(BucketReport, AThrowingSinkStopsTheReport) {
  const Result r = with_counts({{0, 1}, {10000LL * 365 * kSecondsPerDay, 1}});
  size_t calls = 0;
  struct Stop {};
  EXPECT_THROW(write_report(r, Options{}, as(bucketed("1s", true), Format::kCsv),
                            [&](std::string_view) {
                              if (++calls == 3) throw Stop{};
                            }),
               Stop);
  EXPECT_EQ(calls, 3u) << "the report went on after the sink threw";
}

// ---- statistics ----------------------------------------------------------

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
  const std::string json = format_report(r, Options{}, as(bucketed("1m", false), Format::kJson));
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
  const std::string empty = format_report(Result{}, Options{}, as(Format::kJson));
  EXPECT_NE(empty.find("\"buckets\": 0,\n    \"empty_buckets\": 0,\n    \"total\": 0,\n    \"first\": null,\n"),
            std::string::npos)
      << empty;
  EXPECT_NE(empty.find("\"max\": null\n  }\n}\n"), std::string::npos) << empty;
}

TEST(StatsReport, MeanIsRoundedHalfUpToThreeDecimals) {
  const auto mean_of = [](std::vector<SecondCount> buckets) {
    const std::string json = format_report(with_counts(std::move(buckets)), Options{}, as(Format::kJson));
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
  EXPECT_EQ(format_stats(r, Options{}, bucketed("1m", false)),
            "logagg: stats per minute: 4 buckets, 2023-11-14T22:13:00Z to 2023-11-14T22:16:00Z (1 empty)\n"
            "  total                                   7\n"
            "  peak at 2023-11-14T22:14:00Z            3\n"
            "  mean                                1.750\n"
            "  median                                  2\n"
            "  p95                                     3\n"
            "  p99                                     3\n"
            "  max                                     3\n");
  EXPECT_EQ(format_stats(Result{}, Options{}, bucketed("5s", false)), "logagg: stats per 5s: no counted lines\n");
}

}  // namespace
}  // namespace logagg
