// Reading an opened input into a worker's counter (see scan_source.h).
#include "run/scan_source.h"

#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "input/input.h"
#include "text/lines.h"  // kLinePadding

namespace logagg {
namespace {

// How far ahead of the segment being scanned the kernel is asked to read a
// mapped file. On a cold file the disk then streams while the workers parse
// (the read-ahead of a fault is waited for); on a warm one the request finds
// the pages cached. 32 MiB made a cold file on 2 threads measurably faster,
// 8 MiB less so, 128 MiB no more (docs/bench-notes/2026-12-02-cold-files.md).
constexpr size_t kReadAheadBytes = size_t{32} << 20;

// Asks for the bytes kReadAheadBytes past segment `j` to be read into the
// page cache, and at the first segment for those up to there: the requests
// tile the file once, whatever the segments' sizes.
void read_ahead(const Source& src, uint32_t j) {
  const Segment seg = src.segments[j];
  if (j == 0) src.map.prefetch(seg.end, seg.begin + kReadAheadBytes);
  src.map.prefetch(seg.begin + kReadAheadBytes, seg.end + kReadAheadBytes);
}

// Scans segment `j` through the mapping, the kernel asked to read ahead
// past it, and releases its pages; false if the file was found shorter (a
// fault in the mapping).
bool scan_mapped_segment(Source& src, uint32_t j, Worker& w) {
  const Segment seg = src.segments[j];
  read_ahead(src, j);
  const bool read = run_guarded([&] {
    scan_lines(src.text.substr(seg.begin, seg.end - seg.begin), src.text.size() - seg.begin, w.parser, w.counter,
               src.logs[j]);
  });
  src.map.release(seg.begin, seg.end);
  return read;
}

// Scans segment `j` read with pread into the worker's buffer; false if the
// file was found shorter. The buffer grows past the largest segment, its
// bytes neither kept nor cleared as it does, and kLinePadding blank bytes follow
// each segment in it, so that the block parser reads even a segment's last
// block in place (without them it copied the last 32 KiB of every segment).
bool scan_read_segment(Source& src, uint32_t j, Worker& w) {
  const Segment seg = src.segments[j];
  const size_t size = seg.end - seg.begin;
  if (w.segment_buffer_bytes < size + kLinePadding) {
    w.segment_buffer_bytes = std::bit_ceil(size + kLinePadding);  // segments vary by a line: grown once
    w.segment_buffer = std::make_unique_for_overwrite<char[]>(w.segment_buffer_bytes);
  }
  char* const buffer = w.segment_buffer.get();
  if (pread_all(src.fd, buffer, size, seg.begin) != static_cast<ssize_t>(size)) return false;
  std::memset(buffer + size, ' ', kLinePadding);
  scan_lines(std::string_view(buffer, size), size + kLinePadding, w.parser, w.counter, src.logs[j]);
  return true;
}

}  // namespace

void scan_stream(Source& src, int fd, Worker& w, const RunSettings& options, Decompression how) {
  std::unique_ptr<ByteSource> bytes = open_byte_source(fd, how);
  if (src.stream_end) bytes = limit_bytes(std::move(bytes), *src.stream_end);
  ScanLog& log = src.logs.emplace_back(ScanLog(options.max_reject_samples, options.sample_long_lines));
  if (!discard(*bytes, src.skip, w.stream_buffer)) {
    src.bytes = bytes->bytes_in();
    src.error = bytes->error();  // a span's stream ends where it was planned, or fails
    return;
  }
  StreamReader reader(*bytes, options.max_line_bytes, w.stream_buffer, /*at_start=*/src.skip == 0);
  StreamReader::Chunk chunk;
  uint64_t reported = 0;
  while (reader.next(chunk)) {
    if (chunk.skipped_long_line) {
      record_skipped_line(chunk.skipped_line_blank, w.counter, log);
    } else {
      scan_lines(chunk.text, chunk.readable, w.parser, w.counter, log);
    }
    add_progress_bytes(w, reader.bytes_read() - reported);
    reported = reader.bytes_read();
  }
  src.bytes = reader.bytes_read();
  if (reader.failed()) src.error = reader.error();
}

void scan_segment(Source& src, uint32_t j, Worker& w) {
  if (!src.changed) {  // once a file changed, its pages are gone: the rest would fault too
    const Segment seg = src.segments[j];
    if (!(src.fd >= 0 ? scan_read_segment(src, j, w) : scan_mapped_segment(src, j, w))) src.changed = true;
    add_progress_bytes(w, seg.end - seg.begin);
  }
  // The last segment done unmaps the file and closes it, so mappings and
  // descriptors do not pile up.
  if (src.segments_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    src.map = MappedFile();
    if (src.fd >= 0) ::close(std::exchange(src.fd, -1));
    input_done(w);
  }
}

}  // namespace logagg
