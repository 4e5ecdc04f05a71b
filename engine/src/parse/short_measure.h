// Measured values in one pass, inline on the per-line path: the common
// value, a number without an exponent of at most 19 digits (bytes, 0.004,
// -12.5), as short_number.h reads it, made into the forms its measures use
// (measure_value.h has the whole reading, which takes every other number).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <system_error>

#include "model/line_verdict.h"  // MeasureValue, MeasureForms
#include "parse/measure_value.h"  // read_long_measure
#include "parse/short_number.h"

namespace logagg {

namespace short_measure {

// A decimal of at most 15 significant digits is the shortest text of its
// nearest double (10^15 < 2^53): printing the double writes it back.
inline constexpr ptrdiff_t kDoubleDigits = 15;

// The powers of ten a double holds exactly.
inline constexpr double kExactPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

}  // namespace short_measure

// The value the short number `n`, written `text`, has, into `v`, in the forms
// kForms; false if its double cannot be read (not for a JSON number).
template <MeasureForms kForms>
[[gnu::always_inline]] inline bool measure_of(const ShortNumber& n, std::string_view text, MeasureValue& v) noexcept {
  using namespace short_measure;
  using short_number::kPowers;
  // At least one digit before the point: at most 18 after it, FixedSum's.
  static_assert(FixedSum::kFractionDigits == 18);
  const uint64_t m = n.digits;
  if constexpr ((kForms & kExactForm) != 0) {
    const FixedUnits units = static_cast<FixedUnits>(m) * kPowers[FixedSum::kFractionDigits - n.frac_digits];
    v.fixed = FixedSum::of_units(n.negative ? -units : units);
    v.digits = n.frac_digits;
  }
  if constexpr ((kForms & kRealForm) != 0) {
    v.written = n.int_digits + n.frac_digits > kDoubleDigits ? text : std::string_view();
    if (m <= (uint64_t{1} << 53)) {  // both exact: their quotient is rounded once, correctly
      // An integer (bytes) needs no division; the same double either way.
      v.real = n.frac_digits == 0 ? static_cast<double>(m) : static_cast<double>(m) / kExactPowers[n.frac_digits];
    } else if (std::from_chars(text.data() + n.negative, text.data() + text.size(), v.real).ec != std::errc{}) {
      return false;  // the magnitude: the sign follows
    }
    if (n.negative) v.real = -v.real;
  }
  return true;
}

// The value `text` writes, into `v`, in the forms kForms, if it is a number
// without an exponent of at most 19 digits; false for anything else, which
// read_long_measure (measure_value.h) takes. kPadded: at least 8 readable bytes
// follow the text.
template <bool kPadded, MeasureForms kForms = kAllForms>
[[gnu::always_inline]] inline bool read_short_measure(std::string_view text, MeasureValue& v) noexcept {
  ShortNumber n;
  return read_short_number<kPadded>(text, n) && measure_of<kForms>(n, text, v);
}

}  // namespace logagg
