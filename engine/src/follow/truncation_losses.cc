// Bytes truncated before they were read (see truncation_losses.h).
#include "follow/truncation_losses.h"

#include <algorithm>

namespace logagg {

void TruncationLosses::truncated(const std::string& path, const struct stat& st, uint64_t counted_to, uint64_t seen,
                                 Clock::time_point now) {
  Open o{{path, counted_to, std::max(seen, counted_to)},
         static_cast<uint64_t>(st.st_dev),
         static_cast<uint64_t>(st.st_ino),
         now};
  take_over(o, now);  // by a copy read before the truncation was seen
  if (!o.copied || o.loss.begin < o.loss.end) open_.push_back(std::move(o));
}

void TruncationLosses::continued(const FileTracker::Copy& copy, Clock::time_point now) {
  taken_.push_back({copy, now});
  for (Open& o : open_) {
    if (o.copied) continue;
    take_over(o, now);
    if (o.copied) o.since = {};  // told at once if anything is left
  }
  std::erase_if(open_, [](const Open& o) { return o.copied && o.loss.begin >= o.loss.end; });
}

void TruncationLosses::take_over(Open& o, Clock::time_point now) {
  const uint64_t from = o.loss.begin;
  std::erase_if(taken_, [&](const Taken& t) {
    // A copy of the file found while counting stood where it stands now,
    // holding at least what was counted.
    const FileTracker::Copy& c = t.copy;
    if (o.copied || now - t.since >= grace_ || c.device != o.device || c.inode != o.inode || c.offset != from ||
        c.bytes < from) {
      return false;
    }
    o.copied = true;
    o.loss.begin = std::max(o.loss.begin, c.bytes);  // what the copy does not hold is still lost
    return true;  // used up: a later truncation from the same offset is another one
  });
}

std::vector<TruncationLoss> TruncationLosses::due(Clock::time_point now, bool all) {
  std::erase_if(taken_, [&](const Taken& t) { return now - t.since >= grace_; });
  std::vector<TruncationLoss> out;
  std::erase_if(open_, [&](Open& o) {
    if (!all && now - o.since < grace_) return false;
    o.loss.copied = o.copied;
    out.push_back(std::move(o.loss));
    return true;
  });
  return out;
}

std::optional<TruncationLosses::Clock::time_point> TruncationLosses::next_due() const {
  std::optional<Clock::time_point> next;
  for (const Open& o : open_) {
    if (!next || o.since + grace_ < *next) next = o.since + grace_;
  }
  return next;
}

}  // namespace logagg
