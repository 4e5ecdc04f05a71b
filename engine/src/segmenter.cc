// Line-aligned segment cutting (see segmenter.h).
#include "logagg/segmenter.h"

#include <algorithm>
#include <cstring>

namespace logagg {

std::vector<Segment> cut_segments(std::string_view data, size_t nominal_bytes) {
  std::vector<Segment> segments;
  nominal_bytes = std::max<size_t>(nominal_bytes, 1);
  size_t begin = 0;
  while (begin < data.size()) {
    size_t end = data.size();
    if (data.size() - begin > nominal_bytes) {
      // Cut just past the first LF at or after the nominal end's last byte.
      const size_t from = begin + nominal_bytes - 1;
      const void* lf = std::memchr(data.data() + from, '\n', data.size() - from);
      if (lf != nullptr) end = static_cast<size_t>(static_cast<const char*>(lf) - data.data()) + 1;
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
