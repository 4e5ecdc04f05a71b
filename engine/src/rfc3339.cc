// The RFC 3339 parser and the UTC second formatter (see rfc3339.h).
// Fixed-position parsing: every byte is checked once, the fixed part and the
// fraction eight bytes at a time; no locale, no allocation.
#include "logagg/rfc3339.h"

#include <bit>
#include <cstring>

#include "ascii.h"
#include "logagg/civil_time.h"

namespace logagg {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
constexpr uint64_t kOnes = 0x0101010101010101ULL;

inline uint64_t load8(const char* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] is the lowest byte
  return v;
}

// Whether every byte selected by `mask` (0xFF bytes) is an ASCII digit. A
// byte b is a digit iff its high nibble is 3 and b + 6 keeps it at 3. Adding 6
// to the other bytes can carry into a selected one only when one of them is
// not the separator it must be, which is rejected on its own.
inline bool digits_at(uint64_t w, uint64_t mask) noexcept {
  const uint64_t hi = mask & (0xF0 * kOnes), want = mask & (0x30 * kOnes);
  return (w & hi) == want && ((w + 6 * kOnes) & hi) == want;
}

// The value of byte i of w, a digit.
inline int digit(uint64_t w, int i) noexcept { return static_cast<int>((w >> (8 * i)) & 0x0F); }

// The index of the first byte of w that is not an ASCII digit, or 8. Carries
// only flow towards later bytes, so the first flagged byte is exact.
inline int first_non_digit(uint64_t w) noexcept {
  const uint64_t x = w ^ (0x30 * kOnes);
  const uint64_t flags = ((x + 0x76 * kOnes) | x) & (0x80 * kOnes);
  return flags == 0 ? 8 : std::countr_zero(flags) / 8;
}

}  // namespace

std::optional<int64_t> parse_rfc3339(std::string_view text) noexcept {
  // "YYYY-MM-DDThh:mm:ss" is 19 bytes, the shortest zone "Z" one more.
  if (text.size() < 20) [[unlikely]] return std::nullopt;
  const char* p = text.data();
  const char* const end = p + text.size();

  // Bytes 0..7 "YYYY-MM-" and 8..15 "DDThh:mm", checked 8 at a time.
  const uint64_t w0 = load8(p), w1 = load8(p + 8);
  if (!digits_at(w0, 0x00FFFF00FFFFFFFFULL) || !digits_at(w1, 0xFFFF00FFFF00FFFFULL)) [[unlikely]] return std::nullopt;
  if ((w0 & 0xFF0000FF00000000ULL) != 0x2D00002D00000000ULL) [[unlikely]] return std::nullopt;  // '-' at 4 and 7
  if ((w1 & 0x0000FF0000000000ULL) != 0x00003A0000000000ULL) [[unlikely]] return std::nullopt;  // ':' at 13
  const char sep = p[10];
  if ((sep | 0x20) != 't' && sep != ' ') [[unlikely]] return std::nullopt;
  if (p[16] != ':' || !is_digit(p[17]) || !is_digit(p[18])) [[unlikely]] return std::nullopt;

  const int64_t year = digit(w0, 0) * 1000 + digit(w0, 1) * 100 + digit(w0, 2) * 10 + digit(w0, 3);
  const int month = digit(w0, 5) * 10 + digit(w0, 6);
  const int day = digit(w1, 0) * 10 + digit(w1, 1);
  const int hour = digit(w1, 3) * 10 + digit(w1, 4);
  const int minute = digit(w1, 6) * 10 + digit(w1, 7);
  const int second = (p[17] - '0') * 10 + (p[18] - '0');
  if (month < 1 || month > 12 || day < 1 ||
      day > static_cast<int>(days_in_month(year, static_cast<unsigned>(month))) || hour > 23 ||
      minute > 59 || second > 60) [[unlikely]] {
    return std::nullopt;
  }

  p += 19;
  if (*p == '.') {  // fraction: one or more digits, truncated
    const char* const digits = ++p;
    while (end - p >= 8) {
      const int n = first_non_digit(load8(p));
      p += n;
      if (n < 8) break;
    }
    while (p != end && is_digit(*p)) ++p;
    if (p == digits || p == end) [[unlikely]] return std::nullopt;
  }

  int64_t offset = 0;
  if (*p == 'Z' || *p == 'z') {
    ++p;
  } else if (*p == '+' || *p == '-') {
    if (end - p != 6 || !is_digit(p[1]) || !is_digit(p[2]) || p[3] != ':' || !is_digit(p[4]) ||
        !is_digit(p[5])) [[unlikely]] {
      return std::nullopt;
    }
    const int oh = (p[1] - '0') * 10 + (p[2] - '0');
    const int om = (p[4] - '0') * 10 + (p[5] - '0');
    if (oh > 23 || om > 59) [[unlikely]] return std::nullopt;
    offset = (oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
    p += 6;
  } else [[unlikely]] {
    return std::nullopt;
  }
  if (p != end) [[unlikely]] return std::nullopt;

  const int64_t local = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
                            kSecondsPerDay +
                        hour * 3600 + minute * 60 + (second == 60 ? 59 : second);
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
