// Merging and sorting per-thread counters (see counter.h).
#include "counter.h"

#include <algorithm>

namespace logagg {

void Counter::merge_from(const Counter& other) {
  for (const auto& [second, count] : other.per_second_) per_second_[second] += count;
  tally_.add(other.tally_);
}

std::vector<SecondCount> Counter::sorted_counts() const {
  std::vector<SecondCount> out;
  out.reserve(per_second_.size());
  for (const auto& [second, count] : per_second_) out.push_back({second, count});
  std::sort(out.begin(), out.end(),
            [](const SecondCount& a, const SecondCount& b) { return a.second < b.second; });
  return out;
}

}  // namespace logagg
