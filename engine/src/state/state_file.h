// The state file of incremental runs (logagg/state.h): what it records of
// each input file, read and written as one JSON document, and the lock that
// keeps two runs from using it at once.
//
//   {"logagg_state": 1, "generation": N, "delta_dir": "/abs/DIR",
//    "files": [{"path", "device", "inode", "size", "mtime_ns", "compressed",
//               "offset", "lines", "head_bytes", "head_hash", "tail_hash",
//               "seen"}, ...],
//    "result": a `logagg --format json` document, per second, UTC}
//
// "generation" (how many runs saved the state; 0 if absent, as in the files
// of logagg before it) and "delta_dir" (--delta-dir, delta_files.h; absent if
// none) were added to format 1 without changing its number: an older logagg
// reads such a file and writes it back without them.
#pragma once

#include <cstdint>
#include <optional>
#include <chrono>
#include <string>
#include <vector>

#include "logagg/merge.h"

namespace logagg {

inline constexpr int kStateVersion = 1;

// One file as the last run that read it left it.
struct FileRecord {
  std::string path;  // where it was last seen; for people, never matched on
  // stat() as last seen: the same four values mean the file is unchanged.
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_ns = 0;
  bool compressed = false;
  uint64_t offset = 0;  // content bytes counted (a line boundary; decompressed bytes if compressed)
  uint64_t lines = 0;   // lines in those bytes
  // fingerprint_hash of the first head_bytes = min(offset, kFingerprintBytes)
  // bytes of content, and of the same number of bytes before `offset`.
  uint64_t head_bytes = 0, head_hash = 0, tail_hash = 0;
  int64_t seen = 0;  // when a run last found the file (Unix seconds)
  // Not saved: the first head_bytes bytes themselves, when this process read
  // them (file_tracker.h: a copy too short to hash like them is known by them).
  std::string head;
};

struct State {
  uint64_t generation = 0;  // how many runs saved it
  std::string delta_dir;    // where its runs' deltas go (--delta-dir, absolute), or empty
  std::vector<FileRecord> files;
  std::optional<Partial> result;  // none before the first run
};

// Reads the state at `path`; an empty state if there is no such file. Throws
// StateError for a file that is not a state file or is of another version.
State read_state(const std::string& path);

// Replaces the state at `path` with one of `generation`, `delta_dir`,
// `files` and `result_json` atomically: a temporary file beside it (PATH.tmp),
// fsync'ed, renamed over it, the folder fsync'ed. Returns an error message,
// or empty on success.
std::string write_state(const std::string& path, uint64_t generation, const std::string& delta_dir,
                        const std::vector<FileRecord>& files, const std::string& result_json);

// An exclusive lock on PATH.lock for as long as it lives (flock: released by
// the kernel however the process ends). A run that is ending (killed, its
// descriptors not closed yet; a run just done) is waited for, up to `wait`.
// Throws StateError if another process holds it still, or if it cannot be
// made.
class StateLock {
 public:
  static constexpr std::chrono::milliseconds kWait{2000};
  explicit StateLock(const std::string& state_path, std::chrono::milliseconds wait = kWait);
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace logagg
