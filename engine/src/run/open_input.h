// Opening an input and choosing how it is read: a plain regular file larger
// than 1 MiB (or with a byte range) is mapped and cut into line-aligned
// segments, read through the mapping or, when cold, with pread; anything
// else (small files, compressed files, streams) is read right away, whole.
#pragma once

#include <cstddef>

#include "logagg/options.h"
#include "run/source.h"

namespace logagg {

// Cuts a mapped source (or the lines of it that start in its range) into
// segments, a BOM at the start of the file left out. `fd` is the mapped
// file's, whose line ends are then found with preads, not through the mapping
// (past_next_lf_in_file); -1 for the caller's buffer.
void plan_segments(Source& src, int fd, size_t segment_bytes, const RunSettings& options);

// The nominal segment size for an input of `size` bytes.
size_t segment_bytes_for(size_t size, const RunSettings& options, unsigned threads);

// Opens an input. A plain regular file larger than kSmallFileBytes (or any
// plain regular file with a byte range) is mapped and cut into segments;
// anything else is read here, whole, by worker `w`.
void open_input(Source& src, Worker& w, const RunSettings& options, unsigned threads);

}  // namespace logagg
