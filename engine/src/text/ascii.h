// ASCII byte classes shared by the line parser, the RFC 3339 parser, the
// stream reader (input.cc), the derived keys (line_keys.cc) and
// parse_bucketing (report/buckets.cc), so "digit", "letter" and "blank" mean
// one thing everywhere.
#pragma once

#include <string_view>

namespace logagg {

inline bool is_digit(char c) noexcept { return static_cast<unsigned>(c - '0') < 10u; }
inline bool is_alpha(char c) noexcept { return static_cast<unsigned>((c | 0x20) - 'a') < 26u; }

// JSON's insignificant whitespace. Inside a line only space, tab and CR occur
// (LF ends the line), so a line of these alone is a blank line.
inline bool is_json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline bool is_blank(std::string_view s) noexcept {
  for (const char c : s) {
    if (!is_json_space(c)) return false;
  }
  return true;
}

}  // namespace logagg
