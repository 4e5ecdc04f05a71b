// The phases of planning one file that changed (FileTracker::plan_file,
// file_tracker.h), each alone: read its first bytes (and a compressed file's
// whole content), recognise the records it may continue, classify it against
// them (it continues one, is a copy, or is new), and decide the span still to
// count and the record after it. Only FileTracker claims records and keeps
// what the phases return.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "state/file_tracker.h"
#include "state/record_index.h"
#include "state/state_file.h"

namespace logagg {

// One file's content as a plan sees it.
struct FileContent {
  FileHead head;
  uint64_t length = 0;  // content bytes: a plain file's size, a compressed one's decompressed length
  std::optional<ContentScan> scan;  // a compressed file's whole content, scanned with mark `scanned_mark`
  uint64_t scanned_mark = 0;
  std::string error;       // why the file cannot be planned now, or empty
  bool pass_over = false;  // with `error`: a compressed file not readable whole, passed over until it changes
  bool changing = false;   // a compressed file that changed while it was read: not planned now, nothing to tell
};

// Phase 1, read: the first bytes of the open file `fd` (stat'ed as `st`),
// and if it is compressed its content decompressed once.
FileContent read_content(int fd, const struct stat& st);

// Phase 2, recognise: the records the file may continue, those whose first
// bytes `head` starts with: the file's own (its device and inode) first,
// then the one counted furthest.
std::vector<size_t> recognise(const RecordIndex& index, const std::vector<FileRecord>& records, std::string_view head,
                              const struct stat& st);

// What a file is to the records.
enum class FileKind {
  kNew,            // continues no record: counted from its start
  kContinues,      // continues `record`, not claimed yet: counted from where it stopped
  kCopyOfClaimed,  // continues `record`, claimed by another file of the plan: a copy of a file read already
  kPartialCopy,    // starts like `record` but is shorter than where it stopped (a copy being made, or an
                   // older one): its lines were counted from that record's file; not read
};
struct Classification {
  FileKind kind = FileKind::kNew;
  size_t record = 0;
  bool operator==(const Classification&) const = default;
};

// Phase 3, classify: what the open file `fd` (`st`, `content`) is to the
// `candidates` recognised, tried in order (`claimed`: the records claimed by
// the plan so far). A compressed file is scanned again (into `content`) to
// check a candidate stopped where the last scan did not mark.
Classification classify(int fd, const struct stat& st, FileContent& content, const std::vector<FileRecord>& records,
                        const std::vector<bool>& claimed, const std::vector<size_t>& candidates);

// Phase 4, decide: file number `index` of the plan, `f`, to be counted from
// where `old` stopped (or from its start): its span (a plain file's to its
// last complete line, or to its end if `to_end`; a compressed file's to its
// content's end) and its record once the span is read (`next.lines`: those
// before the span). An empty span (end == begin) has nothing new. Nothing
// if a plain file is found shorter than that end, or with nothing new and
// other bytes before it than `old` counted (truncated while it was planned,
// and written again: copytruncate): its record stays as it was, for the copy.
std::optional<SpanPlan> decide(const TrackedFile& f, size_t index, const FileContent& content, const FileRecord* old,
                               int64_t now);

}  // namespace logagg
