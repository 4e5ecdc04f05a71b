// Counting: line verdicts into a tally, counted lines into a hash map keyed by
// UTC second.
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
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/line_verdict.h"

namespace logagg {

using SecondMap = absl::flat_hash_map<int64_t, uint64_t>;

// The merged per-second counts of all workers.
class SharedCounts {
 public:
  // Adds every entry of `counts`. Thread-safe.
  void add(const SecondMap& counts);
  // The counts ascending by second; leaves this empty, its memory released.
  std::vector<SecondCount> take_sorted();

 private:
  std::mutex mu_;
  SecondMap counts_;
};

class Counter {
 public:
  static constexpr size_t kDefaultMaxSeconds = size_t{1} << 20;

  // Counted lines outside [since, until) are tallied as outside the range.
  explicit Counter(SharedCounts& shared, int64_t since = INT64_MIN, int64_t until = INT64_MAX,
                   size_t max_seconds = kDefaultMaxSeconds)
      : shared_(&shared), since_(since), until_(until), max_seconds_(max_seconds) {}

  void record(const LineVerdict& v) {
    ++tally_.lines;
    switch (v.status) {
      case LineStatus::kCounted:
        if (v.second < since_ || v.second >= until_) [[unlikely]] {
          ++tally_.outside_range;
          break;
        }
        ++tally_.counted;
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

  // Moves the remaining per-second counts into the shared counts (at the end).
  void spill();

  // lines, counted, outside_range, blank and rejected; the other fields stay zero.
  const Summary& tally() const { return tally_; }

 private:
  void spill_full_map();

  SharedCounts* shared_;
  int64_t since_, until_;
  size_t max_seconds_;
  SecondMap per_second_;
  Summary tally_;
};

}  // namespace logagg
