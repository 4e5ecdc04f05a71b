// The RFC 3339 parser and the UTC second formatter (see rfc3339.h).
// Fixed-position parsing: bytes checked sixteen at a time, numbers read eight
// at a time; no locale, no allocation.
#include "logagg/rfc3339.h"

#include <cstring>

#include "text/ascii.h"
#include "text/byte_ranges.h"
#include "time/civil_time.h"

namespace logagg {
namespace {

inline uint64_t load8(const char* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] is the lowest byte
  return v;
}

// The byte ranges each of 16 positions may hold, from a shape: 'D' a digit,
// '?' anything (a byte checked apart, or one of another part), else itself.
struct Pattern {
  uint8_t lo[16], span[16];
};
constexpr Pattern make_pattern(const char* shape) {
  Pattern p{};
  for (int i = 0; i < 16; ++i) {
    const char c = shape[i];
    p.lo[i] = c == 'D' ? '0' : c == '?' ? 0 : static_cast<uint8_t>(c);
    p.span[i] = c == 'D' ? 9 : c == '?' ? 255 : 0;
  }
  return p;
}

// "YYYY-MM-DDThh:mm:ss" as two overlapping windows, bytes 0..15 and 3..18
// (the date-time separator is checked apart).
constexpr Pattern kFront = make_pattern("DDDD-DD-DD?DD:DD");
constexpr Pattern kBack = make_pattern("D-DD-DD?DD:DD:DD");

// The fraction and the zone, checked as the text's last 16 bytes with the
// pattern for the text's length: kTails.by_length[n - 20][numeric] for
// lengths n of 20 to 35, which leave room for a fraction ('.' and digits) of
// up to 15 bytes before a 'Z' and up to 10 (nanoseconds) before an offset;
// [kLongText] for longer texts, whose last 16 bytes are digits and the zone,
// and whose fraction's start is checked by a loop.
constexpr ptrdiff_t kLongText = 16;
struct Tails {
  Pattern by_length[kLongText + 1][2];
  constexpr Tails() : by_length{} {
    for (int numeric = 0; numeric < 2; ++numeric) {
      // The 'Z' is what picked this pattern, and a sign is checked apart.
      const char* const zone = numeric != 0 ? "?DD:DD" : "?";
      const int zone_length = numeric != 0 ? 6 : 1;
      for (int k = 0; k <= kLongText; ++k) {
        const int n = 20 + k, tail = n - 19 - zone_length;  // the fraction's bytes, '.' included
        char shape[16] = {};
        for (int i = 0; i < 16; ++i) {
          const int at = n - 16 + i;  // the byte of the text in lane i
          shape[i] = i >= 16 - zone_length ? zone[i - (16 - zone_length)]
                     : k == kLongText      ? 'D'
                     : at == 19            ? '.'
                     : at > 19             ? 'D'
                                           : '?';
        }
        // A lone '.' wants a digit where the zone starts, which never is one.
        if (tail == 1) shape[16 - zone_length] = 'D';
        // Lengths 20 to 24 leave an offset no room (tail < 0); they need no
        // pattern of their own, as the sign then falls on the fixed part.
        by_length[k][numeric] = make_pattern(shape);
      }
    }
  }
};
constexpr Tails kTails;

// What the bytes checked apart may be: the date-time separator and the 'Z'
// zone; and the offset's sign as its direction, east of UTC 1, west -1 (0
// for every other byte: not a sign, and a zone 'Z', which has none where a
// sign would be, adds no offset).
enum : uint8_t { kSeparator = 1, kZulu = 2 };
struct Roles {
  uint8_t of[256];
  int8_t east[256];
  constexpr Roles() : of{}, east{} {
    for (const unsigned char c : {'T', 't', ' '}) of[c] = kSeparator;
    for (const unsigned char c : {'Z', 'z'}) of[c] = kZulu;
    east[static_cast<unsigned char>('+')] = 1;
    east[static_cast<unsigned char>('-')] = -1;
  }
};
constexpr Roles kRoles;

inline Bytes16 excess(Bytes16 v, const Pattern& pattern) noexcept {
  return logagg::excess(v, load16(pattern.lo), load16(pattern.span));
}

// Two-digit numbers of w: byte i of the result is 10 * d[i] + d[i + 1], where
// d is the low nibble of each byte (the digit's value). No byte overflows, so
// any pair can be read at any offset.
inline uint64_t pairs(uint64_t w) noexcept {
  const uint64_t d = w & 0x0F0F0F0F0F0F0F0FULL;
  return d * 10 + (d >> 8);
}

inline unsigned byte_at(uint64_t w, int i) noexcept { return static_cast<unsigned>((w >> (8 * i)) & 0xFF); }

// Range checks of several pairs in one add: pair + above(limit, i) sets byte
// i's top bit exactly when the pair at byte i is above `limit`. Pairs of
// digits are at most 99, so no byte carries into the next; for other bytes
// the byte checks have failed already.
constexpr uint64_t kTopBit = 0x80;
constexpr uint64_t above(unsigned limit, int i) { return static_cast<uint64_t>(0x7F - limit) << (8 * i); }

// 60 * hh + mm of the pairs hh at byte 0 and mm at byte 3: the multiply puts
// 60 * hh + mm at bit 24, where nothing below carries into it.
inline unsigned minutes_of(uint64_t w) noexcept {
  return static_cast<unsigned>(((w & 0xFF0000FFULL) * (60ULL << 24 | 1)) >> 24) & 0x7FF;
}

// Whether text[from, to) is all digits, for any length.
bool all_digits(const char* from, const char* to) noexcept {
  for (; from != to; ++from) {
    if (!is_digit(*from)) return false;
  }
  return true;
}

// The calendar as three small tables, built with days_from_civil. The day
// count of year = 100 * C + Y, month m, day d, is
//   kCenturies.of[C].march_1 + kYears.of[Y].march_1 + kMonths.of[m][leap].start + d - 1:
// March 1 of year 100 * C, the days from there to March 1 of the year (the
// same in every century: February 29 falls in 100 * C + 1 .. 100 * C + Y
// every fourth year), and from there to the first of the month (negative in
// January and February). Counting from March puts February 29 last.
// Each entry also says whether its year is a leap year, given the other
// table's entry: (kYears.of[Y].leap & kCenturies.of[C].leap_bit) != 0.
struct Centuries {
  struct Century {
    int32_t march_1;
    uint8_t leap_bit;  // 2 if 100 * C is a leap year, else 1
  } of[100];
  constexpr Centuries() : of{} {
    for (int c = 0; c < 100; ++c) {
      of[c] = {static_cast<int32_t>(days_from_civil(100 * c, 3, 1)), static_cast<uint8_t>(1 << is_leap_year(100 * c))};
    }
  }
};
constexpr Centuries kCenturies;
struct Years {
  struct Year {
    uint16_t march_1;
    uint8_t leap;  // bit 0: 100 * C + Y is a leap year if 100 * C is not; bit 1: if it is
  } of[100];
  constexpr Years() : of{} {
    for (int y = 0; y < 100; ++y) {
      of[y] = {static_cast<uint16_t>(days_from_civil(y, 3, 1) - days_from_civil(0, 3, 1)),
               static_cast<uint8_t>(is_leap_year(100 + y) | is_leap_year(400 + y) << 1)};
    }
  }
};
constexpr Years kYears;
// kMonths.of[m][leap] for months 1..12: the first's day from March 1 and
// the month's length; all zero for the other numbers a digit pair spells,
// where no day is valid.
struct Months {
  struct Month {
    int16_t start;
    uint8_t days;
  } of[100][2];
  constexpr Months() : of{} {
    for (int leap = 0; leap < 2; ++leap) {
      const int year = leap != 0 ? 2000 : 2001;
      for (unsigned m = 1; m <= 12; ++m) {
        of[m][leap].start = static_cast<int16_t>(days_from_civil(year, m, 1) - days_from_civil(year, 3, 1));
        of[m][leap].days = static_cast<uint8_t>(days_in_month(year, m));
      }
    }
  }
};
constexpr Months kMonths;

}  // namespace

