// The --follow loop (logagg/follow.h): rounds (follower.h: discover, plan,
// read, count, commit), then the emit phase (the buckets that completed
// handed out, bucket_stream.h) and the wait phase (a pause, so that a busy
// log is read in rounds, then a wait for a change, watcher.h; new names are
// opened, and streams read, while it waits).
#include "logagg/follow.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

#include "follow/bucket_stream.h"
#include "follow/follower.h"
#include "follow/next_wait.h"
#include "follow/watcher.h"

namespace logagg {
namespace {

using Clock = FollowClock;
using std::chrono::milliseconds;

// Grows the process's descriptor table to `count` entries now (at most
// 65,536: the rare growth past that is let be). The kernel grows it as
// descriptors are opened, doubling; in a process with threads each growth
// waits for an RCU grace period, during which no thread can open a file.
// Profiled under churn: 5 to 10 ms at 64, 128, 256 and 512 descriptors, long
// enough for a name created and removed meanwhile to go before the thread
// that opens new names (created_names.h) could open it.
void grow_descriptor_table(size_t count) {
  const int root = ::open("/", O_PATH | O_CLOEXEC);
  if (root < 0) return;
  const int last = ::fcntl(root, F_DUPFD_CLOEXEC, static_cast<int>(std::min<size_t>(count, 65536) - 1));
  if (last >= 0) ::close(last);
  ::close(root);
}

// How many files may be held open: the descriptor limit, less what the
// engine and logagg itself open meanwhile (standard streams, inotify, the
// stop descriptor, the engine's threads reading compressed spans), and the
// `reserved` the caller keeps back. The descriptor table is grown to the
// limit now.
size_t reserve_descriptors(const RunSettings& options, size_t reserved) {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) return size_t{1} << 20;
  const size_t threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const size_t reserve = 16 + 2 * threads + reserved;
  const auto limit = static_cast<size_t>(files.rlim_cur);
  grow_descriptor_table(limit);
  return limit > 2 * reserve ? limit - reserve : std::max<size_t>(1, limit / 2);
}

// Errors told once each, through on_error, into the result.
class Errors {
 public:
  Errors(const FollowOptions& fo, Result& result) : fo_(fo), result_(result) {}
  void tell(std::vector<InputError>& errors) {
    for (InputError& e : errors) {
      if (!told_.insert({e.path, e.message}).second) continue;
      if (fo_.on_error) fo_.on_error(e);
      result_.errors.push_back(std::move(e));
    }
    errors.clear();
  }

 private:
  const FollowOptions& fo_;
  Result& result_;
  std::set<std::pair<std::string, std::string>> told_;
};

// The totals and what following left, into `out`, once it has stopped.
void gather(FollowResult& out, Follower& follower, BucketStream& stream) {
  out.unfinished = follower.unfinished();
  Result totals = stream.totals();
  out.result.counts = std::move(totals.counts);
  out.result.cells = std::move(totals.cells);
  out.result.apps_capped = totals.apps_capped;
  if (out.result.query.keyed()) {
    out.result.apps = std::move(totals.apps);
    out.result.app_counts = std::move(totals.app_counts);
  }
  out.result.summary.files = follower.inputs();
  out.late = stream.late();
  out.lost_bytes = follower.lost_bytes();
  out.truncations_without_copy = follower.truncations_without_copy();
  out.lost_files = follower.lost_files();
  out.most_open = follower.held().most_open();
}

}  // namespace

FollowResult follow(const std::vector<std::string>& paths, const Options& options, const FollowOptions& fo,
                    const FollowSink& sink) {
  return follow(paths, Query(options), options, fo, sink);
}

FollowResult follow(const std::vector<std::string>& paths, const Query& query, const RunSettings& options,
                    const FollowOptions& fo, const FollowSink& sink) {
  Follower follower(paths, query, options, reserve_descriptors(options, fo.reserved_descriptors));
  Watcher watcher(fo.stop_fd, follower.followed(), follower.held().budget());  // ended before the follower
  BucketStream stream(fo.bucketing, (fo.late.count() + 999) / 1000, fo.top,
                      query.keyed() ? query.question().max_apps : SIZE_MAX);
  FollowResult out;
  out.result.query = query;
  Summary& summary = out.result.summary;
  Errors errors(fo, out.result);
  std::vector<InputError> found;
  const auto start = Clock::now();
  auto last_line = start;
  bool open_buckets = false;
  for (;;) {
    const bool stopping = watcher.stopped();
    const auto now = Clock::now();
    follower.note(watcher.take_names(), found);
    Follower::Round round = follower.round(now, stopping, found);
    for (const std::string& folder : follower.folders()) watcher.watch(folder);
    Result& counted = round.counted;
    errors.tell(found);
    summary.add(counted.summary);
    if (fo.on_round) fo.on_round(counted);
    for (RejectSample& r : counted.rejects) {
      if (out.result.rejects.size() < options.max_reject_samples || r.reason == Reason::kLineTooLong) {
        out.result.rejects.push_back(std::move(r));
      }
    }
    if (counted.summary.lines > 0) last_line = now;
    stream.add(counted);
    open_buckets = open_buckets || !counted.counts.empty();
    out.stopped_short = follower.held().out_of_descriptors();
    const bool done = stopping || follower.ended() || !out.stopped_short.empty();

    // Emit: while files are being caught up (bytes left), no bucket is
    // handed out: the lines still to read may belong to any of them.
    const bool idle = now - last_line >= fo.late;
    const std::vector<FollowRow> rows =
        round.more && !done ? std::vector<FollowRow>{} : stream.take(idle || done);
    if (idle) open_buckets = false;
    if (!rows.empty() && !sink(rows)) break;
    if (done) break;

    // Wait.
    if (round.more) {  // the rest at once, unless a stop came meanwhile
      watcher.wait(milliseconds(0), false, {});
      continue;
    }
    const milliseconds timeout =
        next_wait(now, fo.rescan, fo.late, open_buckets, last_line, follower.next_due());
    // The pause: fo.min_pause, or ten times what this round took if more,
    // so that rounds take at most a tenth of a core however much is held.
    const auto pause = std::max<Clock::duration>(fo.min_pause, 10 * (Clock::now() - now));
    const auto pause_end = now + std::min<Clock::duration>(pause, timeout), wait_end = now + timeout;
    bool wake = false;
    while (!watcher.stopped()) {
      const auto t = Clock::now();
      const bool pausing = t < pause_end;
      if (!pausing && (wake || t >= wait_end)) break;
      const Watcher::Wake w = watcher.wait(std::chrono::ceil<milliseconds>((pausing ? pause_end : wait_end) - t),
                                           /*changes=*/!pausing, follower.stream_fds());
      if (w.created) {  // open it before it can go
        follower.note(watcher.take_names(), found);
        follower.discover(found);
        errors.tell(found);
        // Descriptors short: a round now reads the files that can be let go
        // to their end, and opens the files that wait.
        if (follower.held().round_frees()) break;
      }
      if (w.streams) follower.read_streams();
      wake = wake || w.changed || w.streams || (!pausing && w.created);
    }
  }

  summary.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  gather(out, follower, stream);
  return out;
}

}  // namespace logagg
