// The pipeline: inputs -> segments -> lines -> per-thread counters -> merge.
//
// 1. Open every input in order: regular files are mapped and cut into
//    line-aligned segments; streams (stdin, pipes, devices) are read in blocks.
// 2. Streams are scanned on the calling thread; mapped segments go to worker
//    threads through one atomic cursor, so a slow segment never stalls others.
// 3. Per-thread counters are merged and sorted; rejected-line positions are
//    turned into absolute line numbers from each segment's line count.
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
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "counter.h"
#include "fault_guard.h"
#include "line_scanner.h"
#include "logagg/input.h"
#include "logagg/segmenter.h"

namespace logagg {
namespace {

// One input being read.
struct Source {
  std::string name;
  std::string_view text;  // the whole mapped file or caller's buffer; empty for streams
  MappedFile map;         // owns `text` when the input is mapped
  int stream_fd = -1;     // >= 0: read as a stream
  bool close_fd = false;
  std::vector<Segment> segments;
  std::vector<ScanLog> logs;  // one per segment, or one for a stream
  std::unique_ptr<std::atomic<bool>> changed = std::make_unique<std::atomic<bool>>(false);
};

struct WorkItem {
  uint32_t source;
  uint32_t segment;
};

// A worker's private state.
struct Worker {
  LineParser parser;
  Counter counter;
};

unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Opens `path` and prepares it as a mapped or streamed source; nullopt on error.
std::optional<Source> open_source(const std::string& path, std::vector<InputError>& errors) {
  Source src;
  src.name = path == "-" ? std::string(kStdinName) : path;
  int fd = 0;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      errors.push_back({path, std::strerror(errno)});
      return std::nullopt;
    }
    src.close_fd = true;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    errors.push_back({src.name, std::strerror(errno)});
    if (src.close_fd) ::close(fd);
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    errors.push_back({src.name, std::strerror(EISDIR)});
    if (src.close_fd) ::close(fd);
    return std::nullopt;
  }
  if (choose_read_mode(st) == ReadMode::kMap) {
    src.map = MappedFile::map(fd, static_cast<size_t>(st.st_size));
    if (src.map.ok()) {
      src.text = src.map.view();
      if (src.close_fd) ::close(fd);
      src.close_fd = false;
      return src;
    }
  }
  src.stream_fd = fd;  // not mappable: read it
  return src;
}

// Reads a stream source to its end on the calling thread.
void scan_stream(Source& src, Worker& w, const Options& options, uint64_t& bytes,
                 std::vector<InputError>& errors) {
  StreamReader reader(src.stream_fd, options.max_line_bytes);
  ScanLog& log = src.logs.emplace_back(ScanLog(options.max_reject_samples));
  StreamReader::Chunk chunk;
  while (reader.next(chunk)) {
    if (chunk.skipped_long_line) {
      record_skipped_line(chunk.skipped_line_blank, w.counter, log);
    } else {
      scan_lines(chunk.text, chunk.readable, w.parser, w.counter, log);
    }
  }
  bytes += reader.bytes_read();
  if (reader.error() != 0) errors.push_back({src.name, std::strerror(reader.error())});
  if (src.close_fd) ::close(src.stream_fd);
}

// Cuts a mapped source into segments, the BOM (if any) left out.
void plan_segments(Source& src, size_t segment_bytes, size_t max_reject_samples) {
  const bool planned = run_guarded([&] {
    const size_t skip = src.text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    src.segments = cut_segments(src.text.substr(skip), segment_bytes);
    for (Segment& s : src.segments) {
      s.begin += skip;
      s.end += skip;
    }
  });
  if (!planned) {
    src.segments.clear();
    *src.changed = true;
  }
  src.logs.assign(src.segments.size(), ScanLog(max_reject_samples));
}

