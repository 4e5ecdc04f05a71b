// The state stage's face (the one header of state/ that follow includes).
// Which part of each file is new: the records of what was read of each file
// (state_file.h) matched to the files found now, unchanged ones by stat, the
// others by content (the fingerprints, below), and the spans still to count. Shared by
// incremental runs (--state, incremental.cc), whose records persist in the
// state file, and by --follow (follow/), whose records live in memory.
//
// A record is claimed by one file a plan: the file that continues it (the
// same file renamed, or a copy of it: compressed, or while gzip runs, both);
// a second file that would continue it is a copy of one being read, and is
// left alone.
//
// A file that changed is planned in phases (plan_phases.h): read its first
// bytes, recognise the records it may continue, classify it (continues one,
// a copy, or new), decide its span.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result.h"
#include "run/spans.h"
#include "state/record_index.h"
#include "state/state_file.h"

namespace logagg {

// A file found. Its descriptor is the caller's, or -1: then plan() opens the
// file if it has changed (and fstat's it again), and keeps it open if it has
// a span to read (up to a number of files); the caller closes every
// descriptor after the spans are read.
struct TrackedFile {
  std::string name;
  int fd = -1;
  struct stat st {};
  // Count its last line even without a LF: the file will not grow again
  // (--follow: it was rotated away and has gone quiet).
  bool to_end = false;
};

// One file's span to count, and its record once the span is read.
struct SpanPlan {
  size_t file = 0;      // index into the files planned
  size_t record = 0;    // the record it continues, or the new one of a new file
  InputSpan span;       // reads /proc/self/fd/N (or the file's name), named as the file
  FileRecord previous;  // the record at the span's begin (offset 0 for a new file)
  FileRecord next;      // `lines`: those before the span, until commit
};

class FileTracker {
 public:
  explicit FileTracker(std::vector<FileRecord> records = {}) : records_(std::move(records)) {}

  // The spans of new content in `files`, in their order; files that cannot
  // be read go to `errors`. Records of files with nothing new are brought up
  // to date here (their stat, name and `seen` time). Of the files it opens,
  // plan() keeps at most `keep_open` open (their spans read
  // /proc/self/fd/N, so a rename before the read changes nothing); the spans
  // of the others read their name, with the FileId the name must still have.
  std::vector<SpanPlan> plan(std::vector<TrackedFile>& files, int64_t now, std::vector<InputError>& errors,
                             size_t keep_open = SIZE_MAX);

  // Moves the records to the end of the spans read (`reads`, in plan order):
  // to `next`, which the caller may have moved back (follow/: a file
  // truncated under the read); one left at offset 0 is dropped.
  void commit(std::vector<SpanPlan>& plans, const std::vector<SpanRead>& reads);

  // The bytes at the end of the plain file `st` that no span has counted
  // because they are not a whole line yet (0 if none, or not a file the last
  // plan found).
  uint64_t unfinished_bytes(const struct stat& st) const;

  // A copy the last plan found: a file that continues a record of another
  // file (with or without new bytes).
  struct Copy {
    uint64_t device = 0, inode = 0;  // the record's own file
    uint64_t offset = 0;             // where counting stood in it
    uint64_t bytes = 0;              // the content bytes the copy holds
  };
  const std::vector<Copy>& copies() const { return copies_; }

  // How many records the last plan claimed: the known files it found.
  uint64_t found() const;
  // The records to keep: those claimed by the last plan, and those seen less
  // than `forget_seconds` before `now`.
  std::vector<FileRecord> kept(int64_t now, int64_t forget_seconds) const;

 private:
  // A file that changed, open: its phases (plan_phases.h), and what they
  // found kept: the record claimed or added, the file passed over, the span.
  void plan_file(const TrackedFile& f, size_t index, int64_t now, std::vector<InputError>& errors,
                 std::vector<SpanPlan>& plans);

  std::vector<FileRecord> records_;
  std::vector<bool> claimed_;
  RecordIndex index_;
  // Files passed over while they do not change (their stat): copies of a
  // record's file (`record`), so that they are not decompressed again and
  // the record is claimed by its own file; and compressed files that could
  // not be read whole (no record), so that --follow does not decompress them
  // again every round. Those that match no file of a plan are let go.
  struct Passed {
    FileRecord stat;
    std::optional<size_t> record;
  };
  std::vector<Passed> passed_;
  std::vector<Copy> copies_;
};

// Whether a plain file still holds, after its span was read, the bytes it
// was planned on: its first bytes, those before the span and those before
// its end; else it was truncated or rewritten meanwhile (copytruncate
// during the read). `fd` is the file, or -1: then the span's path is opened
// and must still be the file planned.
bool holds_planned_bytes(const SpanPlan& p, int fd);

// How an incremental run knows a file again (logagg/state.h): a stable hash
// of its first bytes and of the bytes before where counting stopped, read
// from the file as it is, or decompressed.

// How many bytes of content each fingerprint hashes, at most.
inline constexpr size_t kFingerprintBytes = 4096;

// A 64-bit hash that is the same on every machine and in every version
// (FNV-1a): fingerprints are kept in state files. It goes on from `from`:
// the hash of a + b is fingerprint_hash(b, fingerprint_hash(a)).
inline constexpr uint64_t kFingerprintBasis = 0xcbf29ce484222325u;
uint64_t fingerprint_hash(std::string_view bytes, uint64_t from = kFingerprintBasis) noexcept;

// The first kFingerprintBytes of an open file's content (fewer if it is
// shorter), decompressed if it is gzip or zstd; `fd` is read from its start.
struct FileHead {
  std::string bytes;
  bool compressed = false;
  std::string error;  // why it could not be read, or empty
};
FileHead read_head(int fd);

// A plain file, read with pread: the hash of the kFingerprintBytes (or fewer)
// before `end`, or nothing if the file has fewer than `end` bytes.
std::optional<uint64_t> tail_hash_before(int fd, uint64_t end);

// A plain file of `size` bytes: where its last complete line ends (just past
// its last LF), looking back no further than `from` (returned if there is no
// LF after it).
uint64_t last_line_end(int fd, uint64_t size, uint64_t from);

// A compressed file decompressed once, from its start: its content's length
// and the hash of the kFingerprintBytes before its end, and before `mark` if
// the content reaches that far.
struct ContentScan {
  uint64_t length = 0;
  uint64_t tail_hash = 0;
  std::optional<uint64_t> tail_hash_at_mark;
  std::string error;  // the data is corrupt or truncated: length is what came before
};
ContentScan scan_content(int fd, uint64_t mark);

}  // namespace logagg
