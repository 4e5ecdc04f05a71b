// Opening an input and choosing how it is read (see open_input.h).
#include "run/open_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "input/input.h"
#include "run/scan_source.h"
#include "text/lines.h"

namespace logagg {
namespace {

// Whether `text` (read from `fd` with pread if it is not -1) starts with a BOM.
bool starts_with_bom(std::string_view text, int fd) {
  if (fd < 0) return text.starts_with(kUtf8Bom);
  char head[kUtf8Bom.size()];
  return ::pread(fd, head, sizeof head, 0) == static_cast<ssize_t>(sizeof head) &&
         std::string_view(head, sizeof head) == kUtf8Bom;
}

// Files up to this size are read with plain reads, not mapped: mapping and
// unmapping a small file (page tables, TLB shootdowns on every core) costs
// more than copying it (profiling/batch_bench.sh: 10,000 files of 10 KB).
constexpr size_t kSmallFileBytes = size_t{1} << 20;

// Whether a span's file is still the one planned, and long enough; a
// compressed one is then read as a stream, from its content byte `begin` to
// `end`.
bool still_planned(Source& src, const struct stat& st, bool compressed) {
  const InputSpan& span = *src.span;
  if (span.file && (span.file->device != st.st_dev || span.file->inode != st.st_ino)) {
    src.error = "replaced by another file since it was planned";
    return false;
  }
  if (compressed) {
    src.range.reset();
    src.skip = span.begin;
    src.stream_end = span.end;
  } else if (static_cast<uint64_t>(st.st_size) < span.end) {  // truncated since it was planned
    src.changed = true;
    return false;
  }
  return true;
}

}  // namespace

void plan_segments(Source& src, int fd, size_t segment_bytes, const RunSettings& options) {
  const size_t size = src.text.size();
  bool truncated = false;  // a pread ended early: the file is shorter than mapped
  // The cuts' line ends are read with small preads, not through the mapping:
  // a fault there would map whole large folios and, on a cold file, read the
  // file around every cut, serially. A file found shorter is treated as
  // changed, as a fault in the mapping would have been.
  char lf_buffer[4096];
  auto past_lf = [&](size_t pos) {
    if (fd < 0) return past_next_lf(src.text, pos);
    return static_cast<size_t>(past_next_lf_in_file(fd, pos, size, lf_buffer, &truncated).value_or(size));
  };
  // Where the first line starting at or after `pos` starts.
  auto line_start = [&](size_t pos) { return pos == 0 ? 0 : past_lf(pos - 1); };
  // The buffer is read under the guard: it may be a mapping of the caller's.
  const bool planned = run_guarded([&] {
    size_t begin = 0, end = size;
    if (src.range) {
      begin = line_start(src.range->begin);
      end = std::max(begin, line_start(src.range->end));
    }
    src.bytes = end - begin;
    if (begin == 0 && src.starts_file && starts_with_bom(src.text, fd)) begin = std::min(end, kUtf8Bom.size());
    src.segments = cut_segments(end - begin, segment_bytes, [&](size_t pos) { return past_lf(begin + pos) - begin; });
    for (Segment& s : src.segments) {
      s.begin += begin;
      s.end += begin;
    }
  });
  if (!planned || truncated) {
    src.segments.clear();
    src.changed = true;
  }
  src.logs.assign(src.segments.size(), ScanLog(options.max_reject_samples, options.sample_long_lines));
  src.segments_left = static_cast<int>(src.segments.size());
}

size_t segment_bytes_for(size_t size, const RunSettings& options, unsigned threads) {
  return options.segment_bytes != 0 ? options.segment_bytes : choose_segment_bytes(size, threads);
}

void open_input(Source& src, Worker& w, const RunSettings& options, unsigned threads) {
  const bool is_stdin = src.path == "-";
  const int fd = is_stdin ? 0 : ::open(src.path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    src.error = std::strerror(fd < 0 || !S_ISDIR(st.st_mode) ? errno : EISDIR);
    src.unreadable = true;
    if (fd > 0) ::close(fd);
    return;
  }
  const auto size = static_cast<size_t>(st.st_size);
  const bool compressed =
      S_ISREG(st.st_mode) && file_compression(fd, size).value_or(Compression::kNone) != Compression::kNone;
  if (src.span != nullptr && !still_planned(src, st, compressed)) {
    if (!is_stdin) ::close(fd);
    return;
  }
  if (src.range) {  // a byte range is taken of the file's own bytes, mapped
    if (!S_ISREG(st.st_mode) || compressed) {
      src.error = compressed ? "a byte range (--range) cannot be taken of compressed data"
                             : "a byte range (--range) needs a regular file";
      src.unreadable = true;
      if (!is_stdin) ::close(fd);
      return;
    }
  }
  const bool small = size <= kSmallFileBytes && !src.range;
  if (choose_read_mode(st) == ReadMode::kMap && !small && !compressed) src.map = MappedFile::map(fd, size);
  if (src.range && size > 0 && !src.map.ok()) {  // a byte range is read mapped, or not at all
    src.error = std::string("cannot be mapped: ") + std::strerror(errno);
    if (!is_stdin) ::close(fd);
    return;
  }
  if (src.map.ok()) {
    src.text = src.map.view();
    plan_segments(src, fd, segment_bytes_for(size, options, threads), options);
    // Each segment is read with pread into its worker's buffer, reused, not
    // through the mapping, which gives the segments their cuts: on a cold
    // file the kernel's read-ahead then fills the page cache in large folios
    // and the workers take no page faults, where the mapping's faults and
    // MADV_WILLNEED cost a third more CPU
    // (docs/bench-notes/2026-12-03-cold-preads.md); on a warm one the first
    // touch of each mapped block stalled (a third of a run's samples, on the
    // first load of the search for the block's last LF), and with the copy
    // into a buffer the whole run took 0.6x the time
    // (docs/bench-notes/2026-12-07-segments-read-and-cells-settled.md).
    // Standard input, whose descriptor is not the run's to close, is read
    // through its mapping.
    if (!is_stdin && !src.segments.empty()) {
      src.fd = fd;  // closed by the last segment scanned
    } else if (!is_stdin) {
      ::close(fd);
    }
    return;
  }
  // A large compressed file is decompressed by a thread of its own while this
  // worker parses, unless one thread was asked for; a small one is not worth
  // a thread.
  const bool ahead = compressed && !small && threads > 1;
  scan_stream(src, fd, w, options, ahead ? Decompression::kAhead : Decompression::kInline);
  if (!is_stdin) ::close(fd);
}

}  // namespace logagg
