// Tests of the common date-time forms (parse/common_date_time.h) and of
// --time-format auto's order over its forms (parse/time_format.h), by
// tables whose seconds were computed independently (Python's datetime):
// separators, fractions with '.' or ',', every zone form with and without
// the space before it, dates that do not exist, fields out of range, bytes
// left over, and zone-less times in UTC or the input zone.
#include "parse/common_date_time.h"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

#include "parse/time_format.h"
#include "time/time_zone.h"

namespace logagg {
namespace {

constexpr std::optional<int64_t> kNo = std::nullopt;
constexpr int64_t kT = 1700000000;  // 2023-11-14T22:13:20Z

TEST(CommonDateTime, TheForms) {
  const struct {
    std::string_view text;
    std::optional<int64_t> second;
  } cases[] = {
      {"2023-11-14 22:13:20", kT},
      {"2023-11-14T22:13:20", kT},
      {"2023-11-14 22:13:20,118", kT},
      {"2023-11-14 22:13:20.999999999999", kT},
      {"2023-11-14 22:13:20Z", kT},
      {"2023-11-14 22:13:20 UTC", kT},
      {"2023-11-14 22:13:20.5 +0000", kT},
      {"2023-11-14 23:13:20+01:00", kT},
      {"2023-11-14 23:13:20 +0100", kT},
      {"2023-11-14 23:13:20+01", kT},
      {"2023-11-14 17:13:20-05", kT},
      {"2023-11-15 03:58:20.1+05:45", kT},
      {"2024-02-29 00:00:00", 1709164800},
      {"0000-01-01 00:00:00", -62167219200},
      {"9999-12-31 23:59:59", 253402300799},
      {"2023-02-29 00:00:00", kNo},  // no such date
      {"2023-11-14 24:00:00", kNo},
      {"2023-11-14 22:60:00", kNo},
      {"2023-11-14 22:13:60", kNo},  // no leap second
      {"2023-13-14 22:13:20", kNo},
      {"2023-11-00 22:13:20", kNo},
      {"2023-11-14  22:13:20", kNo},
      {"2023-11-14t22:13:20", kNo},
      {"2023-11-14 22:13:20.", kNo},      // a fraction needs digits
      {"2023-11-14 22:13:20  UTC", kNo},  // one space at most
      {"2023-11-14 22:13:20 ", kNo},
      {"2023-11-14 22:13:20 z", kNo},
      {"2023-11-14 22:13:20 utc", kNo},
      {"2023-11-14 22:13:20+1", kNo},
      {"2023-11-14 22:13:20+24:00", kNo},
      {"2023-11-14 22:13:20+01:60", kNo},
      {"2023-11-14 22:13:20+01:0", kNo},
      {"2023-11-14 22:13:20+0100 MST", kNo},
      {"2023-11-14 22:13", kNo},
      {"2023/11/14 22:13:20", kNo},
      {"", kNo},
  };
  for (const auto& c : cases) EXPECT_EQ(parse_common_date_time(c.text, nullptr), c.second) << c.text;
}

TEST(CommonDateTime, ZonelessTimesAreLocalInTheZone) {
  const TimeZone* berlin = find_time_zone("Europe/Berlin");
  EXPECT_EQ(parse_common_date_time("2023-11-14 23:13:20", berlin), kT);
  EXPECT_EQ(parse_common_date_time("2023-11-14 23:13:20Z", berlin), kT + 3600) << "a zone given wins";
  EXPECT_EQ(parse_common_date_time("2023-03-26 02:30:00", berlin), kNo) << "spring forward";
  EXPECT_EQ(parse_common_date_time("2023-10-29 02:30:00", berlin), 1698539400) << "fall back: the earlier";
}

TEST(TimeFormatAuto, NameFlagsAndZone) {
  const TimeFormat automatic = TimeFormat::compile("auto");
  EXPECT_EQ(automatic.name(), "auto");
  EXPECT_TRUE(automatic.numeric());
  EXPECT_FALSE(automatic.is_default());
  EXPECT_EQ(automatic.input_zone(), nullptr);
  EXPECT_EQ(TimeFormat::compile("auto", "Europe/Berlin").input_zone()->name(), "Europe/Berlin");
  EXPECT_THROW(TimeFormat::compile("auto", "No/Such_Zone"), std::invalid_argument);
}

TEST(TimeFormatAuto, EachFormInTurn) {
  const TimeFormat automatic = TimeFormat::compile("auto", "Europe/Berlin");
  EXPECT_EQ(automatic.second("2023-11-14T22:13:20Z"), kT);
  EXPECT_EQ(automatic.second("2023-11-14 23:59:60+01:00"), kNo) << "rfc3339's leap second rule";
  EXPECT_EQ(automatic.second("2023-12-31T23:59:60Z"), 1704067199);
  EXPECT_EQ(automatic.second("1700000000.5"), kT);
  EXPECT_EQ(automatic.second("1700000000123"), kT);
  EXPECT_EQ(automatic.second("1.7e9"), kT);
  EXPECT_EQ(automatic.second("1e99"), kNo) << "a number out of range is no other form";
  EXPECT_EQ(automatic.second("[14/Nov/2023:23:13:20 +0100]"), kT);
  EXPECT_EQ(automatic.second("14/Nov/2023:22:13:20 +0000"), kT);
  EXPECT_EQ(automatic.second("2023-11-14 23:13:20,5"), kT) << "in the input zone";
  EXPECT_EQ(automatic.second("2023-11-14 22:13:20 UTC"), kT);
  for (const char* no : {"", " 1700000000", "1700000000 ", "+1700000000", "0x10", "Nov 14 22:13:20", "now"}) {
    EXPECT_EQ(automatic.second(no), kNo) << no;
  }
}

}  // namespace
}  // namespace logagg
