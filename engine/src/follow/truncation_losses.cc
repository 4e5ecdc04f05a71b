// Bytes truncated before they were read (see truncation_losses.h).
#include "follow/truncation_losses.h"

#include <algorithm>

namespace logagg {

void TruncationLosses::truncated(const std::string& path, const struct stat& st, uint64_t counted_to, uint64_t seen,
                                 Clock::time_point now) {
  if (seen <= counted_to) return;  // everything seen was counted
  open_.push_back({{path, counted_to, seen}, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), now});
}

void TruncationLosses::continued(const SpanPlan& p, uint64_t copy_bytes) {
  for (Open& o : open_) {
    if (o.device != p.previous.device || o.inode != p.previous.inode || o.loss.begin != p.previous.offset) continue;
    o.loss.begin = std::max(o.loss.begin, copy_bytes);  // what the copy does not hold is still lost
    o.since = {};  // told at once if anything is left
  }
  std::erase_if(open_, [](const Open& o) { return o.loss.begin >= o.loss.end; });
}

std::vector<TruncationLoss> TruncationLosses::due(Clock::time_point now, bool all) {
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
