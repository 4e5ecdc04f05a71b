// The phases of a --follow round (see follower.h).
#include "follow/follower.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <utility>

#include "input/input.h"
#include "state/file_tracker.h"

namespace logagg {
namespace {

// A round that reads more than this is counted with every thread.
constexpr uint64_t kThreadedRoundBytes = uint64_t{4} << 20;

bool is_stream(const struct stat& st) { return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode); }

bool lack_of_descriptors(const InputError& e) {
  return e.message == std::strerror(EMFILE) || e.message == std::strerror(ENFILE);
}

std::string normal_path(const std::string& path) { return std::filesystem::path(path).lexically_normal().string(); }

// A span that counts nothing (its plan's record still moves to `next`).
void count_nothing(SpanPlan& p) {
  p.span.path.clear();
  p.span.text = {};
}

// Whether a held file was found under `path` (normal).
auto found_at(const std::string& path) {
  const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);  // npos + 1: all of it
  return [&path, name](const Held& h) {
    return h.file.name.ends_with(name) && normal_path(h.file.name) == path;  // the name first: cheap
  };
}

}  // namespace

std::vector<size_t> reading_order(const std::vector<SpanPlan>& plans, const std::vector<TrackedFile>& files) {
  std::vector<size_t> order(plans.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  const auto mtime = [&](size_t k) {
    const struct stat& st = files[plans[k].file].st;
    return std::pair(st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return mtime(a) < mtime(b); });
  return order;
}

Follower::Follower(const std::vector<std::string>& paths, const Query& query, const RunSettings& options,
                   size_t max_open)
    : query_(query), options_(options), held_(max_open) {
  std::vector<std::string> files;
  open_streams(paths, files);
  paths_.emplace(std::move(files), options.include, options.exclude);
}

// `-` and the paths that name a stream become streams; the rest, `files`.
void Follower::open_streams(const std::vector<std::string>& paths, std::vector<std::string>& files) {
  struct stat in {};
  const bool have_stdin = ::fstat(STDIN_FILENO, &in) == 0;
  std::set<std::pair<uint64_t, uint64_t>> seen;
  for (const std::string& path : paths) {
    struct stat st {};
    const bool dash = path == "-";
    if (dash) {
      if (!have_stdin) {
        stream_errors_.push_back({std::string(kStdinName), std::strerror(EBADF)});
        continue;
      }
      st = in;  // whatever it is, read as a stream to its end
    } else if (::stat(path.c_str(), &st) != 0 || (!is_stream(st) && !S_ISBLK(st.st_mode))) {
      files.push_back(path);  // a file or a folder, or not there yet
      continue;
    }
    if (!seen.insert({static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)}).second) {
      throw std::invalid_argument("--follow: " + path + " is a stream named twice: give it once");
    }
    const std::string name = dash ? std::string(kStdinName) : path;
    if (S_ISBLK(st.st_mode)) {
      stream_errors_.push_back({name, "a block device cannot be followed: give a file, a folder or a stream"});
      continue;
    }
    // Standard input is read through a descriptor of its own when it can
    // be (a FIFO, a terminal); a socket cannot be opened by name.
    int fd = -1;
    if (dash || (have_stdin && st.st_dev == in.st_dev && st.st_ino == in.st_ino)) {
      fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    } else {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO: no wait for a writer
    }
    if (fd < 0) {
      stream_errors_.push_back({name, S_ISSOCK(st.st_mode) ? "a socket cannot be followed by name: pipe it (... | "
                                                              "logagg --follow -)"
                                                           : std::strerror(errno)});
      continue;
    }
    streams_.emplace_back(name, fd, /*owned=*/true, options_.max_line_bytes);
  }
}

void Follower::discover(std::vector<InputError>& errors) {
  Found found = paths_->discover();
  errors.insert(errors.end(), found.errors.begin(), found.errors.end());
  held_.take(found, first_, errors);
  held_.open_new(errors);
  std::erase_if(announced_, [&](const std::string& path) { return holds(path); });
  first_ = false;
  folders_ = std::move(found.folders);
}

