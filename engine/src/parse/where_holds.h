// A --where filter's (or --count-if predicate's) test of one line
// (Filter::holds, where.h), inline where the line's verdict is made: it runs
// for every filter of every line. A number compared with an integer, both of
// at most 18 digits (as most statuses and sizes are), is read here
// (FieldSeen::short_number: its digits 8 at a time, as the block parser's
// walk measured them) and tested against the range of integers the filter
// holds for; anything else goes to holds_otherwise (where.cc).
#pragma once

#include <cstdint>

#include "parse/field_targets.h"
#include "parse/short_number.h"
#include "parse/where.h"

namespace logagg {

inline bool Filter::holds(const FieldSeen& seen) const {
  ShortNumber n;
  int64_t i;
  if (ranged_ && seen.count == 1 && !seen.step_twice && (seen.is_string || seen.is_scalar) &&
      seen.short_number(n) && short_integer(n, i)) [[likely]] {
    return (static_cast<uint64_t>(i) - low_ <= span_) == inside_;
  }
  return holds_otherwise(seen);
}

}  // namespace logagg
