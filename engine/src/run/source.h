// The state of one run's inputs and workers: a Source is one input (a path,
// "-", the caller's buffer or a span of a file) as it is opened, cut and
// scanned; a Worker is one thread's parser, counter and reused buffers.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "count/count.h"
#include "input/input.h"
#include "logagg/aggregate.h"
#include "logagg/options.h"
#include "parse/line_parser.h"
#include "run/spans.h"

namespace logagg {

// One input: a path (or "-"), or the caller's buffer. Written only by the
// worker that opens it, and by the workers of its segments (each its own log).
struct Source {
  std::string path;       // as given; "-" for standard input
  std::string name;       // for messages: the path, or "<stdin>"
  std::string_view text;  // the mapped file or the caller's buffer; empty for streams
  MappedFile map;         // owns `text` when the input is mapped
  std::vector<Segment> segments;
  std::vector<ScanLog> logs;                // one per segment, or one for a stream
  uint64_t bytes = 0;                       // bytes read (compressed bytes for compressed input)
  std::string error;                        // why it could not be read (or not wholly)
  bool unreadable = false;                  // could not be opened at all
  bool counts_as_file = true;               // false for a byte range that does not start the file
  std::optional<Options::ByteRange> range;  // a plain file: only the lines that start in it
  const InputSpan* span = nullptr;          // planned on the file as it was (aggregate_spans), which must still hold it
  uint64_t skip = 0;                        // a stream: content bytes passed over before the first line
  std::optional<uint64_t> stream_end;       // a stream: where its content must end
  uint64_t first_line = 0;                  // lines before the first one read, for reject line numbers
  bool starts_file = true;                  // its text starts at the file's first byte (where a BOM is skipped)
  std::atomic<int> segments_left{0};
  std::atomic<bool> changed{false};  // truncated while mapped
  // A mapped file's descriptor, open while its segments are scanned: those
  // not in the page cache are read with pread (-1: only through the mapping).
  int fd = -1;
  ~Source() {
    if (fd >= 0) ::close(fd);
  }
};

// A worker's private state.
struct Worker {
  BlockParser parser;
  Counter& counter;                 // its own, in the run's RunTallies
  std::vector<char> stream_buffer;  // reused by every stream this worker reads
  // Every segment it reads with pread, and padding after it (scan_source.cc).
  std::unique_ptr<char[]> segment_buffer;
  size_t segment_buffer_bytes = 0;
  Progress* progress;  // shared; nullptr if nobody watches
};

inline void add_progress_bytes(Worker& w, uint64_t n) {
  if (w.progress != nullptr) w.progress->bytes_done.fetch_add(n, std::memory_order_relaxed);
}

inline void input_done(Worker& w) {
  if (w.progress != nullptr) w.progress->files_done.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace logagg
