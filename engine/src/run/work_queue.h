// The queue a run's workers share: the inputs still to open, then the
// segments of the inputs opened, for any worker (run/aggregate.cc).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "run/source.h"

namespace logagg {

struct SegmentItem {
  Source* source;
  uint32_t segment;
};

// The shared queue: the inputs still to open, then the segments to scan.
class WorkQueue {
 public:
  explicit WorkQueue(size_t inputs) : inputs_(inputs) {}

  // The next task for a worker: an input to open while any is left, then the
  // segments; false when all is done. Opening first spreads the inputs that
  // cannot be split (compressed files, streams) over the workers early. Waits
  // while other workers are still opening inputs that may add segments.
  bool next(SegmentItem& segment, size_t& input, bool& is_segment) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (next_input_ < inputs_) {
        input = next_input_++;
        ++opening_;
        is_segment = false;
        return true;
      }
      if (!segments_.empty()) {
        segment = segments_.front();
        segments_.pop_front();
        is_segment = true;
        return true;
      }
      if (opening_ == 0) return false;
      ready_.wait(lock);
    }
  }

  // An input has been opened; its segments (if any, and if shared) are ready
  // for everyone.
  void opened(Source& src, bool share_segments) {
    std::lock_guard lock(mutex_);
    if (share_segments) {
      for (uint32_t j = 0; j < src.segments.size(); ++j) segments_.push_back({&src, j});
    }
    --opening_;
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<SegmentItem> segments_;
  size_t inputs_;
  size_t next_input_ = 0;
  size_t opening_ = 0;
};

// The worker threads of a run: `requested`, or the hardware threads for 0.
inline unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace logagg
