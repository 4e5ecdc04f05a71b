// The pipeline: inputs -> segments -> lines -> per-thread counters -> merge.
//
// 1. Worker threads take the inputs in order from one queue and open them in
//    parallel (thousands of small files cost no serial start-up). What a
//    worker opens it reads itself when it is not split: files up to 1 MiB
//    (kSmallFileBytes: read, not mapped), mapped files of one segment,
//    compressed files (gzip, zstd: detected by their magic bytes) and streams
//    (stdin, pipes, devices). A larger plain file is mapped and cut into
//    line-aligned segments that go on the queue for any worker once all
//    inputs are open, so a slow segment or a big compressed file never stalls
//    the others.
// 2. Per-thread counters are merged and sorted; rejected-line positions are
//    turned into absolute line numbers from each segment's line count, and
//    errors are reported in input order.
// Every read of mapped memory runs under a SIGBUS guard: a file truncated
// while mapped is reported as changed, and the lines read before are kept.
#include "logagg/aggregate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "count/counter.h"
#include "count/line_scanner.h"
#include "count/result_order.h"
#include "count/spans.h"
#include "input/fault_guard.h"
#include "input/file_reads.h"
#include "input/input.h"
#include "input/lines.h"
#include "input/segmenter.h"

namespace logagg {
namespace {

// One input: a path (or "-"), or the caller's buffer. Written only by the
// worker that opens it, and by the workers of its segments (each its own log).
struct Source {
  std::string path;       // as given; "-" for standard input
  std::string name;       // for messages: the path, or "<stdin>"
  std::string_view text;  // the mapped file or the caller's buffer; empty for streams
  MappedFile map;         // owns `text` when the input is mapped
  std::vector<Segment> segments;
  std::vector<ScanLog> logs;  // one per segment, or one for a stream
  uint64_t bytes = 0;         // bytes read (compressed bytes for compressed input)
  std::string error;          // why it could not be read (or not wholly)
  bool unreadable = false;    // could not be opened at all
  bool counts_as_file = true;  // false for a byte range that does not start the file
  std::optional<Options::ByteRange> range;  // a plain file: only the lines that start in it
  const InputSpan* span = nullptr;  // planned on the file as it was (aggregate_spans), which must still hold it
  uint64_t skip = 0;        // a stream: content bytes passed over before the first line
  std::optional<uint64_t> stream_end;  // a stream: where its content must end
  uint64_t first_line = 0;  // lines before the first one read, for reject line numbers
  bool starts_file = true;  // its text starts at the file's first byte (where a BOM is skipped)
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
  Counter counter;
  std::vector<char> stream_buffer;   // reused by every stream this worker reads
  std::vector<char> segment_buffer;  // reused by every segment it reads with pread
  Progress* progress;                // shared; nullptr if nobody watches
};

void add_progress_bytes(Worker& w, uint64_t n) {
  if (w.progress != nullptr) w.progress->bytes_done.fetch_add(n, std::memory_order_relaxed);
}

void input_done(Worker& w) {
  if (w.progress != nullptr) w.progress->files_done.fetch_add(1, std::memory_order_relaxed);
}

struct SegmentItem {
  Source* source;
  uint32_t segment;
};

// The shared queue: the inputs still to open, then the segments to scan.
class WorkQueue {
 public:
  explicit WorkQueue(size_t inputs) : inputs_(inputs) {}

  // The next task for a worker: an input to open while any is left, then the
  // segments; false when all is done. Opening first spreads the inputs that
  // cannot be split (compressed files, streams) over the workers early. Waits
  // while other workers are still opening inputs that may add segments.
  bool next(SegmentItem& segment, size_t& input, bool& is_segment) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (next_input_ < inputs_) {
        input = next_input_++;
        ++opening_;
        is_segment = false;
        return true;
      }
      if (!segments_.empty()) {
        segment = segments_.front();
        segments_.pop_front();
        is_segment = true;
        return true;
      }
      if (opening_ == 0) return false;
      ready_.wait(lock);
    }
  }

