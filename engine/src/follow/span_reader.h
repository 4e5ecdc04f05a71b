// Reading what is new in a followed file (follower.cc): a span planned by
// state/file_tracker.h, read with pread into memory, at most a round's bytes,
// and checked against what was planned, so that a span is counted whole or
// not at all whatever happens to the file meanwhile (copytruncate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "state/file_tracker.h"

namespace logagg {

// A read buffer, grown without being zeroed and kept from round to round,
// so that a catch-up does not fault in fresh pages every round.
class ReadBuffer {
 public:
  char* reserve(size_t n) {
    if (n > capacity_) {
      data_ = std::make_unique_for_overwrite<char[]>(n);
      capacity_ = n;
    }
    return data_.get();
  }
  size_t capacity() const { return capacity_; }
  void release() {
    data_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
};

// Reads a plain span's bytes into `buffer`, with the kFingerprintBytes before
// it, at most `budget` of them (what is left of the round's `round_bytes`;
// `budget` comes down by what is read): up to their last whole line, the rest
// left for the next round (returns whether bytes were left). If the file changed
// under the read (copytruncate: shorter than planned, other bytes before the
// span, or other first bytes than planned), nothing of it counts this round
// and its record stays where it was: the next round sees the truncation, and
// the copy goes on from there. So a span is counted whole or not at all. One
// line longer than a whole round is not read into memory: the span is cut
// after it and the engine maps it (one line: it too counts whole or not at
// all), in whichever round it comes to, so that it is never starved.
bool read_span(int fd, SpanPlan& p, ReadBuffer& buffer, uint64_t& budget, uint64_t round_bytes);

}  // namespace logagg
