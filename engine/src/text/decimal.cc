// Reading and comparing decimal numbers exactly (see decimal.h).
#include "text/decimal.h"

#include "text/json_tokens.h"
#include "text/ascii.h"

namespace logagg {
namespace {

constexpr int64_t kExponentLimit = 4'000'000'000'000'000'000;

// The exponent's digits as a number, saturated at kExponentLimit.
int64_t exponent_of(std::string_view digits) noexcept {
  int64_t e = 0;
  for (const char c : digits) {
    const int64_t digit = c - '0';
    if (e > (kExponentLimit - digit) / 10) return kExponentLimit;  // checked before it could overflow
    e = e * 10 + digit;
  }
  return e;
}

}  // namespace

std::optional<Decimal> Decimal::parse(std::string_view text) noexcept {
  if (!is_json_number(text)) return std::nullopt;
  Decimal d;
  size_t p = 0;
  d.negative_ = text[0] == '-';
  p += d.negative_;
  size_t q = p;
  while (q < text.size() && is_digit(text[q])) ++q;
  d.int_part_ = text.substr(p, q - p);
  if (q < text.size() && text[q] == '.') {
    const size_t f = ++q;
    while (q < text.size() && is_digit(text[q])) ++q;
    d.frac_part_ = text.substr(f, q - f);
  }
  int64_t exponent = 0;
  if (q < text.size()) {  // 'e' or 'E'
    ++q;
    const bool minus = text[q] == '-';
    if (text[q] == '-' || text[q] == '+') ++q;
    exponent = exponent_of(text.substr(q));
    if (minus) exponent = -exponent;
  }
  const size_t total = d.int_part_.size() + d.frac_part_.size();
  const auto at = [&](size_t k) {
    return k < d.int_part_.size() ? d.int_part_[k] : d.frac_part_[k - d.int_part_.size()];
  };
  while (d.lead_ < total && at(d.lead_) == '0') ++d.lead_;
  size_t end = total;
  while (end > d.lead_ && at(end - 1) == '0') --end;
  d.count_ = end - d.lead_;
  d.point_ = static_cast<int64_t>(d.int_part_.size()) - static_cast<int64_t>(d.lead_) + exponent;
  return d;
}

int compare(const Decimal& a, const Decimal& b) noexcept {
  const int sign_a = a.count_ == 0 ? 0 : (a.negative_ ? -1 : 1);
  const int sign_b = b.count_ == 0 ? 0 : (b.negative_ ? -1 : 1);
  if (sign_a != sign_b || sign_a == 0) return sign_a < sign_b ? -1 : (sign_a > sign_b ? 1 : 0);
  // Same sign, both nonzero: compare magnitudes, then apply the sign.
  int magnitude = 0;
  if (a.point_ != b.point_) {
    magnitude = a.point_ < b.point_ ? -1 : 1;
  } else {
    size_t k = 0;
    while (k < a.count_ && k < b.count_ && a.digit(k) == b.digit(k)) ++k;
    if (k < a.count_ && k < b.count_) {
      magnitude = a.digit(k) < b.digit(k) ? -1 : 1;
    } else {
      magnitude = a.count_ == b.count_ ? 0 : (a.count_ < b.count_ ? -1 : 1);
    }
  }
  return sign_a * magnitude;
}

void Decimal::append_plain(std::string& out) const {
  if (count_ == 0) {
    out.push_back('0');
    return;
  }
  if (negative_) out.push_back('-');
  const auto count = static_cast<int64_t>(count_);
  if (point_ <= 0) out.append("0.").append(static_cast<size_t>(-point_), '0');
  for (int64_t k = 0; k < count; ++k) {
    if (k == point_ && point_ > 0) out.push_back('.');
    out.push_back(digit(static_cast<size_t>(k)));
  }
  if (point_ > count) out.append(static_cast<size_t>(point_ - count), '0');
}

}  // namespace logagg
