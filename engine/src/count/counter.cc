// Spilling per-thread counts, closing a second's per-app counts, and sorting
// and adding up the merged result (see counter.h).
#include "count/counter.h"

#include <algorithm>

#include "count/result_order.h"

namespace logagg {

void SharedCounts::add(const SecondMap& counts) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (counts_.empty()) counts_.reserve(counts.size());
  for (const auto& [second, count] : counts) counts_[second] += count;
}

namespace {

// Sorts `pairs` by (second, app) and adds up the counts of equal pairs. The
// pairs were listed a second at a time, mostly in time order: each second's
// run of pairs is sorted on its own (it is small), and the runs that are then
// already in order are merged, not sorted again: one merge for a log read in
// time order, a few for several workers or spills.
void sort_and_add_up(AppPairs& pairs) {
  const auto before = row_before<AppCount>;
  std::vector<size_t> runs{0};  // where each sorted run starts, then the end
  for (size_t i = 0; i < pairs.size();) {
    size_t j = i + 1;
    while (j < pairs.size() && pairs[j].second == pairs[i].second) ++j;
    std::sort(pairs.begin() + static_cast<ptrdiff_t>(i), pairs.begin() + static_cast<ptrdiff_t>(j), before);
    if (i > 0 && before(pairs[i], pairs[i - 1])) runs.push_back(i);
    i = j;
  }
  runs.push_back(pairs.size());
  while (runs.size() > 2) {  // merge neighbouring runs, halving their number
    std::vector<size_t> merged;
    for (size_t k = 0; k + 1 < runs.size(); k += 2) {
      merged.push_back(runs[k]);
      if (k + 2 < runs.size()) {
        const auto at = [&](size_t r) { return pairs.begin() + static_cast<ptrdiff_t>(runs[r]); };
        std::inplace_merge(at(k), at(k + 1), at(k + 2), before);
      }
    }
    merged.push_back(pairs.size());
    runs.swap(merged);
  }
  size_t out = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (out > 0 && pairs[out - 1].second == pairs[i].second && pairs[out - 1].app == pairs[i].app) {
      pairs[out - 1].count += pairs[i].count;
    } else {
      pairs[out++] = pairs[i];
    }
  }
  pairs.resize(out);
}

}  // namespace

void SharedCounts::add(AppPairs& pairs) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (app_pairs_.empty()) {
    app_pairs_.swap(pairs);
  } else {
    app_pairs_.insert(app_pairs_.end(), pairs.begin(), pairs.end());
  }
  pairs.clear();
  if (app_pairs_.size() >= compact_at_) {
    sort_and_add_up(app_pairs_);
    compact_at_ = std::max(compact_at_, 2 * app_pairs_.size());
  }
}

std::vector<SecondCount> SharedCounts::take_sorted() {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<SecondCount> out;
  out.reserve(counts_.size());
  for (const auto& [second, count] : counts_) out.push_back({second, count});
  SecondMap().swap(counts_);  // release the table before sorting
  std::sort(out.begin(), out.end(), row_before<SecondCount>);
  return out;
}

std::vector<AppCount> SharedCounts::take_app_sorted(const std::vector<uint32_t>& order, uint32_t other_app) {
  const std::lock_guard<std::mutex> lock(mu_);
  AppPairs out;
  out.swap(app_pairs_);
  for (AppCount& c : out) c.app = c.app == AppTable::kOther ? other_app : order[c.app];
  sort_and_add_up(out);
  out.shrink_to_fit();
  return out;
}

void Counter::spill() {
  shared_->add(per_second_);
  SecondMap().swap(per_second_);
  close(open_[1]);
  close(open_[0]);
  shared_->add(app_pairs_);
  AppPairs().swap(app_pairs_);  // its memory released
}

void Counter::close(OpenSecond& s) {
  if (!s.open) return;
  for (const uint32_t app : s.apps) {
    app_pairs_.push_back({s.second, app, s.counts[app]});
    s.counts[app] = 0;
  }
  s.apps.clear();
  if (s.other != 0) app_pairs_.push_back({s.second, AppTable::kOther, s.other});
  s.other = 0;
  s.open = false;
}

Counter::OpenSecond& Counter::switch_to(int64_t second) {
  if (!open_[1].open || open_[1].second != second) {
    close(open_[1]);
    if (app_pairs_.size() >= max_seconds_) shared_->add(app_pairs_);
    // The whole list at once, address space only (pages are used as pairs
    // are listed), so it never moves while it grows.
    if (app_pairs_.capacity() < max_seconds_) app_pairs_.reserve(max_seconds_);
    open_[1].open = true;
    open_[1].second = second;
  }
  std::swap(open_[0], open_[1]);
  return open_[0];
}

void Counter::spill_full_map() {
  shared_->add(per_second_);
  per_second_.clear();  // frees a large table; size it once for the next round
  per_second_.reserve(max_seconds_);
}

}  // namespace logagg
