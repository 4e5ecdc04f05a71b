// A JSON number in its common short form (no exponent, at most 19 digits:
// 200, 0.004, -12.5) read into its digits, as one integer, and where its
// point was: a measure (short_measure.h) and a filter's integer
// (where_holds.h) are made from it. Where the block parser's walk checked a
// field's number, it kept how many digits it has before and after its point
// (FieldSeen::short_number), and they are read without another scan.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "text/ascii.h"

namespace logagg {

// 1436.219 is {1436219, 4, 3, false}.
struct ShortNumber {
  uint64_t digits;      // every digit, as one integer
  uint8_t int_digits;   // before the point: at least 1
  uint8_t frac_digits;  // after it: 0 without a point
  bool negative;
};

namespace short_number {

// 10^0 .. 10^18.
inline constexpr auto kPowers = [] {
  std::array<uint64_t, 19> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// The value of the n digits (1 to 8) at p, read as one word: the digits'
// '0' xored away, shifted up so that zeros (leading zeros) fill the low
// bytes, then summed in pairs, fours and eights.
inline uint64_t eight_digits(const char* p, ptrdiff_t n) noexcept {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  w = (w ^ 0x3030303030303030u) << 8 * (8 - n);
  w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFu;
  w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFu;
  return (w * 10000 + (w >> 32)) & 0xFFFFFFFFu;
}

// Reads the run of digits at p (up to end) into m, as m's digits continue:
// m is right for runs of up to 19 digits in all. kPadded: 8 bytes may be
// read from any byte before end, and the digits are read 8 at a time,
// without a branch on each (the values' lengths vary line to line).
template <bool kPadded>
[[gnu::always_inline]] inline const char* read_digits(const char* p, const char* end, uint64_t& m) noexcept {
  if constexpr (kPadded) {
    for (;;) {
      const ptrdiff_t n = std::min(static_cast<ptrdiff_t>(leading_digits(p)), end - p);
      if (n == 0) return p;
      m = m * kPowers[static_cast<size_t>(n)] + eight_digits(p, n);
      p += n;
      if (n < 8) return p;
    }
  }
  while (p != end && is_digit(*p)) m = m * 10 + static_cast<uint64_t>(*p++ - '0');
  return p;
}

}  // namespace short_number

// `text` read into `n`, if it is a JSON number without an exponent of at
// most 19 digits: true only for such a number (so also a check of its
// grammar), false for any other text. kPadded: at least 8 readable bytes
// follow the text (its digits are read 8 at a time).
template <bool kPadded>
[[gnu::always_inline]] inline bool read_short_number(std::string_view text, ShortNumber& n) noexcept {
  using short_number::read_digits;
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  p += negative;
  const char* const int_start = p;
  uint64_t m = 0;
  p = read_digits<kPadded>(p, end, m);
  const auto int_digits = p - int_start;
  if (int_digits == 0 || (int_digits > 1 && *int_start == '0')) return false;
  ptrdiff_t frac_digits = 0;
  if (p != end && *p == '.') {
    const char* const frac_start = ++p;
    p = read_digits<kPadded>(p, end, m);
    frac_digits = p - frac_start;
    if (frac_digits == 0) return false;
  }
  if (p != end || int_digits + frac_digits > 19) return false;
  n = {m, static_cast<uint8_t>(int_digits), static_cast<uint8_t>(frac_digits), negative};
  return true;
}

// The number whose check found `int_digits` (1 to 8) digits before its point
// and `frac_digits` (0 to 8) after it in `text`, followed by at least 8
// readable bytes: its digits read without another scan for where they end.
inline ShortNumber short_number_of(std::string_view text, uint8_t int_digits, uint8_t frac_digits) noexcept {
  using namespace short_number;
  const bool negative = text[0] == '-';
  const char* const p = text.data() + negative;
  uint64_t m = eight_digits(p, int_digits);
  if (frac_digits != 0) m = m * kPowers[frac_digits] + eight_digits(p + int_digits + 1, frac_digits);
  return {m, int_digits, frac_digits, negative};
}

// The integer `n` writes, into `value`, if it is one of at most 18 digits
// ("200", "-3", not "2.0": an int64 holds it exactly).
inline bool short_integer(const ShortNumber& n, int64_t& value) noexcept {
  if (n.frac_digits != 0 || n.int_digits > 18) return false;
  value = n.negative ? -static_cast<int64_t>(n.digits) : static_cast<int64_t>(n.digits);
  return true;
}

// The value of `text`, into `value`, if it is a JSON integer of at most 18
// digits ("200", "-3"); false for any other text. At least 8 readable bytes
// follow the text (its digits are read 8 at a time).
inline bool read_short_integer(std::string_view text, int64_t& value) noexcept {
  ShortNumber n;
  return read_short_number<true>(text, n) && short_integer(n, value);
}

}  // namespace logagg
