// One round of --follow, phase by phase (follow.cc runs the rounds, hands
// out the rows and waits between them):
//   discover  what the followed paths name now, held from round to round
//             (discovery.h, held_files.h); new files are opened at once
//   plan      the spans still to count in each file (state/file_tracker.h:
//             a renamed, compressed or copied file known by its content)
//   read      the spans into memory, the least recently modified files
//             first, at most kRoundBytes (span_reader.h), and the streams'
//             whole lines (stream_input.h)
//   count     the engine over what was read
//   commit    the records moved past what was counted, truncations before
//             a read told as losses (truncation_losses.h), files renamed
//             away and read to their end let go
// Each phase is a method, so that tests drive rounds one at a time, on
// their own clock, in milliseconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "follow/created_names.h"
#include "follow/discovery.h"
#include "follow/held_files.h"
#include "follow/span_reader.h"
#include "follow/stream_input.h"
#include "follow/truncation_losses.h"
#include "logagg/follow.h"
#include "logagg/options.h"
#include "run/spans.h"
#include "state/file_tracker.h"

namespace logagg {

// How long a file renamed away must stay the same size before its last line
// counts without a LF: its writer has moved to the new file.
inline constexpr std::chrono::milliseconds kQuiet{1000};
// At most this much is read in one round, over all files; the rest in the
// next round, at once (a catch-up is read in rounds too, so that a stop is
// heard between them).
inline constexpr uint64_t kRoundBytes = uint64_t{64} << 20;

// The files of a round's plan.
struct RoundPlan {
  std::vector<TrackedFile> files;     // the held files planned...
  std::vector<size_t> held;           // ...files[j] is HeldFiles::files()[held[j]]
  std::vector<SpanPlan> plans;        // plans[k].file indexes files
  std::vector<size_t> no_descriptor;  // held files the plan could not open (EMFILE): read in a later round
};

// What a round read: a span per plan, then one per stream with lines.
struct RoundReads {
  std::vector<InputSpan> spans;
  std::vector<bool> left;       // per plan: bytes left for the next round
  std::vector<size_t> streams;  // spans[plans.size() + s] is of the followed stream numbered streams[s]
  uint64_t bytes = 0;           // read into memory
  std::vector<SpanRead> reads;  // per span, once counted
};

// The order in which plans are read: their files' least recently modified
// first (rotated files before the one still written to: older lines before
// newer ones, and a busy file cannot starve the others).
std::vector<size_t> reading_order(const std::vector<SpanPlan>& plans, const std::vector<TrackedFile>& files);

class Follower {
 public:
  // Follows `paths` (files, folders and streams: `-`, FIFOs, devices),
  // holding at most `max_open` files open. Throws std::invalid_argument for
  // a stream named twice.
  Follower(const std::vector<std::string>& paths, const Query& query, const RunSettings& options, size_t max_open);

  // discover: takes what the paths name now and opens what is new. Also
  // between rounds, as soon as inotify tells of a new name.
  void discover(std::vector<InputError>& errors);
  // Takes the names inotify told of (Watcher::take_names), before the
  // discovery that may find them: a followed name created and removed
  // before any discovery found it goes to `errors` as a loss (one renamed
  // first is not told: it may be found under its new name).
  // A name opened at its event is held from now on (or its descriptor
  // closed, if it is held already).
  void note(const std::vector<NameEvent>& names, std::vector<InputError>& errors);
  RoundPlan plan(FollowClock::time_point now, bool stopping, std::vector<InputError>& errors);
  RoundReads read(RoundPlan& plan);
  Result count(RoundReads& reads);
  void commit(RoundPlan& plan, RoundReads& reads, FollowClock::time_point now, bool stopping,
              std::vector<InputError>& errors);

  struct Round {
    Result counted;
    bool more = false;  // bytes left to read at once
  };
  // The phases in turn.
  Round round(FollowClock::time_point now, bool stopping, std::vector<InputError>& errors);

  // The streams that have room for more, to poll, and reading them between rounds.
  std::vector<int> stream_fds() const;
  void read_streams();
  // No file or folder is followed, and every stream has ended (or none
  // could be followed).
  bool ended() const;
  // When a round is due without any change: a rotated file's quiet second,
  // a truncation's grace time.
  std::optional<FollowClock::time_point> next_due() const;

  HeldFiles& held() { return held_; }
  const FollowedPaths& followed() const { return *paths_; }
  const std::vector<std::string>& folders() const { return folders_; }  // to watch, as last discovered
  // At the end: the files (and streams) with bytes not counted.
  std::vector<FollowResult::Unfinished> unfinished() const;
  uint64_t inputs() const { return held_.files_read() + streams_.size(); }
  uint64_t lost_bytes() const { return lost_bytes_; }
  // Truncations no copy took over (each told as an error, once a file).
  uint64_t truncations_without_copy() const { return truncations_without_copy_; }
  // Files gone before they could be opened (each told as an error).
  uint64_t lost_files() const { return held_.files_lost() + unseen_lost_; }

 private:
  bool holds(const std::string& path) const;  // a file found under `path` (normal) is held
  void open_streams(const std::vector<std::string>& paths, std::vector<std::string>& files);
  void watch_for_losses(const RoundPlan& plan, FollowClock::time_point now, bool stopping,
                        std::vector<InputError>& errors);

  Query query_;  // built once for the whole run
  RunSettings options_;
  std::optional<FollowedPaths> paths_;
  std::vector<std::string> folders_;
  HeldFiles held_;
  FileTracker tracker_;
  std::vector<StreamInput> streams_;
  std::vector<InputError> stream_errors_;  // told by the first round
  std::vector<ReadBuffer> buffers_;        // one for each span of a round
  TruncationLosses losses_{2 * kQuiet};
  uint64_t lost_bytes_ = 0;
  uint64_t truncations_without_copy_ = 0;
  std::set<std::string> announced_;  // followed names created that no discovery has found yet
  uint64_t unseen_lost_ = 0;
  bool first_ = true;  // no discovery yet: rotations found are history
};

}  // namespace logagg
