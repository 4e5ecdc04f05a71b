// Incremental runs (logagg/state.h): each input matched to what the state
// recorded of it, the new part of each counted in one engine run, the
// result added to the state's and the state saved.
//
// 1. Every input is opened once and kept open, so that what is read is the
//    file that was recognised even if it is renamed meanwhile (the engine
//    reads it as /proc/self/fd/N under its own name).
// 2. Unchanged files (device, inode, size and mtime as recorded) are claimed
//    first, then the others by content, a record that shares the file's
//    device and inode tried first; a record is claimed once, so a second
//    copy of a log (access.log.1 beside its access.log.1.gz) is not read.
// 3. The spans are counted (count/spans.h), the records moved to where the
//    counting stopped, records of files not found for 30 days forgotten.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <optional>

#include "count/spans.h"
#include "input/input.h"
#include "logagg/merge.h"
#include "logagg/report.h"
#include "logagg/state.h"
#include "state/fingerprint.h"
#include "state/state_file.h"

namespace logagg {
namespace {

constexpr int64_t kForgetSeconds = int64_t{30} * 24 * 3600;

// An input file opened for the run.
struct OpenFile {
  std::string name;
  int fd = -1;
  struct stat st {};
};

// What the run does with one file: count a span of it and then leave the
// record (an old one moved on, or a new one) at the span's end.
struct Plan {
  size_t file = 0;             // index into the open files
  std::optional<size_t> old;   // the record it continues, if any
  InputSpan span;
  FileRecord next;             // the record after the span is read (lines: those before the span)
};

int64_t mtime_ns(const struct stat& st) {
  return int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
}

bool same_stat(const FileRecord& r, const struct stat& st) {
  return r.device == st.st_dev && r.inode == st.st_ino && r.size == static_cast<uint64_t>(st.st_size) &&
         r.mtime_ns == mtime_ns(st);
}

void note_stat(FileRecord& r, const OpenFile& f, int64_t now) {
  r.path = f.name;
  r.device = f.st.st_dev;
  r.inode = f.st.st_ino;
  r.size = static_cast<uint64_t>(f.st.st_size);
  r.mtime_ns = mtime_ns(f.st);
  r.seen = now;
}

// Whether `head` starts with the content that `r` recorded.
bool head_matches(const FileRecord& r, const FileHead& head) {
  return head.bytes.size() >= r.head_bytes &&
         fingerprint_hash(std::string_view(head.bytes).substr(0, r.head_bytes)) == r.head_hash;
}

// Plans one file that is not unchanged: finds the record it continues (a
// claimed one makes it a copy: nothing to do) and the span still to count.
void plan_file(const OpenFile& f, size_t index, std::vector<FileRecord>& records, std::vector<bool>& claimed,
               int64_t now, std::vector<InputError>& errors, std::vector<Plan>& plans) {
  const FileHead head = read_head(f.fd);
  if (!head.error.empty() && head.bytes.empty()) {
    errors.push_back({f.name, head.error});
    return;
  }
  std::vector<size_t> candidates;
  for (size_t i = 0; i < records.size(); ++i) {
    if (head_matches(records[i], head)) candidates.push_back(i);
  }
  // The same file first (renamed or appended to), then the longest.
  std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    const auto same = [&](size_t i) { return records[i].device == f.st.st_dev && records[i].inode == f.st.st_ino; };
    if (same(a) != same(b)) return same(a);
    return records[a].offset > records[b].offset;
  });
  // A compressed file's content, decompressed once (again for a second
  // candidate stopped elsewhere, which is rare).
  std::optional<ContentScan> scan;
  uint64_t scanned_at = 0;
  if (head.compressed) scan = scan_content(f.fd, 0);
  std::optional<size_t> old;
  for (const size_t i : candidates) {
    const FileRecord& r = records[i];
    bool continues;
    if (head.compressed) {
      if (scanned_at != r.offset) scan = scan_content(f.fd, scanned_at = r.offset);
      continues = scan->tail_hash_at_mark == r.tail_hash;
    } else {
      continues = static_cast<uint64_t>(f.st.st_size) >= r.offset && tail_hash_before(f.fd, r.offset) == r.tail_hash;
    }
    if (!continues) continue;
    if (claimed[i]) return;  // a copy of a file this run reads already
    claimed[i] = true;
    old = i;
    break;
  }
  Plan plan;
  plan.file = index;
  plan.old = old;
  plan.span.path = "/proc/self/fd/" + std::to_string(f.fd);
  plan.span.name = f.name;
  plan.span.begin = old ? records[*old].offset : 0;
  plan.span.first_line = old ? records[*old].lines : 0;
  FileRecord& next = plan.next;
  if (old) next = records[*old];
  note_stat(next, f, now);
  next.compressed = head.compressed;
  uint64_t end;
  if (head.compressed) {
    end = scan->length;
    next.tail_hash = scan->tail_hash;
  } else {
    end = last_line_end(f.fd, static_cast<uint64_t>(f.st.st_size), plan.span.begin);
    plan.span.end = end;
    next.tail_hash = tail_hash_before(f.fd, end).value_or(0);
  }
  next.offset = end;
  next.lines = plan.span.first_line;
  next.head_bytes = std::min<uint64_t>({end, kFingerprintBytes, head.bytes.size()});
  next.head_hash = fingerprint_hash(std::string_view(head.bytes).substr(0, next.head_bytes));
  if (end == plan.span.begin) {  // nothing new: only the record moves
    if (old) records[*old] = next;
    return;
  }
  plans.push_back(std::move(plan));
}

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
  std::vector<OpenFile> files;
  for (const std::string& path : expand_paths(paths, errors, options.include, options.exclude)) {
    OpenFile f{path};
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd < 0 || ::fstat(f.fd, &f.st) != 0 || !S_ISREG(f.st.st_mode)) {
      errors.push_back({path, f.fd < 0 ? std::strerror(errno) : "not a regular file (--state reads only files)"});
      if (f.fd >= 0) ::close(f.fd);
      continue;
    }
    files.push_back(std::move(f));
  }

  std::vector<FileRecord>& records = state.files;
  std::vector<bool> claimed(records.size(), false);
  std::vector<bool> unchanged(files.size(), false);
  for (size_t j = 0; j < files.size(); ++j) {
    for (size_t i = 0; i < records.size() && !unchanged[j]; ++i) {
      if (!same_stat(records[i], files[j].st)) continue;
      unchanged[j] = true;  // a second name of a claimed file (a hard link) is not read either
      if (!claimed[i]) {
        claimed[i] = true;
        note_stat(records[i], files[j], now);
      }
    }
  }
  std::vector<Plan> plans;
  for (size_t j = 0; j < files.size(); ++j) {
    if (!unchanged[j]) plan_file(files[j], j, records, claimed, now, errors, plans);
  }

  std::vector<InputSpan> spans;
  for (const Plan& p : plans) spans.push_back(p.span);
  std::vector<SpanRead> reads;
  IncrementalRun run;
  run.added = aggregate_spans(spans, options, reads);
  for (const auto& f : files) ::close(f.fd);
  run.added.errors.insert(run.added.errors.begin(), errors.begin(), errors.end());
  run.added.summary.unreadable += errors.size();

  for (size_t k = 0; k < plans.size(); ++k) {
    Plan& p = plans[k];
    if (!reads[k].complete && !p.next.compressed) {
      run.not_saved = p.span.name + " changed while it was read";
    }
    p.next.lines += reads[k].lines;
    if (p.old) {
      records[*p.old] = p.next;
    } else {
      records.push_back(p.next);
      claimed.push_back(true);
    }
  }
  std::vector<FileRecord> kept;
  for (size_t i = 0; i < records.size(); ++i) {
    if (claimed[i] || now - records[i].seen < kForgetSeconds) kept.push_back(std::move(records[i]));
  }

  Partial total = state.result ? std::move(*state.result) : Partial{options, {}, {}};
  merge_into(total, Partial{options, {}, run.added});
  run.total = std::move(total.result);
  // The total's files are those the state knows and found; what could not be
  // read is this run's.
  run.total.summary.files = static_cast<uint64_t>(std::count(claimed.begin(), claimed.end(), true));
  run.total.summary.unreadable = run.added.summary.unreadable;
  run.total.errors = run.added.errors;
  run.total.rejects = run.added.rejects;
  run.total.summary.elapsed_seconds = run.added.summary.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (run.not_saved.empty()) {
    ReportOptions json;
    json.format = Format::kJson;
    const std::string error = write_state(state_path, kept, format_report(run.total, options, json));
    if (!error.empty()) run.not_saved = "the state could not be saved: " + error;
  } else {
    run.not_saved += "; the state was not saved, so the next run counts this run's lines again";
  }
  return run;
}

}  // namespace logagg
