// Calendar arithmetic on the proleptic Gregorian calendar, and the length of
// a day (kSecondsPerDay, defined here alone): the base under the time
// parsers (text -> second) and the report (second -> text).
//
// Seconds are counted from 1970-01-01T00:00:00Z, ignoring leap seconds (POSIX
// time). The day algorithms are Howard Hinnant's public-domain
// days_from_civil / civil_from_days, valid far beyond years 0..10000.
// All constexpr, pure and thread-safe; arguments must be valid dates.
#pragma once

#include <cstdint>

namespace logagg {

inline constexpr int64_t kSecondsPerDay = 86400;

struct CivilDate {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

// Days since 1970-01-01 of the given valid date.
constexpr int64_t days_from_civil(int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  // Unsigned division for the usual y >= 0: compilers emit a multiply for it,
  // where the signed form became a slow idiv on the timestamp hot path.
  const int64_t era = y >= 0 ? static_cast<int64_t>(static_cast<uint64_t>(y) / 400) : (y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);                 // [0, 399]
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;  // [0, 365]
  const unsigned centuries = (yoe * 1311) >> 17;                         // yoe / 100 for yoe < 400, without a div
  const unsigned doe = yoe * 365 + yoe / 4 - centuries + doy;            // [0, 146096]
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// The date of a day count since 1970-01-01.
constexpr CivilDate civil_from_days(int64_t z) noexcept {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);                    // [0, 146096]
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);  // [0, 365]
  const unsigned mp = (5 * doy + 2) / 153;                       // [0, 11]
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;               // [1, 31]
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;                  // [1, 12]
  return CivilDate{y + (m <= 2), m, d};
}

constexpr bool is_leap_year(int64_t y) noexcept { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

constexpr unsigned days_in_month(int64_t y, unsigned m) noexcept {
  constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

// Floor division of a second count into (day, second-of-day).
constexpr int64_t floor_div(int64_t a, int64_t b) noexcept { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace logagg
