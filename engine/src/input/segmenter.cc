// Line-aligned segment cutting (cut_segments of input.h).
#include "input/input.h"

#include <algorithm>

#include "text/lines.h"

namespace logagg {

std::vector<Segment> cut_segments(std::string_view data, size_t nominal_bytes) {
  return cut_segments(data.size(), nominal_bytes, [data](size_t pos) { return past_next_lf(data, pos); });
}

std::vector<Segment> cut_segments(size_t size, size_t nominal_bytes, absl::FunctionRef<size_t(size_t)> past_lf) {
  std::vector<Segment> segments;
  nominal_bytes = std::max<size_t>(nominal_bytes, 1);
  size_t begin = 0;
  while (begin < size) {
    size_t end = size;
    if (size - begin > nominal_bytes) {
      // Cut just past the first LF at or after the nominal end's last byte.
      const size_t last = begin + nominal_bytes - 1;
      end = std::clamp(past_lf(last), last + 1, size);
    }
    segments.push_back({begin, end});
    begin = end;
  }
  return segments;
}

size_t choose_segment_bytes(size_t total_bytes, unsigned threads) {
  constexpr size_t kMin = size_t{64} << 10;
  constexpr size_t kMax = size_t{4} << 20;
  constexpr size_t kSegmentsPerThread = 16;
  return std::clamp(total_bytes / (std::max(threads, 1u) * kSegmentsPerThread), kMin, kMax);
}

}  // namespace logagg
