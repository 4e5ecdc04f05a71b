// The --follow loop (logagg/follow.h): each round finds the files under the
// followed names, counts what is new in them (state/file_tracker.h plans
// the spans, the engine counts them), hands out the buckets that completed,
// then waits for a change (watcher.h).
//
// The files are held open from round to round: a file renamed away is still
// read through its descriptor until it has gone quiet, then its last line is
// counted even without a LF and it is let go. What is new in a plain file is
// read with pread, at most kRoundBytes a round over all files (the files
// that were there at the start too), and counted from memory.
#include "logagg/follow.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>

#include "count/spans.h"
#include "follow/bucket_stream.h"
#include "follow/span_reader.h"
#include "follow/watcher.h"
#include "input/input.h"
#include "state/file_tracker.h"
#include "state/fingerprint.h"

namespace logagg {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a file renamed away must stay the same size before its last line
// counts without a LF: its writer has moved to the new file.
constexpr milliseconds kQuiet{1000};

// A file held open.
struct Held {
  TrackedFile file;        // file.name: where it is now, or was last seen
  std::string first_name;  // where it was first found
  bool at_path = false;    // found under a followed name this round
  int64_t size = -1;
  Clock::time_point grew;  // when its size last changed
  bool unread = false;     // the last round left bytes of it to read (or read nothing of it)
  bool rotated() const { return !at_path || file.name != first_name; }
};

// At most this much is read in one round, over all files; the rest in the
// next round, at once (a catch-up is read in rounds too, so that a stop is
// heard between them).
constexpr uint64_t kRoundBytes = uint64_t{64} << 20;
// A round that reads more than this is counted with every thread.
constexpr uint64_t kThreadedRoundBytes = uint64_t{4} << 20;

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

// The followed files, opened or found again among those held; folders
// watched. A followed name that does not exist (yet) is no error.
void find_files(const std::vector<std::string>& paths, const Options& options, Watcher& watcher,
                std::vector<Held>& held, std::vector<InputError>& errors, uint64_t& opened) {
  std::vector<InputError> found_errors;
  const std::vector<std::string> found = expand_paths(paths, found_errors, options.include, options.exclude);
  for (const std::string& path : paths) {
    std::error_code ec;
    watcher.watch(std::filesystem::is_directory(path, ec) ? path : folder_of(path));
  }
  for (InputError& e : found_errors) {
    struct stat st {};
    if (::stat(e.path.c_str(), &st) != 0 && errno == ENOENT) continue;  // not there yet, or gone
    errors.push_back(std::move(e));
  }
  for (Held& h : held) h.at_path = false;
  for (const std::string& path : found) {
    watcher.watch(folder_of(path));
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    const auto same = [&](const Held& h) { return h.file.st.st_dev == st.st_dev && h.file.st.st_ino == st.st_ino; };
    if (const auto it = std::find_if(held.begin(), held.end(), same); it != held.end()) {
      it->at_path = true;
      it->file.name = path;
      continue;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      errors.push_back({path, std::strerror(errno)});
      continue;
    }
    Held& h = held.emplace_back();
    h.file = TrackedFile{path, fd, st};
    h.first_name = path;
    h.at_path = true;
    ++opened;
  }
}

}  // namespace

