// Exact comparison of numbers written in decimal (JSON's number grammar), for
// --where and for the min and max of --quantiles: from their text, never
// through a double, so 1e3 equals 1000, -0 equals 0, 0.1 stays below
// 0.10000000000000001, and 1e400 is a number like any other. No allocation:
// a Decimal views the text it was read from.
//
// Exponents are exact within +-4e18 (written exponents beyond that compare
// as +-4e18: only numbers with over 18-digit exponents are affected).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace logagg {

class Decimal {
 public:
  // The number a JSON number token writes (json_tokens.h's grammar); nullopt
  // for any other text.
  static std::optional<Decimal> parse(std::string_view text) noexcept;

  // <0, 0, >0 as a is below, equal to, above b.
  friend int compare(const Decimal& a, const Decimal& b) noexcept;

  // The number as a plain decimal, exactly: a "-" if below zero, the integer
  // digits ("0" if none), then "." and the fraction digits if any; no
  // exponent, no leading or trailing zeros (-1.50e2 is -150, -0 is 0). For
  // numbers a double can hold: the digits and the exponent's zeros are
  // written out.
  void append_plain(std::string& out) const;

 private:
  // value = (-1 if negative) 0.D * 10^point, D the significant digits: the
  // digits of int_part then frac_part from `lead` on, `count` of them (no
  // leading or trailing zeros); count == 0 is zero.
  char digit(size_t k) const noexcept {
    const size_t at = lead_ + k;
    return at < int_part_.size() ? int_part_[at] : frac_part_[at - int_part_.size()];
  }
  bool negative_ = false;
  std::string_view int_part_, frac_part_;
  size_t lead_ = 0, count_ = 0;
  int64_t point_ = 0;
};

}  // namespace logagg
