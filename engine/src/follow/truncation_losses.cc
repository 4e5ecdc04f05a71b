// Bytes truncated before they were read (see truncation_losses.h).
#include "follow/truncation_losses.h"

#include <algorithm>

namespace logagg {

void TruncationLosses::truncated(const std::string& path, const struct stat& st, uint64_t counted_to, uint64_t seen,
                                 Clock::time_point now) {
  if (seen <= counted_to) return;  // everything seen was counted
  Open o{{path, counted_to, seen}, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), now};
  take_over(o, now);  // by a copy read before the truncation was seen
  if (o.loss.begin < o.loss.end) open_.push_back(std::move(o));
}

void TruncationLosses::continued(const SpanPlan& p, uint64_t copy_bytes, Clock::time_point now) {
  taken_.push_back({p.previous.device, p.previous.inode, p.previous.offset, copy_bytes, now});
  for (Open& o : open_) {
    const uint64_t begin = o.loss.begin;
    take_over(o, now);
    if (o.loss.begin != begin) o.since = {};  // told at once if anything is left
  }
  std::erase_if(open_, [](const Open& o) { return o.loss.begin >= o.loss.end; });
}

void TruncationLosses::take_over(Open& o, Clock::time_point now) {
  const uint64_t from = o.loss.begin;
  std::erase_if(taken_, [&](const Taken& t) {
    if (now - t.since >= grace_ || t.device != o.device || t.inode != o.inode || t.offset != from) return false;
    o.loss.begin = std::max(o.loss.begin, t.copy_bytes);  // what the copy does not hold is still lost
    return true;  // used up: a later truncation from the same offset is another one
  });
}

std::vector<TruncationLoss> TruncationLosses::due(Clock::time_point now, bool all) {
  std::erase_if(taken_, [&](const Taken& t) { return now - t.since >= grace_; });
  std::vector<TruncationLoss> out;
  std::erase_if(open_, [&](Open& o) {
    if (!all && now - o.since < grace_) return false;
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
