// Tests of the time formats (parse/time_format.h), by tables whose expected
// seconds were computed independently (Python's datetime and zoneinfo):
// - each format's names, flags and reject text, and rfc3339 being exactly
//   parse_rfc3339;
// - unix, unix-ms, unix-us, unix-ns: number grammar, exact flooring next to
//   second boundaries, negatives, exponents, the year limits;
// - clf and patterns: every directive, widths, calendars, offsets;
// - input zones: spring-forward gaps rejected and fall-back overlaps taking
//   the earlier instant in Europe/Berlin, America/New_York,
//   Australia/Lord_Howe (30-minute DST) and Asia/Kathmandu (+05:45), "local"
//   from $TZ, and two zones used in turn on one thread;
// - every compile error's message;
// - copies sharing their state, and second() allocating nothing.
#include "parse/time_format.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result.h"
#include "logagg/rfc3339.h"
#include "support/counting_new.h"
#include "time/time_zone.h"

namespace logagg {
namespace {

using namespace std::literals;

constexpr std::optional<int64_t> kNo = std::nullopt;

struct Case {
  std::string_view text;
  std::optional<int64_t> second;
};

void expect_table(const TimeFormat& format, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    EXPECT_EQ(format.second(c.text), c.second) << format.name() << " on \"" << c.text << "\"";
  }
}

TEST(TimeFormat, NamesFlagsAndRejectTexts) {
  struct Expected {
    std::string_view spec, zone;
    bool numeric, is_default;
    std::string_view bad_time_text;
  };
  const Expected kFormats[] = {
      {"rfc3339", "", false, true, "timestamp not RFC 3339"},
      {"unix", "", true, false, "time not in unix"},
      {"unix-ms", "", true, false, "time not in unix-ms"},
      {"unix-us", "", true, false, "time not in unix-us"},
      {"unix-ns", "", true, false, "time not in unix-ns"},
      {"clf", "", false, false, "time not in clf"},
      {"%Y-%m-%d %H:%M:%S", "Europe/Berlin", false, false, "time not in %Y-%m-%d %H:%M:%S"},
      {"%Y-%m-%dT%H:%M:%S%z", "", false, false, "time not in %Y-%m-%dT%H:%M:%S%z"},
  };
  for (const Expected& e : kFormats) {
    const TimeFormat f = TimeFormat::compile(e.spec, e.zone);
    EXPECT_EQ(f.name(), e.spec);
    EXPECT_EQ(f.numeric(), e.numeric) << e.spec;
    EXPECT_EQ(f.is_default(), e.is_default) << e.spec;
    Options counted_with;  // the reject text is reason_text's (result.h)
    counted_with.time_format = std::string(e.spec);
    EXPECT_EQ(reason_text(Reason::kBadTime, counted_with), e.bad_time_text) << e.spec;
    EXPECT_EQ(f.input_zone() != nullptr, !e.zone.empty()) << e.spec;
  }
  const TimeFormat by_default;
  EXPECT_TRUE(by_default.is_default());
  EXPECT_EQ(by_default.name(), "rfc3339");
  EXPECT_EQ(by_default.input_zone(), nullptr);
  EXPECT_EQ(time_zone_name(*TimeFormat::compile("%Y %j", "Europe/Berlin").input_zone()), "Europe/Berlin");
}

TEST(TimeFormat, Rfc3339IsParseRfc3339) {
  const std::string_view texts[] = {
      "2023-11-14T22:13:20Z",
      "2023-11-14T22:13:20.999+01:00",
      "2016-12-31T23:59:60Z",
      "2021-06-15T12:34:60Z",
      "2023-11-14 22:13:20z",
      "2023-11-14T22:13:20",
      "1700000000",
      "14/Nov/2023:22:13:20 +0000",
      "",
      "0000-01-01T00:00:00Z",
      "9999-12-31T23:59:59-01:00",
      "2021-02-29T00:00:00Z",
      "2023-11-14T22:13:20+0100",
  };
  for (const TimeFormat& f : {TimeFormat(), TimeFormat::compile("rfc3339")}) {
    for (const std::string_view t : texts) EXPECT_EQ(f.second(t), parse_rfc3339(t)) << t;
  }
}

TEST(TimeFormat, UnixSeconds) {
  expect_table(TimeFormat::compile("unix"), {
                                                {"0", 0},
                                                {"-0", 0},
                                                {"-0.0", 0},
                                                {"0.0e5", 0},
                                                {"1700000000", 1700000000},
                                                {"1700000000.1234567", 1700000000},
                                                // Floored from the digits: a double would round these up.
                                                {"1700000000.9999999", 1700000000},
                                                {"1700000000.99999999999999999999999999", 1700000000},
                                                {"1699999999.9999999999999999999999999999999999999999", 1699999999},
                                                // Exponents, either case, either sign, moving the point anywhere.
                                                {"1.7e9", 1700000000},
                                                {"1.7E9", 1700000000},
                                                {"1.7e+9", 1700000000},
                                                {"17e8", 1700000000},
                                                {"0.17e10", 1700000000},
                                                {"170000000000e-2", 1700000000},
                                                {"1700000000999e-3", 1700000000},
                                                {"1.6999999999999999999999e9", 1699999999},
                                                {"16999999999999999999999e-13", 1699999999},
                                                {"1700000000e0", 1700000000},
                                                {"1700000000e-0", 1700000000},
                                                {"1e-400", 0},
                                                {"1e-999999999999999999999999", 0},
                                                {"0e999999999999999999999999", 0},
                                                // Negative: floored toward minus infinity.
                                                {"-1", -1},
                                                {"-0.5", -1},
                                                {"-1.5", -2},
                                                {"-1.0", -1},
                                                {"-1e-400", -1},
                                                {"-1700000000.000000001", -1700000001},
                                                {"-1700000000.0000", -1700000000},
                                                {"-17e8", -1700000000},
                                                {"-1.7000000001e9", -1700000001},
                                                // The years 0000..9999.
                                                {"253402300799", 253402300799},
                                                {"253402300799.999999999", 253402300799},
                                                {"2.53402300799e11", 253402300799},
                                                {"253402300800", kNo},
                                                {"2.534023008e11", kNo},
                                                {"1e12", kNo},
                                                {"1e999999999999999999999", kNo},
                                                {"-62167219200", -62167219200},
                                                {"-62167219200.0", -62167219200},
                                                {"-62167219200.0000001", kNo},
                                                {"-62167219201", kNo},
                                                {"-1e12", kNo},
                                                {"99999999999999999999999999999", kNo},
                                                // Not RFC 8259 numbers, or not only one.
                                                {"", kNo},
                                                {"-", kNo},
                                                {"+1", kNo},
                                                {"01", kNo},
                                                {"-01", kNo},
                                                {"00", kNo},
                                                {"1.", kNo},
                                                {".5", kNo},
                                                {"-.5", kNo},
                                                {"1.e5", kNo},
                                                {"1e", kNo},
                                                {"1e+", kNo},
                                                {"1e-", kNo},
                                                {"1e5.5", kNo},
                                                {"1ee5", kNo},
                                                {" 1", kNo},
                                                {"1 ", kNo},
                                                {"1\n", kNo},
                                                {"--1", kNo},
                                                {"1,5", kNo},
                                                {"1_000", kNo},
                                                {"0x10", kNo},
                                                {"NaN", kNo},
                                                {"Infinity", kNo},
                                                {"-Infinity", kNo},
                                                {"\"1\"", kNo},
                                                {"1700000000Z", kNo},
                                                {"\uFF11", kNo},
                                                {"1\0"sv, kNo},
                                            });
}

TEST(TimeFormat, UnixMilliMicroAndNanoseconds) {
  expect_table(TimeFormat::compile("unix-ms"), {
                                                   {"1700000000123", 1700000000},
                                                   {"1700000000999", 1700000000},
                                                   {"1700000000999.999", 1700000000},
                                                   {"1700000001000", 1700000001},
                                                   {"1.7e12", 1700000000},
                                                   {"1700000000.5", 1700000},
                                                   {"999", 0},
                                                   {"-1", -1},
                                                   {"-1000", -1},
                                                   {"-1001", -2},
                                                   {"253402300799999", 253402300799},
                                                   {"253402300800000", kNo},
                                                   {"-62167219200000", -62167219200},
                                                   {"-62167219200001", kNo},
                                                   {"1700000000123 ", kNo},
                                               });
  expect_table(TimeFormat::compile("unix-us"), {
                                                   {"1700000000123456", 1700000000},
                                                   {"1700000000999999", 1700000000},
                                                   {"1.7e15", 1700000000},
                                                   {"-1", -1},
                                                   {"-1000000", -1},
                                                   {"-1000001", -2},
                                                   {"253402300799999999", 253402300799},
                                                   {"253402300800000000", kNo},
                                               });
  expect_table(TimeFormat::compile("unix-ns"), {
                                                   {"1700000000123456789", 1700000000},
                                                   {"1700000000999999999", 1700000000},
                                                   {"1700000000999999999.9", 1700000000},
                                                   {"1.7e18", 1700000000},
                                                   {"-1700000000000000001", -1700000001},
                                                   {"-1", -1},
                                                   {"9223372036854775807", 9223372036},
                                                   {"9223372036854775808", 9223372036},
                                                   {"253402300799999999999", 253402300799},
                                                   {"253402300800000000000", kNo},
                                                   {"-62167219200000000000", -62167219200},
                                                   {"-62167219200000000001", kNo},
                                               });
}

TEST(TimeFormat, CommonLogFormat) {
  expect_table(TimeFormat::compile("clf"), {
                                               {"14/Nov/2023:22:13:20 +0000", 1700000000},
                                               {"[14/Nov/2023:22:13:20 +0000]", 1700000000},
                                               {"14/Nov/2023:23:13:20 +0100", 1700000000},
                                               {"14/Nov/2023:17:13:20 -0500", 1700000000},
                                               {"15/Nov/2023:03:58:20 +0545", 1700000000},
                                               {"14/Nov/2023:22:13:20 -0000", 1700000000},
                                               {"15/Nov/2023:22:12:20 +2359", 1700000000},
                                               {"01/Jan/2023:00:00:00 +0000", 1672531200},
                                               {"01/Feb/2023:00:00:00 +0000", 1675209600},
                                               {"01/Mar/2023:00:00:00 +0000", 1677628800},
                                               {"01/Apr/2023:00:00:00 +0000", 1680307200},
                                               {"01/May/2023:00:00:00 +0000", 1682899200},
                                               {"01/Jun/2023:00:00:00 +0000", 1685577600},
                                               {"01/Jul/2023:00:00:00 +0000", 1688169600},
                                               {"01/Aug/2023:00:00:00 +0000", 1690848000},
                                               {"01/Sep/2023:00:00:00 +0000", 1693526400},
                                               {"01/Oct/2023:00:00:00 +0000", 1696118400},
                                               {"01/Nov/2023:00:00:00 +0000", 1698796800},
                                               {"01/Dec/2023:00:00:00 +0000", 1701388800},
                                               {"29/Feb/2024:00:00:00 +0000", 1709164800},
                                               {"01/Jan/0000:00:00:00 +0000", -62167219200},
                                               {"31/Dec/9999:23:59:59 +0000", 253402300799},
                                               // Brackets both or neither.
                                               {"[14/Nov/2023:22:13:20 +0000", kNo},
                                               {"[14/Nov/2023:22:13:20 +00000", kNo},
                                               {"14/Nov/2023:22:13:20 +0000]", kNo},
                                               {"[[14/Nov/2023:22:13:20 +0000]]", kNo},
                                               {"[]", kNo},
                                               {"", kNo},
                                               // Month names: English, exactly as servers write them.
                                               {"14/nov/2023:22:13:20 +0000", kNo},
                                               {"14/NOV/2023:22:13:20 +0000", kNo},
                                               {"14/November/2023:22:13:20 +0000", kNo},
                                               {"14/11/2023:22:13:20 +0000", kNo},
                                               {"14/Okt/2023:22:13:20 +0000", kNo},
                                               // Widths, separators and the offset's one form.
                                               {"4/Nov/2023:22:13:20 +0000", kNo},
                                               {" 4/Nov/2023:22:13:20 +0000", kNo},
                                               {"14/Nov/23:22:13:20 +0000", kNo},
                                               {"14/Nov/2023 22:13:20 +0000", kNo},
                                               {"14/Nov/2023:22:13:20", kNo},
                                               {"14/Nov/2023:22:13:20 ", kNo},
                                               {"14/Nov/2023:22:13:20  +0000", kNo},
                                               {"14/Nov/2023:22:13:20+0000", kNo},
                                               {"14/Nov/2023:22:13:20 +00:00", kNo},
                                               {"14/Nov/2023:22:13:20 Z", kNo},
                                               {"14/Nov/2023:22:13:20 +00", kNo},
                                               {"14/Nov/2023:22:13:20 0000", kNo},
                                               {"14/Nov/2023:22:13:20 +0000 ", kNo},
                                               {"14/Nov/2023:22:13:20.123 +0000", kNo},
                                               // Calendar and clock ranges.
                                               {"29/Feb/2023:00:00:00 +0000", kNo},
                                               {"29/Feb/1900:00:00:00 +0000", kNo},
                                               {"31/Apr/2023:00:00:00 +0000", kNo},
                                               {"00/Nov/2023:00:00:00 +0000", kNo},
                                               {"32/Jan/2023:00:00:00 +0000", kNo},
                                               {"14/Nov/2023:24:00:00 +0000", kNo},
                                               {"14/Nov/2023:22:60:00 +0000", kNo},
                                               {"14/Nov/2023:22:13:60 +0000", kNo},
                                               {"31/Dec/2016:23:59:60 +0000", kNo},
                                               {"14/Nov/2023:22:13:20 +2400", kNo},
                                               {"14/Nov/2023:22:13:20 +0060", kNo},
                                           });
}

TEST(TimeFormat, PatternsInUtc) {
  const auto utc = [](std::string_view pattern) { return TimeFormat::compile(pattern, "UTC"); };
  expect_table(utc("%Y-%m-%d %H:%M:%S"), {
                                             {"2023-11-14 22:13:20", 1700000000},
                                             {"0000-01-01 00:00:00", -62167219200},
                                             {"9999-12-31 23:59:59", 253402300799},
                                             {"2024-02-29 00:00:00", 1709164800},
                                             {"2023-11-14T22:13:20", kNo},
                                             {"2023-11-14 22:13:20.5", kNo},
                                             {"2023-11-14 22:13:20 ", kNo},
                                             {" 2023-11-14 22:13:20", kNo},
                                             {"2023-11-14  22:13:20", kNo},
                                             {"2023-1-14 22:13:20", kNo},
                                             {"2023-11-14 2:13:20", kNo},
                                             {"23-11-14 22:13:20", kNo},
                                             {"+2023-11-14 22:13:20", kNo},
                                             {"2023-02-29 00:00:00", kNo},
                                             {"2023-04-31 00:00:00", kNo},
                                             {"2023-13-01 00:00:00", kNo},
                                             {"2023-00-01 00:00:00", kNo},
                                             {"2023-11-00 00:00:00", kNo},
                                             {"2023-11-14 24:00:00", kNo},
                                             {"2023-11-14 22:60:00", kNo},
                                             {"2023-11-14 22:13:60", kNo},
                                             {"2023-11-14 22:13:2x", kNo},
                                             {"2023-11-14 22:13", kNo},
                                             {"", kNo},
                                         });
  expect_table(utc("%Y-%m-%dT%H:%M:%S.%fZ"), {
                                                 {"2023-11-14T22:13:20.0Z", 1700000000},
                                                 {"2023-11-14T22:13:20.999999999999999Z", 1700000000},
                                                 {"2023-11-14T22:13:20.Z", kNo},
                                                 {"2023-11-14T22:13:20Z", kNo},
                                                 {"2023-11-14T22:13:20.5z", kNo},
                                                 {"2023-11-14T22:13:20.5", kNo},
                                                 {"2023-11-14T22:13:20.5x", kNo},
                                             });
  expect_table(utc("%Y-%m-%d %H:%M:%S,%f"), {{"2023-11-14 22:13:20,392", 1700000000}});
  expect_table(utc("%b %e %H:%M:%S %Y"), {
                                             {"Nov  5 01:02:03 2023", 1699146123},
                                             {"Nov 05 01:02:03 2023", 1699146123},
                                             {"Nov 15 01:02:03 2023", 1700010123},
                                             {"Nov 5 01:02:03 2023", kNo},
                                             {"Nov   5 01:02:03 2023", kNo},
                                             {"Nov  0 01:02:03 2023", kNo},
                                             {"nov  5 01:02:03 2023", kNo},
                                             {"Nov x5 01:02:03 2023", kNo},
                                         });
  expect_table(utc("%Y %j %H:%M:%S"), {
                                          {"2023 001 00:00:00", 1672531200},
                                          {"2024 366 00:00:00", 1735603200},
                                          {"2023 366 00:00:00", kNo},
                                          {"2023 000 00:00:00", kNo},
                                          {"2023 1 00:00:00", kNo},
                                      });
  expect_table(utc("%Y%m%d%H%M%S"), {{"20231114221320", 1700000000}, {"2023111422132", kNo}});
  expect_table(utc("%H:%M:%S %d.%m.%Y"), {{"22:13:20 14.11.2023", 1700000000}});
  // Time fields left out from the right are 0.
  expect_table(utc("%Y-%m-%d"), {{"2023-11-14", 1699920000}, {"2023-11-14 00", kNo}});
  expect_table(utc("%Y-%m-%d %H"), {{"2023-11-14 22", 1699999200}});
  expect_table(utc("100%% %Y-%m-%d"), {{"100% 2023-11-14", 1699920000}, {"100%% 2023-11-14", kNo}});
  // Not clf: no brackets for a pattern.
  expect_table(TimeFormat::compile("%d/%b/%Y:%H:%M:%S %z"), {
                                                                {"14/Nov/2023:22:13:20 +0000", 1700000000},
                                                                {"[14/Nov/2023:22:13:20 +0000]", kNo},
                                                            });
}

TEST(TimeFormat, PatternOffsets) {
  expect_table(TimeFormat::compile("%Y-%m-%dT%H:%M:%S%z"), {
                                                               {"2023-11-14T23:13:20+0100", 1700000000},
                                                               {"2023-11-14T23:13:20+01:00", 1700000000},
                                                               {"2023-11-14T17:13:20-05:00", 1700000000},
                                                               {"2023-11-14T22:13:20Z", 1700000000},
                                                               {"2023-11-14T22:13:20-00:00", 1700000000},
                                                               {"2023-11-15T22:12:20+23:59", 1700000000},
                                                               {"9999-12-31T23:59:59-0100", 253402304399},
                                                               {"2023-11-14T22:13:20z", kNo},
                                                               {"2023-11-14T22:13:20+01", kNo},
                                                               {"2023-11-14T22:13:20+01:0", kNo},
                                                               {"2023-11-14T22:13:20+010", kNo},
                                                               {"2023-11-14T22:13:20+01000", kNo},
                                                               {"2023-11-14T22:13:20+01:000", kNo},
                                                               {"2023-11-14T22:13:20+1:00", kNo},
                                                               {"2023-11-14T22:13:20+24:00", kNo},
                                                               {"2023-11-14T22:13:20+00:60", kNo},
                                                               {"2023-11-14T22:13:20 +01:00", kNo},
                                                               {"2023-11-14T22:13:20", kNo},
                                                               {"2023-11-14T22:13:20ZZ", kNo},
                                                               {"2023-11-14T22:13:20UTC", kNo},
                                                           });
}

TEST(TimeFormat, InputZonesAroundDstChanges) {
  const char* kPattern = "%Y-%m-%d %H:%M:%S";
  expect_table(TimeFormat::compile(kPattern, "Europe/Berlin"),
               {
                   {"2023-11-14 23:13:20", 1700000000},
                   // Spring forward, 2024-03-31 02:00 -> 03:00: the hour between does not exist.
                   {"2024-03-31 01:59:59", 1711846799},
                   {"2024-03-31 02:00:00", kNo},
                   {"2024-03-31 02:30:00", kNo},
                   {"2024-03-31 02:59:59", kNo},
                   {"2024-03-31 03:00:00", 1711846800},
                   // Fall back, 2024-10-27 03:00 -> 02:00: the hour between twice, the earlier taken.
                   {"2024-10-27 01:59:59", 1729987199},
                   {"2024-10-27 02:00:00", 1729987200},
                   {"2024-10-27 02:30:00", 1729989000},
                   {"2024-10-27 02:59:59", 1729990799},
                   {"2024-10-27 03:00:00", 1729994400},
               });
  expect_table(TimeFormat::compile(kPattern, "America/New_York"), {
                                                                      {"2024-03-10 01:59:59", 1710053999},
                                                                      {"2024-03-10 02:30:00", kNo},
                                                                      {"2024-03-10 03:00:00", 1710054000},
                                                                      {"2024-11-03 01:30:00", 1730611800},
                                                                      {"2024-11-03 02:00:00", 1730617200},
                                                                  });
  // Lord Howe Island's clocks change by 30 minutes: 02:00 -> 02:30 in
  // October, 02:00 -> 01:30 in April.
  expect_table(TimeFormat::compile(kPattern, "Australia/Lord_Howe"), {
                                                                         {"2024-10-06 01:59:59", 1728142199},
                                                                         {"2024-10-06 02:15:00", kNo},
                                                                         {"2024-10-06 02:30:00", 1728142200},
                                                                         {"2024-04-07 01:45:00", 1712414700},
                                                                         {"2024-04-07 02:00:00", 1712417400},
                                                                     });
  // Nepal went from +05:30 to +05:45 at 1986-01-01 00:00: 15 minutes skipped.
  expect_table(TimeFormat::compile(kPattern, "Asia/Kathmandu"), {
                                                                    {"1985-12-31 23:59:59", 504901799},
                                                                    {"1986-01-01 00:10:00", kNo},
                                                                    {"1986-01-01 00:15:00", 504901800},
                                                                    {"2023-11-15 03:58:20", 1700000000},
                                                                });
  expect_table(TimeFormat::compile(kPattern, "UTC"), {{"2024-03-31 02:30:00", 1711852200}});
}

TEST(TimeFormat, TwoZonesInTurnOnOneThread) {
  // Each thread caches a stretch of local times per call; it must not carry
  // one zone's answer over to the other.
  const TimeFormat berlin = TimeFormat::compile("%Y-%m-%d %H:%M:%S", "Europe/Berlin");
  const TimeFormat new_york = TimeFormat::compile("%Y-%m-%d %H:%M:%S", "America/New_York");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(berlin.second("2023-11-14 23:13:20"), 1700000000);
    EXPECT_EQ(new_york.second("2023-11-14 17:13:20"), 1700000000);
    EXPECT_EQ(berlin.second("2024-03-31 02:30:00"), kNo);
    EXPECT_EQ(new_york.second("2024-03-31 02:30:00"), 1711866600);
  }
}