FollowResult follow(const std::vector<std::string>& paths, const Options& options, const FollowOptions& fo,
                    const FollowSink& sink) {
  Watcher watcher(fo.stop_fd);
  FileTracker tracker;
  BucketStream stream(fo.bucketing, (fo.late.count() + 999) / 1000, fo.top);
  std::vector<Held> held;
  FollowResult out;
  Summary& summary = out.result.summary;
  std::set<std::pair<std::string, std::string>> told;  // errors are told once
  Options round_options = options;
  std::vector<ReadBuffer> buffers;  // one for each span of a round
  uint64_t opened = 0;
  const auto start = Clock::now();
  auto last_line = start;
  bool open_buckets = false;
  for (;;) {
    const bool stopping = watcher.stopped();
    std::vector<InputError> errors;
    find_files(paths, options, watcher, held, errors, opened);
    const auto now = Clock::now();
    std::vector<TrackedFile> files;
    for (Held& h : held) {
      ::fstat(h.file.fd, &h.file.st);
      if (h.file.st.st_size != h.size) {
        h.size = h.file.st.st_size;
        h.grew = now;
      }
      h.file.to_end = h.rotated() && (stopping || now - h.grew >= kQuiet);
      files.push_back(h.file);
    }
    std::vector<SpanPlan> plans = tracker.plan(files, std::time(nullptr), errors);
    if (buffers.size() < plans.size()) buffers.resize(plans.size());
    std::vector<bool> left(plans.size(), false);  // bytes left for the next round
    uint64_t budget = kRoundBytes;
    // The least recently modified files first: rotated files before the one
    // still written to (older lines before newer ones, and a busy file cannot
    // starve the others).
    std::vector<size_t> order(plans.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    const auto mtime = [&](size_t k) {
      const struct stat& st = files[plans[k].file].st;
      return std::pair(st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return mtime(a) < mtime(b); });
    for (const size_t k : order) {
      // A compressed file is read by the engine as a stream, in bounded memory.
      if (!plans[k].next.compressed) left[k] = read_span(files[plans[k].file].fd, plans[k], buffers[k], budget, kRoundBytes);
    }
    std::vector<InputSpan> spans;
    for (const SpanPlan& p : plans) spans.push_back(p.span);
    const bool more = std::find(left.begin(), left.end(), true) != left.end();
    const uint64_t read = kRoundBytes - budget;
    round_options.threads = read > kThreadedRoundBytes ? options.threads : 1;
    std::vector<SpanRead> reads;
    Result round = aggregate_spans(spans, round_options, reads);
    if (read < kThreadedRoundBytes) {  // the big buffers of a catch-up are let go once it is done
      for (ReadBuffer& b : buffers) {
        if (b.capacity() > kThreadedRoundBytes) b.release();
      }
    }
    for (Held& h : held) h.unread = false;
    for (size_t k = 0; k < plans.size(); ++k) {
      // A read that failed (a long line's file truncated while mapped, a
      // compressed file cut short in place) leaves its record where it was.
      if (!reads[k].complete) plans[k].next = plans[k].previous;
      held[plans[k].file].unread = left[k] || !reads[k].complete;  // files[j] is held[j]
    }
    tracker.commit(plans, reads);

    errors.insert(errors.end(), round.errors.begin(), round.errors.end());
    for (InputError& e : errors) {
      if (!told.insert({e.path, e.message}).second) continue;
      if (fo.on_error) fo.on_error(e);
      out.result.errors.push_back(std::move(e));
    }
    summary.add(round.summary);
    for (RejectSample& r : round.rejects) {
      if (out.result.rejects.size() < options.max_reject_samples) out.result.rejects.push_back(std::move(r));
    }
    if (round.summary.lines > 0) last_line = now;
    stream.add(round);
    open_buckets = open_buckets || !round.counts.empty();

    // Files renamed away and read to their end are let go (not one whose
    // read was capped or stopped short: its rest is still to read).
    for (auto it = held.begin(); it != held.end();) {
      if (it->file.to_end && !it->at_path && !it->unread && tracker.unfinished_bytes(it->file.st) == 0) {
        ::close(it->file.fd);
        it = held.erase(it);
      } else {
        ++it;
      }
    }

    // While files are being caught up (bytes left), no bucket is handed out:
    // the lines still to read may belong to any of them.
    const bool idle = now - last_line >= fo.late;
    const std::vector<FollowRow> rows = more && !stopping ? std::vector<FollowRow>{} : stream.take(idle || stopping);
    if (idle) open_buckets = false;
    if (!rows.empty() && !sink(rows)) break;
    if (stopping) break;

    // Wait: a pause, so that a busy log is read in rounds, then for a change,
    // for the next rescan, or for when the open buckets or a rotated file's
    // quiet second fall due.
    const auto due = [&](Clock::duration d) { return std::max(milliseconds(0), std::chrono::ceil<milliseconds>(d)); };
    milliseconds timeout = fo.rescan;
    if (open_buckets) timeout = std::min(timeout, due(fo.late - (now - last_line)));
    for (const Held& h : held) {
      if (h.rotated() && !h.file.to_end) timeout = std::min(timeout, due(kQuiet - (now - h.grew)));
    }
    if (more) {  // the rest at once, unless a stop came meanwhile
      watcher.pause(milliseconds(0));
      continue;
    }
    if (watcher.pause(std::min(fo.min_pause, timeout))) continue;
    watcher.wait(timeout - std::min(fo.min_pause, timeout));
  }

  for (const Held& h : held) {
    const auto size = static_cast<uint64_t>(h.file.st.st_size);
    uint64_t bytes = tracker.unfinished_bytes(h.file.st);
    if (h.unread && bytes == 0) bytes = size;  // a new file that no round could read yet
    if (bytes != 0) {
      const bool unread = h.unread || last_line_end(h.file.fd, size, size - bytes) > size - bytes;
      out.unfinished.push_back({h.file.name, bytes, unread});
    }
    ::close(h.file.fd);
  }
  Result totals = stream.totals();
  out.result.counts = std::move(totals.counts);
  if (options.keyed()) {
    out.result.apps = std::move(totals.apps);
    out.result.app_counts = std::move(totals.app_counts);
  }
  summary.files = opened;
  summary.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out.late = stream.late();
  return out;
}

}  // namespace logagg
