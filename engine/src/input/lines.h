// Lines in a byte buffer: where the next one starts, and the padding every
// buffer handed to the line parser carries past its last line.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace logagg {

// Bytes readable past the end of a line, which the line parser may read
// (simdjson reads up to this many past a value; line_parser.cc checks that the
// two agree). Buffers that cannot offer them are copied by the parser.
inline constexpr size_t kLinePadding = 64;

// Just past the first LF at or after `from`, or data.size() if there is none
// (or `from` is past the end). The one place a line end is searched forward
// in memory: segments, --range pieces and split chunks are all cut here (and
// past_next_lf_in_file, input.h, does the same in a file not read through
// its mapping).
inline size_t past_next_lf(std::string_view data, size_t from) noexcept {
  if (from >= data.size()) return data.size();
  const void* lf = std::memchr(data.data() + from, '\n', data.size() - from);
  return lf == nullptr ? data.size() : static_cast<size_t>(static_cast<const char*>(lf) - data.data()) + 1;
}

}  // namespace logagg
