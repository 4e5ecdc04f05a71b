// Tests of the RFC 3339 timestamp parser and the UTC second formatter:
// - a table pinning every clause of the accepted grammar, checked against both
//   the engine's parse_rfc3339 and the reference oracle;
// - format_utc_second on known seconds (negative, year 0, year 10000), against
//   date::format and as a round trip through parse_rfc3339;
// - differential runs: random valid timestamps against date::parse, and random
//   mutations of them against the reference.
#include "logagg/rfc3339.h"

#include <date/date.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>

#include "reference/reference.h"

namespace {

using namespace std::literals;

using ParseFn = std::optional<int64_t> (*)(std::string_view);

struct Implementation {
  const char* name;
  ParseFn parse;
};

void PrintTo(const Implementation& implementation, std::ostream* os) { *os << implementation.name; }

const Implementation kImplementations[] = {
    {"engine", &logagg::parse_rfc3339},
    {"reference", &reference::rfc3339_second},
};

struct ValidCase {
  std::string_view text;
  int64_t second;
};

// Expected seconds were computed independently (Python's proleptic calendar).
constexpr ValidCase kValid[] = {
    // Each date/time separator, and both cases of Z.
    {"2021-06-15T12:34:56Z", 1623760496},
    // RFC 3339's date-fullyear is any 4 digits: year 0000 (a leap year) is valid.
    {"0000-01-01T00:00:00Z", -62167219200},
    {"0000-02-29T12:00:00Z", -62162078400},
    {"2021-06-15t12:34:56Z", 1623760496},
    {"2021-06-15 12:34:56Z", 1623760496},
    {"2021-06-15T12:34:56z", 1623760496},
    // Fractions of any length are truncated, never rounded.
    {"2021-06-15T12:34:56.0Z", 1623760496},
    {"2021-06-15T12:34:56.5Z", 1623760496},
    {"2021-06-15T12:34:56.999Z", 1623760496},
    {"2021-06-15T12:34:56.999999999Z", 1623760496},
    {"2021-06-15T12:34:56.999999999999999999999999999999Z", 1623760496},
    {"2021-06-15T12:34:56.123456+05:30", 1623740696},
    // Around the longest fraction checked as part of the last 16 bytes (nine
    // digits before a numeric offset) and the loop past it.
    {"2021-06-15T12:34:56.123456789+05:30", 1623740696},
    {"2021-06-15T12:34:56.1234567890+05:30", 1623740696},
    {"2021-06-15T12:34:56.12345678901234Z", 1623760496},
    {"2021-06-15T12:34:56.123456789012345-05:30", 1623780296},
    // Offsets: zero in every spelling, and the extremes.
    {"2021-06-15T12:34:56+00:00", 1623760496},
    {"2021-06-15T12:34:56-00:00", 1623760496},
    {"2021-06-15T12:34:56+05:30", 1623740696},
    {"2021-06-15T12:34:56+23:59", 1623674156},
    {"2021-06-15T12:34:56-23:59", 1623846836},
    {"2020-12-31T23:00:00-01:00", 1609459200},
    // Leap years and month lengths.
    {"2000-02-29T00:00:00Z", 951782400},
    {"2020-02-29T23:59:59Z", 1583020799},
    {"2400-02-29T12:00:00Z", 13574606400},
    {"2021-01-31T00:00:00Z", 1612051200},
    {"2021-04-30T00:00:00Z", 1619740800},
    {"2021-03-01T00:00:00+00:00", 1614556800},
    {"2021-12-31T23:59:59Z", 1640995199},
    // Leap seconds: 60 only at 23:59:60 UTC, counted in 23:59:59 UTC.
    {"2016-12-31T23:59:60Z", 1483228799},
    {"2016-12-31T23:59:60.999Z", 1483228799},
    {"2022-01-01T01:59:60+02:00", 1640995199},
    {"2016-12-31T18:59:60-05:00", 1483228799},
    {"2017-01-01T05:29:60+05:30", 1483228799},
    // Before the epoch: floored, not truncated towards zero.
    {"1969-12-31T23:59:59Z", -1},
    {"1969-12-31T23:59:59.9Z", -1},
    {"1970-01-01T00:00:00+00:01", -60},
    {"1970-01-01T00:00:00.5+00:01", -60},
    {"1900-01-01T00:00:00Z", -2208988800},
    {"1000-06-15T00:00:00Z", -30595968000},
    // The ends of the local year range, and UTC years 0 and 10000.
    {"0001-01-01T00:00:00Z", -62135596800},
    {"9999-12-31T23:59:59.999999999Z", 253402300799},
    {"0001-01-01T00:00:00+01:00", -62135600400},
    {"9999-12-31T23:59:59-01:00", 253402304399},
};

constexpr std::string_view kInvalid[] = {
    // Empty, partial and surrounded.
    ""sv,
    "2021-06-15"sv,
    "12:34:56Z"sv,
    "2021-06-15T12:34:56"sv,
    "2021-06-15T12:34Z"sv,
    " 2021-06-15T12:34:56Z"sv,
    "2021-06-15T12:34:56Z "sv,
    "2021-06-15T12:34:56ZZ"sv,
    "2021-06-15T12:34:56Z\0"sv,
    "2021-06-15T12:34:56\0Z"sv,
    // Field widths.
    "21-06-15T12:34:56Z"sv,
    "12021-06-15T12:34:56Z"sv,
    "+2021-06-15T12:34:56Z"sv,
    "-2021-06-15T12:34:56Z"sv,
    "2021-6-15T12:34:56Z"sv,
    "2021-06-5T12:34:56Z"sv,
    "2021-06-15T2:34:56Z"sv,
    "2021-06-15T12:4:56Z"sv,
    "2021-06-15T12:34:6Z"sv,
    // Separators.
    "2021-06-15X12:34:56Z"sv,
    "2021-06-15\t12:34:56Z"sv,
    "2021-06-15  12:34:56Z"sv,
    "2021-06-15TT12:34:56Z"sv,
    "2021-06-1512:34:56Z"sv,
    "2021/06/15T12:34:56Z"sv,
    "2021-06-15T12-34-56Z"sv,
    "2021-06-15T12.34.56Z"sv,
    // Fractions.
    "2021-06-15T12:34:56.Z"sv,
    "2021-06-15T12:34:56,5Z"sv,
    "2021-06-15T12:34:56.5.5Z"sv,
    "2021-06-15T12:34:56.1e3Z"sv,
    "2021-06-15T12:34:56.+01:00"sv,
    "2021-06-15T12:34:56Z.5"sv,
    "2021-06-15T12:34:56.12345678x+05:30"sv,
    "2021-06-15T12:34:56.123456789x+05:30"sv,
    "2021-06-15T12:34:56.1x345678901+05:30"sv,
    "2021-06-15T12:34:56.1234567890123x5Z"sv,
    "2021-06-15T12:34:56.1x3456789012345678Z"sv,
    "2021-06-15T12:34:56.1x3456789012345678+01:00"sv,
    "2021-06-15T12:34:56x1234567890123Z"sv,
    // Offsets.
    "2021-06-15T12:34:56+24:00"sv,
    "2021-06-15T12:34:56-24:00"sv,
    "2021-06-15T12:34:56+02:60"sv,
    "2021-06-15T12:34:56+0200"sv,
    "2021-06-15T12:34:56+02"sv,
    "2021-06-15T12:34:56+2:00"sv,
    "2021-06-15T12:34:56+02:0"sv,
    "2021-06-15T12:34:56+02:000"sv,
    "2021-06-15T12:34:56+02-00"sv,
    "2021-06-15T12:34:56 Z"sv,
    "2021-06-15T12:34:56 +02:00"sv,
    "2021-06-15T12:34:56Z+02:00"sv,
    "2021-06-15T12:34:56+02:00Z"sv,
    "2021-06-15T12:34:56UTC"sv,
    "2021-06-15T12:34:56GMT"sv,
    // Calendar: leap years, month lengths, field ranges.
    "1900-02-29T00:00:00Z"sv,
    "2021-02-29T00:00:00Z"sv,
    "2100-02-29T00:00:00Z"sv,
    "2020-02-30T00:00:00Z"sv,
    "2021-04-31T00:00:00Z"sv,
    "2021-06-31T00:00:00Z"sv,
    "2021-09-31T00:00:00Z"sv,
    "2021-11-31T00:00:00Z"sv,
    "2021-01-32T00:00:00Z"sv,
    "2021-00-15T00:00:00Z"sv,
    "2021-13-15T00:00:00Z"sv,
    "2021-17-15T00:00:00Z"sv,
    "2021-99-15T00:00:00Z"sv,
    "2021-06-00T00:00:00Z"sv,
    "2021-06-15T24:00:00Z"sv,
    "2021-06-15T12:60:00Z"sv,
    "2021-06-15T12:34:61Z"sv,
    "2021-06-15T12:34:99Z"sv,
    // Leap seconds anywhere but 23:59:60 UTC.
    "2021-12-31T23:58:60Z"sv,
    "2021-12-31T23:59:61Z"sv,
    "2021-06-15T12:34:60Z"sv,
    "2021-12-31T23:59:60+01:00"sv,
    "2016-12-31T23:59:60+00:01"sv,
    "2022-01-01T00:59:60+02:00"sv,
    // Non-ASCII look-alikes: U+2212 minus, fullwidth digits, NBSP, a stray byte.
    "2021-06-15T12:34:56\u221200:00"sv,
    "\uFF12021-06-15T12:34:56Z"sv,
    "2021-06-15T12:34:56.\uFF15Z"sv,
    "2021-06-15\u00A012:34:56Z"sv,
    "2021-06-15T12:34:56Z\x80"sv,
    "2O21-06-15T12:34:56Z"sv,
};

class rfc3339 : public testing::TestWithParam<Implementation> {};

TEST_P(rfc3339, AcceptsEveryValidForm) {
  for (const ValidCase& c : kValid) {
    EXPECT_EQ(GetParam().parse(c.text), std::optional<int64_t>(c.second))
        << reference::quoted(c.text);
  }
}

TEST_P(rfc3339, RejectsEveryInvalidForm) {
  for (const std::string_view text : kInvalid) {
    EXPECT_EQ(GetParam().parse(text), std::nullopt) << reference::quoted(text);
  }
}

TEST_P(rfc3339, TruncatesAVeryLongFraction) {
  const std::string text = "1969-12-31T23:59:59." + std::string(100000, '9') + "Z";
  EXPECT_EQ(GetParam().parse(text), std::optional<int64_t>(-1));
  EXPECT_EQ(GetParam().parse(text.substr(0, text.size() - 1)), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(Both, rfc3339, testing::ValuesIn(kImplementations),
                         [](const auto& info) { return std::string(info.param.name); });

std::string format(int64_t second) {
  char out[logagg::kUtcSecondMaxChars];
  const int n = logagg::format_utc_second(second, out);
  return std::string(out, static_cast<size_t>(n));
}

std::string date_format(int64_t second) {
  return date::format("%FT%TZ", date::sys_seconds{std::chrono::seconds{second}});
}

TEST(rfc3339_format, WritesKnownSeconds) {
  const struct {
    int64_t second;
    std::string_view text;
  } kCases[] = {
      {0, "1970-01-01T00:00:00Z"},
      {-1, "1969-12-31T23:59:59Z"},
      {1623760496, "2021-06-15T12:34:56Z"},
      {951782400, "2000-02-29T00:00:00Z"},
      {-2208988800, "1900-01-01T00:00:00Z"},
      {-62135596800, "0001-01-01T00:00:00Z"},
      {-62135596801, "0000-12-31T23:59:59Z"},
      {-62135600400, "0000-12-31T23:00:00Z"},
      {-62167219200, "0000-01-01T00:00:00Z"},
      {-62167219201, "-0001-12-31T23:59:59Z"},
      {253402300799, "9999-12-31T23:59:59Z"},
      {253402300800, "10000-01-01T00:00:00Z"},
      {253402304399, "10000-01-01T00:59:59Z"},
  };
  for (const auto& c : kCases) EXPECT_EQ(format(c.second), c.text) << c.second;
}

TEST(rfc3339_format, MatchesDateFormatAndRoundTrips) {
  // date::format misprints negative years ("00-2-..."), so they are only in
  // the known cases above.
  constexpr int64_t kYear0 = -62167219200;      // 0000-01-01T00:00:00Z
  constexpr int64_t kYear1 = -62135596800;      // 0001-01-01T00:00:00Z
  constexpr int64_t kYear10000 = 253402300800;  // 10000-01-01T00:00:00Z
  std::mt19937_64 rng(20240601);
  std::uniform_int_distribution<int64_t> any_second(kYear0, kYear10000 + 86400 * 400);
  for (int i = 0; i < 200000; ++i) {
    // Every fourth second is the start or end of a day, where carries happen.
    int64_t second = any_second(rng);
    if (i % 4 == 0) second = std::max(kYear0, second - second % 86400 - (i % 8 == 0 ? 0 : 1));
    const std::string text = format(second);
    ASSERT_EQ(text, date_format(second)) << second;
    if (second >= kYear1 && second < kYear10000) {
      ASSERT_EQ(logagg::parse_rfc3339(text), std::optional<int64_t>(second)) << text;
    }
  }
}

// The second date::parse finds in `t`, which it is only asked about in its
// own dialect: 'T' between date and time, and a numeric offset.
int64_t date_parse_second(const reference::Timestamp& t) {
  reference::Timestamp numeric = t;
  numeric.separator = 'T';
  if (numeric.zone == "Z" || numeric.zone == "z") numeric.zone = "+00:00";
  std::istringstream in(numeric.text());
  date::sys_time<std::chrono::microseconds> instant;
  in >> date::parse("%FT%T%Ez", instant);
  EXPECT_FALSE(in.fail()) << numeric.text();
  EXPECT_EQ(in.peek(), std::char_traits<char>::eof()) << numeric.text();
  return date::floor<std::chrono::seconds>(instant).time_since_epoch().count();
}

TEST(rfc3339_differential, MatchesDateParseOnRandomValidTimestamps) {
  std::mt19937_64 rng(1);
  // date::parse reads the fraction into microseconds and has no leap seconds.
  const reference::TimestampLimits limits{.max_fraction_digits = 6, .leap_seconds = false};
  for (int i = 0; i < 100000; ++i) {
    const reference::Timestamp t = reference::random_timestamp(rng, limits);
    const std::string text = t.text();
    const int64_t expected = date_parse_second(t);
    ASSERT_EQ(logagg::parse_rfc3339(text), std::optional<int64_t>(expected)) << text;
    ASSERT_EQ(reference::rfc3339_second(text), std::optional<int64_t>(expected)) << text;
  }
}

TEST(rfc3339_differential, AgreesWithReferenceOnMutatedTimestamps) {
  // Bytes that keep mutations close to the grammar, plus a few that never fit.
  constexpr std::string_view kPalette = "0123456789012345678900112233595960-:Tt Zz+.,\x80\xFF"sv;
  auto disagree = [](std::string_view text) {
    return logagg::parse_rfc3339(text) != reference::rfc3339_second(text);
  };
  std::mt19937_64 rng(2);
  int valid = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string text = reference::random_timestamp(rng).text();
    reference::mutate(text, rng, kPalette, static_cast<int>(rng() % 4));
    valid += reference::rfc3339_second(text).has_value();
    if (disagree(text)) {
      const std::string small = reference::shrink(text, disagree);
      const auto engine = logagg::parse_rfc3339(small);
      const auto oracle = reference::rfc3339_second(small);
      FAIL() << "engine and reference disagree on " << reference::quoted(small) << ": engine "
             << (engine ? std::to_string(*engine) : "invalid") << ", reference "
             << (oracle ? std::to_string(*oracle) : "invalid") << " (from "
             << reference::quoted(text) << ")";
    }
  }
  // The mix must exercise both outcomes, or the comparison proves little.
  EXPECT_GT(valid, 50000);
  EXPECT_LT(valid, 250000);
}

}  // namespace
