// Reading bytes of a file with pread, without its mapping and without moving
// its file position: a range read whole, the next line end, and the
// compression its first bytes announce. The counting core cuts a mapped
// file's segments with them, and incremental and --follow runs read the
// files they fingerprint and follow with them.
//
// Thread-safe (pread moves no file position, so threads may share the file
// descriptor). Errors are returned as values, never thrown.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>

#include "input/input.h"  // Compression

namespace logagg {

// Reads up to `size` bytes of `fd` at `offset` into `buf` (again after EINTR
// and short reads); fewer only at the end of the file, -1 on an error.
ssize_t pread_all(int fd, char* buf, size_t size, uint64_t offset);

// Just past the first LF among the bytes [from, end) of `fd`, read into
// `buffer` with preads of at most its size: small ones where only the bytes
// near `from` should be read (a segment cut), large ones to cross long lines
// in few calls. nullopt if there is no LF there (`from` at or past `end`
// too), or if the file ends or cannot be read before the LF or `end` is
// reached; then `*short_read`, if given, is set to true (the file is shorter
// than the caller measured it: truncated since).
std::optional<uint64_t> past_next_lf_in_file(int fd, uint64_t from, uint64_t end, std::span<char> buffer,
                                             bool* short_read = nullptr);

// The compression a file's first bytes announce (detect_compression, input.h),
// read with pread at its start: at most `size` of them, the file's size where
// the caller measured it, so that bytes written after that do not count.
// nullopt if they cannot be read.
std::optional<Compression> file_compression(int fd, uint64_t size = std::numeric_limits<uint64_t>::max());

}  // namespace logagg
