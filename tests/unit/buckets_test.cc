// Tests for buckets: duration parsing and names, alignment to the UTC epoch
// (before 1970 too), rebucketing, and gap filling in every report format. The
// statistics of bucketed series are in stats_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "logagg/buckets.h"
#include "logagg/report.h"
#include "logagg/rfc3339.h"
#include "support/report_as.h"
#include "support/report_inputs.h"
#include "time/civil_time.h"

namespace logagg {
namespace {

std::string utc(int64_t second) {
  char buf[kUtcSecondMaxChars];
  return std::string(buf, static_cast<size_t>(format_utc_second(second, buf)));
}

TEST(Bucketing, ParsesDurationsAndNamesThemCanonically) {
  const std::pair<const char*, std::pair<int64_t, const char*>> cases[] = {
      {"1s", {1, "second"}},   {"60s", {60, "minute"}}, {"1m", {60, "minute"}},  {"1h", {3600, "hour"}},
      {"60m", {3600, "hour"}}, {"1d", {86400, "day"}},  {"24h", {86400, "day"}}, {"86400s", {86400, "day"}},
      {"5s", {5, "5s"}},       {"90s", {90, "90s"}},    {"120s", {120, "2m"}},   {"15m", {900, "15m"}},
      {"7200s", {7200, "2h"}}, {"12h", {43200, "12h"}}, {"0005s", {5, "5s"}},    {"1440m", {86400, "day"}}};
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
  for (const char* bad : {"",     "s",   "5",   "5x",   "5S",   "5M",  "0s",
                          "0d",   "7s",  "7m",  "2d",   "25h",  "48h", "-5s",
                          "+5s",  " 5s", "5s ", "1.5h", "1e3s", "5 s", "99999999999999999999999s",
                          "1h30m"}) {
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

TEST(Bucketing, TheWholeInputIsOneBucketWithoutAZone) {
  const Bucketing whole = Bucketing::whole();
  EXPECT_TRUE(whole.is_whole());
  EXPECT_FALSE(Bucketing{}.is_whole());
  for (const int64_t second : {int64_t{-62167219200}, int64_t{-1}, int64_t{0}, int64_t{253402300799}}) {
    EXPECT_EQ(whole.start_of(second), kWholeRunStart) << second;
  }
  EXPECT_EQ(whole.next(kWholeRunStart), INT64_MAX);
  EXPECT_EQ(whole.count_between(kWholeRunStart, kWholeRunStart), 1u);
  EXPECT_EQ(whole.name(), "overall");
  EXPECT_EQ(parse_bucketing("overall"), whole);
  EXPECT_EQ(whole.in_zone(find_time_zone("Europe/Madrid")), whole) << "one bucket has no boundaries to move";
  char buf[kBucketStartMaxChars];
  EXPECT_EQ(whole.format_start(kWholeRunStart, buf), 0);
  EXPECT_EQ(rebucket({{-5, 1}, {0, 2}, {86400, 3}}, whole), (std::vector<SecondCount>{{kWholeRunStart, 6}}));
}

TEST(Rebucket, SumsSortedSecondsIntoBuckets) {
  const std::vector<SecondCount> seconds = {{-61, 1}, {-60, 2}, {-1, 3}, {0, 4}, {59, 5}, {60, 6}, {3600, 7}};
  EXPECT_EQ(rebucket(seconds, Bucketing::of_seconds(60)),
            (std::vector<SecondCount>{{-120, 1}, {-60, 5}, {0, 9}, {60, 6}, {3600, 7}}));
  EXPECT_EQ(rebucket(seconds, Bucketing::of_seconds(3600)), (std::vector<SecondCount>{{-3600, 6}, {0, 15}, {3600, 7}}));
  EXPECT_EQ(rebucket(seconds, Bucketing{}), seconds);
  EXPECT_TRUE(rebucket({}, Bucketing::of_seconds(60)).empty());
}

TEST(BucketReport, CsvHeaderNamesTheBucketAndRowsHoldItsStart) {
  const int64_t t = at("2023-11-14T22:13:20Z");
  const Result r = with_counts({{t, 2}, {t + 50, 3}, {t + 200, 1}});
  EXPECT_EQ(format_report(r, as(bucketed("1m", false), Format::kCsv)),
            "minute,count\n2023-11-14T22:13:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:16:00Z,1\n");
  EXPECT_EQ(format_report(r, as(bucketed("1h", false), Format::kCsv)), "hour,count\n2023-11-14T22:00:00Z,6\n");
  EXPECT_EQ(format_report(r, as(bucketed("1d", false), Format::kCsv)), "day,count\n2023-11-14T00:00:00Z,6\n");
  EXPECT_EQ(format_report(r, as(bucketed("2m", false), Format::kCsv)),
            "bucket,count\n2023-11-14T22:12:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:16:00Z,1\n");
}

TEST(BucketReport, TheWholeInputsRowHasNoTimeColumnInEveryFormat) {
  const int64_t t = at("2023-11-14T22:13:20Z");
  const Result r = with_counts({{t, 2}, {t + 50, 3}, {t + 86400, 1}});
  const ReportOptions whole = bucketed("overall", true);  // nothing to fill
  EXPECT_EQ(format_report(r, as(whole, Format::kCsv)), "count\n6\n");
  EXPECT_EQ(format_report(r, as(whole, Format::kTable)), "count\n    6\n") << "its one row is the total";
  const std::string json = format_report(r, as(whole, Format::kJson));
  EXPECT_NE(json.find("\"bucket\": \"overall\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"counts\": [\n    {\"count\": 6}\n  ]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"first\": null"), std::string::npos) << "no series over time: " << json;
}

TEST(BucketReport, FillGapsAddsZeroRowsBetweenFirstAndLastInEveryFormat) {
  const int64_t t = at("2023-11-14T22:13:20Z");
  const Result r = with_counts({{t, 2}, {t + 50, 3}, {t + 200, 1}});
  EXPECT_EQ(format_report(r, as(bucketed("1m", true), Format::kCsv)),
            "minute,count\n2023-11-14T22:13:00Z,2\n2023-11-14T22:14:00Z,3\n2023-11-14T22:15:00Z,0\n"
            "2023-11-14T22:16:00Z,1\n");
  EXPECT_EQ(format_report(r, as(bucketed("1m", true), Format::kTable)),
            "minute                count\n"
            "2023-11-14T22:13:00Z      2\n"
            "2023-11-14T22:14:00Z      3\n"
            "2023-11-14T22:15:00Z      0\n"
            "2023-11-14T22:16:00Z      1\n"
            "total                     6\n");
  const std::string json = format_report(r, as(bucketed("1m", true), Format::kJson));
  EXPECT_NE(json.find("\"bucket\": \"minute\""), std::string::npos);
  EXPECT_NE(json.find("{\"minute\": \"2023-11-14T22:14:00Z\", \"count\": 3},\n"
                      "    {\"minute\": \"2023-11-14T22:15:00Z\", \"count\": 0},\n"
                      "    {\"minute\": \"2023-11-14T22:16:00Z\", \"count\": 1}\n  ],"),
            std::string::npos)
      << json;
  // Per second, gaps of one and of many seconds; none before the first or after the last.
  const std::string csv = format_report(with_counts({{-2, 1}, {0, 1}, {5, 2}}), as(bucketed("1s", true), Format::kCsv));
  EXPECT_EQ(csv,
            "second,count\n1969-12-31T23:59:58Z,1\n1969-12-31T23:59:59Z,0\n1970-01-01T00:00:00Z,1\n"
            "1970-01-01T00:00:01Z,0\n1970-01-01T00:00:02Z,0\n1970-01-01T00:00:03Z,0\n1970-01-01T00:00:04Z,0\n"
            "1970-01-01T00:00:05Z,2\n");
  EXPECT_EQ(format_report(Result{}, as(bucketed("1s", true), Format::kCsv)), "second,count\n");
}

TEST(BucketReport, FillingYearsOfGapsIsStreamedInChunks) {
  // Two lines 90 days apart, per second: 7.8 M rows (170 MB) that must
  // arrive in chunks of about 64 KiB, never as one string.
  const int64_t t = at("2023-01-01T00:00:00Z");
  const Result r = with_counts({{t, 1}, {t + 90 * kSecondsPerDay, 1}});
  size_t chunks = 0, largest = 0, rows = 0;
  write_report(r, as(bucketed("1s", true), Format::kCsv), [&](std::string_view chunk) {
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
  EXPECT_THROW(write_report(r, as(bucketed("1s", true), Format::kCsv),
                            [&](std::string_view) {
                              if (++calls == 3) throw Stop{};
                            }),
               Stop);
  EXPECT_EQ(calls, 3u) << "the report went on after the sink threw";
}

}  // namespace
}  // namespace logagg
