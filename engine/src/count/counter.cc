// A worker's tally, spilling per-thread counts, closing a second's per-app counts,
// and sorting and adding up the merged result (see counter.h).
#include "count/counter.h"

#include <algorithm>

#include "count/count.h"

namespace logagg {

Summary Counter::tally() const {
  Summary t = tally_;
  for (uint32_t kinds = 0; kinds < by_kinds_.size(); ++kinds) {
    if (by_kinds_[kinds] != 0) add_kinds(t.fields, kinds, by_kinds_[kinds]);
  }
  return t;
}

void SharedCounts::add(const SecondMap& counts) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (counts_.empty()) counts_.reserve(counts.size());
  for (const auto& [second, count] : counts) counts_[second] += count;
}

namespace {

// Pairs in time order; the order of a second's pairs left as it is.
constexpr auto second_before = [](const AppCount& x, const AppCount& y) { return x.second < y.second; };

// Where the pairs of the second of pairs[i] that follow it end.
size_t block_end(const AppPairs& pairs, size_t i) {
  size_t j = i + 1;
  while (j < pairs.size() && pairs[j].second == pairs[i].second) ++j;
  return j;
}

// How many blocks ahead order_seconds looks for where the listing goes on.
constexpr size_t kLookAhead = 8;

// Puts one worker's list of pairs, listed a second at a time and mostly in
// time order, in time order (by second only: the pairs of a second stay
// together, in any order). The list's blocks of one second each are taken
// in turn: a block is taken out if it is below the last one kept (a second
// listed again, or late) or above where the listing goes on (one of the next
// kLookAhead blocks that follow the kept ones starts below it: a second far
// off, as a bad clock gives, maybe several in a row); the others are kept,
// moved down in order over the places of those taken out. The blocks taken
// out are put in order the same way, and the two lists are merged once. A
// list of which more than an eighth is taken out (seconds descending, or in
// any order) is sorted with std::sort instead, which needs less memory and
// is faster on it; so each level of the recursion has at most an eighth of
// the pairs of the one above. The bench corpus's valid times far off had
// split its pairs into thousands of runs, merged in passes over the whole
// list at the end.
void order_seconds(AppPairs& pairs) {
  std::vector<size_t> starts;  // where each block starts, then the end
  for (size_t i = 0; i < pairs.size(); i = block_end(pairs, i)) starts.push_back(i);
  starts.push_back(pairs.size());
  const size_t blocks = starts.size() - 1;
  AppPairs out_of_order;
  size_t kept = 0;  // pairs[0, kept) are the blocks kept, in order
  const auto follows_kept = [&](size_t b) { return kept == 0 || pairs[starts[b]].second >= pairs[kept - 1].second; };
  const auto far_off = [&](size_t b) {
    for (size_t c = b + 1; c < std::min(blocks, b + 1 + kLookAhead); ++c) {
      if (follows_kept(c) && pairs[starts[c]].second < pairs[starts[b]].second) return true;
    }
    return false;
  };
  for (size_t b = 0; b < blocks; ++b) {
    const auto first = pairs.begin() + static_cast<ptrdiff_t>(starts[b]);
    const auto last = pairs.begin() + static_cast<ptrdiff_t>(starts[b + 1]);
    if (follows_kept(b) && !far_off(b)) {
      if (kept != starts[b]) std::move(first, last, pairs.begin() + static_cast<ptrdiff_t>(kept));
      kept += starts[b + 1] - starts[b];
    } else if ((out_of_order.size() + (starts[b + 1] - starts[b])) * 8 > pairs.size()) {
      // Far from time order: put back what was taken out (it fills the
      // places between the kept blocks and this one) and sort it all.
      std::copy(out_of_order.begin(), out_of_order.end(), pairs.begin() + static_cast<ptrdiff_t>(kept));
      std::sort(pairs.begin(), pairs.end(), second_before);
      return;
    } else {
      out_of_order.insert(out_of_order.end(), first, last);
    }
  }
  if (out_of_order.empty()) return;
  order_seconds(out_of_order);
  std::copy(out_of_order.begin(), out_of_order.end(), pairs.begin() + static_cast<ptrdiff_t>(kept));
  std::inplace_merge(pairs.begin(), pairs.begin() + static_cast<ptrdiff_t>(kept), pairs.end(), second_before);
}

// Merges the runs of `pairs` in time order that start at `runs` (ascending,
// the first 0), neighbours with neighbours, halving their number each pass.
void merge_runs(AppPairs& pairs, std::vector<size_t> runs) {
  runs.push_back(pairs.size());
  while (runs.size() > 2) {
    std::vector<size_t> merged;
    for (size_t k = 0; k + 1 < runs.size(); k += 2) {
      merged.push_back(runs[k]);
      if (k + 2 < runs.size()) {
        const auto at = [&](size_t r) { return pairs.begin() + static_cast<ptrdiff_t>(runs[r]); };
        std::inplace_merge(at(k), at(k + 1), at(k + 2), second_before);
      }
    }
    merged.push_back(pairs.size());
    runs.swap(merged);
  }
}

// Sorts `pairs`, in time order, by (second, app), and adds up the counts of
// equal pairs: each second's pairs on their own. A second with many pairs
// for the apps there are (at least an eighth as many: the bench corpus has
// about 230 of its 300 apps in every second) is counted into an array by app
// number and read back in order, where std::sort mispredicted, a measurable
// share of a --by-app run (docs/bench-notes/2026-12-02-by-app.md); fewer are
// sorted. kOther, numbered above every app, comes last either way.
void sort_seconds_and_add_up(AppPairs& pairs) {
  uint32_t apps = 0;  // above every app number but kOther
  for (const AppCount& c : pairs) {
    if (c.app != AppTable::kOther) apps = std::max(apps, c.app + 1);
  }
  std::vector<uint64_t> by_app;  // sized at the first dense second, then zero between seconds
  size_t out = 0;
  for (size_t i = 0; i < pairs.size();) {
    const size_t j = block_end(pairs, i);
    const int64_t second = pairs[i].second;
    if ((j - i) * 8 >= apps) {
      by_app.resize(apps);
      uint64_t other = 0;
      for (size_t k = i; k < j; ++k) (pairs[k].app == AppTable::kOther ? other : by_app[pairs[k].app]) += pairs[k].count;
      // out <= i: the block's pairs are all read before any is written. No
      // pair has a count of 0 (close() lists counts of 1 or more), so an
      // app with none in the array had no pair.
      for (uint32_t app = 0; app < apps; ++app) {
        if (by_app[app] == 0) continue;
        pairs[out++] = {second, app, by_app[app]};
        by_app[app] = 0;
      }
      if (other != 0) pairs[out++] = {second, AppTable::kOther, other};
    } else {
      std::sort(pairs.begin() + static_cast<ptrdiff_t>(i), pairs.begin() + static_cast<ptrdiff_t>(j), row_before);
      for (size_t k = i; k < j; ++k) {
        if (k > i && pairs[out - 1].app == pairs[k].app) {
          pairs[out - 1].count += pairs[k].count;
        } else {
          pairs[out++] = pairs[k];
        }
      }
    }
    i = j;
  }
  pairs.resize(out);
}

}  // namespace

