// Tests for buckets in a time zone (--tz): days of 23 and 25 hours across
// Europe/Madrid's DST changes, hours around both changes, a +05:45 zone,
// "local" from $TZ, unknown zones, a differential test against a slow,
// obvious second-by-second walk over date's offsets, and the binary end to
// end (rows, offsets, json "tz", merges). Needs the system's tzdata.
#include <date/tz.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <stdexcept>

#include "logagg/buckets.h"
#include "logagg/report.h"
#include "logagg/rfc3339.h"
#include "report/stats.h"
#include "support/run_process.h"
#include "support/sanitizers.h"
#include "support/test_paths.h"
#include "time/civil_time.h"  // kSecondsPerDay

namespace logagg {
namespace {

using testing::ProcessResult;

int64_t at(const char* rfc3339) { return *parse_rfc3339(rfc3339); }

Bucketing in(const char* zone, int64_t width) { return Bucketing::of_seconds(width).in_zone(find_time_zone(zone)); }

std::string text(const Bucketing& b, int64_t start) {
  char buf[kBucketStartMaxChars];
  return std::string(buf, static_cast<size_t>(b.format_start(start, buf)));
}

// The bucket starts from the one holding `from`, `n` of them, as text.
std::vector<std::string> starts(const Bucketing& b, const char* from, int n) {
  std::vector<std::string> out;
  for (int64_t s = b.start_of(at(from)); n-- > 0; s = b.next(s)) out.push_back(text(b, s));
  return out;
}

TEST(TimeZone, MadridSpringForwardDayIs23HoursAndFallBackDay25) {
  const Bucketing day = in("Europe/Madrid", kSecondsPerDay);
  const int64_t spring = day.start_of(at("2024-03-31T12:00:00Z"));
  EXPECT_EQ(spring, at("2024-03-30T23:00:00Z"));
  EXPECT_EQ(day.next(spring) - spring, 23 * 3600);
  EXPECT_EQ(text(day, spring), "2024-03-31T00:00:00+01:00");
  EXPECT_EQ(text(day, day.next(spring)), "2024-04-01T00:00:00+02:00");
  const int64_t fall = day.start_of(at("2024-10-27T12:00:00Z"));
  EXPECT_EQ(fall, at("2024-10-26T22:00:00Z"));
  EXPECT_EQ(day.next(fall) - fall, 25 * 3600);
  EXPECT_EQ(text(day, fall), "2024-10-27T00:00:00+02:00");
  EXPECT_EQ(text(day, day.next(fall)), "2024-10-28T00:00:00+01:00");
  // Every second of the day is in it; the last second of the day before is not.
  EXPECT_EQ(day.start_of(day.next(fall) - 1), fall);
  EXPECT_EQ(day.start_of(fall - 1), day.start_of(at("2024-10-26T12:00:00Z")));
  // A year of local days, 2024 being a leap year.
  EXPECT_EQ(day.count_between(day.start_of(at("2024-01-01T12:00:00Z")), day.start_of(at("2024-12-31T12:00:00Z"))),
            366u);
}

TEST(TimeZone, MadridHoursAroundBothChanges) {
  const Bucketing hour = in("Europe/Madrid", 3600);
  // 02:00 does not exist on 2024-03-31: 01:00+01:00 is followed by 03:00+02:00.
  EXPECT_EQ(starts(hour, "2024-03-31T00:30:00Z", 3),
            (std::vector<std::string>{"2024-03-31T01:00:00+01:00", "2024-03-31T03:00:00+02:00",
                                      "2024-03-31T04:00:00+02:00"}));
  // 02:00 happens twice on 2024-10-27: two hour buckets, told apart by offset.
  EXPECT_EQ(starts(hour, "2024-10-26T23:30:00Z", 4),
            (std::vector<std::string>{"2024-10-27T01:00:00+02:00", "2024-10-27T02:00:00+02:00",
                                      "2024-10-27T02:00:00+01:00", "2024-10-27T03:00:00+01:00"}));
  EXPECT_EQ(hour.start_of(at("2024-10-27T00:59:59Z")), at("2024-10-27T00:00:00Z"));
  EXPECT_EQ(hour.start_of(at("2024-10-27T01:00:00Z")), at("2024-10-27T01:00:00Z"));
  // The fall-back day has 25 hour buckets, the spring-forward day 23.
  const Bucketing day = in("Europe/Madrid", kSecondsPerDay);
  for (const auto& [noon, hours] : {std::pair{"2024-10-27T12:00:00Z", 25u}, std::pair{"2024-03-31T12:00:00Z", 23u}}) {
    const int64_t d = day.start_of(at(noon));
    EXPECT_EQ(hour.count_between(d, hour.start_of(day.next(d) - 1)), hours) << noon;
  }
}

TEST(TimeZone, QuarterHourOffsetZoneAlignsHoursToLocalHours) {
  const Bucketing hour = in("Asia/Kathmandu", 3600);
  EXPECT_EQ(hour.start_of(at("2024-01-01T00:00:00Z")), at("2023-12-31T23:15:00Z"));
  EXPECT_EQ(starts(hour, "2024-01-01T00:00:00Z", 2),
            (std::vector<std::string>{"2024-01-01T05:00:00+05:45", "2024-01-01T06:00:00+05:45"}));
  const Bucketing day = in("Asia/Kathmandu", kSecondsPerDay);
  EXPECT_EQ(text(day, day.start_of(at("2024-01-01T00:00:00Z"))), "2024-01-01T00:00:00+05:45");
}

TEST(TimeZone, UtcPrintsItsOffsetAndLooksUpOnce) {
  const Bucketing minute = in("UTC", 60);
  EXPECT_EQ(text(minute, minute.start_of(at("2023-11-14T22:13:20Z"))), "2023-11-14T22:13:00+00:00");
  EXPECT_EQ(find_time_zone("UTC"), find_time_zone("UTC"));
  EXPECT_EQ(time_zone_name(*find_time_zone("Europe/Madrid")), "Europe/Madrid");
  EXPECT_FALSE(minute == Bucketing::of_seconds(60));  // a zone is part of the bucketing
}

TEST(TimeZone, LocalIsTheZoneOfTheTzVariable) {
  ::setenv("TZ", ":Asia/Tokyo", 1);
  EXPECT_EQ(time_zone_name(*find_time_zone("local")), "Asia/Tokyo");
  const Bucketing hour = in("local", 3600);
  EXPECT_EQ(text(hour, hour.start_of(at("2023-11-14T22:13:20Z"))), "2023-11-15T07:00:00+09:00");
}

TEST(TimeZone, UnknownZoneIsRefusedByName) {
  try {
    find_time_zone("Mars/Base");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown time zone 'Mars/Base'");
  }
}

// The slow, obvious definition: the local time of a UTC second is that
// second plus the offset date's time zone gives for it (zone->get_info, what
// date::zoned_time adds), and a bucket starts at every second whose local
// clock reads a multiple of the width or has jumped forward past one. The
// offset's period is kept from one second to the next, so that a walk of a
// day's seconds does not look the zone up once a second (which made this
// test 20 times slower under the sanitizers than in a release build).
struct Reference {
  const date::time_zone* zone;
  int64_t width;
  mutable date::sys_info period{};
  int64_t local(int64_t u) const {
    const date::sys_seconds at{std::chrono::seconds{u}};
    if (at < period.begin || at >= period.end) period = zone->get_info(at);
    return u + period.offset.count();
  }
  static int64_t fdiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
  bool starts(int64_t u) const {
    const int64_t now = local(u), before = local(u - 1);
    return now % width == 0 || fdiv(now, width) > fdiv(before, width);
  }
  int64_t start_of(int64_t s) const {
    while (!starts(s)) --s;
    return s;
  }
  int64_t next(int64_t s) const {
    do ++s;
    while (!starts(s));
    return s;
  }
};

TEST(TimeZone, DifferentialAgainstSecondBySecondWalk) {
  const char* zones[] = {
      "Europe/Madrid",    "Asia/Kathmandu",   "Australia/Lord_Howe", "America/New_York", "Pacific/Chatham",
      "America/Santiago", "Asia/Kolkata",     "America/St_Johns",    "Europe/Dublin",    "UTC",
      "America/Havana",   "Africa/Casablanca"};
  const int64_t widths[] = {1, 5, 60, 90, 300, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
  // 20 instants a zone; 4 under a sanitizer, whose unoptimized reference
  // walks took 24 s there (the same code paths: one instant at random, three
  // near transitions).
  const size_t per_zone = logagg::testing::seeds(20, 4);
  std::mt19937_64 rng(20240331);
  size_t checked = 0;
  for (const char* name : zones) {
    const date::time_zone* tz = date::locate_zone(name);
    for (size_t i = 0; i < per_zone; ++i) {
      const int64_t width = widths[rng() % std::size(widths)];
      // Near a transition most of the time: a random instant, then the start
      // of its offset period, give or take two days.
      int64_t s = at("1950-01-01T00:00:00Z") + static_cast<int64_t>(rng() % (88ull * 365 * 86400));
      if (i % 4 != 0) {
        const auto info = tz->get_info(date::sys_seconds{std::chrono::seconds{s}});
        s = info.begin.time_since_epoch().count() + static_cast<int64_t>(rng() % (4 * 86400)) - 2 * 86400;
      }
      const Bucketing b = in(name, width);
      const Reference ref{tz, width};
      const int64_t start = b.start_of(s);
      ASSERT_EQ(start, ref.start_of(s)) << name << " width " << width << " at " << s;
      const int64_t next = b.next(start);
      ASSERT_EQ(next, ref.next(start)) << name << " width " << width << " at " << start;
      // count_between over a few buckets against walking the reference.
      int64_t last = start;
      uint64_t walked = 1;
      for (int k = static_cast<int>(rng() % 30); k > 0; --k, ++walked) last = ref.next(last);
      ASSERT_EQ(b.count_between(start, last), walked) << name << " width " << width << " from " << start;
      ++checked;
    }
  }
  EXPECT_EQ(checked, std::size(zones) * per_zone);
}

TEST(TimeZone, AdvanceStridesLikeStepping) {
  std::mt19937_64 rng(7);
  for (const char* zone :
       {"UTC", "Europe/Madrid", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kathmandu", "Pacific/Apia"}) {
    for (const int64_t width : {int64_t{60}, int64_t{1800}, int64_t{3600}, kSecondsPerDay}) {
      for (const Bucketing& b : {in(zone, width), Bucketing::of_seconds(width)}) {
        for (int trial = 0; trial < 20; ++trial) {
          const int64_t start =
              b.start_of(at("1970-01-01T00:00:00Z") + static_cast<int64_t>(rng() % (70ull * 365 * 86400)));
          int64_t stepped = start;
          uint64_t done = 0;
          for (const uint64_t n : {0u, 1u, 2u, 23u, 24u, 25u, 300u, 2000u}) {
            for (; done < n; ++done) stepped = b.next(stepped);
            ASSERT_EQ(b.advance(start, n), stepped)
                << zone << ", width " << width << ", start " << start << ", n " << n;
          }
        }
      }
    }
  }
}

TEST(TimeZone, RebucketAndStatsWalkLocalDays) {
  // One count an hour through Madrid's fall-back day: 25 of them in one day.
  std::vector<SecondCount> per_second;
  for (int64_t s = at("2024-10-26T22:00:00Z"); s < at("2024-10-27T23:00:00Z"); s += 3600) per_second.push_back({s, 1});
  const Bucketing day = in("Europe/Madrid", kSecondsPerDay);
  const std::vector<SecondCount> days = rebucket(per_second, day);
  ASSERT_EQ(days.size(), 1u);
  EXPECT_EQ(days[0].count, 25u);
  per_second.push_back({at("2024-12-31T12:00:00Z"), 1});
  const BucketStats st = compute_stats(rebucket(per_second, day), day);
  EXPECT_EQ(st.buckets, 66u);  // 27 Oct .. 31 Dec
  EXPECT_EQ(st.empty, 64u);
}

// End to end: the binary with --tz.
const std::string kSample = testing::source_dir() + "/data/sample.log";

ProcessResult logagg(std::vector<std::string> args, const std::string* input = nullptr) {
  args.insert(args.begin(), testing::logagg_bin());
  return testing::run_process(args, input);
}

TEST(TimeZoneCli, SampleLogPerHourInMadrid) {
  const ProcessResult r = logagg({"--tz", "Europe/Madrid", "--per-hour", "-q", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "hour                       count\n"
            "2023-11-14T23:00:00+01:00   3357\n"
            "2023-11-15T00:00:00+01:00      4\n"
            "total                       3361\n");
  const ProcessResult csv = logagg({"--tz", "Asia/Kathmandu", "--per-hour", "--format", "csv", "-q", kSample});
  EXPECT_EQ(csv.out,
            "hour,count\n2023-11-15T03:00:00+05:45,2406\n2023-11-15T04:00:00+05:45,951\n"
            "2023-11-15T05:00:00+05:45,4\n");
}

TEST(TimeZoneCli, JsonNamesTheZoneAndMergeRefusesMixing) {
  char tmpl[] = "/tmp/logagg-tz-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const ProcessResult madrid = logagg({"--tz", "Europe/Madrid", "--per-day", "--format", "json", "-q", kSample});
  ASSERT_EQ(madrid.exit_code, 0) << madrid.err;
  EXPECT_NE(madrid.out.find("\"tz\": \"Europe/Madrid\""), std::string::npos);
  EXPECT_NE(madrid.out.find("{\"day\": \"2023-11-14T00:00:00+01:00\", \"count\": 3357}"), std::string::npos);
  const ProcessResult utc = logagg({"--per-day", "--format", "json", "-q", kSample});
  EXPECT_EQ(utc.out.find("\"tz\""), std::string::npos);
  std::ofstream(dir + "/madrid.json") << madrid.out;
  std::ofstream(dir + "/utc.json") << utc.out;
  const ProcessResult same = logagg({"merge", "--format", "json", dir + "/madrid.json", dir + "/madrid.json"});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("{\"day\": \"2023-11-14T00:00:00+01:00\", \"count\": 6714}"), std::string::npos);
  EXPECT_NE(same.out.find("\"tz\": \"Europe/Madrid\""), std::string::npos);
  const ProcessResult mixed = logagg({"merge", dir + "/madrid.json", dir + "/utc.json"});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.err.find("made with a different --tz (none, not Europe/Madrid)"), std::string::npos) << mixed.err;
  EXPECT_EQ(mixed.out, "");
  std::system(("rm -rf " + dir).c_str());
}

TEST(TimeZoneCli, StatsPrintLocalStartsWithValuesAligned) {
  const ProcessResult r =
      logagg({"--tz", "Europe/Madrid", "--per-minute", "--stats", "-q", "--format", "csv", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("107 buckets, 2023-11-14T23:13:00+01:00 to 2023-11-15T00:59:00+01:00 (103 empty)\n"
                       "  total                                3361\n"
                       "  peak at 2023-11-14T23:14:00+01:00    1432\n"),
            std::string::npos)
      << r.err;
}

TEST(TimeZoneCli, UnknownZoneIsAUsageError) {
  const ProcessResult r = logagg({"--tz", "Mars/Base", kSample});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "logagg: --tz: unknown time zone 'Mars/Base'\nTry 'logagg --help' for more information.\n");
  EXPECT_EQ(r.out, "");
}

TEST(TimeZoneCli, DefaultOutputHasNoOffsets) {
  const ProcessResult r = logagg({"--per-hour", "-q", "--format", "csv", kSample});
  EXPECT_EQ(r.out, "hour,count\n2023-11-14T22:00:00Z,3357\n2023-11-14T23:00:00Z,4\n");
}

}  // namespace
}  // namespace logagg
