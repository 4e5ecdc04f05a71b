// Where the bytes come from: paths expanded into inputs, regular files mapped
// read-only, everything else (stdin, pipes, devices) read in blocks.
//
// Policy in one place: choose_read_mode() decides map or read; see its comment.
//
// The free functions are thread-safe. A MappedFile may be read from any number
// of threads at once; a StreamReader belongs to one thread at a time. Errors
// are reported as errno values or InputError entries, never thrown.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/aggregate.h"

namespace logagg {

inline constexpr std::string_view kStdinName = "<stdin>";
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Expands command-line paths into the inputs to read, in order: a file as is,
// a folder as every regular file below it (recursively, sorted by path,
// skipping entries whose name starts with '.'; symlinks to files are followed,
// symlinks to folders are not), "-" as standard input. Paths that do not exist
// or folders that cannot be listed are appended to `errors`.
std::vector<std::string> expand_paths(const std::vector<std::string>& paths,
                                      std::vector<InputError>& errors);

enum class ReadMode { kMap, kStream };

// Map regular files with data: the kernel pages them in, workers share them
// without copies, and segments need random access. Anything else (pipes,
// terminals, devices, empty or special files whose size says nothing) is read
// sequentially in blocks.
ReadMode choose_read_mode(const struct stat& st);

// A read-only private memory mapping of a whole file. Movable; unmaps on
// destruction. Truncating the file while it is mapped makes reads past the new
// end fault (SIGBUS); logagg reads files that are being rotated at this risk.
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

  // Drops the pages wholly inside [begin, end) from this process's memory
  // (they stay in the page cache and are read again if touched), so resident
  // memory does not grow with the size of the file.
  void release(size_t begin, size_t end) const;

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// Reads a stream in blocks and hands out runs of whole lines, each followed by
// at least kLinePadding readable bytes. A UTF-8 BOM at the start of the stream
// is skipped. A line too long to buffer (more than max_line_bytes before its
// LF) is not kept: it is reported as one `skipped_long_line` chunk, saying
// whether it was blank (only spaces, tabs and CRs), since blank lines are
// blank whatever their length.
class StreamReader {
 public:
  StreamReader(int fd, size_t max_line_bytes);

  struct Chunk {
    std::string_view text;          // whole lines (the last may lack its LF at end of stream)
    size_t readable = 0;            // bytes readable from text.data()
    bool skipped_long_line = false; // true: text is empty, one over-long line was skipped
    bool skipped_line_blank = false; // the skipped line held only spaces, tabs and CRs
  };

  // The next chunk; false at end of stream or on a read error (see error()).
  bool next(Chunk& chunk);
  int error() const { return error_; }  // errno of a failed read, else 0
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  bool fill();  // reads more; false at EOF or error

  int fd_;
  size_t max_line_bytes_;
  std::vector<char> buf_;
  size_t begin_ = 0;  // start of unconsumed data in buf_
  size_t end_ = 0;    // end of valid data in buf_
  bool eof_ = false;
  bool at_start_ = true;         // the BOM check is still to be done
  bool discarding_ = false;      // inside an over-long line, dropping bytes up to its LF
  bool discarded_blank_ = true;  // what was dropped of it so far was blank
  int error_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace logagg
