// A measured result's rows (--sum, --quantiles, --count-if) as (second, key
// tuple, cell): the form in which result documents read back and results
// added up (merge) put their rows in order and add equal ones, cells and all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logagg/measures.h"
#include "logagg/result.h"

namespace logagg {

struct MeasuredRow {
  int64_t second;
  std::string key;  // the key tuple; empty without keys
  MeasureCell cell;
};

// The rows of a measured `result` (cells beside counts, or app_counts when keyed).
std::vector<MeasuredRow> measured_rows(const Result& result, bool keyed);

// Sorts `rows` by second then key (app_before), adds up equal ones, and sets
// result.apps (when keyed), counts, app_counts and cells (laid out by
// `spec`) from them.
void set_measured_rows(std::vector<MeasuredRow> rows, const MeasureSpec& spec, bool keyed, Result& result);

}  // namespace logagg
