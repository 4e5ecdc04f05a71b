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
#include <memory>
#include <set>

#include "count/spans.h"
#include "follow/bucket_stream.h"
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
  bool rotated() const { return !at_path || file.name != first_name; }
};

// At most this much is read in one round, over all files; the rest in the
// next round, at once (a catch-up is read in rounds too, so that a stop is
// heard between them).
constexpr uint64_t kRoundBytes = uint64_t{64} << 20;
// A round that reads more than this is counted with every thread.
constexpr uint64_t kThreadedRoundBytes = uint64_t{4} << 20;

// Where the line that starts at `begin` ends (just past its LF), looking no
// further than `end` (returned if there is no LF before it); read in blocks.
uint64_t line_end_after(int fd, uint64_t begin, uint64_t end) {
  std::string block(size_t{1} << 20, '\0');
  for (uint64_t at = begin; at < end;) {
    const ssize_t n = ::pread(fd, block.data(), static_cast<size_t>(std::min<uint64_t>(block.size(), end - at)),
                              static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (const void* lf = std::memchr(block.data(), '\n', static_cast<size_t>(n)); lf != nullptr)
      return at + static_cast<uint64_t>(static_cast<const char*>(lf) - block.data()) + 1;
    at += static_cast<uint64_t>(n);
  }
  return end;
}

// A read buffer, grown without being zeroed and kept from round to round,
// so that a catch-up does not fault in fresh pages every round.
class ReadBuffer {
 public:
  char* reserve(size_t n) {
    if (n > capacity_) {
      data_ = std::make_unique_for_overwrite<char[]>(n);
      capacity_ = n;
    }
    return data_.get();
  }
  size_t capacity() const { return capacity_; }
  void release() {
    data_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
};

// Reads a plain span's bytes into `buffer`, with the kFingerprintBytes before
// it, at most `budget` of them: up to their last whole line, the rest left
// for the next round (returns whether bytes were left). If the file changed
// under the read (copytruncate: shorter than planned, or other bytes before
// the span), nothing of it counts this round and its record stays where it
// was: the next round sees the truncation, and the copy goes on from there.
// So a span is counted whole or not at all. One line longer than a whole
// round is not read into memory: the span is cut after it and the engine
// maps it (one line: it too counts whole or not at all).
bool read_span(int fd, SpanPlan& p, ReadBuffer& buffer, uint64_t& budget) {
  const uint64_t begin = p.span.begin, planned_end = p.span.end;
  const uint64_t before = std::min<uint64_t>(begin, kFingerprintBytes);
  const bool capped = planned_end - begin > budget;
  const auto size = static_cast<size_t>((capped ? budget : planned_end - begin) + before);
  char* const buf = buffer.reserve(size);
  size_t got = 0;
  while (got < size) {  // bytes [begin - before, begin + what fits)
    const ssize_t n = ::pread(fd, buf + got, size - got, static_cast<off_t>(begin - before + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  const std::string_view bytes(buf, got);
  struct stat now {};
  const bool changed = got < size || ::fstat(fd, &now) != 0 || static_cast<uint64_t>(now.st_size) < planned_end ||
                       fingerprint_hash(bytes.substr(0, static_cast<size_t>(before))) != p.previous.tail_hash;
  const size_t last_lf = bytes.rfind('\n');
  const bool no_line = capped && (last_lf == std::string_view::npos || last_lf < before);
  bool left = false, mapped = false;
  if (changed || (no_line && budget < kRoundBytes)) {  // nothing of it this round
    p.next = p.previous;
    p.span.end = begin;
    left = !changed;  // another file took part of the round: the next round
  } else if (no_line) {  // one line longer than a round: mapped by the engine
    p.span.end = line_end_after(fd, begin + budget, planned_end);
    left = p.span.end < planned_end;
    mapped = true;
  } else if (capped) {
    p.span.end = begin + last_lf + 1 - before;
    left = true;
  }
  if (left) {
    p.next.mtime_ns = -1;  // not "unchanged" next round: the rest of the file is still to read
    if (p.span.end > begin) {
      p.next.offset = p.span.end;
      p.next.tail_hash = tail_hash_before(fd, p.span.end).value_or(0);
      if (p.span.end <= kFingerprintBytes) {
        p.next.head_bytes = p.span.end;
        p.next.head = p.next.head.substr(0, static_cast<size_t>(p.span.end));
        p.next.head_hash = fingerprint_hash(p.next.head);
      }
    }
  }
  budget -= std::min(budget, p.span.end - begin);
  if (!mapped) {  // counted from memory
    p.span.text = std::string_view(buf + before, static_cast<size_t>(p.span.end - begin));
    p.span.path.clear();
  }
  return left;
}

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
    bool more = false;  // a file had more than a round's bytes (it is held until it is read)
    uint64_t budget = kRoundBytes;
    std::vector<InputSpan> spans;
    for (size_t k = 0; k < plans.size(); ++k) {
      // A compressed file is read by the engine as a stream, in bounded memory.
      if (!plans[k].next.compressed) more = read_span(files[plans[k].file].fd, plans[k], buffers[k], budget) || more;
      spans.push_back(plans[k].span);
    }
    const uint64_t read = kRoundBytes - budget;
    round_options.threads = read > kThreadedRoundBytes ? options.threads : 1;
    std::vector<SpanRead> reads;
    Result round = aggregate_spans(spans, round_options, reads);
    if (read < kThreadedRoundBytes) {  // the big buffers of a catch-up are let go once it is done
      for (ReadBuffer& b : buffers) {
        if (b.capacity() > kThreadedRoundBytes) b.release();
      }
    }
    for (size_t k = 0; k < plans.size(); ++k) {
      // A read that failed (a long line's file truncated while mapped, a
      // compressed file cut short in place) leaves its record where it was.
      if (!reads[k].complete) plans[k].next = plans[k].previous;
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
      if (it->file.to_end && !it->at_path && tracker.unfinished_bytes(it->file.st) == 0) {
        ::close(it->file.fd);
        it = held.erase(it);
      } else {
        ++it;
      }
    }

    const bool idle = now - last_line >= fo.late;
    const std::vector<FollowRow> rows = stream.take(idle || stopping);
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
    if (const uint64_t bytes = tracker.unfinished_bytes(h.file.st); bytes != 0) {
      const auto size = static_cast<uint64_t>(h.file.st.st_size);
      out.unfinished.push_back({h.file.name, bytes, last_line_end(h.file.fd, size, size - bytes) > size - bytes});
    }
    ::close(h.file.fd);
  }
  Result totals = stream.totals();
  out.result.counts = std::move(totals.counts);
  if (options.by_app) {
    out.result.apps = std::move(totals.apps);
    out.result.app_counts = std::move(totals.app_counts);
  }
  summary.files = opened;
  summary.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out.late = stream.late();
  return out;
}

}  // namespace logagg