TEST(TimeFormat, ZoneConversionEndsWithDatesTimeLine) {
  // Patterns read 4-digit years only; a zone asked about a local time far
  // past date's years -32767..32767 says no instead of walking on.
  const TimeZone& berlin = *find_time_zone("Europe/Berlin");
  EXPECT_EQ(berlin.utc_of_local(int64_t{1} << 50), kNo);
  EXPECT_EQ(berlin.utc_of_local(1700003600), 1700000000);
}

TEST(TimeFormat, LocalIsTheZoneOfTz) {
  ::setenv("TZ", ":America/New_York", 1);
  const TimeFormat local = TimeFormat::compile("%Y-%m-%d %H:%M:%S", "local");
  EXPECT_EQ(time_zone_name(*local.input_zone()), "America/New_York");
  EXPECT_EQ(local.second("2024-11-03 01:30:00"), 1730611800);
  EXPECT_EQ(local.second("2024-03-10 02:30:00"), kNo);
}

TEST(TimeFormat, CompileErrorsNameWhatIsWrong) {
  struct Error {
    std::string_view spec, zone, message;
  };
  const Error kErrors[] = {
      {"", "",
       "unknown time format '': expected rfc3339, unix, unix-ms, unix-us, unix-ns, clf, auto, or a pattern "
       "such as '%Y-%m-%d %H:%M:%S'"},
      {"RFC3339", "",
       "unknown time format 'RFC3339': expected rfc3339, unix, unix-ms, unix-us, unix-ns, clf, auto, or a pattern "
       "such as '%Y-%m-%d %H:%M:%S'"},
      {"unix-s", "",
       "unknown time format 'unix-s': expected rfc3339, unix, unix-ms, unix-us, unix-ns, clf, auto, or a pattern "
       "such as '%Y-%m-%d %H:%M:%S'"},
      {"rfc3339", "UTC", "time format 'rfc3339' takes no input time zone: its times carry their offset"},
      {"unix", "UTC", "time format 'unix' takes no input time zone: its times are UTC instants"},
      {"unix-ns", "local", "time format 'unix-ns' takes no input time zone: its times are UTC instants"},
      {"clf", "Europe/Berlin", "time format 'clf' takes no input time zone: its times carry their offset"},
      {"%Y-%m-%dT%H:%M:%S%z", "UTC",
       "time format '%Y-%m-%dT%H:%M:%S%z' takes no input time zone: its times carry their offset (%z)"},
      {"%Y-%m-%d %H:%M:%S", "",
       "time format '%Y-%m-%d %H:%M:%S' has no offset (%z), so it needs an input time zone: the zone its times "
       "are written in"},
      {"%Y-%m-%d %H:%M:%S", "Mars/Olympus_Mons", "unknown time zone 'Mars/Olympus_Mons'"},
      {"%Y-%m-%d %H:%M:%S%", "UTC", "time format '%Y-%m-%d %H:%M:%S%' ends in a lone %"},
      {"%F %T", "UTC",
       "time format '%F %T' has %F, which is not supported (the directives are %Y %m %d %e %b %j %H %M %S %f %z "
       "%%)"},
      {"%Y-%m-%d %H:%M:%S %y", "UTC",
       "time format '%Y-%m-%d %H:%M:%S %y' has %y, which is not supported (the directives are %Y %m %d %e %b %j "
       "%H %M %S %f %z %%)"},
      {"%Y-%m-%d %H:%M:%S %Y", "UTC", "time format '%Y-%m-%d %H:%M:%S %Y' gives the year twice"},
      {"%Y-%m-%b", "UTC", "time format '%Y-%m-%b' gives the month twice"},
      {"%Y-%m-%d %e", "UTC", "time format '%Y-%m-%d %e' gives the day twice"},
      {"%Y %j %j", "UTC", "time format '%Y %j %j' gives the day of the year twice"},
      {"%Y-%m-%d %H:%H", "UTC", "time format '%Y-%m-%d %H:%H' gives the hour twice"},
      {"%Y-%m-%d %H:%M:%M", "UTC", "time format '%Y-%m-%d %H:%M:%M' gives the minute twice"},
      {"%Y-%m-%d %H:%M:%S:%S", "UTC", "time format '%Y-%m-%d %H:%M:%S:%S' gives the second twice"},
      {"%Y-%m-%d %H:%M:%S.%f.%f", "UTC", "time format '%Y-%m-%d %H:%M:%S.%f.%f' gives the fraction twice"},
      {"%Y-%m-%d %H:%M:%S%z%z", "", "time format '%Y-%m-%d %H:%M:%S%z%z' gives the offset twice"},
      {"%m-%d %H:%M:%S", "UTC", "time format '%m-%d %H:%M:%S' has no year (%Y)"},
      {"%Y %j %m", "UTC", "time format '%Y %j %m' gives the day of the year (%j) and a month or day"},
      {"%Y %d %j", "UTC", "time format '%Y %d %j' gives the day of the year (%j) and a month or day"},
      {"%Y-%d", "UTC", "time format '%Y-%d' has no month (%m or %b)"},
      {"%Y-%m", "UTC", "time format '%Y-%m' has no day (%d, %e or %j)"},
      {"%Y-%m-%d %M", "UTC", "time format '%Y-%m-%d %M' has a minute (%M) but no hour (%H)"},
      {"%Y-%m-%d %H %S", "UTC", "time format '%Y-%m-%d %H %S' has a second (%S) but no minute (%M)"},
      {"%Y-%m-%d %H:%M.%f", "UTC", "time format '%Y-%m-%d %H:%M.%f' has a fraction (%f) but no second (%S)"},
      {"%Y-%m-%d %H:%M:%S.%f1", "UTC",
       "time format '%Y-%m-%d %H:%M:%S.%f1' has a digit right after %f, which takes every digit"},
      {"%H:%M:%S.%f%Y-%m-%d", "UTC",
       "time format '%H:%M:%S.%f%Y-%m-%d' has a digit right after %f, which takes every digit"},
      {"%Y-%m-%d\t%H", "UTC", "the time format holds a control character"},
      {"%Y-%m-%d\n", "UTC", "the time format holds a control character"},
  };
  for (const Error& e : kErrors) {
    try {
      TimeFormat::compile(e.spec, e.zone);
      ADD_FAILURE() << "compiled: '" << e.spec << "' in '" << e.zone << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(error.what(), e.message);
    }
  }
}

