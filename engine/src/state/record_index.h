// Looking up the records of a FileTracker (file_tracker.h): by a file's
// device and inode, and by its first bytes, so that a plan over thousands of
// files looks each one up, never through every record; and how a record
// stands to a file's stat.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "state/state_file.h"

namespace logagg {

// Whether `st` is the file as `r` last saw it: the same device, inode, size
// and modification time (then it is unchanged, and not opened).
bool same_stat(const FileRecord& r, const struct stat& st);

// Moves `r` to the file found now: its name, stat and `seen` time.
void note_stat(FileRecord& r, const std::string& name, const struct stat& st, int64_t now);

// The records by device and inode, and by first bytes (head_bytes and
// head_hash). It holds record numbers; the records themselves are passed to
// each look-up, which checks them (the keys are hashes).
class RecordIndex {
 public:
  // Indexes `records` afresh.
  void build(const std::vector<FileRecord>& records);
  // Adds records[record], a record appended since.
  void add(const std::vector<FileRecord>& records, size_t record);

  // The records of the file with `st`'s device and inode, in record order.
  std::vector<size_t> same_inode(const std::vector<FileRecord>& records, const struct stat& st) const;
  // The records whose first head_bytes bytes `head` starts with, by record
  // length of those bytes, then record order.
  std::vector<size_t> same_head(const std::vector<FileRecord>& records, std::string_view head) const;

 private:
  static uint64_t inode_key(uint64_t device, uint64_t inode);
  static uint64_t head_key(uint64_t head_bytes, uint64_t head_hash);

  std::unordered_map<uint64_t, std::vector<size_t>> by_inode_, by_head_;
  std::set<uint64_t> head_lengths_;  // the head_bytes of the records
};

}  // namespace logagg