bool Follower::holds(const std::string& path) const {
  return std::any_of(held_.files().begin(), held_.files().end(), found_at(path));
}

void Follower::note(const std::vector<NameEvent>& names, std::vector<InputError>& errors) {
  for (const NameEvent& e : names) {
    std::string path = normal_path(e.path);
    if (e.fd >= 0) {  // opened at its event (created or moved in)
      held_.hold_created(path, e.fd, e.st);
    } else if (e.kind == NameEvent::kCreated) {
      if (paths_->follows(path) && !held_.hold_created(path, -1, e.st)) announced_.insert(std::move(path));
    } else if (e.kind == NameEvent::kMovedOut) {
      announced_.erase(path);  // under another name: found there, or renamed out of sight
    } else if (e.kind == NameEvent::kRemoved) {
      const bool told = held_.removed(found_at(path), errors);  // found, never opened: told here
      if (announced_.erase(path) != 0 && !told && !holds(path)) {
        ++unseen_lost_;  // found by no discovery, so never held
        errors.push_back({std::move(path), "created and removed before it could be opened: its lines, if any, are "
                                           "lost, not counted"});
      }
    }
  }
}

RoundPlan Follower::plan(FollowClock::time_point now, bool stopping, std::vector<InputError>& errors) {
  RoundPlan rp;
  held_.close_idle(held_.waiting());  // room for the closed files that changed
  // Descriptors are short: those held that no name leads to any more
  // (removed, or renamed out of sight: none can be opened again) are read to
  // their end now and let go, not after their quiet time.
  const bool short_of_descriptors = held_.short_of_descriptors();
  std::vector<Held>& held = held_.files();
  for (size_t i = 0; i < held.size(); ++i) {
    Held& h = held[i];
    if (!h.opened || (h.file.fd < 0 && !h.at_path)) continue;  // waits for a descriptor, or closed and gone
    TrackedFile f = h.file;
    if (f.fd >= 0) {
      ::fstat(f.fd, &h.file.st);
      f.st = h.file.st;
    } else {
      f.st = h.found;  // closed: the tracker opens it if it changed
    }
    if (f.st.st_size != h.size) {
      h.size = f.st.st_size;
      h.grew = now;
    }
    f.to_end = h.file.to_end =
        h.history || (h.rotated() && (stopping || now - h.grew >= kQuiet || (short_of_descriptors && !h.at_path)));
    rp.files.push_back(f);
    rp.held.push_back(i);
  }
  std::vector<InputError> plan_errors;
  rp.plans = tracker_.plan(rp.files, std::time(nullptr), plan_errors, held_.free_descriptors());
  for (size_t j = 0; j < rp.files.size(); ++j) {
    Held& h = held[rp.held[j]];
    if (h.file.fd < 0 && rp.files[j].fd >= 0) {
      held_.adopt(rp.held[j], rp.files[j].fd);
      h.file.st = rp.files[j].st;
    }
  }
  for (InputError& e : plan_errors) {
    if (lack_of_descriptors(e)) {  // read when a descriptor is free
      for (size_t j = 0; j < rp.files.size(); ++j) {
        if (rp.files[j].name == e.path) rp.no_descriptor.push_back(rp.held[j]);
      }
    } else if (e.message == std::strerror(ENOENT)) {
      // A closed file renamed away since it was found: the next discovery
      // finds it under its new name.
    } else {
      errors.push_back(std::move(e));
    }
  }
  return rp;
}

