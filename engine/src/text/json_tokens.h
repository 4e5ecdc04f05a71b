// Checks of JSON tokens that simdjson's stage 1 leaves to a parser, shared by
// the per-line parser (parse/line_parser.cc), the block parser
// (parse/block_parser.cc) and Decimal: the number grammar, and the text of a
// token. Header-only.
#pragma once

#include <cstring>
#include <string_view>

#include "text/ascii.h"

namespace logagg {

// RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
// Inline: both parsers call it for every number of every line.
inline bool is_json_number(std::string_view s) noexcept {
  const char* p = s.data();
  const char* const end = p + s.size();
  if (p != end && *p == '-') ++p;
  if (p == end) return false;
  if (*p == '0') {
    ++p;
  } else if (is_digit(*p)) {
    while (p != end && is_digit(*p)) ++p;
  } else {
    return false;
  }
  if (p != end && *p == '.') {
    ++p;
    if (p == end || !is_digit(*p)) return false;
    while (p != end && is_digit(*p)) ++p;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !is_digit(*p)) return false;
    while (p != end && is_digit(*p)) ++p;
  }
  return p == end;
}

inline std::string_view trim_trailing_space(std::string_view s) noexcept {
  // Most tokens end in a byte above ' ', which no JSON space is.
  if (s.empty() || static_cast<unsigned char>(s.back()) > ' ') [[likely]]
    return s;
  while (!s.empty() && is_json_space(s.back())) s.remove_suffix(1);
  return s;
}

inline bool has_backslash(std::string_view s) noexcept { return std::memchr(s.data(), '\\', s.size()) != nullptr; }

}  // namespace logagg
