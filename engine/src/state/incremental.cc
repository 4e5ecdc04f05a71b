// Incremental runs (logagg/state.h): the inputs matched to what the state
// recorded of them (file_tracker.h), their new parts counted in one engine
// run, the result added to the state's; the state is saved when the caller
// has written the report (IncrementalRun::save), with a delta folder this
// run's delta with it (delta_files.h).
//
// An input is stat'ed, and opened only if it changed; then it is kept open
// until it is read, so that what is read is the file that was recognised even
// if it is renamed meanwhile (the engine reads it as /proc/self/fd/N, under
// its own name). Past half the descriptors the process may hold, a file is
// closed after its plan and read by its name, which must still be the same
// file (else the state is not saved).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "input/input.h"
#include "logagg/merge.h"
#include "logagg/report.h"
#include "logagg/state.h"
#include "run/spans.h"
#include "state/delta_files.h"
#include "state/file_tracker.h"
#include "state/state_file.h"

namespace logagg {

struct StateUpdate {
  explicit StateUpdate(const std::string& path) : lock(path), path(path) {}
  StateLock lock;
  std::string path;
  uint64_t generation = 0;
  std::string delta_dir;  // empty: none
  std::vector<FileRecord> files;
  std::string result_json;
  std::string delta_json;  // with delta_dir: this run's delta
};

namespace {

constexpr int64_t kForgetSeconds = int64_t{30} * 24 * 3600;

// How many changed files a plan keeps open until they are read: half of
// what the process may open, the rest left to the engine and its threads.
size_t files_to_keep_open() {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) return 4096;
  return static_cast<size_t>(files.rlim_cur / 2);
}

// Refuses, before anything is read, a run whose --delta-dir or question is
// not the state's: the state's value named first ("made with a different
// --app-pattern (STATE'S, not THIS RUN'S)"), since the state is the result
// added in. `nothing` is this run's question with nothing counted.
void refuse_another_question(const State& state, const Result& nothing, const std::string& delta_dir,
                             const std::string& state_path) {
  if (!state.delta_dir.empty() && delta_dir != state.delta_dir) {
    throw StateError(state_path,
                     "its deltas go to --delta-dir " + state.delta_dir +
                         (delta_dir.empty() ? ": give it to every run with this state" : ", not " + delta_dir));
  }
  if (!state.result) return;
  Partial run{{}, nothing};
  Result stated;
  stated.query = state.result->result.query;
  try {
    merge_into(run, Partial{state.result->report, std::move(stated)});
  } catch (const std::runtime_error& e) {
    throw StateError(state_path, std::string("counted with other options: ") + e.what());
  }
}

// The regular files `paths` names (folders expanded), each with its stat;
// anything else is an error (--state reads only files).
std::vector<TrackedFile> regular_files(const std::vector<std::string>& paths, const RunSettings& options,
                                       std::vector<InputError>& errors) {
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
  return files;
}

}  // namespace

IncrementalRun::IncrementalRun() = default;
IncrementalRun::IncrementalRun(IncrementalRun&&) noexcept = default;
IncrementalRun& IncrementalRun::operator=(IncrementalRun&&) noexcept = default;
IncrementalRun::~IncrementalRun() = default;

std::string IncrementalRun::save() {
  if (!not_saved.empty() || update_ == nullptr) return not_saved;
  const std::unique_ptr<StateUpdate> update = std::move(update_);  // the lock goes at the end
  const std::string& dir = update->delta_dir;
  // The delta pending, then the state saved (the commit), then the delta
  // published: delta_files.h.
  std::string error = dir.empty() ? "" : write_pending_delta(dir, update->generation, update->delta_json);
  if (error.empty()) {
    error = write_state(update->path, update->generation, dir, update->files, update->result_json);
    if (!error.empty() && !dir.empty()) drop_pending_delta(dir, update->generation);
  }
  if (!error.empty()) return not_saved = "the state could not be saved: " + error;
  if (!dir.empty()) unpublished = publish_delta(dir, update->generation);
  return {};
}

IncrementalRun aggregate_incremental(const std::vector<std::string>& paths, const Options& options,
                                     const std::string& state_path, const std::string& delta_dir) {
  return aggregate_incremental(paths, Query(options), options, state_path, delta_dir);
}

IncrementalRun aggregate_incremental(const std::vector<std::string>& paths, const Query& query,
                                     const RunSettings& options, const std::string& state_path,
                                     const std::string& delta_dir) {
  const auto start = std::chrono::steady_clock::now();
  Result nothing;  // this run's question, nothing counted yet
  nothing.query = query;
  auto update = std::make_unique<StateUpdate>(state_path);
  State state = read_state(state_path);
  update->delta_dir = delta_dir.empty() ? "" : delta_dir_path(delta_dir);
  refuse_another_question(state, nothing, update->delta_dir, state_path);
  if (!update->delta_dir.empty()) settle_deltas(update->delta_dir, state, state_path);
  const int64_t now = std::time(nullptr);
  std::vector<InputError> errors;
  std::vector<TrackedFile> files = regular_files(paths, options, errors);
  FileTracker tracker(std::move(state.files));
  std::vector<SpanPlan> plans = tracker.plan(files, now, errors, files_to_keep_open());
  std::vector<InputSpan> spans;
  for (const SpanPlan& p : plans) spans.push_back(p.span);
  std::vector<SpanRead> reads;
  IncrementalRun run;
  run.added = aggregate_spans(spans, query, options, reads);
  for (size_t k = 0; k < plans.size(); ++k) {
    const SpanPlan& p = plans[k];
    if (reads[k].complete && !p.next.compressed && !holds_planned_bytes(p, files[p.file].fd)) reads[k].complete = false;
    if (!reads[k].complete && run.not_saved.empty()) run.not_saved = p.span.name + " changed while it was read";
  }
  for (const TrackedFile& f : files) {
    if (f.fd >= 0) ::close(f.fd);
  }
  run.added.errors.insert(run.added.errors.begin(), errors.begin(), errors.end());
  run.added.summary.unreadable += errors.size();
  tracker.commit(plans, reads);

  Partial total = state.result ? std::move(*state.result) : Partial{{}, std::move(nothing)};
  merge_into(total, Partial{{}, run.added});
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
    update->generation = state.generation + 1;
    update->files = tracker.kept(now, kForgetSeconds);
    update->result_json = format_report(run.total, json);
    if (!update->delta_dir.empty()) update->delta_json = format_report(run.added, json);
    run.update_ = std::move(update);
  } else {
    run.not_saved += "; the state was not saved, so the next run counts this run's lines again";
  }
  return run;
}

}  // namespace logagg
