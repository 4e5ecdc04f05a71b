// The input stage's face (the one header of input/ that other stages
// include). Where the bytes come from: paths expanded into inputs, regular files mapped
// read-only, everything else (stdin, pipes, devices, compressed data) read in
// blocks through a ByteSource, gzip and zstd decompressed on the fly.
//
// choose_read_mode() says which files can be mapped; the run
// (run/open_input.cc) maps only those larger than 1 MiB (kSmallFileBytes)
// that are not compressed, or any with --range, and reads the rest as streams.
//
// The free functions are thread-safe. A MappedFile may be read from any number
// of threads at once; a ByteSource or StreamReader belongs to one thread at a
// time. Errors are reported as errno values, messages or InputError entries,
// never thrown.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/functional/function_ref.h>

#include "logagg/inputs.h"
#include "logagg/result_parts.h"  // InputError

namespace logagg {

inline constexpr std::string_view kStdinName = "<stdin>";
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

enum class ReadMode { kMap, kStream };

// Map regular files with data: the kernel pages them in, workers share them
// without copies, and segments need random access. Anything else (pipes,
// terminals, devices, empty or special files whose size says nothing) is read
// sequentially in blocks.
ReadMode choose_read_mode(const struct stat& st);

// A read-only private memory mapping of a whole file. Movable; unmaps on
// destruction. Truncating the file while it is mapped makes reads past the new
// end fault (SIGBUS), so its readers read it under run_guarded
// (run_guarded, below), which turns the fault into an error for that input.
class MappedFile {
 public:
  // Maps `size` bytes of `fd`; on failure returns an empty mapping and sets errno.
  static MappedFile map(int fd, size_t size);
  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  ~MappedFile();

  bool ok() const { return data_ != nullptr; }
  std::string_view view() const { return {data_, size_}; }

  // Asks the kernel to start reading the pages of [begin, end) into the page
  // cache (MADV_WILLNEED), without waiting for the reads (the calling thread
  // does allocate the pages and submit the reads).
  void prefetch(size_t begin, size_t end) const;

  // Drops the pages wholly inside [begin, end) from this process's memory
  // (they stay in the page cache and are read again if touched), so resident
  // memory does not grow with the size of the file.
  void release(size_t begin, size_t end) const;

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `cap` bytes of `buf`; returns how many, 0 at the end of the
  // data, or -1 on an error (then error() says what, naming the format for
  // compressed data: "gzip data truncated", "corrupt zstd data: ...").
  virtual ptrdiff_t read(char* buf, size_t cap) = 0;
  const std::string& error() const { return error_; }
  // Bytes taken from the file descriptor so far (compressed bytes for a
  // compressed stream).
  uint64_t bytes_in() const { return bytes_in_; }

 protected:
  // What read() returns once a compressed input has no more bytes: 0 if it
  // ended between members (frames), else -1 with "FORMAT data truncated".
  ptrdiff_t end_of_input(bool inside_member, std::string_view format) {
    if (!inside_member) return 0;
    error_ = std::string(format) + " data truncated (unexpected end of file)";
    return -1;
  }

  std::string error_;
  uint64_t bytes_in_ = 0;
};

// How compressed data is decompressed: by the thread that reads the source,
// or ahead of it by a thread of its own (read_ahead_in_thread), so that the
// two overlap. Plain data is always read by the reader's thread.
enum class Decompression { kInline, kAhead };

// The content of `fd` (not owned; left open), read from its current position:
// its first bytes are read to detect the compression, then it is decompressed
// on the fly if it is gzip (any number of concatenated members) or zstd (any
// number of frames). Memory stays bounded whatever the size of the data.
// kAhead only for a descriptor whose reads end (a regular file): the
// decompressing thread is joined when the source is destroyed.
std::unique_ptr<ByteSource> open_byte_source(int fd, Decompression how = Decompression::kInline);

// Compressed data is decoded in chunks of this many bytes of output: each
// call of the decoder may write up to the end of the current chunk, whatever
// room the caller has (a read with less room takes the chunk through a
// buffer of the source's own). So the decoder's calls, and what it hands out
// when it meets a fault in the middle of the data (a decoder may hold bytes
// it decoded before the fault, more or fewer with its room), depend on the
// file alone, not on the sizes of the reads (docs/architecture.md,
// "Compressed files").
inline constexpr size_t kDecodedChunkBytes = size_t{256} << 10;

// `source` read by a thread of its own into `buffers` reused buffers of
// `buffer_bytes`, ahead of the caller's reads; what it reads and its end or
// error are handed out unchanged. Destroying it stops and joins the thread,
// after the read it is in, if any. A buffer holds a decoded chunk, so the
// decoder writes into it in place.
inline constexpr size_t kReadAheadBuffers = 4;
inline constexpr size_t kReadAheadBufferBytes = kDecodedChunkBytes;
std::unique_ptr<ByteSource> read_ahead_in_thread(std::unique_ptr<ByteSource> source, size_t buffers = kReadAheadBuffers,
                                                 size_t buffer_bytes = kReadAheadBufferBytes);

// The first `end` bytes of `source`: its end there, an error (-1) if it
// ends or fails before.
std::unique_ptr<ByteSource> limit_bytes(std::unique_ptr<ByteSource> source, uint64_t end);

// Reads and drops the first `n` bytes of `source`, through `buffer` (grown as
// needed); false if the source ended or failed before (then its error() says
// why, if it failed).
bool discard(ByteSource& source, uint64_t n, std::vector<char>& buffer);

// Reads a byte source in blocks and hands out runs of whole lines, each followed by
// at least kLinePadding (text/lines.h) readable bytes. A UTF-8 BOM at the start of the stream
// is skipped. A line too long to buffer (more than max_line_bytes before its
// LF) is not kept: it is reported as one `skipped_long_line` chunk, saying
// whether it was blank (only spaces, tabs and CRs), since blank lines are
// blank whatever their length. After a read error, the bytes read before it
// are still handed out (a line cut by the error is handed out as it is).
class StreamReader {
 public:
  // `buffer` is the reader's working memory, reusable from one reader to the
  // next (it keeps its capacity). `at_start`: the source starts the stream
  // (a BOM is looked for), false for one whose first bytes were discarded.
  StreamReader(ByteSource& source, size_t max_line_bytes, std::vector<char>& buffer, bool at_start = true);

