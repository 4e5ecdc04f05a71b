// Splitting a file into line-aligned chunk files without dragging its bytes
// through user space: plan the cuts, name the chunks, copy in the kernel.
//
//   1. plan_split() / plan_split_file(): where the chunks begin and end. By
//      size, each tentative cut searches backwards for the last LF before it,
//      so only the bytes near each cut are read, never every line.
//   2. chunk_name(): chunk file names from a pattern such as
//      "{name}.part-{index}".
//   3. chunk_targets(): the chunk files' paths, and the policy for what is
//      already there (existing chunks, the input itself, the leftovers of an
//      earlier split into more chunks), decided before anything is written.
//   4. write_chunks(): each chunk copied with copy_file_range, falling back to
//      sendfile, then to read/write, where the file systems refuse; a chunk
//      that fails midway is removed.
//   5. remove_stale_chunks(): the leftovers go once every chunk is written.
//
// Thread-safe: planning and naming are pure functions; independent calls of
// the others share no state (but two splits into one folder at once race on
// its files). Errors are returned as values (too_long, conflict, SplitError,
// errno text), never thrown.
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

// A path chunk_targets() will not write or remove.
struct ChunkFileConflict {
  std::string path;
  bool is_input;  // else: it exists, and overwriting was not asked for
};

// What a split into `chunks` (a plan's, in order) does to the folder `outdir`:
// the chunk files it writes and the files it removes, decided before anything
// is written. The policy:
//   - chunk i is `outdir`/chunk_name(pattern, name, i, chunk_index_width(n))
//     for n chunks, `name` being the input's file name;
//   - stale chunks: an earlier split of the same input into more chunks left
//     the names that follow the last one (n, n + 1, ...: each that exists, as
//     lstat() sees it, up to the first that does not). Left beside the new
//     chunks, they would no longer concatenate to the input: they are removed
//     once the new chunks are written;
//   - a chunk or stale path that is the input file (same device and inode)
//     is a conflict, even with `overwrite`: it is never truncated or removed;
//   - without `overwrite`, any chunk or stale path that exists is a conflict.
// `conflict` names the first conflicting path, chunks first then stale ones;
// when it is set the split must write and remove nothing. The file system is
// only looked at (stat, lstat); `outdir` need not exist (then nothing is in
// the way). `pattern` must pass check_chunk_pattern().
struct ChunkTargets {
  std::vector<ChunkFile> chunks;              // to write, one per planned chunk
  std::vector<std::string> stale;             // to remove once every chunk is written
  std::optional<ChunkFileConflict> conflict;  // set: nothing may be written or removed
};
ChunkTargets chunk_targets(const std::vector<ByteSpan>& chunks, const std::string& outdir, std::string_view pattern,
                           std::string_view name, const struct stat& input, bool overwrite);

// After write_chunks() wrote every chunk of the same ChunkTargets: removes its
// stale files, in order. Stops at the first that cannot be removed and says
// why (the files before it are gone, the ones after it stay).
std::optional<SplitError> remove_stale_chunks(const std::vector<std::string>& stale);

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
// With `overwrite`, check chunk_targets() first: a chunk path that is the
// input would truncate it.
WriteResult write_chunks(int in_fd, const std::vector<ChunkFile>& chunks, const WriteOptions& options);

}  // namespace logagg
