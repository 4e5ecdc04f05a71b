// Reading an opened input into a worker's counter: a stream (plain or
// compressed) to its end, or one segment of a mapped file, through the
// mapping or, for a cold file, with pread.
#pragma once

#include <cstdint>

#include "input/input.h"
#include "logagg/options.h"
#include "run/source.h"

namespace logagg {

// Reads a stream (plain or compressed) from `fd` to its end.
void scan_stream(Source& src, int fd, Worker& w, const RunSettings& options, Decompression how);

// Scans segment `j` of a mapped source, then lets its pages go; the last
// segment done unmaps the file and closes it.
void scan_segment(Source& src, uint32_t j, Worker& w);

}  // namespace logagg
