// A followed file truncated (follower.h): found shorter than where counting
// stood, or started again. Most often logrotate's copytruncate copied it
// first, and the copy, known by its content, goes on from where counting
// stood: then nothing is lost. When no copy takes it over within a grace
// time (the copy removed before it was read, or put out of sight, a
// truncation by hand), it is told, never silent: the bytes seen past where
// counting stood as a loss with their range, and in any case that bytes
// written after the last look at the file could not be counted.
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
  uint64_t begin = 0, end = 0;  // the bytes seen and lost: [begin, end) of the file as it was (may be empty)
  bool copied = false;          // a copy holds what was counted: bytes written after the last look are in it
};

class TruncationLosses {
 public:
  using Clock = std::chrono::steady_clock;
  explicit TruncationLosses(Clock::duration grace) : grace_(grace) {}

  // File `path` (device, inode) was truncated: its bytes were counted up to
  // `counted_to`, and it had been seen `seen` bytes long.
  void truncated(const std::string& path, const struct stat& st, uint64_t counted_to, uint64_t seen,
                 Clock::time_point now);
  // A plan found a copy of a file's record (FileTracker::copies): the
  // truncated bytes it holds are not lost, whether the truncation was seen
  // already or is seen within the grace time (a round that found the copy
  // before the file shorter).
  void continued(const FileTracker::Copy& copy, Clock::time_point now);
  // The truncations no copy took over within the grace time (with `all`:
  // every one still open), each told once.
  std::vector<TruncationLoss> due(Clock::time_point now, bool all);
  // When the next one falls due, if any is open.
  std::optional<Clock::time_point> next_due() const;

 private:
  struct Open {
    TruncationLoss loss;
    uint64_t device = 0, inode = 0;
    Clock::time_point since;
    bool copied = false;  // a copy holds what was counted: only what it does not hold of the range is lost
  };
  // A copy of a file, found at `since`.
  struct Taken {
    FileTracker::Copy copy;
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
