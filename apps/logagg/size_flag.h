// Byte sizes given on the command line ("64K", "128M"), shared by `logagg
// split --max-size` and `logagg --list-inputs --piece-size` (which the Dask
// driver passes its own --piece-size to), so that every size is read, and
// refused, the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace logagg::cli {

// The value of `flag`: "1024", "64K", "1M", "2G" (K, M, G: powers of 1024,
// either case) -> bytes, at least 1. Throws CLI::ValidationError otherwise.
inline uint64_t parse_size(const std::string& flag, const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string suffix = text.substr(digits);
  int shift = -1;
  if (suffix.empty()) shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  if (suffix == "M" || suffix == "m") shift = 20;
  if (suffix == "G" || suffix == "g") shift = 30;
  uint64_t value = 0;
  bool overflow = false;
  for (size_t i = 0; i < digits; ++i) {
    overflow = overflow || value > (UINT64_MAX - 9) / 10;
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (digits == 0 || shift < 0) {
    throw CLI::ValidationError(flag + ": " + text + " is not a size (a number, optionally followed by K, M or G)");
  }
  if (overflow || value > (UINT64_MAX >> shift)) throw CLI::ValidationError(flag + ": " + text + " is too large");
  if (value == 0) throw CLI::ValidationError(flag + ": must be at least 1 byte");
  return value << shift;
}

}  // namespace logagg::cli
