// Cuts a buffer into line-aligned segments that worker threads process
// independently.
//
// Invariant: segments tile the buffer in order; every segment starts at a line
// start and ends just past a LF or at the end of the buffer. A nominal cut
// moves forward to just past the next LF, so a line longer than a segment
// still belongs to exactly one segment (the one in which it starts).
//
// Pure functions: thread-safe, no errors (nominal sizes below 1 count as 1).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include <absl/functional/function_ref.h>

namespace logagg {

struct Segment {
  size_t begin;
  size_t end;  // exclusive
};

// Segments of about `nominal_bytes` (>= 1) each; none for an empty buffer.
std::vector<Segment> cut_segments(std::string_view data, size_t nominal_bytes);

// The same cut of `size` bytes that are not in memory: `past_lf(pos)` says
// where the first line starting after byte `pos` starts (as past_next_lf in
// lines.h does for a buffer), and is asked once per cut. An answer outside
// (pos, size] is taken as the nearest end of that range, so a wrong callback
// cannot stop the cutting.
std::vector<Segment> cut_segments(size_t size, size_t nominal_bytes, absl::FunctionRef<size_t(size_t)> past_lf);

// The nominal segment size for `total_bytes` of input on `threads` workers:
// many more segments than threads (so a slow segment does not stall the
// rest), but large enough that per-segment overhead stays negligible.
size_t choose_segment_bytes(size_t total_bytes, unsigned threads);

}  // namespace logagg
