// Following logs as they are written (`logagg --follow`): the files are read
// to their end, then whatever is appended, like `tail -F`, and the counts
// are handed out bucket by bucket as the buckets complete.
//
// - Names are followed, not open files: a file renamed away (rotation) is
//   read to its end, its last line counted even without a LF once it has
//   been quiet for a second, and the new file under the name from its start;
//   a truncated file (copytruncate) starts again at 0; files that appear
//   later under a followed name or in a followed folder are picked up, and
//   opened as soon as inotify tells of them. A followed file's folder is
//   watched for its rotations (access.log.1, access.log-20261202, .gz and
//   .zst), which are read as a followed folder's files are; those there at
//   the start are history, not counted. A file that is a copy of one
//   already read (access.log.1.gz of access.log.1, the copy of
//   copytruncate) is known by its content and only what it holds beyond
//   what was read is counted (state/file_tracker.h). Bytes truncated before
//   they were read that no copy holds are an error (on_error) and
//   FollowResult::lost_bytes.
// - Streams (`-`, a FIFO, a device) are read as their bytes come, to EOF;
//   when only streams are followed, follow returns at their end.
// - Files are held open up to the descriptor limit (less a margin); past
//   it, files read to their end are closed and opened again when they
//   change, so none is dropped.
// - Changes are noticed through inotify, and by looking at every file each
//   FollowOptions::rescan as well, for file systems inotify cannot watch.
// - A bucket is complete once the newest time counted is past its end by
//   FollowOptions::late, or once no line has arrived for that long. A line
//   for a bucket already handed out makes a correction: the bucket's row
//   again with its new total (and the line is tallied as late).
// - A last line without its LF in a file still under its name waits for its
//   LF; at the end such bytes are named in FollowResult::unfinished (with
//   those not read yet, when a stop comes while a big file is read).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/follow_rows.h"
#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

struct FollowOptions {
  Bucketing bucketing;                       // the buckets handed out (ReportOptions::bucketing)
  std::chrono::milliseconds late{5000};      // --late
  std::chrono::milliseconds rescan{1000};    // look at every file at least this often
  // At most one round of reading per pause: this long, or ten times what
  // the last round took if more. A file is read this soon after it changes,
  // so that bytes truncated away by hand (no copy) are at risk only if
  // written within it.
  std::chrono::milliseconds min_pause{5};
  // With Question::by_app: each bucket shows its `top` busiest apps, chosen
  // when its row is first handed out, the rest as kOtherApp (--top); 0: all.
  size_t top = 0;
  int stop_fd = -1;  // when it becomes readable (a signalfd, a pipe), the rest is handed out and follow returns
  // Called once for each input error as it happens (each is also in
  // FollowResult::result.errors).
  std::function<void(const InputError&)> on_error;
  // Descriptors kept back for the caller beside the engine's own margin
  // (--serve: the server's connections), so that files never take them.
  size_t reserved_descriptors = 0;
  // Called with each round's counted lines (per second, and per key when
  // keyed, with their measures) and its summary, as the round ends: what
  // /metrics adds up (serve.h).
  std::function<void(const Result&)> on_round;
};

struct FollowResult {
  Result result;      // everything counted, per bucket start (and app); its summary
  uint64_t late = 0;  // lines counted into buckets already handed out
  // Files with bytes not counted when following stopped: the last line
  // without its LF yet, or (a stop while catching up) bytes not read yet.
  struct Unfinished {
    std::string path;
    uint64_t bytes = 0;
    bool unread = false;  // whole lines not read yet, not only a last line without its LF
  };
  std::vector<Unfinished> unfinished;
  // Bytes truncated away before they were read, no copy holding them (each
  // range also told through FollowOptions::on_error, as an error).
  uint64_t lost_bytes = 0;
  // Truncations that no copy took over (a truncation by hand, a copy removed
  // or put out of sight before it was read): the bytes written after the
  // last look at the file could not be counted. Each file told once, as an
  // error.
  uint64_t truncations_without_copy = 0;
  // Files gone (removed, or renamed out of the followed paths) before they
  // could be opened: their lines are lost (each also told, as an error).
  uint64_t lost_files = 0;
  // The most files held open at once (at most the soft descriptor limit
  // less a reserve for the engine and the watcher).
  size_t most_open = 0;
  // Why following ended before a stop: a file could get no descriptor
  // (EMFILE) while none was held to close, so lines were left unread. Else
  // empty.
  std::string stopped_short;
};

// Follows `paths` (files, folders and streams; Options::range unset) until
// stop_fd is readable, the sink returns false, the streams followed alone
// have ended, or no file can be opened at all (stopped_short). Errors (a
// file that cannot be read, bytes lost) are in result.errors, each once; a
// followed name that does not exist yet is not an error. Throws
// std::invalid_argument as aggregate() does, and for a stream named twice.
// `query`: the question (FollowResult::result.query); `run`: how inputs are read.
FollowResult follow(const std::vector<std::string>& paths, const Query& query, const RunSettings& run,
                    const FollowOptions& follow, const FollowSink& sink);
// The same for the question of `options` (Query(options), built here).
FollowResult follow(const std::vector<std::string>& paths, const Options& options, const FollowOptions& follow,
                    const FollowSink& sink);

}  // namespace logagg
