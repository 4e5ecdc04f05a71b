// Looking up records by inode and by first bytes (see record_index.h).
#include "state/record_index.h"

#include "state/file_tracker.h"

namespace logagg {
namespace {

int64_t mtime_ns(const struct stat& st) { return int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec; }

}  // namespace

bool same_stat(const FileRecord& r, const struct stat& st) {
  return r.device == st.st_dev && r.inode == st.st_ino && r.size == static_cast<uint64_t>(st.st_size) &&
         r.mtime_ns == mtime_ns(st);
}

void note_stat(FileRecord& r, const std::string& name, const struct stat& st, int64_t now) {
  r.path = name;
  r.device = st.st_dev;
  r.inode = st.st_ino;
  r.size = static_cast<uint64_t>(st.st_size);
  r.mtime_ns = mtime_ns(st);
  r.seen = now;
}

uint64_t RecordIndex::inode_key(uint64_t device, uint64_t inode) { return device * 0x9E3779B97F4A7C15u ^ inode; }

uint64_t RecordIndex::head_key(uint64_t head_bytes, uint64_t head_hash) {
  return head_hash ^ head_bytes * 0x9E3779B97F4A7C15u;
}

void RecordIndex::build(const std::vector<FileRecord>& records) {
  by_inode_.clear();
  by_head_.clear();
  head_lengths_.clear();
  for (size_t i = 0; i < records.size(); ++i) add(records, i);
}

void RecordIndex::add(const std::vector<FileRecord>& records, size_t record) {
  const FileRecord& r = records[record];
  by_inode_[inode_key(r.device, r.inode)].push_back(record);
  by_head_[head_key(r.head_bytes, r.head_hash)].push_back(record);
  head_lengths_.insert(r.head_bytes);
}

std::vector<size_t> RecordIndex::same_inode(const std::vector<FileRecord>& records, const struct stat& st) const {
  std::vector<size_t> out;
  if (const auto it = by_inode_.find(inode_key(st.st_dev, st.st_ino)); it != by_inode_.end()) {
    for (const size_t i : it->second) {
      if (records[i].device == st.st_dev && records[i].inode == st.st_ino) out.push_back(i);
    }
  }
  return out;
}

std::vector<size_t> RecordIndex::same_head(const std::vector<FileRecord>& records, std::string_view head) const {
  // The hash of each recorded length of first bytes, in one pass over them.
  std::vector<size_t> out;
  uint64_t hash = kFingerprintBasis;
  size_t hashed = 0;
  for (const uint64_t length : head_lengths_) {
    if (length > head.size()) break;
    hash = fingerprint_hash(head.substr(hashed, length - hashed), hash);
    hashed = length;
    if (const auto it = by_head_.find(head_key(length, hash)); it != by_head_.end()) {
      for (const size_t i : it->second) {
        if (records[i].head_bytes == length && records[i].head_hash == hash) out.push_back(i);
      }
    }
  }
  return out;
}

}  // namespace logagg
