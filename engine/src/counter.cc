// Spilling per-thread counts and sorting the merged result (see counter.h).
#include "counter.h"

#include <algorithm>

namespace logagg {

void SharedCounts::add(const SecondMap& counts) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (counts_.empty()) counts_.reserve(counts.size());
  for (const auto& [second, count] : counts) counts_[second] += count;
}

std::vector<SecondCount> SharedCounts::take_sorted() {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<SecondCount> out;
  out.reserve(counts_.size());
  for (const auto& [second, count] : counts_) out.push_back({second, count});
  SecondMap().swap(counts_);  // release the table before sorting
  std::sort(out.begin(), out.end(),
            [](const SecondCount& a, const SecondCount& b) { return a.second < b.second; });
  return out;
}

void Counter::spill() {
  shared_->add(per_second_);
  SecondMap().swap(per_second_);
}

void Counter::spill_full_map() {
  shared_->add(per_second_);
  per_second_.clear();  // frees a large table; size it once for the next round
  per_second_.reserve(max_seconds_);
}

}  // namespace logagg
