// Lines in a byte buffer: where the next one ends, and the padding every
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

// Where the first LF at or after `from` is, or std::string_view::npos if
// there is none (or `from` is past the end). With past_next_lf below, the
// one place a line end is searched forward in memory: segments, --range
// pieces, split chunks and the block parser's blocks are all cut here, the
// stream reader finds the end of an over-long line here, and
// past_next_lf_in_file (input/input.h) searches the bytes it preads with it. The
// one exception is the block parser's line search (find_lines in
// parse/block_parser.cc), which finds every LF of a block 64 bytes at a
// time and prefetches ahead of itself: the first pass over mapped bytes, on
// the measured hot path (docs/performance.md).
inline size_t next_lf(std::string_view data, size_t from) noexcept {
  if (from >= data.size()) return std::string_view::npos;
  const void* lf = std::memchr(data.data() + from, '\n', data.size() - from);
  return lf == nullptr ? std::string_view::npos : static_cast<size_t>(static_cast<const char*>(lf) - data.data());
}

// Just past the first LF at or after `from`, or data.size() if there is none
// (or `from` is past the end).
inline size_t past_next_lf(std::string_view data, size_t from) noexcept {
  const size_t lf = next_lf(data, from);
  return lf == std::string_view::npos ? data.size() : lf + 1;
}

}  // namespace logagg
