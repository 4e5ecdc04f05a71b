// Splitting a file into line-aligned chunk files without dragging its bytes
// through user space: plan the cuts, name the chunks, copy in the kernel.
//
//   1. plan_split() / plan_split_file(): where the chunks begin and end. By
//      size, each tentative cut searches backwards for the last LF before it,
//      so only the bytes near each cut are read, never every line.
//   2. chunk_name(): chunk file names from a pattern such as
//      "{name}.part-{index}".
//   3. find_chunk_file_conflict(), then write_chunks(): each chunk copied with
//      copy_file_range, falling back to sendfile, then to read/write, where the
//      file systems refuse; a chunk that fails midway is removed.
//
// Thread-safe: planning and naming are pure functions; independent calls of
// the others share no state. Errors are returned as values (too_long,
// SplitError, errno text), never thrown.
#pragma once

#include <sys/stat.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logagg {

// Bytes [begin, end) of the input: one chunk.
struct ByteSpan {
  size_t begin;
  size_t end;  // exclusive
};

// What bounds a chunk: its size in bytes, or its number of lines.
struct SplitLimit {
  enum class Kind { kBytes, kLines };
  Kind kind = Kind::kBytes;
  uint64_t max = 1;               // bytes or lines per chunk, >= 1
  bool allow_long_lines = false;  // kBytes: a longer line gets a chunk of its own
};

// A line longer than SplitLimit::max bytes.
struct LongLine {
  uint64_t number;  // 1-based
  uint64_t offset;  // where it starts
  uint64_t bytes;   // its length with its line end (LF or CRLF), if it has one
};

// Chunks tile the data in order, none empty (no chunks for empty data). Each
// ends just past a LF or at the end of the data, and holds at most `max` bytes
// (or lines) - except, with allow_long_lines, a chunk holding exactly one line
// that is longer than `max` bytes on its own.
struct SplitPlan {
  std::vector<ByteSpan> chunks;
  // Set, with no chunks, when a line is longer than `max` bytes and long lines
  // are not allowed: the first such line.
  std::optional<LongLine> too_long;
};

SplitPlan plan_split(std::string_view data, const SplitLimit& limit);

// plan_split() on `size` bytes of the open regular file `fd`, read through a
// read-only mapping. nullopt if the file cannot be mapped or shrinks while it
// is read, with the reason in `error`.
std::optional<SplitPlan> plan_split_file(int fd, uint64_t size, const SplitLimit& limit, std::string& error);

// Chunk file names. A pattern holds `{index}` exactly once (the chunk's number
// from 0, zero-padded to the width chunk_index_width() gives), may hold
// `{name}` (the input's file name), holds no other `{` and no `/`.
inline constexpr std::string_view kDefaultChunkPattern = "{name}.part-{index}";
std::string check_chunk_pattern(std::string_view pattern);  // "" if valid, else what is wrong
// 5 digits, or as many as the highest index needs, so names sort in chunk order.
size_t chunk_index_width(size_t chunks);
std::string chunk_name(std::string_view pattern, std::string_view name, size_t index, size_t width);

// One chunk to write: the byte range of the input that goes into `path`.
struct ChunkFile {
  std::string path;
  ByteSpan range;
};

struct SplitError {
  std::string path;
  std::string message;  // includes the OS reason where there is one
};

// Before writing anything: the first path that is the input file itself, or,
// unless `overwrite`, that exists at all.
struct ChunkFileConflict {
  std::string path;
  bool is_input;  // else: it exists
};
std::optional<ChunkFileConflict> find_chunk_file_conflict(const struct stat& input,
                                                          const std::vector<std::string>& paths, bool overwrite);

enum class CopyMethod { kCopyFileRange, kSendfile, kReadWrite };
std::string_view copy_method_name(CopyMethod method);

struct WriteOptions {
  bool overwrite = false;  // truncate existing chunk files instead of failing on them
  CopyMethod first_method = CopyMethod::kCopyFileRange;  // later ones for tests
  unsigned threads = 1;  // chunks written at once, each by its own thread
  const std::atomic<bool>* stop = nullptr;  // set (e.g. by a signal handler) to stop early
};

struct WriteResult {
  std::vector<bool> complete;      // per chunk: written in full and closed
  std::vector<SplitError> errors;  // in chunk order; none leaves a chunk file behind
  CopyMethod method = CopyMethod::kCopyFileRange;  // the method the copies ended up using
};

// Writes the chunks of the open input file `in_fd` (new files, mode 0666 less
// the umask), threads taking the next chunk in order. The first failure (or
// *stop being set) removes the chunk file it was writing and hands out no more
// chunks; chunks already being written by other threads are finished, and
// complete chunks stay, so with several threads they need not be a prefix.
// With `overwrite`, check find_chunk_file_conflict() first: a chunk path that
// is the input would truncate it.
WriteResult write_chunks(int in_fd, const std::vector<ChunkFile>& chunks, const WriteOptions& options);

}  // namespace logagg
