// Numbers read in one pass, inline on the per-line path: the common measured
// value, a number without an exponent of at most 19 digits (bytes, 0.004,
// -12.5), only in the forms its measures use (measure_value.h has the whole
// reading, which read_padded_measure falls back to); and the integer a
// --where filter compares (where_holds.h).
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>

#include "model/line_verdict.h"  // MeasureValue, MeasureForms
#include "parse/measure_value.h"  // read_long_measure
#include "text/ascii.h"

namespace logagg {

namespace short_measure {

// A decimal of at most 15 significant digits is the shortest text of its
// nearest double (10^15 < 2^53): printing the double writes it back.
inline constexpr ptrdiff_t kDoubleDigits = 15;

// 10^0 .. 10^18.
inline constexpr auto kPowers = [] {
  std::array<uint64_t, 19> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// The powers of ten a double holds exactly.
inline constexpr double kExactPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

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

}  // namespace short_measure

// The value of `text`, into `value`, if it is a JSON integer of at most 18
// digits ("200", "-3": an int64 holds it exactly); false for any other text.
// At least 8 readable bytes follow the text (its digits are read 8 at a time).
[[gnu::always_inline]] inline bool read_short_integer(std::string_view text, int64_t& value) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  p += negative;
  const char* const start = p;
  uint64_t m = 0;
  p = short_measure::read_digits<true>(p, end, m);
  const ptrdiff_t digits = p - start;
  if (p != end || digits == 0 || digits > 18 || (digits > 1 && *start == '0')) return false;
  value = negative ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
  return true;
}

// The value `text` writes, into `v`, in the forms kForms, if it is a number
// without an exponent of at most 19 digits; false for anything else, which
// read_long_measure (measure_value.h) takes. kPadded: at least 8 readable bytes
// follow the text.
template <bool kPadded, MeasureForms kForms = kAllForms>
[[gnu::always_inline]] inline bool read_short_measure(std::string_view text, MeasureValue& v) noexcept {
  using namespace short_measure;
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
  if (p != end || int_digits + frac_digits > 19 || frac_digits > FixedSum::kFractionDigits) return false;
  if constexpr ((kForms & kExactForm) != 0) {
    const FixedUnits units = static_cast<FixedUnits>(m) * kPowers[FixedSum::kFractionDigits - frac_digits];
    v.fixed = FixedSum::of_units(negative ? -units : units);
    v.digits = static_cast<int>(frac_digits);
  }
  if constexpr ((kForms & kRealForm) != 0) {
    v.written = int_digits + frac_digits > kDoubleDigits ? text : std::string_view();
    if (m <= (uint64_t{1} << 53)) {  // both exact: their quotient is rounded once, correctly
      // An integer (bytes) needs no division; the same double either way.
      v.real = frac_digits == 0 ? static_cast<double>(m) : static_cast<double>(m) / kExactPowers[frac_digits];
    } else if (std::from_chars(int_start, end, v.real).ec != std::errc{}) {  // the magnitude: the sign follows
      return false;
    }
    if (negative) v.real = -v.real;
  }
  return true;
}

// The same, for text followed by at least 8 readable bytes (a field's value
// as a line parser found it: FieldSeen::text), its digits read 8 at a time,
// in the forms kForms (a value of more digits or with an exponent: all).
// Inline: it runs for every measured field of every counted line.
template <MeasureForms kForms = kAllForms>
[[gnu::always_inline]] inline bool read_padded_measure(std::string_view text, MeasureValue& out) noexcept {
  return read_short_measure<true, kForms>(text, out) || read_long_measure(text, out);
}

}  // namespace logagg
