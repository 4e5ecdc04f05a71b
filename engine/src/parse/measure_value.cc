// Reading measured values exactly from their decimal text (see measure_value.h).
#include "parse/measure_value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>

#include "parse/short_measure.h"
#include "text/ascii.h"
#include "text/json_tokens.h"

namespace logagg {
namespace {

constexpr int64_t kExponentLimit = 1'000'000'000;  // past it a value is zero or beyond any range

// The exponent's digits as a number, saturated at kExponentLimit.
int64_t exponent_of(std::string_view digits) noexcept {
  int64_t e = 0;
  for (const char c : digits) e = std::min<int64_t>(e * 10 + (c - '0'), kExponentLimit);
  return e;
}

// The digits of a number, integer part then fraction, without the point.
struct Digits {
  std::string_view int_part, frac_part;
  size_t size() const { return int_part.size() + frac_part.size(); }
  char operator[](size_t k) const { return k < int_part.size() ? int_part[k] : frac_part[k - int_part.size()]; }
};

// digits x 10^shift in units (shift may be negative: the digits past the
// units' place are rounded half to even), or kOverflow past 2^127 - 1 units.
FixedUnits units_of(const Digits& d, int64_t shift, bool negative) noexcept {
  size_t lead = 0;
  while (lead < d.size() && d[lead] == '0') ++lead;
  const auto significant = static_cast<int64_t>(d.size() - lead);
  if (significant == 0) return 0;
  const int64_t kept = significant + shift;   // the digits at or above the units' place
  if (kept > 39) return FixedSum::kOverflow;  // at least 10^39 units
  const FixedMagnitude limit = (FixedMagnitude{1} << 127) - 1;
  FixedMagnitude u = 0;
  for (int64_t k = 0; k < kept; ++k) {
    const unsigned digit = k < significant ? static_cast<unsigned>(d[lead + k] - '0') : 0;
    if (u > (limit - digit) / 10) return FixedSum::kOverflow;
    u = u * 10 + digit;
  }
  // Digits dropped: with kept < 0 all of them lie below half a unit.
  if (kept >= 0 && kept < significant) {
    const char first = d[lead + kept];
    bool rest = false;
    for (int64_t k = kept + 1; k < significant && !rest; ++k) rest = d[lead + k] != '0';
    if (first > '5' || (first == '5' && (rest || (u & 1) != 0))) {
      if (u == limit) return FixedSum::kOverflow;
      ++u;
    }
  }
  const auto value = static_cast<FixedUnits>(u);
  return negative ? -value : value;
}

}  // namespace

bool read_long_measure(std::string_view text, MeasureValue& v) noexcept {
  if (!is_json_number(text)) return false;
  const bool negative = text[0] == '-';
  size_t p = negative ? 1 : 0;
  size_t q = p;
  while (q < text.size() && is_digit(text[q])) ++q;
  Digits d{text.substr(p, q - p), {}};
  if (q < text.size() && text[q] == '.') {
    const size_t f = ++q;
    while (q < text.size() && is_digit(text[q])) ++q;
    d.frac_part = text.substr(f, q - f);
  }
  int64_t exponent = 0;
  if (q < text.size()) {  // 'e' or 'E', then an optional sign and digits
    ++q;
    const bool minus = text[q] == '-';
    if (text[q] == '-' || text[q] == '+') ++q;
    exponent = exponent_of(text.substr(q));
    if (minus) exponent = -exponent;
  }
  const int64_t scale = static_cast<int64_t>(d.frac_part.size()) - exponent;  // value = digits x 10^-scale
  if (std::from_chars(text.data(), text.data() + text.size(), v.real).ec != std::errc{} || std::isinf(v.real)) {
    return false;  // out of a double's range (from_chars says so for both ends)
  }
  if (v.real == 0) {
    for (size_t k = 0; k < d.size(); ++k) {
      if (d[k] != '0') return false;  // a nonzero value below the smallest double
    }
  }
  v.fixed = FixedSum::of_units(units_of(d, FixedSum::kFractionDigits - scale, negative));
  v.digits = static_cast<int>(std::clamp<int64_t>(scale, 0, FixedSum::kFractionDigits));
  v.written = static_cast<ptrdiff_t>(d.size()) > short_measure::kDoubleDigits ? text : std::string_view();
  return true;
}

bool read_measure(std::string_view text, MeasureValue& v) noexcept {
  return read_short_measure<false>(text, v) || read_long_measure(text, v);
}

}  // namespace logagg
