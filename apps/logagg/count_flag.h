// Whole-number flag values (--top, --max-apps) checked after parsing, shared
// by `logagg` and `logagg merge`, so that a bad value gets a message that
// names its flag and the numbers it takes.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

namespace logagg::cli {

// The value of `flag` as a whole number from 1 to `max`; throws
// CLI::ValidationError otherwise.
inline size_t parse_count(const std::string& flag, const std::string& text, size_t max = SIZE_MAX) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v == 0 || v > max) {
    throw CLI::ValidationError(flag + ": '" + text + "' is not a whole number " +
                               (max == SIZE_MAX ? std::string("of 1 or more") : "from 1 to " + std::to_string(max)));
  }
  return v;
}

}  // namespace logagg::cli