// The parse reads whole words at fixed offsets from both ends: the fixed part
// from the front, the fraction and zone as the last 16 bytes (the zone one
// byte 'Z' or six "+hh:mm", the fraction what lies before it). Which zone and
// how long a fraction only select values and patterns, never a branch, so
// mixed formats in one log cost no mispredictions; validity is one test of
// the ORed checks, and every number is read from digit pairs.
int64_t rfc3339_second_or_invalid(std::string_view text) noexcept {
  // "YYYY-MM-DDThh:mm:ss" is 19 bytes, the shortest zone "Z" one more.
  const auto n = static_cast<ptrdiff_t>(text.size());
  if (n < 20) [[unlikely]]
    return kInvalidRfc3339;
  const char* const p = text.data();

  Bytes16 bad = excess(load16(p), kFront) | excess(load16(p + 3), kBack);
  // Nonzero once a check fails; tested once, with `bad`.
  uint64_t fails = ~kRoles.of[static_cast<unsigned char>(p[10])] & kSeparator;

  // The zone: 'Z' or 'z' last, else "+hh:mm" or "-hh:mm" as the last six.
  // `numeric` only selects values: as a ?: the compiler made it a branch,
  // mispredicted in a log of mixed zones.
  const bool numeric = (kRoles.of[static_cast<unsigned char>(p[n - 1])] & kZulu) == 0;
  const uint64_t numeric_mask = -static_cast<uint64_t>(numeric);
  const ptrdiff_t k = n - 20 < kLongText ? n - 20 : kLongText;
  if (k == kLongText) [[unlikely]] {
    fails |= !(p[19] == '.' && all_digits(p + 20, p + n - 16));
  }
  bad |= excess(load16(p + n - 16), kTails.by_length[k][numeric]);
  const unsigned sign = static_cast<unsigned char>(p[n - 6]);
  const uint64_t zone_pairs = pairs(load8(p + n - 8));  // hh at byte 3, mm at byte 6
  const uint64_t zone_too_big = (zone_pairs + above(23, 3) + above(59, 6)) & (kTopBit << 24 | kTopBit << 48);
  fails |= (uint64_t{kRoles.east[sign] == 0} | zone_too_big) & numeric_mask;
  if ((fails != 0) | !none(bad)) [[unlikely]]
    return kInvalidRfc3339;

  const uint64_t date_pairs = pairs(load8(p + 2));   // yy at byte 0, MM at byte 3, DD at byte 6
  const uint64_t time_pairs = pairs(load8(p + 11));  // hh at byte 0, mm at byte 3, ss at byte 6
  const auto century = static_cast<unsigned>((p[0] - '0') * 10 + (p[1] - '0'));
  const unsigned year_of_century = byte_at(date_pairs, 0), month = byte_at(date_pairs, 3),
                 mday = byte_at(date_pairs, 6), second = byte_at(time_pairs, 6);
  const Centuries::Century& century_days = kCenturies.of[century];
  const Years::Year& year_days = kYears.of[year_of_century];
  const Months::Month& month_of_year = kMonths.of[month][(year_days.leap & century_days.leap_bit) != 0];
  const uint64_t time_too_big =
      (time_pairs + above(23, 0) + above(59, 3) + above(60, 6)) & (kTopBit | kTopBit << 24 | kTopBit << 48);
  if ((mday - 1 >= month_of_year.days) | (time_too_big != 0)) [[unlikely]]
    return kInvalidRfc3339;

  // The day count from the tables, then minutes of the day and of the
  // offset, each one multiply of two pairs.
  const int64_t days =
      int64_t{century_days.march_1} + year_days.march_1 + month_of_year.start + static_cast<int>(mday) - 1;
  const int64_t offset = static_cast<int64_t>(minutes_of(zone_pairs >> 24)) * kRoles.east[sign];
  const int64_t utc = (days * 1440 + minutes_of(time_pairs) - offset) * 60 + (second == 60 ? 59 : second);
  // A leap second is only valid at 23:59:60 UTC; it counts in 23:59:59.
  if (second == 60 && utc - floor_div(utc, kSecondsPerDay) * kSecondsPerDay != kSecondsPerDay - 1) [[unlikely]] {
    return kInvalidRfc3339;
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
