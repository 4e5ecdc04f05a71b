// The RFC 3339 parser and the UTC second formatter (see rfc3339.h).
// Fixed-position parsing: bytes checked sixteen at a time, numbers read eight
// at a time; no locale, no allocation.
#include "parse/rfc3339.h"

#include <cstring>

#include "input/ascii.h"
#include "parse/byte_ranges.h"
#include "parse/civil_time.h"

namespace logagg {
namespace {

constexpr int64_t kSecondsPerDay = 86400;

inline uint64_t load8(const char* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] is the lowest byte
  return v;
}

// The byte ranges each position of "YYYY-MM-DDThh:mm:ss" may hold: 'D' a
// digit, '?' anything (the date-time separator, checked apart), else itself.
struct Pattern {
  uint8_t lo[19], span[19];
};
constexpr Pattern make_pattern(const char (&shape)[20]) {
  Pattern p{};
  for (int i = 0; i < 19; ++i) {
    const char c = shape[i];
    p.lo[i] = c == 'D' ? '0' : c == '?' ? 0 : static_cast<uint8_t>(c);
    p.span[i] = c == 'D' ? 9 : c == '?' ? 255 : 0;
  }
  return p;
}
constexpr Pattern kFixed = make_pattern("DDDD-DD-DD?DD:DD:DD");
// The last 16 bytes of a numeric zone: anything, then sign (checked apart),
// "hh:mm".
constexpr Pattern kZone = make_pattern("??????????????DD:DD");

// kTopLanes + n: 16 lanes of which the top n are selected, n in [0, 16].
alignas(16) constexpr uint8_t kTopLanes[32] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

// Two-digit numbers of w: byte i of the result is 10 * d[i] + d[i + 1], where
// d is the low nibble of each byte (the digit's value). No byte overflows, so
// any pair can be read at any offset.
inline uint64_t pairs(uint64_t w) noexcept {
  const uint64_t d = w & 0x0F0F0F0F0F0F0F0FULL;
  return d * 10 + (d >> 8);
}

inline int byte_at(uint64_t w, int i) noexcept { return static_cast<int>((w >> (8 * i)) & 0xFF); }

// Whether text[from, to) is all digits, for any length (fractions longer
// than 16 digits are rare enough for a loop).
bool all_digits(const char* from, const char* to) noexcept {
  for (; from != to; ++from) {
    if (!is_digit(*from)) return false;
  }
  return true;
}

// Leap years without a division: a multiple of 4 that is not a multiple of
// 100 (for multiples of 4, of 25), unless a multiple of 400 (then of 16).
inline bool is_leap(int64_t y) noexcept { return (y & 3) == 0 && (y % 25 != 0 || (y & 15) == 0); }

// Days in each month of a common year, by month 1..12 (16 entries so that any
// month a digit pair can spell indexes safely).
constexpr unsigned char kMonthDays[16] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0, 0, 0};

}  // namespace

// The parse reads whole words at fixed offsets from both ends: the fixed part
// from the front, the zone from the back (one byte 'Z' or six "+hh:mm"), and
// the fraction is what lies between. Which zone and how long a fraction only
// select values and masks, never a branch, so mixed formats in one log cost
// no mispredictions; validity is one flag tested at the end.
std::optional<int64_t> parse_rfc3339(std::string_view text) noexcept {
  // "YYYY-MM-DDThh:mm:ss" is 19 bytes, the shortest zone "Z" one more.
  const auto n = static_cast<ptrdiff_t>(text.size());
  if (n < 20) [[unlikely]] return std::nullopt;
  const char* const p = text.data();

  // Every check is a lane mask or a flag, folded into one test at the end.
  // The fixed part: bytes 0..15, and 3..18 for the last three.
  Bytes16 bad = outside(load16(p), load16(kFixed.lo), load16(kFixed.span)) |
                outside(load16(p + 3), load16(kFixed.lo + 3), load16(kFixed.span + 3));
  const int sep = static_cast<unsigned char>(p[10]);
  bool ok = ((sep | 0x20) == 't') | (sep == ' ');

  // The zone: 'Z' or 'z' last, else "+hh:mm" or "-hh:mm" as the last six.
  const bool zulu = (p[n - 1] | 0x20) == 'z';
  const int sign = p[n - 6];
  const uint64_t zone_pairs = pairs(load8(p + n - 8));
  const int oh = byte_at(zone_pairs, 3), om = byte_at(zone_pairs, 6);
  Bytes16 numeric_lanes;
  std::memset(&numeric_lanes, zulu ? 0 : 0xFF, 16);
  bad |= outside(load16(p + n - 16), load16(kZone.lo + 3), load16(kZone.span + 3)) & numeric_lanes;
  ok &= zulu | (((sign == '+') | (sign == '-')) & (oh <= 23) & (om <= 59));
  const int64_t offset = zulu ? 0 : (oh * 3600 + om * 60) * (sign == '-' ? -1 : 1);

  // The fraction: empty, or '.' and one or more digits, in p[19, body_end):
  // the top `digits` bytes of the 16 ending at body_end.
  const ptrdiff_t body_end = n - (zulu ? 1 : 6);
  const ptrdiff_t digits = body_end - 20;
  ok &= (body_end == 19) | ((digits >= 1) & (p[19] == '.'));
  if (digits > 16) [[unlikely]] {
    ok &= all_digits(p + 20, body_end + p);
  } else {
    const ptrdiff_t lanes = digits > 0 ? digits : 0;
    const Bytes16 fraction = load16(p + (body_end > 16 ? body_end : 16) - 16);  // inside the text
    bad |= outside(fraction, Bytes16{} + '0', Bytes16{} + 9) & load16(kTopLanes + lanes);
  }
  if (!(ok & none(bad))) [[unlikely]] return std::nullopt;

  const uint64_t date_pairs = pairs(load8(p)), time_pairs = pairs(load8(p + 11));
  const int64_t year = byte_at(date_pairs, 0) * 100 + byte_at(date_pairs, 2);
  const auto month = static_cast<unsigned>(byte_at(date_pairs, 5));
  const auto mday = static_cast<unsigned>((p[8] - '0') * 10 + (p[9] - '0'));
  const int hour = byte_at(time_pairs, 0), minute = byte_at(time_pairs, 3), second = byte_at(time_pairs, 6);
  const bool leap = is_leap(year);
  const unsigned month_days = kMonthDays[month & 15] + (leap & (month == 2));
  if ((month - 1 > 11) | (mday - 1 >= month_days) | (hour > 23) | (minute > 59) | (second > 60)) [[unlikely]] {
    return std::nullopt;
  }

  const int64_t local = days_from_civil(year, month, mday) * kSecondsPerDay + hour * 3600 + minute * 60 +
                        (second == 60 ? 59 : second);
  const int64_t utc = local - offset;
  // A leap second is only valid at 23:59:60 UTC; it counts in 23:59:59.
  if (second == 60 && utc - floor_div(utc, kSecondsPerDay) * kSecondsPerDay != kSecondsPerDay - 1) [[unlikely]] {
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
