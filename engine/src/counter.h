// Per-thread counting: line verdicts into a tally and counted lines into an
// abseil flat hash map keyed by UTC second. Each worker owns one Counter; they
// are merged once at the end, so the hot path shares nothing between threads.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/line_verdict.h"

namespace logagg {

class Counter {
 public:
  void record(const LineVerdict& v) {
    ++tally_.lines;
    switch (v.status) {
      case LineStatus::kCounted:
        ++tally_.counted;
        ++per_second_[v.second];
        break;
      case LineStatus::kBlank:
        ++tally_.blank;
        break;
      case LineStatus::kRejected:
        ++tally_.rejected[static_cast<size_t>(v.reason)];
        break;
    }
  }

  // Adds `other`'s counts into this one.
  void merge_from(const Counter& other);

  // The per-second counts, ascending by second.
  std::vector<SecondCount> sorted_counts() const;

  // lines, counted, blank and rejected; the other fields stay zero.
  const Summary& tally() const { return tally_; }

 private:
  absl::flat_hash_map<int64_t, uint64_t> per_second_;
  Summary tally_;
};

}  // namespace logagg
