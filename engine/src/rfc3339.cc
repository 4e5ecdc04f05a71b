// The RFC 3339 parser and the UTC second formatter (see rfc3339.h).
// Fixed-position parsing: every byte is checked once, no locale, no allocation.
#include "logagg/rfc3339.h"

#include "logagg/civil_time.h"

namespace logagg {
namespace {

constexpr int64_t kSecondsPerDay = 86400;

// Value of the two ASCII digits at p, or -1 if either is not a digit.
inline int two_digits(const char* p) noexcept {
  const unsigned a = static_cast<unsigned char>(p[0]) - '0';
  const unsigned b = static_cast<unsigned char>(p[1]) - '0';
  return (a < 10 && b < 10) ? static_cast<int>(a * 10 + b) : -1;
}

inline bool is_digit(char c) noexcept { return static_cast<unsigned>(c - '0') < 10u; }

}  // namespace

std::optional<int64_t> parse_rfc3339(std::string_view text) noexcept {
  // "YYYY-MM-DDThh:mm:ss" is 19 bytes, the shortest zone "Z" one more.
  if (text.size() < 20) return std::nullopt;
  const char* p = text.data();
  const char* const end = p + text.size();

  const int century = two_digits(p);
  const int yy = two_digits(p + 2);
  const int month = two_digits(p + 5);
  const int day = two_digits(p + 8);
  const int hour = two_digits(p + 11);
  const int minute = two_digits(p + 14);
  const int second = two_digits(p + 17);
  if ((century | yy | month | day | hour | minute | second) < 0) return std::nullopt;
  if (p[4] != '-' || p[7] != '-' || p[13] != ':' || p[16] != ':') return std::nullopt;
  if (p[10] != 'T' && p[10] != 't' && p[10] != ' ') return std::nullopt;

  const int64_t year = century * 100 + yy;
  if (month < 1 || month > 12 || day < 1 ||
      day > static_cast<int>(days_in_month(year, static_cast<unsigned>(month))) || hour > 23 ||
      minute > 59 || second > 60) {
    return std::nullopt;
  }

  p += 19;
  if (*p == '.') {  // fraction: one or more digits, truncated
    ++p;
    if (p == end || !is_digit(*p)) return std::nullopt;
    while (p != end && is_digit(*p)) ++p;
    if (p == end) return std::nullopt;
  }

  int64_t offset = 0;
  if (*p == 'Z' || *p == 'z') {
    ++p;
  } else if (*p == '+' || *p == '-') {
    if (end - p < 6) return std::nullopt;
    const int oh = two_digits(p + 1);
    const int om = two_digits(p + 4);
    if (oh < 0 || om < 0 || p[3] != ':' || oh > 23 || om > 59) return std::nullopt;
    offset = (oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
    p += 6;
  } else {
    return std::nullopt;
  }
  if (p != end) return std::nullopt;

  const int64_t local = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
                            kSecondsPerDay +
                        hour * 3600 + minute * 60 + (second == 60 ? 59 : second);
  const int64_t utc = local - offset;
  // A leap second is only valid at 23:59:60 UTC; it counts in 23:59:59.
  if (second == 60 && utc - floor_div(utc, kSecondsPerDay) * kSecondsPerDay != kSecondsPerDay - 1) {
    return std::nullopt;
  }
  return utc;
}

int format_utc_second(int64_t second, char* out) noexcept {
  const int64_t days = floor_div(second, kSecondsPerDay);
  const auto sod = static_cast<unsigned>(second - days * kSecondsPerDay);
  const CivilDate date = civil_from_days(days);

  char* o = out;
  uint64_t year = static_cast<uint64_t>(date.year < 0 ? -date.year : date.year);
  if (date.year < 0) *o++ = '-';
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + year % 10);
    year /= 10;
  } while (year != 0);
  for (int i = n; i < 4; ++i) *o++ = '0';
  while (n > 0) *o++ = digits[--n];

  auto put2 = [&o](unsigned v) {
    *o++ = static_cast<char>('0' + v / 10);
    *o++ = static_cast<char>('0' + v % 10);
  };
  *o++ = '-';
  put2(date.month);
  *o++ = '-';
  put2(date.day);
  *o++ = 'T';
  put2(sod / 3600);
  *o++ = ':';
  put2(sod / 60 % 60);
  *o++ = ':';
  put2(sod % 60);
  *o++ = 'Z';
  return static_cast<int>(o - out);
}

}  // namespace logagg
