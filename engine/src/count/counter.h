// Counting: line verdicts into a tally, counted lines into a hash map keyed by
// UTC second, or with --by-app by (UTC second, app number) (app_table.h).
//
// Each worker owns a Counter, so the hot path shares nothing. Memory stays
// bounded by the number of distinct seconds, not threads x distinct seconds:
// a Counter whose map reaches its cap empties it into the one SharedCounts
// (under a mutex) and goes on with the same, already-sized map. With the
// default cap a worker holds at most ~1 M seconds (~12 days of traffic), so
// ordinary logs never spill before the end of the run.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "count/app_table.h"
#include "logagg/result.h"  // Summary, SecondCount, AppCount
#include "parse/line_verdict.h"

namespace logagg {

using SecondMap = absl::flat_hash_map<int64_t, uint64_t>;

struct AppSecond {
  int64_t second;
  uint32_t app;
  friend bool operator==(const AppSecond&, const AppSecond&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AppSecond& k) {
    return H::combine(std::move(h), k.second, k.app);
  }
};
using AppSecondMap = absl::flat_hash_map<AppSecond, uint64_t>;

// The merged counts of all workers.
class SharedCounts {
 public:
  // Adds every entry of `counts`. Thread-safe.
  void add(const SecondMap& counts);
  void add(const AppSecondMap& counts);
  // The counts ascending by second; leaves this empty, its memory released.
  std::vector<SecondCount> take_sorted();
  // The (second, app) counts, the apps renumbered by `order` (old number ->
  // new; kOther -> other_app), ascending by (second, new number); leaves them
  // empty, their memory released.
  std::vector<AppCount> take_app_sorted(const std::vector<uint32_t>& order, uint32_t other_app);

 private:
  std::mutex mu_;
  SecondMap counts_;
  AppSecondMap app_counts_;
};

class Counter {
 public:
  static constexpr size_t kDefaultMaxSeconds = size_t{1} << 20;

  // Counted lines outside [since, until) are tallied as outside the range.
  // With `apps` (--by-app), lines are counted per (second, app) instead.
  explicit Counter(SharedCounts& shared, int64_t since = INT64_MIN, int64_t until = INT64_MAX,
                   AppTable* apps = nullptr, size_t max_seconds = kDefaultMaxSeconds)
      : shared_(&shared), since_(since), until_(until), max_seconds_(max_seconds) {
    if (apps != nullptr) apps_.emplace(*apps);
  }

  void record(const LineVerdict& v) {
    ++tally_.lines;
    switch (v.status) {
      case LineStatus::kCounted:
        if (v.second < since_ || v.second >= until_) [[unlikely]] {
          ++tally_.outside_range;
          break;
        }
        ++tally_.counted;
        if (apps_) [[unlikely]] {
          ++per_app_second_[{v.second, apps_->id(v.app)}];
          if (per_app_second_.size() >= max_seconds_) spill_full_map();
          break;
        }
        ++per_second_[v.second];
        if (per_second_.size() >= max_seconds_) spill_full_map();
        break;
      case LineStatus::kBlank:
        ++tally_.blank;
        break;
      case LineStatus::kRejected:
        ++tally_.rejected[static_cast<size_t>(v.reason)];
        break;
    }
  }

  // Moves the remaining counts (per second, or per second and app) into the
  // shared counts (at the end).
  void spill();

  // lines, counted, outside_range, blank and rejected; the other fields stay zero.
  const Summary& tally() const { return tally_; }

 private:
  void spill_full_map();

  SharedCounts* shared_;
  int64_t since_, until_;
  size_t max_seconds_;
  SecondMap per_second_;
  std::optional<AppCache> apps_;  // with --by-app
  AppSecondMap per_app_second_;
  Summary tally_;
};

}  // namespace logagg