RoundReads Follower::read(RoundPlan& rp) {
  RoundReads rr;
  rr.left.assign(rp.plans.size(), false);
  if (buffers_.size() < rp.plans.size()) buffers_.resize(rp.plans.size());
  uint64_t budget = kRoundBytes;
  for (const size_t k : reading_order(rp.plans, rp.files)) {
    SpanPlan& p = rp.plans[k];
    const TrackedFile& f = rp.files[p.file];
    if (held_.files()[rp.held[p.file]].history) {
      count_nothing(p);  // what a rotation held before following began
    } else if (p.next.compressed) {
      // read by the engine as a stream, in bounded memory
    } else if (f.fd < 0) {  // no descriptor for it this round: its turn comes
      p.next = p.previous;
      p.span.end = p.span.begin;
      count_nothing(p);
      rr.left[k] = true;
    } else {
      rr.left[k] = read_span(f.fd, p, buffers_[k], budget, kRoundBytes);
    }
  }
  rr.bytes = kRoundBytes - budget;
  for (const SpanPlan& p : rp.plans) rr.spans.push_back(p.span);
  for (size_t s = 0; s < streams_.size(); ++s) {
    const InputSpan span = streams_[s].span();
    if (span.text.empty()) continue;
    rr.spans.push_back(span);
    rr.streams.push_back(s);
    rr.bytes += span.text.size();
  }
  return rr;
}

Result Follower::count(RoundReads& rr) {
  RunSettings round = options_;
  round.threads = rr.bytes > kThreadedRoundBytes ? options_.threads : 1;
  round.sample_long_lines = true;  // each named at the end, with its file and line
  Result counted = aggregate_spans(rr.spans, query_, round, rr.reads);
  if (rr.bytes < kThreadedRoundBytes) {  // the big buffers of a catch-up are let go once it is done
    for (ReadBuffer& b : buffers_) {
      if (b.capacity() > kThreadedRoundBytes) b.release();
    }
  }
  return counted;
}

void Follower::commit(RoundPlan& rp, RoundReads& rr, FollowClock::time_point now, bool stopping,
                      std::vector<InputError>& errors) {
  std::vector<Held>& held = held_.files();
  for (Held& h : held) h.unread = h.fresh = false;
  for (const size_t i : rp.no_descriptor) held[i].unread = true;
  for (size_t k = 0; k < rp.plans.size(); ++k) {
    // A read that failed (a long line's file truncated while mapped, a
    // compressed file cut short in place) leaves its record where it was.
    if (!rr.reads[k].complete) rp.plans[k].next = rp.plans[k].previous;
    Held& h = held[rp.held[rp.plans[k].file]];
    h.unread = h.unread || rr.left[k] || !rr.reads[k].complete;
  }
  tracker_.commit(rp.plans, std::vector<SpanRead>(rr.reads.begin(), rr.reads.begin() + rp.plans.size()));
  for (size_t s = 0; s < rr.streams.size(); ++s) streams_[rr.streams[s]].counted(rr.reads[rp.plans.size() + s].lines);
  watch_for_losses(rp, now, stopping, errors);
  for (const size_t i : rp.held) held[i].history = false;  // planned once: what it holds from now on counts
  // Files renamed away and read to their end are let go (not one whose
  // read was capped or stopped short: its rest is still to read).
  for (size_t i = held.size(); i-- > 0;) {
    const Held& h = held[i];
    if (h.opened && !h.at_path && h.file.to_end && !h.unread && tracker_.unfinished_bytes(h.file.st) == 0) {
      held_.drop(i, errors);
    } else if (h.opened && !h.at_path && h.file.fd < 0) {
      held_.drop(i, errors);  // closed while idle, then gone from sight
    }
  }
}

