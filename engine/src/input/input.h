// Where the bytes come from: paths expanded into inputs, regular files mapped
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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result_parts.h"  // InputError

namespace logagg {

inline constexpr std::string_view kStdinName = "<stdin>";
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Expands command-line paths into the inputs to read, in order: a file as is,
// a folder as every regular file below it (recursively, sorted by path,
// skipping entries whose name starts with '.'; symlinks to files are followed,
// symlinks to folders are not) whose path relative to the folder passes
// `include` and `exclude` (see Options), "-" as standard input. Paths that do
// not exist, folders that cannot be listed and, inside folders, entries that
// cannot be read (dangling symlinks; FIFOs, sockets and devices, which are
// skipped) are appended to `errors`.
std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<InputError>& errors,
                                      const std::vector<std::string>& include = {},
                                      const std::vector<std::string>& exclude = {});

enum class ReadMode { kMap, kStream };

// Map regular files with data: the kernel pages them in, workers share them
// without copies, and segments need random access. Anything else (pipes,
// terminals, devices, empty or special files whose size says nothing) is read
// sequentially in blocks.
ReadMode choose_read_mode(const struct stat& st);

// A read-only private memory mapping of a whole file. Movable; unmaps on
// destruction. Truncating the file while it is mapped makes reads past the new
// end fault (SIGBUS), so its readers read it under run_guarded
// (fault_guard.h), which turns the fault into an error for that input.
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

  // Whether at least half the pages of [begin, end) are in the page cache
  // (mincore, asked 16 MiB at a time); true if that cannot be told or there
  // is nothing to tell.
  bool mostly_resident(size_t begin, size_t end) const;

  // Drops the pages wholly inside [begin, end) from this process's memory
  // (they stay in the page cache and are read again if touched), so resident
  // memory does not grow with the size of the file.
  void release(size_t begin, size_t end) const;

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// Where a stream's bytes come from: a file descriptor read as is, or a gzip
// or zstd stream decompressed on the fly. Compression is recognised by the
// first bytes (the magic numbers), never by the file name.
enum class Compression { kNone, kGzip, kZstd };

// The compression that a stream starting with `head` (its first 4 bytes or
// fewer, if it is shorter) uses.
Compression detect_compression(std::string_view head) noexcept;

// "gzip", "zstd" or "plain", for messages.
std::string_view compression_name(Compression c) noexcept;

// What a listing of the inputs tells about one without reading its data
// (`logagg --list-inputs --format json`): a regular file's size and, from its
// first bytes, its compression. nullopt for anything else: "-" (standard
// input), a FIFO, a socket, a device, a folder, a path that is gone. Only a
// regular file is opened (never for more than its first 4 bytes), since
// opening or reading anything else could block or have effects.
struct FileFacts {
  uint64_t bytes = 0;
  std::optional<Compression> compression;  // nullopt: it cannot be opened here
};
std::optional<FileFacts> regular_file_facts(const std::string& path);

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
// at least kLinePadding (lines.h) readable bytes. A UTF-8 BOM at the start of the stream
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

}  // namespace logagg
