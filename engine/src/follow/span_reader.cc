// Reading --follow's spans into memory (see span_reader.h).
#include "follow/span_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "input/input.h"
#include "state/file_tracker.h"

namespace logagg {

bool read_span(int fd, SpanPlan& p, ReadBuffer& buffer, uint64_t& budget, uint64_t round_bytes) {
  const uint64_t begin = p.span.begin, planned_end = p.span.end;
  const uint64_t before = std::min<uint64_t>(begin, kFingerprintBytes);
  const bool capped = planned_end - begin > budget;
  const auto size = static_cast<size_t>((capped ? budget : planned_end - begin) + before);
  char* const buf = buffer.reserve(size);
  const ssize_t n = pread_all(fd, buf, size, begin - before);  // bytes [begin - before, begin + what fits)
  const size_t got = n < 0 ? 0 : static_cast<size_t>(n);
  const std::string_view bytes(buf, got);
  // When the read starts at the file's start (begin within its first bytes),
  // those bytes must be the ones planned: a file truncated and written again
  // since the plan has no other bytes before the span to tell it by.
  const size_t head = begin <= kFingerprintBytes ? std::min(got, p.next.head.size()) : 0;
  struct stat now {};
  const bool changed = got < size || ::fstat(fd, &now) != 0 || static_cast<uint64_t>(now.st_size) < planned_end ||
                       fingerprint_hash(bytes.substr(0, static_cast<size_t>(before))) != p.previous.tail_hash ||
                       bytes.substr(0, head) != std::string_view(p.next.head).substr(0, head);
  const size_t last_lf = bytes.rfind('\n');
  const bool no_line = capped && (last_lf == std::string_view::npos || last_lf < before);
  bool left = false, mapped = false;
  if (no_line && !changed) {
    // A line that does not fit what is left of the round: the next round's,
    // unless it is longer than a whole round.
    const uint64_t read_to = begin + got - before, round_end = std::min(planned_end, begin + round_bytes);
    std::string block(size_t{1} << 20, '\0');  // the line end is searched for in blocks of this many bytes
    if (past_next_lf_in_file(fd, read_to, round_end, block) || planned_end == round_end) {
      left = true;
    } else {  // one line longer than a round: mapped by the engine
      p.span.end = past_next_lf_in_file(fd, round_end, planned_end, block).value_or(planned_end);
      left = p.span.end < planned_end;
      mapped = true;
    }
  }
  if (changed || (no_line && !mapped)) {  // nothing of it this round
    p.next = p.previous;
    p.span.end = begin;
  } else if (capped && !mapped) {
    p.span.end = begin + last_lf + 1 - before;
    left = true;
  }
  if (left) {
    p.next.mtime_ns = -1;  // not "unchanged" next round: the rest of the file is still to read
    if (p.span.end > begin) {
      p.next.offset = p.span.end;
      p.next.tail_hash = tail_hash_before(fd, p.span.end).value_or(0);
      if (p.span.end <= kFingerprintBytes) {
        p.next.head_bytes = p.span.end;
        p.next.head = p.next.head.substr(0, static_cast<size_t>(p.span.end));
        p.next.head_hash = fingerprint_hash(p.next.head);
      }
    }
  }
  budget -= std::min(budget, p.span.end - begin);
  if (!mapped) {  // counted from memory
    p.span.text = std::string_view(buf + before, static_cast<size_t>(p.span.end - begin));
    p.span.path.clear();
  }
  return left;
}


}  // namespace logagg