  struct Chunk {
    std::string_view text;            // whole lines (the last may lack its LF at end of stream)
    size_t readable = 0;              // bytes readable from text.data()
    bool skipped_long_line = false;   // true: text is empty, one over-long line was skipped
    bool skipped_line_blank = false;  // the skipped line held only spaces, tabs and CRs
  };

  // The next chunk; false at end of stream or after a read error (see error()).
  bool next(Chunk& chunk);
  bool failed() const { return failed_; }
  const std::string& error() const { return source_.error(); }  // what failed, if failed()
  uint64_t bytes_read() const { return source_.bytes_in(); }

 private:
  bool fill();  // reads more; false at EOF or error

  ByteSource& source_;
  size_t max_line_bytes_;
  std::vector<char>& buf_;
  size_t begin_ = 0;  // start of unconsumed data in buf_
  size_t end_ = 0;    // end of valid data in buf_
  bool eof_ = false;
  bool at_start_ = true;         // the BOM check is still to be done
  bool discarding_ = false;      // inside an over-long line, dropping bytes up to its LF
  bool discarded_blank_ = true;  // what was dropped of it so far was blank
  bool failed_ = false;
};

// Reading bytes of a file with pread, without its mapping and without moving
// its file position: a range read whole, the next line end, and the
// compression its first bytes announce. The counting core cuts a mapped
// file's segments with them, and incremental and --follow runs read the
// files they fingerprint and follow with them.
//
// Thread-safe (pread moves no file position, so threads may share the file
// descriptor). Errors are returned as values, never thrown.

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

// The compression a file's first bytes announce (detect_compression, logagg/inputs.h),
// read with pread at its start: at most `size` of them, the file's size where
// the caller measured it, so that bytes written after that do not count.
// nullopt if they cannot be read.
std::optional<Compression> file_compression(int fd, uint64_t size = std::numeric_limits<uint64_t>::max());

// Survives files that shrink while mapped. Reading a page of a mapping that
// lies past the end of its (since truncated) file raises SIGBUS; log rotation
// with copytruncate does exactly this to a file logagg is reading.
//
// run_guarded(f) runs f with a SIGBUS handler armed for the calling thread: if
// f touches a vanished page, the handler jumps back out of f and run_guarded
// returns false. Whatever f recorded before the fault stays recorded, so f must
// keep its own state consistent at every point where it reads mapped memory
// (the line loop does: a line is recorded only after it has been read). A
// SIGBUS outside a guard gets the previous disposition (default: terminate).

namespace fault_guard_internal {
extern thread_local sigjmp_buf* armed;
void install_handler();
}  // namespace fault_guard_internal

// Returns true if f completed, false if it was interrupted by SIGBUS.
template <class F>
bool run_guarded(F&& f) {
  using namespace fault_guard_internal;
  install_handler();
  sigjmp_buf env;
  if (sigsetjmp(env, /*savemask=*/1) != 0) {
    armed = nullptr;
    return false;
  }
  armed = &env;
  f();
  armed = nullptr;
  return true;
}

// Cuts a buffer into line-aligned segments that worker threads process
// independently.
//
// Invariant: segments tile the buffer in order; every segment starts at a line
// start and ends just past a LF or at the end of the buffer. A nominal cut
// moves forward to just past the next LF, so a line longer than a segment
// still belongs to exactly one segment (the one in which it starts).
//
// Pure functions: thread-safe, no errors (nominal sizes below 1 count as 1).

struct Segment {
  size_t begin;
  size_t end;  // exclusive
};

// Segments of about `nominal_bytes` (>= 1) each; none for an empty buffer.
std::vector<Segment> cut_segments(std::string_view data, size_t nominal_bytes);

// The same cut of `size` bytes that are not in memory: `past_lf(pos)` says
// where the first line starting after byte `pos` starts (as past_next_lf in
// text/lines.h does for a buffer), and is asked once per cut. An answer outside
// (pos, size] is taken as the nearest end of that range, so a wrong callback
// cannot stop the cutting.
std::vector<Segment> cut_segments(size_t size, size_t nominal_bytes, absl::FunctionRef<size_t(size_t)> past_lf);

// The nominal segment size for `total_bytes` of input on `threads` workers:
// many more segments than threads (so a slow segment does not stall the
// rest), but large enough that per-segment overhead stays negligible.
size_t choose_segment_bytes(size_t total_bytes, unsigned threads);

}  // namespace logagg