void SharedCounts::add(AppPairs& pairs) {
  order_seconds(pairs);  // by the worker that listed them, before the lock
  const std::lock_guard<std::mutex> lock(mu_);
  app_runs_.push_back(app_pairs_.size());
  if (app_pairs_.empty()) {
    app_pairs_.swap(pairs);
  } else {
    app_pairs_.insert(app_pairs_.end(), pairs.begin(), pairs.end());
  }
  pairs.clear();
  if (app_pairs_.size() >= compact_at_) {
    merge_runs(app_pairs_, app_runs_);
    sort_seconds_and_add_up(app_pairs_);
    app_runs_.assign(1, 0);
    compact_at_ = std::max(compact_at_, 2 * app_pairs_.size());
  }
}

std::vector<SecondCount> SharedCounts::take_sorted() {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<SecondCount> out;
  out.reserve(counts_.size());
  for (const auto& [second, count] : counts_) out.push_back({second, count});
  SecondMap().swap(counts_);  // release the table before sorting
  std::sort(out.begin(), out.end(), row_before);
  return out;
}

std::vector<AppCount> SharedCounts::take_app_sorted(const std::vector<uint32_t>& order, uint32_t other_app) {
  const std::lock_guard<std::mutex> lock(mu_);
  AppPairs out;
  out.swap(app_pairs_);
  for (AppCount& c : out) c.app = c.app == AppTable::kOther ? other_app : order[c.app];
  merge_runs(out, app_runs_);
  app_runs_.clear();
  sort_seconds_and_add_up(out);
  out.shrink_to_fit();
  return out;
}

void Counter::spill() {
  if (measures_) measures_->spill();
  end_run();
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
