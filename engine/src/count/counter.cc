// Spilling per-thread counts and sorting the merged result (see counter.h).
#include "count/counter.h"

#include <algorithm>

namespace logagg {

void SharedCounts::add(const SecondMap& counts) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (counts_.empty()) counts_.reserve(counts.size());
  for (const auto& [second, count] : counts) counts_[second] += count;
}

void SharedCounts::add(const AppSecondMap& counts) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (app_counts_.empty()) app_counts_.reserve(counts.size());
  for (const auto& [key, count] : counts) app_counts_[key] += count;
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

std::vector<AppCount> SharedCounts::take_app_sorted(const std::vector<uint32_t>& order, uint32_t other_app) {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<AppCount> out;
  out.reserve(app_counts_.size());
  for (const auto& [key, count] : app_counts_) {
    out.push_back({key.second, key.app == AppTable::kOther ? other_app : order[key.app], count});
  }
  AppSecondMap().swap(app_counts_);
  std::sort(out.begin(), out.end(), [](const AppCount& a, const AppCount& b) {
    return a.second != b.second ? a.second < b.second : a.app < b.app;
  });
  return out;
}

void Counter::spill() {
  shared_->add(per_second_);
  SecondMap().swap(per_second_);
  shared_->add(per_app_second_);
  AppSecondMap().swap(per_app_second_);
}

namespace {
template <typename Map>
void spill_and_resize(SharedCounts& shared, Map& map, size_t size) {
  shared.add(map);
  map.clear();  // frees a large table; size it once for the next round
  map.reserve(size);
}
}  // namespace

void Counter::spill_full_map() {
  if (per_second_.size() >= max_seconds_) spill_and_resize(*shared_, per_second_, max_seconds_);
  if (per_app_second_.size() >= max_seconds_) spill_and_resize(*shared_, per_app_second_, max_seconds_);
}

}  // namespace logagg
