// ASCII byte classes shared by the line parser, the RFC 3339 parser, the
// stream reader (input.cc), the derived keys (line_keys.cc) and
// parse_bucketing (report/buckets.cc), so "digit", "letter" and "blank" mean
// one thing everywhere; and the count of digits eight bytes at a time, for
// the block parser's number check and a measured value's digits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace logagg {

inline bool is_digit(char c) noexcept { return static_cast<unsigned>(c - '0') < 10u; }
inline bool is_alpha(char c) noexcept { return static_cast<unsigned>((c | 0x20) - 'a') < 26u; }

// JSON's insignificant whitespace. Inside a line only space, tab and CR occur
// (LF ends the line), so a line of these alone is a blank line.
inline bool is_json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// How many of the 8 bytes at p are digits, counted from the first (8 bytes
// are read: p is in a padded buffer): a SWAR test of all eight at once (a
// byte >= 10 after the xor, or with its top bit set, stops the count; a
// carry only runs upward from such a byte).
inline size_t leading_digits(const char* p) noexcept {
  static_assert(std::endian::native == std::endian::little, "leading_digits() counts from the low byte");
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  v ^= 0x3030303030303030u;
  const uint64_t stop = ((v + 0x7676767676767676u) | v) & 0x8080808080808080u;
  return stop == 0 ? 8 : static_cast<size_t>(std::countr_zero(stop)) / 8;
}

inline bool is_blank(std::string_view s) noexcept {
  for (const char c : s) {
    if (!is_json_space(c)) return false;
  }
  return true;
}

}  // namespace logagg
