// Bytes of a followed file truncated away before they were read (follower.h):
// a file found shorter than where counting stood, or started again, while
// bytes past that point had been seen. Most often logrotate's copytruncate
// copied them first, and the copy, known by its content, goes on from where
// counting stood: then nothing is lost. When no copy takes them over within
// a grace time (the copy removed before it was read, a truncation by hand),
// they are a loss, told with the file and the byte range, never silent.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "state/file_tracker.h"

namespace logagg {

struct TruncationLoss {
  std::string path;
  uint64_t begin = 0, end = 0;  // the bytes lost: [begin, end) of the file as it was
};

class TruncationLosses {
 public:
  using Clock = std::chrono::steady_clock;
  explicit TruncationLosses(Clock::duration grace) : grace_(grace) {}

  // File `path` (device, inode) was truncated: its bytes were counted up to
  // `counted_to`, and it had been seen `seen` bytes long.
  void truncated(const std::string& path, const struct stat& st, uint64_t counted_to, uint64_t seen,
                 Clock::time_point now);
  // A span that was read continues a record (`p.previous`) in another file
  // (a copy) holding `copy_bytes` of content: the truncated bytes it holds
  // are not lost, whether the truncation was seen already or is seen within
  // the grace time (a round that found the copy before the file shorter).
  void continued(const SpanPlan& p, uint64_t copy_bytes, Clock::time_point now);
  // The losses no copy took over within the grace time (with `all`: every
  // one still open), each told once.
  std::vector<TruncationLoss> due(Clock::time_point now, bool all);
  // When the next one falls due, if any is open.
  std::optional<Clock::time_point> next_due() const;

 private:
  struct Open {
    TruncationLoss loss;
    uint64_t device = 0, inode = 0;
    Clock::time_point since;
  };
  // A copy that continued a file from `offset`, holding `copy_bytes`.
  struct Taken {
    uint64_t device = 0, inode = 0, offset = 0, copy_bytes = 0;
    Clock::time_point since;
  };
  // What the copies in `taken_` (within the grace time at `now`) hold of
  // `o`'s bytes is not lost; those copies are used up.
  void take_over(Open& o, Clock::time_point now);
  Clock::duration grace_;
  std::vector<Open> open_;
  std::vector<Taken> taken_;
};

}  // namespace logagg
