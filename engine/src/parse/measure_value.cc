// Reading measured values exactly from their decimal text (see measure_value.h).
#include "parse/measure_value.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "text/json_tokens.h"
#include "text/ascii.h"

namespace logagg {
namespace {

constexpr int64_t kExponentLimit = 1'000'000'000;  // past it a value is zero or beyond any range

// A decimal of at most 15 significant digits is the shortest text of its
// nearest double (10^15 < 2^53): printing the double writes it back.
constexpr ptrdiff_t kDoubleDigits = 15;

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

// 10^0 .. 10^18.
constexpr auto kPowers = [] {
  std::array<uint64_t, 19> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// The powers of ten a double holds exactly.
constexpr double kExactPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
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

// The common case, a number without an exponent of at most 19 digits
// (bytes, 0.004, -12.5), read in one pass into `v`; false for anything else,
// which the general reading below takes.
template <bool kPadded>
bool read_short(std::string_view text, MeasureValue& v) noexcept {
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
  const FixedUnits units = static_cast<FixedUnits>(m) * kPowers[FixedSum::kFractionDigits - frac_digits];
  v.fixed = FixedSum::of_units(negative ? -units : units);
  v.digits = static_cast<int>(frac_digits);
  v.written = int_digits + frac_digits > kDoubleDigits ? text : std::string_view();
  if (m <= (uint64_t{1} << 53)) {  // both exact: their quotient is rounded once, correctly
    // An integer (bytes) needs no division; the same double either way.
    v.real = frac_digits == 0 ? static_cast<double>(m) : static_cast<double>(m) / kExactPowers[frac_digits];
  } else if (std::from_chars(int_start, end, v.real).ec != std::errc{}) {  // the magnitude: the sign follows
    return false;
  }
  if (negative) v.real = -v.real;
  return true;
}

// Any number that read_short does not take: with an exponent, or past 19
// digits.
bool read_long(std::string_view text, MeasureValue& v) noexcept {
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
  v.written = static_cast<ptrdiff_t>(d.size()) > kDoubleDigits ? text : std::string_view();
  return true;
}

}  // namespace

bool read_measure(std::string_view text, MeasureValue& v) noexcept {
  return read_short<false>(text, v) || read_long(text, v);
}

bool read_padded_measure(std::string_view text, MeasureValue& v) noexcept {
  return read_short<true>(text, v) || read_long(text, v);
}

}  // namespace logagg
