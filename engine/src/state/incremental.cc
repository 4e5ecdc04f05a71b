// Incremental runs (logagg/state.h): the inputs matched to what the state
// recorded of them (file_tracker.h), their new parts counted in one engine
// run, the result added to the state's and the state saved.
//
// An input is stat'ed, and opened only if it changed; then it is kept open
// until it is read, so that what is read is the file that was recognised even
// if it is renamed meanwhile (the engine reads it as /proc/self/fd/N, under
// its own name).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "count/spans.h"
#include "input/input.h"
#include "logagg/merge.h"
#include "logagg/report.h"
#include "logagg/state.h"
#include "state/file_tracker.h"
#include "state/fingerprint.h"
#include "state/state_file.h"

namespace logagg {
namespace {

constexpr int64_t kForgetSeconds = int64_t{30} * 24 * 3600;

}  // namespace

IncrementalRun aggregate_incremental(const std::vector<std::string>& paths, const Options& options,
                                     const std::string& state_path) {
  const auto start = std::chrono::steady_clock::now();
  const StateLock lock(state_path);
  State state = read_state(state_path);
  if (state.result) {  // refuse other options before reading anything
    Partial recorded{state.result->options, state.result->report, {}};
    try {
      merge_into(recorded, Partial{options, {}, {}});
    } catch (const std::runtime_error& e) {
      throw StateError(state_path, std::string("counted with other options: ") + e.what());
    }
  }
  const int64_t now = std::time(nullptr);
  std::vector<InputError> errors;
  std::vector<TrackedFile> files;
  for (const std::string& path : expand_paths(paths, errors, options.include, options.exclude)) {
    TrackedFile f{path};
    if (::stat(path.c_str(), &f.st) != 0) {
      errors.push_back({path, std::strerror(errno)});
      continue;
    }
    if (!S_ISREG(f.st.st_mode)) {
      errors.push_back({path, "not a regular file (--state reads only files)"});
      continue;
    }
    files.push_back(std::move(f));  // opened by the plan if it changed
  }
  FileTracker tracker(std::move(state.files));
  std::vector<SpanPlan> plans = tracker.plan(files, now, errors);
  std::vector<InputSpan> spans;
  for (const SpanPlan& p : plans) spans.push_back(p.span);
  std::vector<SpanRead> reads;
  IncrementalRun run;
  run.added = aggregate_spans(spans, options, reads);
  // A plain file must still hold, around the span read, the bytes it was
  // planned on: else it was truncated or rewritten meanwhile (copytruncate
  // during the run), and the state is not saved.
  for (size_t k = 0; k < plans.size(); ++k) {
    const SpanPlan& p = plans[k];
    if (!p.span.end || !reads[k].complete) continue;
    const int fd = files[p.file].fd;
    struct stat now {};
    const bool same = ::fstat(fd, &now) == 0 && static_cast<uint64_t>(now.st_size) >= *p.span.end &&
                      tail_hash_before(fd, *p.span.end) == p.next.tail_hash &&
                      tail_hash_before(fd, p.span.begin) == p.previous.tail_hash;
    if (!same) reads[k].complete = false;
  }
  for (const TrackedFile& f : files) {
    if (f.fd >= 0) ::close(f.fd);
  }
  run.added.errors.insert(run.added.errors.begin(), errors.begin(), errors.end());
  run.added.summary.unreadable += errors.size();
  for (size_t k = 0; k < plans.size(); ++k) {
    // A compressed file's end is known from its scan, even a damaged one's.
    if (!reads[k].complete && !plans[k].next.compressed)
      run.not_saved = plans[k].span.name + " changed while it was read";
  }
  tracker.commit(plans, reads);

  Partial total = state.result ? std::move(*state.result) : Partial{options, {}, {}};
  merge_into(total, Partial{options, {}, run.added});
  run.total = std::move(total.result);
  // The total's files are those the state knows and found; what could not be
  // read is this run's.
  run.total.summary.files = tracker.found();
  run.total.summary.unreadable = run.added.summary.unreadable;
  run.total.errors = run.added.errors;
  run.total.rejects = run.added.rejects;
  run.total.summary.elapsed_seconds = run.added.summary.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (run.not_saved.empty()) {
    ReportOptions json;
    json.format = Format::kJson;
    const std::string error =
        write_state(state_path, tracker.kept(now, kForgetSeconds), format_report(run.total, options, json));
    if (!error.empty()) run.not_saved = "the state could not be saved: " + error;
  } else {
    run.not_saved += "; the state was not saved, so the next run counts this run's lines again";
  }
  return run;
}

}  // namespace logagg