TEST(TimeFormat, CopiesShareTheCompiledState) {
  const TimeFormat original = TimeFormat::compile("%d.%m.%Y %H:%M", "Asia/Kathmandu");
  const TimeFormat copy = original;  // NOLINT(performance-unnecessary-copy-initialization): the copy is tested
  EXPECT_EQ(&copy.name(), &original.name());
  EXPECT_EQ(copy.input_zone(), original.input_zone());
  EXPECT_EQ(copy.second("15.11.2023 03:58"), 1699999980);
}

TEST(TimeFormat, SecondAllocatesNothing) {
  const TimeFormat formats[] = {
      TimeFormat(),
      TimeFormat::compile("unix"),
      TimeFormat::compile("unix-ns"),
      TimeFormat::compile("clf"),
      TimeFormat::compile("%Y-%m-%dT%H:%M:%S.%f%z"),
      TimeFormat::compile("%Y-%m-%d %H:%M:%S", "Europe/Berlin"),
      TimeFormat::compile("%b %e %H:%M:%S %Y", "Australia/Lord_Howe"),
  };
  const std::string texts[] = {
      "2023-11-14T22:13:20.392354-00:00",
      "1700000000.9999999999",
      "-1.7e9",
      "[14/Nov/2023:22:13:20 +0000]",
      "2023-11-14T22:13:20.5+01:00",
      "2024-10-27 02:30:00",
      "2024-03-31 02:30:00",
      "Apr  7 01:45:00 2024",
      "Oct  6 02:15:00 1990",
      std::string(4096, '9'),
      "",
  };
  int64_t sum = 0;
  const long before = g_allocations.load();
  for (int round = 0; round < 2; ++round) {
    for (const TimeFormat& f : formats) {
      for (const std::string& t : texts) sum += f.second(t).value_or(1);
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_NE(sum, 0);
}

}  // namespace
}  // namespace logagg