void run_segments(std::vector<Source>& sources, std::vector<Worker>& workers) {
  std::vector<WorkItem> items;
  for (uint32_t i = 0; i < sources.size(); ++i) {
    for (uint32_t j = 0; j < sources[i].segments.size(); ++j) items.push_back({i, j});
  }
  std::atomic<size_t> cursor{0};
  auto work = [&](Worker& w) {
    for (size_t k; (k = cursor.fetch_add(1, std::memory_order_relaxed)) < items.size();) {
      Source& src = sources[items[k].source];
      if (*src.changed) continue;  // its pages are gone: the rest would fault too
      const Segment seg = src.segments[items[k].segment];
      ScanLog& log = src.logs[items[k].segment];
      const bool complete = run_guarded([&] {
        scan_lines(src.text.substr(seg.begin, seg.end - seg.begin), src.text.size() - seg.begin,
                   w.parser, w.counter, log);
      });
      if (!complete) *src.changed = true;
      if (src.map.ok()) src.map.release(seg.begin, seg.end);
    }
  };
  const size_t n = std::min(workers.size(), std::max<size_t>(items.size(), 1));
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(work, std::ref(workers[t]));
  work(workers[0]);
  for (std::thread& t : threads) t.join();
}

// Turns per-segment reject positions into the first N absolute line numbers.
std::vector<RejectSample> collect_rejects(const std::vector<Source>& sources, size_t limit) {
  std::vector<RejectSample> out;
  for (const Source& src : sources) {
    uint64_t base = 0;
    for (const ScanLog& log : src.logs) {
      for (const LocalReject& r : log.rejects) {
        if (out.size() == limit) return out;
        out.push_back({src.name, base + r.line + 1, r.reason});
      }
      base += log.lines;
    }
  }
  return out;
}

Result run(std::vector<Source> sources, std::vector<InputError> errors, size_t unreadable,
           const Options& options, std::chrono::steady_clock::time_point start) {
  const unsigned threads = resolve_threads(options.threads);
  SharedCounts shared;
  std::vector<Worker> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.push_back({LineParser(options.app_field, options.time_field, options.max_line_bytes),
                       Counter(shared)});
  }

  Result result;
  uint64_t mapped_bytes = 0;
  for (const Source& s : sources) mapped_bytes += s.text.size();
  const size_t segment_bytes =
      options.segment_bytes != 0 ? options.segment_bytes : choose_segment_bytes(mapped_bytes, threads);

  uint64_t bytes = mapped_bytes;
  for (Source& src : sources) {
    if (src.stream_fd >= 0) {
      scan_stream(src, workers[0], options, bytes, errors);
    } else {
      plan_segments(src, segment_bytes, options.max_reject_samples);
    }
  }
  run_segments(sources, workers);

  for (const Source& src : sources) {
    if (*src.changed) {
      errors.push_back({src.name, "file changed while being read (truncated?); "
                                  "only the lines read before the change are counted"});
    }
  }
  for (Worker& w : workers) {
    w.counter.spill();
    result.summary.add(w.counter.tally());
  }
  result.counts = shared.take_sorted();
  result.summary.files = sources.size();
  result.summary.unreadable = unreadable;
  result.summary.bytes = bytes;
  result.rejects = collect_rejects(sources, options.max_reject_samples);
  result.errors = std::move(errors);
  result.summary.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

uint64_t Summary::rejected_total() const noexcept {
  uint64_t total = 0;
  for (const uint64_t n : rejected) total += n;
  return total;
}

void Summary::add(const Summary& o) noexcept {
  files += o.files;
  unreadable += o.unreadable;
  bytes += o.bytes;
  lines += o.lines;
  counted += o.counted;
  blank += o.blank;
  for (size_t i = 0; i < kReasonCount; ++i) rejected[i] += o.rejected[i];
  elapsed_seconds += o.elapsed_seconds;
}

Result aggregate(const std::vector<std::string>& paths, const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<InputError> errors;
  std::vector<Source> sources;
  for (const std::string& path : expand_paths(paths, errors)) {
    if (std::optional<Source> src = open_source(path, errors)) sources.push_back(std::move(*src));
  }
  const size_t unreadable = errors.size();  // one error per input that could not be opened
  return run(std::move(sources), std::move(errors), unreadable, options, start);
}

Result aggregate_buffer(std::string_view data, const Options& options, std::string_view name) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Source> sources(1);
  sources[0].name = std::string(name);
  sources[0].text = data;
  return run(std::move(sources), {}, 0, options, start);
}

}  // namespace logagg