  // An input has been opened; its segments (if any, and if shared) are ready
  // for everyone.
  void opened(Source& src, bool share_segments) {
    std::lock_guard lock(mutex_);
    if (share_segments) {
      for (uint32_t j = 0; j < src.segments.size(); ++j) segments_.push_back({&src, j});
    }
    --opening_;
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<SegmentItem> segments_;
  size_t inputs_;
  size_t next_input_ = 0;
  size_t opening_ = 0;
};

unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Reads a stream (plain or compressed) to its end.
void scan_stream(Source& src, int fd, Worker& w, const Options& options, Decompression how) {
  std::unique_ptr<ByteSource> bytes = open_byte_source(fd, how);
  if (src.stream_end) bytes = limit_bytes(std::move(bytes), *src.stream_end);
  ScanLog& log = src.logs.emplace_back(ScanLog(options.max_reject_samples));
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
// past it; false if the file was found shorter (a fault in the mapping).
bool scan_mapped_segment(Source& src, uint32_t j, Worker& w) {
  const Segment seg = src.segments[j];
  read_ahead(src, j);
  return run_guarded([&] {
    scan_lines(src.text.substr(seg.begin, seg.end - seg.begin), src.text.size() - seg.begin, w.parser, w.counter,
               src.logs[j]);
  });
}

// Scans segment `j` read with pread into the worker's buffer; false if the
// file was found shorter.
bool scan_read_segment(Source& src, uint32_t j, Worker& w) {
  const Segment seg = src.segments[j];
  const size_t size = seg.end - seg.begin;
  if (w.segment_buffer.size() < size) w.segment_buffer.resize(size);
  if (pread_all(src.fd, w.segment_buffer.data(), size, seg.begin) != static_cast<ssize_t>(size)) return false;
  scan_lines(std::string_view(w.segment_buffer.data(), size), w.segment_buffer.size(), w.parser, w.counter,
             src.logs[j]);
  return true;
}

// Scans one segment of a mapped source, then lets its pages go.
void scan_segment(Source& src, uint32_t j, Worker& w) {
  if (!src.changed) {  // once a file changed, its pages are gone: the rest would fault too
    const Segment seg = src.segments[j];
    if (!(src.fd >= 0 ? scan_read_segment(src, j, w) : scan_mapped_segment(src, j, w))) src.changed = true;
    src.map.release(seg.begin, seg.end);
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

// Whether `text` (read from `fd` with pread if it is not -1) starts with a BOM.
bool starts_with_bom(std::string_view text, int fd) {
  if (fd < 0) return text.starts_with(kUtf8Bom);
  char head[kUtf8Bom.size()];
  return ::pread(fd, head, sizeof head, 0) == static_cast<ssize_t>(sizeof head) &&
         std::string_view(head, sizeof head) == kUtf8Bom;
}

// Cuts a mapped source (or the lines of it that start in its range) into
// segments, a BOM at the start of the file left out. `fd` is the mapped
// file's, whose line ends are then found with preads, not through the mapping
// (past_next_lf_in_file); -1 for the caller's buffer.
void plan_segments(Source& src, int fd, size_t segment_bytes, const Options& options) {
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
  src.logs.assign(src.segments.size(), ScanLog(options.max_reject_samples));
  src.segments_left = static_cast<int>(src.segments.size());
}

// The nominal segment size for an input of `size` bytes.
size_t segment_bytes_for(size_t size, const Options& options, unsigned threads) {
  return options.segment_bytes != 0 ? options.segment_bytes : choose_segment_bytes(size, threads);
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

// Opens an input. A plain regular file larger than kSmallFileBytes (or any
// plain regular file with a byte range) is mapped and cut into segments;
// anything else is read here, whole.
void open_input(Source& src, Worker& w, const Options& options, unsigned threads) {
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
    // A file mostly not in the page cache (a cold file) is read with pread,
    // every segment: the kernel's read-ahead then fills the page cache in
    // large folios and the workers take no page faults, where the mapping's
    // faults and MADV_WILLNEED cost a third more CPU on a cold file
    // (docs/bench-notes/2026-12-03-cold-preads.md). Decided once for the
    // file: the read-ahead of one segment's pread brings in much of the next.
    // A warm file is read through the mapping, without a copy.
    if (!is_stdin && !src.segments.empty() && !src.map.mostly_resident(0, size)) {
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

// Turns per-segment reject positions into the first N absolute line numbers.
std::vector<RejectSample> collect_rejects(const std::vector<std::unique_ptr<Source>>& sources, size_t limit) {
  std::vector<RejectSample> out;
  for (const auto& src : sources) {
    uint64_t base = src->first_line;
    for (const ScanLog& log : src->logs) {
      for (const LocalReject& r : log.rejects) {
        if (out.size() == limit) return out;
        out.push_back({src->name, base + r.line + 1, r.reason});
      }
      base += log.lines;
    }
  }
  return out;
}

// Fills the --by-app part of `result` and, from it, the per-second counts:
// the apps numbered in name order, "(other)" last.
void take_app_counts(SharedCounts& shared, const AppTable& apps, Result& result) {
  result.apps = apps.names();
  const std::vector<uint32_t> order = name_order(result.apps);  // table number -> number in name order
  const auto other = static_cast<uint32_t>(order.size());
  result.app_counts = shared.take_app_sorted(order, other);
  result.apps_capped = apps.capped();
  for (const AppCount& c : result.app_counts) {
    if (c.app == other && result.apps.size() == other) result.apps.emplace_back(kOtherApp);
  }
  sum_app_counts_per_second(result);
}

// Fills `result` from measured cells: the key tuples numbered in name order
// ("(other)" last) when keyed, the rows and their cells, and from them the
// per-second counts.
void take_cells(SharedMeasures& shared, const AppTable* apps, Result& result) {
  std::vector<uint32_t> order;  // table number -> number in name order
  auto other = uint32_t{0};
  if (apps != nullptr) {
    result.apps = apps->names();
    order = name_order(result.apps);
    other = static_cast<uint32_t>(order.size());
    result.apps_capped = apps->capped();
  }
  const std::vector<CellKey> keys = shared.take_sorted(order, other, result.cells);
  if (apps != nullptr) {
    result.app_counts.reserve(keys.size());
  } else {
    result.counts.reserve(keys.size());
  }
  for (size_t row = 0; row < keys.size(); ++row) {
    const CellKey& key = keys[row];
    const uint64_t count = result.cells.count(row);
    if (apps != nullptr) {
      result.app_counts.push_back({key.second, key.app, count});
      if (key.app == other && result.apps.size() == other) result.apps.emplace_back(kOtherApp);
    } else {
      result.counts.push_back({key.second, count});
    }
  }
  if (apps != nullptr) sum_app_counts_per_second(result);
}

// Runs the workers over `sources` (paths to open, or the caller's buffer:
// text set, no path) and gathers the result, and with `reads` how each
// source was read.
Result run(std::vector<std::unique_ptr<Source>> sources, std::vector<InputError> errors,
           const Options& options, std::chrono::steady_clock::time_point start, Progress* progress,
           std::vector<SpanRead>* reads = nullptr) {
  const size_t walk_errors = errors.size();  // paths that could not be expanded: unreadable
  const unsigned threads = resolve_threads(options.threads);
  SharedCounts shared;
  AppTable apps(options.max_apps);
  const LineRules rules = LineRules::of(options);
  const MeasureSpec spec = MeasureSpec::of(options);
  SharedMeasures shared_measures(spec);
  const bool measured = !spec.empty();
  std::vector<Worker> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.push_back({BlockParser(rules, options.max_line_bytes),
                       Counter(shared, options.since.value_or(INT64_MIN), options.until.value_or(INT64_MAX),
                               options.keyed() ? &apps : nullptr, Counter::kDefaultMaxSeconds,
                               measured ? &shared_measures : nullptr, &spec, options.counts_time_forms()),
                       {}, {}, progress});
  }
  WorkQueue queue(sources.size());
  auto work = [&](Worker& w) {
    SegmentItem segment{};
    size_t input = 0;
    bool is_segment = false;
    while (queue.next(segment, input, is_segment)) {
      if (is_segment) {
        scan_segment(*segment.source, segment.segment, w);
        continue;
      }
      Source& src = *sources[input];
      if (src.path.empty()) {  // the caller's buffer
        plan_segments(src, -1, segment_bytes_for(src.text.size(), options, threads), options);
      } else {
        open_input(src, w, options, threads);
      }
      // A file of one segment is scanned right here, without a hand-off.
      const bool alone = src.segments.size() == 1;
      queue.opened(src, /*share_segments=*/!alone);
      if (alone) scan_segment(src, 0, w);
      if (src.segments.empty()) input_done(w);  // read whole, empty, or unreadable
    }
    w.counter.spill();  // here, so the workers sort their last lists of pairs in parallel
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < workers.size(); ++t) pool.emplace_back(work, std::ref(workers[t]));
  work(workers[0]);
  for (std::thread& t : pool) t.join();

  Result result;
  for (const auto& src : sources) {
    if (!src->error.empty()) errors.push_back({src->name, src->error});
    if (src->changed) {
      errors.push_back({src->name, "file changed while being read (truncated?); "
                                   "only the lines read before the change are counted"});
    }
    result.summary.unreadable += src->unreadable;
    result.summary.files += !src->unreadable && src->counts_as_file;
    result.summary.bytes += src->bytes;
    if (reads != nullptr) {
      SpanRead& read = reads->emplace_back();
      for (const ScanLog& log : src->logs) read.lines += log.lines;
      read.complete = src->error.empty() && !src->changed;
    }
  }
  for (const Worker& w : workers) result.summary.add(w.counter.tally());
  result.summary.filtered_by.resize(options.where.size());
  result.summary.no_value.resize(options.by.size());
  result.summary.no_measure.resize(spec.fields.size());
  if (options.counts_time_forms()) result.summary.time_forms.resize(kTimeFormCount);
  if (measured) {
    take_cells(shared_measures, options.keyed() ? &apps : nullptr, result);
  } else if (options.keyed()) {
    take_app_counts(shared, apps, result);
  } else {
    result.counts = shared.take_sorted();
  }
  result.summary.unreadable += walk_errors;
  result.rejects = collect_rejects(sources, options.max_reject_samples);
  result.errors = std::move(errors);
  result.summary.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

Result aggregate(const std::vector<std::string>& paths, const Options& options, Progress* progress) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<InputError> errors;
  std::vector<std::unique_ptr<Source>> sources;
  uint64_t total_bytes = 0;
  for (const std::string& path : expand_paths(paths, errors, options.include, options.exclude)) {
    auto& src = sources.emplace_back(std::make_unique<Source>());
    src->path = path;
    src->name = path == "-" ? std::string(kStdinName) : path;
    if (options.range) {
      src->range = options.range;
      src->counts_as_file = options.range->begin == 0;
    }
    struct stat st {};
    if (progress != nullptr && path != "-" && ::stat(path.c_str(), &st) == 0) total_bytes += st.st_size;
  }
  if (progress != nullptr) {
    progress->bytes_total = total_bytes;
    progress->files_total = sources.size();
  }
  return run(std::move(sources), std::move(errors), options, start, progress);
}

Result aggregate_spans(const std::vector<InputSpan>& spans, const Options& options, std::vector<SpanRead>& reads) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Source>> sources;
  for (const InputSpan& span : spans) {
    auto& src = sources.emplace_back(std::make_unique<Source>());
    src->name = span.name;
    src->first_line = span.first_line;
    if (span.path.empty()) {  // the caller's bytes: planned as a buffer
      src->text = span.text;
      src->starts_file = span.begin == 0;
      continue;
    }
    src->path = span.path;
    src->span = &span;
    src->range = Options::ByteRange{span.begin, span.end};
  }
  reads.clear();
  return run(std::move(sources), {}, options, start, nullptr, &reads);
}

Result aggregate_buffer(std::string_view data, const Options& options, std::string_view name) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Source>> sources;
  auto& src = sources.emplace_back(std::make_unique<Source>());
  src->name = std::string(name);
  src->text = data;
  src->range = options.range;
  return run(std::move(sources), {}, options, start, nullptr);
}

}  // namespace logagg
