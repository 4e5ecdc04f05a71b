// Reading a measured field's value (--sum, --quantiles): a JSON number, or a
// string that is one (nginx writes "0.004"), from its decimal text, never
// through a double for the sum.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "logagg/measures.h"

namespace logagg {

struct MeasureValue {
  double real;    // the nearest double: for the quantiles, min and max
  FixedSum fixed; // exact to 18 fraction digits, rounded half to even past them; overflowed past +-1.7e20
  int digits;     // fraction digits as written, after the exponent (1.5e-3: 4), at most 18
};

// The value `text` writes: nullopt for text that is not a JSON number (" 1",
// "0x10", "1.", "") and for a number whose magnitude a double cannot hold
// (past 1.8e308, or not zero and below 4.9e-324): those are no usable value.
std::optional<MeasureValue> read_measure(std::string_view text) noexcept;

// What the measures read from one counted line: each measured field's value
// (MeasureSpec::fields' order; nullopt: none usable), and which --count-if
// predicates hold (bit i for Question::count_if[i]).
struct LineMeasures {
  std::vector<std::optional<MeasureValue>> values;
  uint64_t matched = 0;
};

}  // namespace logagg
