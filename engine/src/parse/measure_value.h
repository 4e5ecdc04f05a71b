// Reading a measured field's value (--sum, --quantiles): a JSON number, or a
// string that is one (nginx writes "0.004"), from its decimal text, never
// through a double for the sum.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/line_verdict.h"  // MeasureValue

namespace logagg {

// The value `text` writes, into `out`: false for text that is not a JSON
// number (" 1", "0x10", "1.", "") and for a number whose magnitude a double
// cannot hold (past 1.8e308, or not zero and below 4.9e-324): those are no
// usable value (`out` is then left in any state). Read in place for every
// measured field of every counted line.
bool read_measure(std::string_view text, MeasureValue& out) noexcept;

// The same, for a value that read_short_measure (short_measure.h) does not
// take: one with an exponent, or of more than 19 digits.
bool read_long_measure(std::string_view text, MeasureValue& out) noexcept;

// The same as an optional, for the callers off the per-line path.
inline std::optional<MeasureValue> read_measure(std::string_view text) noexcept {
  MeasureValue v;
  if (!read_measure(text, v)) return std::nullopt;
  return v;
}

}  // namespace logagg