void Follower::watch_for_losses(const RoundPlan& rp, FollowClock::time_point now, bool stopping,
                                std::vector<InputError>& errors) {
  std::vector<Held>& held = held_.files();
  std::vector<const SpanPlan*> plan_of(rp.files.size(), nullptr);
  for (const SpanPlan& p : rp.plans) plan_of[p.file] = &p;
  for (size_t j = 0; j < rp.files.size(); ++j) {
    Held& h = held[rp.held[j]];
    const SpanPlan* p = plan_of[j];
    if (p != nullptr && p->next.compressed) continue;
    const auto size = static_cast<uint64_t>(rp.files[j].st.st_size);
    const bool restarted = p != nullptr && p->span.begin == 0 && p->previous.offset == 0;
    if (h.counted_to > 0 && (size < h.counted_to || restarted)) {
      losses_.truncated(h.file.name, rp.files[j].st, h.counted_to, h.seen, now);
      h.counted_to = 0;
    }
    if (p != nullptr) h.counted_to = p->next.offset;
    // Bytes past that are its own unread rest only if the plan knew them
    // for the record's (a span, or a line not finished yet): a file
    // truncated and written again before a plan could take it holds
    // another content's bytes there.
    if (p != nullptr || size <= h.seen || tracker_.unfinished_bytes(rp.files[j].st) > 0) h.seen = size;
  }
  for (const FileTracker::Copy& copy : tracker_.copies()) losses_.continued(copy, now);
  for (TruncationLoss& loss : losses_.due(now, stopping)) {
    lost_bytes_ += loss.end - loss.begin;
    truncations_without_copy_ += loss.copied ? 0 : 1;
    std::string what;
    if (loss.begin < loss.end) {
      what = "bytes " + std::to_string(loss.begin) + " to " + std::to_string(loss.end) +
             " were truncated before they were read: lost, not counted";
      if (!loss.copied) what += "; no copy holds them, and bytes written after the last look cannot be counted either";
    } else {
      what = "truncated with no copy holding its bytes: every byte seen was counted, but bytes written after the last "
             "look at it cannot be counted (lines may be missing)";
    }
    errors.push_back({std::move(loss.path), std::move(what)});
  }
}

Follower::Round Follower::round(FollowClock::time_point now, bool stopping, std::vector<InputError>& errors) {
  if (!stream_errors_.empty()) errors.insert(errors.end(), stream_errors_.begin(), stream_errors_.end());
  stream_errors_.clear();
  discover(errors);
  read_streams();
  RoundPlan rp = plan(now, stopping, errors);
  RoundReads rr = read(rp);
  Round out;
  out.counted = count(rr);
  commit(rp, rr, now, stopping, errors);
  held_.open_new(errors);  // into the descriptors the files let go freed
  out.more = std::find(rr.left.begin(), rr.left.end(), true) != rr.left.end();
  for (const StreamInput& s : streams_) {
    if (!s.error().empty()) errors.push_back({s.name(), s.error()});
  }
  return out;
}

std::vector<int> Follower::stream_fds() const {
  std::vector<int> fds;
  for (const StreamInput& s : streams_) {
    if (s.wants_data()) fds.push_back(s.fd());
  }
  return fds;
}

void Follower::read_streams() {
  for (StreamInput& s : streams_) s.read_available();
}

bool Follower::ended() const {
  return paths_->empty() &&
         std::all_of(streams_.begin(), streams_.end(), [](const StreamInput& s) { return s.ended(); });
}

std::optional<FollowClock::time_point> Follower::next_due() const {
  std::optional<FollowClock::time_point> next = losses_.next_due();
  for (const Held& h : held_.files()) {
    if (h.opened && h.rotated() && !h.file.to_end && (!next || h.grew + kQuiet < *next)) next = h.grew + kQuiet;
  }
  return next;
}

std::vector<FollowResult::Unfinished> Follower::unfinished() const {
  std::vector<FollowResult::Unfinished> out;
  for (const Held& h : held_.files()) {
    if (h.history) continue;
    const auto size = static_cast<uint64_t>(h.file.st.st_size);
    uint64_t bytes = h.opened ? tracker_.unfinished_bytes(h.file.st) : static_cast<uint64_t>(h.found.st_size);
    if (h.unread && bytes == 0) bytes = size;  // a new file that no round could read yet
    if (bytes == 0) continue;
    const bool unread =
        h.unread || !h.opened || (h.file.fd >= 0 && last_line_end(h.file.fd, size, size - bytes) > size - bytes);
    out.push_back({h.file.name, bytes, unread});
  }
  for (const StreamInput& s : streams_) {
    if (s.pending_bytes() != 0 && s.error().empty()) out.push_back({s.name(), s.pending_bytes(), false});
  }
  return out;
}

}  // namespace logagg
