// The pipeline: inputs -> segments -> lines -> per-thread counters -> merge.
//
// 1. Worker threads take the inputs in order from one queue (work_queue.h)
//    and open them in parallel (thousands of small files cost no serial
//    start-up). What a worker opens it reads itself when it is not split
//    (open_input.h): files up to 1 MiB (read, not mapped), mapped files of one
//    segment, compressed files (gzip, zstd: detected by their magic bytes) and
//    streams (stdin, pipes, devices). A larger plain file is mapped and cut
//    into line-aligned segments that go on the queue for any worker once all
//    inputs are open, so a slow segment or a big compressed file never stalls
//    the others; each segment is read through the mapping, or with pread when
//    the file was mostly not in the page cache (scan_source.h).
// 2. Per-thread counters are merged and sorted; rejected-line positions are
//    turned into absolute line numbers from each segment's line count, and
//    errors are reported in input order (gather.h).
// Every read of mapped memory runs under a SIGBUS guard: a file truncated
// while mapped is reported as changed, and the lines read before are kept.
#include "logagg/aggregate.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <utility>

#include "run/gather.h"
#include "run/open_input.h"
#include "run/scan_source.h"
#include "run/source.h"
#include "run/spans.h"
#include "run/work_queue.h"

namespace logagg {
namespace {

// One worker per Counter of `tallies`, each counting into its own.
std::vector<Worker> make_workers(unsigned threads, const Query& query, const RunSettings& options,
                                 RunTallies& tallies, Progress* progress) {
  std::vector<Worker> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.push_back({BlockParser(query.rules(), options.max_line_bytes), tallies.counter(t), {}, {}, 0, progress});
  }
  return workers;
}

// Runs `workers`, one a thread (the first on this one), over `sources`
// until every input is opened and every segment scanned.
void run_workers(std::vector<std::unique_ptr<Source>>& sources, std::vector<Worker>& workers,
                 const RunSettings& options) {
  const auto threads = static_cast<unsigned>(workers.size());
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
    end_counting(w.counter);  // here, so the workers sort their last lists of pairs in parallel
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < workers.size(); ++t) pool.emplace_back(work, std::ref(workers[t]));
  work(workers[0]);
  for (std::thread& t : pool) t.join();
}

// Runs the workers over `sources` (paths to open, or the caller's buffer:
// text set, no path) for `query`, as `options` say, and gathers the result,
// and with `reads` how each source was read.
Result run(std::vector<std::unique_ptr<Source>> sources, std::vector<InputError> errors, const Query& query,
           const RunSettings& options, std::chrono::steady_clock::time_point start, Progress* progress,
           std::vector<SpanRead>* reads = nullptr) {
  const size_t walk_errors = errors.size();  // paths that could not be expanded: unreadable
  const unsigned threads = resolve_threads(options.threads);
  RunTallies tallies(query, threads);
  std::vector<Worker> workers = make_workers(threads, query, options, tallies, progress);
  run_workers(sources, workers, options);
  Result result = gather(sources, tallies, query, options.max_reject_samples, std::move(errors), reads);
  result.summary.unreadable += walk_errors;
  result.summary.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

Result aggregate(const std::vector<std::string>& paths, const Options& options, Progress* progress) {
  return aggregate(paths, Query(options), options, progress);
}

Result aggregate(const std::vector<std::string>& paths, const Query& query, const RunSettings& options,
                 Progress* progress) {
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
  return run(std::move(sources), std::move(errors), query, options, start, progress);
}

Result aggregate_spans(const std::vector<InputSpan>& spans, const Query& query, const RunSettings& options,
                       std::vector<SpanRead>& reads) {
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
  return run(std::move(sources), {}, query, options, start, nullptr, &reads);
}

Result aggregate_buffer(std::string_view data, const Options& options, std::string_view name) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Source>> sources;
  auto& src = sources.emplace_back(std::make_unique<Source>());
  src->name = std::string(name);
  src->text = data;
  src->range = options.range;
  return run(std::move(sources), {}, Query(options), options, start, nullptr);
}

}  // namespace logagg
