// Matching files to their records and planning the new spans (see
// file_tracker.h).
//
// Unchanged files (device, inode, size and mtime as recorded) are claimed
// first, then the others by content, a record that shares the file's device
// and inode tried first, then the longest.
#include "state/file_tracker.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "state/fingerprint.h"

namespace logagg {
namespace {

int64_t mtime_ns(const struct stat& st) { return int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec; }

bool same_stat(const FileRecord& r, const struct stat& st) {
  return r.device == st.st_dev && r.inode == st.st_ino && r.size == static_cast<uint64_t>(st.st_size) &&
         r.mtime_ns == mtime_ns(st);
}

void note_stat(FileRecord& r, const TrackedFile& f, int64_t now) {
  r.path = f.name;
  r.device = f.st.st_dev;
  r.inode = f.st.st_ino;
  r.size = static_cast<uint64_t>(f.st.st_size);
  r.mtime_ns = mtime_ns(f.st);
  r.seen = now;
}

}  // namespace

uint64_t FileTracker::inode_key(uint64_t device, uint64_t inode) { return device * 0x9E3779B97F4A7C15u ^ inode; }

uint64_t FileTracker::head_key(uint64_t head_bytes, uint64_t head_hash) {
  return head_hash ^ head_bytes * 0x9E3779B97F4A7C15u;
}

void FileTracker::index_record(size_t record) {
  const FileRecord& r = records_[record];
  by_inode_[inode_key(r.device, r.inode)].push_back(record);
  by_head_[head_key(r.head_bytes, r.head_hash)].push_back(record);
  head_lengths_.insert(r.head_bytes);
}

std::vector<size_t> FileTracker::same_inode(const struct stat& st) const {
  std::vector<size_t> out;
  if (const auto it = by_inode_.find(inode_key(st.st_dev, st.st_ino)); it != by_inode_.end()) {
    for (const size_t i : it->second) {
      if (records_[i].device == st.st_dev && records_[i].inode == st.st_ino) out.push_back(i);
    }
  }
  return out;
}

std::vector<SpanPlan> FileTracker::plan(std::vector<TrackedFile>& files, int64_t now, std::vector<InputError>& errors,
                                        size_t keep_open) {
  claimed_.assign(records_.size(), false);
  by_inode_.clear();
  by_head_.clear();
  head_lengths_.clear();
  for (size_t i = 0; i < records_.size(); ++i) index_record(i);
  std::vector<bool> unchanged(files.size(), false);
  for (size_t j = 0; j < files.size(); ++j) {
    for (const size_t i : same_inode(files[j].st)) {
      if (unchanged[j] || !same_stat(records_[i], files[j].st)) continue;
      // A file read to its end must still be planned for its last line.
      if (files[j].to_end && records_[i].offset < records_[i].size && !records_[i].compressed) continue;
      unchanged[j] = true;  // a second name of a claimed file (a hard link) is not read either
      if (!claimed_[i]) {
        claimed_[i] = true;
        note_stat(records_[i], files[j], now);
      }
    }
  }
  // Files that changed: first those that are a record's own file (same
  // device and inode), so that a copy found earlier in path order cannot
  // take the record from the file that is still growing; then the others.
  const auto own_file = [&](const TrackedFile& f) { return !same_inode(f.st).empty(); };
  std::erase_if(passed_, [&](const Passed& p) {
    return std::none_of(files.begin(), files.end(), [&](const TrackedFile& f) { return same_stat(p.stat, f.st); });
  });
  const auto passed = [&](const TrackedFile& f) {
    return std::any_of(passed_.begin(), passed_.end(), [&](const Passed& p) {
      return (!p.record || claimed_[*p.record]) && same_stat(p.stat, f.st);
    });
  };
  std::vector<SpanPlan> plans;
  size_t held = 0;  // descriptors opened here and kept
  for (const bool own : {true, false}) {
    for (size_t j = 0; j < files.size(); ++j) {
      TrackedFile& f = files[j];
      if (unchanged[j] || own_file(f) != own || passed(f)) continue;
      const bool opened_here = f.fd < 0;
      if (opened_here) {  // opened only now that it is to be read
        f.fd = ::open(f.name.c_str(), O_RDONLY | O_CLOEXEC);
        if (f.fd < 0 || ::fstat(f.fd, &f.st) != 0) {
          errors.push_back({f.name, std::strerror(errno)});
          if (f.fd >= 0) ::close(f.fd);
          f.fd = -1;
          continue;
        }
      }
      const size_t before = plans.size();
      plan_file(f, j, now, errors, plans);
      if (!opened_here) continue;
      if (plans.size() > before && held < keep_open) {
        ++held;
        continue;
      }
      if (plans.size() > before) {  // read by its name, if it is still this file then
        plans.back().span.path = f.name;
        plans.back().span.file = FileId{static_cast<uint64_t>(f.st.st_dev), static_cast<uint64_t>(f.st.st_ino)};
      }
      ::close(f.fd);
      f.fd = -1;
    }
  }
  std::sort(plans.begin(), plans.end(), [](const SpanPlan& a, const SpanPlan& b) { return a.file < b.file; });
  return plans;
}

void FileTracker::plan_file(const TrackedFile& f, size_t index, int64_t now, std::vector<InputError>& errors,
                            std::vector<SpanPlan>& plans) {
  const FileHead head = read_head(f.fd);
  if (!head.error.empty() && head.bytes.empty()) {
    errors.push_back({f.name, head.error});
    return;
  }
  // The records whose first bytes this file starts with: the hash of each
  // recorded length of first bytes, in one pass over them.
  std::vector<size_t> candidates;
  uint64_t hash = kFingerprintBasis;
  size_t hashed = 0;
  for (const uint64_t length : head_lengths_) {
    if (length > head.bytes.size()) break;
    hash = fingerprint_hash(std::string_view(head.bytes).substr(hashed, length - hashed), hash);
    hashed = length;
    if (const auto it = by_head_.find(head_key(length, hash)); it != by_head_.end()) {
      for (const size_t i : it->second) {
        if (records_[i].head_bytes == length && records_[i].head_hash == hash) candidates.push_back(i);
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    const auto same = [&](size_t i) { return records_[i].device == f.st.st_dev && records_[i].inode == f.st.st_ino; };
    if (same(a) != same(b)) return same(a);
    return records_[a].offset > records_[b].offset;
  });
  // A compressed file's content, decompressed once (again for a second
  // candidate stopped elsewhere, which is rare).
  std::optional<ContentScan> scan;
  uint64_t scanned_at = 0;
  if (head.compressed) {
    scan = scan_content(f.fd, 0);
    if (!scan->error.empty()) {  // damaged, or still being written (gzip running): not yet
      errors.push_back({f.name, scan->error + "; not counted until it can be read whole"});
      note_stat(passed_.emplace_back().stat, f, now);
      return;
    }
  }
  const uint64_t length = head.compressed ? scan->length : static_cast<uint64_t>(f.st.st_size);
  std::optional<size_t> old;
  for (const size_t i : candidates) {
    const FileRecord& r = records_[i];
    const bool same_file = r.device == f.st.st_dev && r.inode == f.st.st_ino;
    // Another file that starts like this one but is shorter than where it
    // stopped is a copy being made (copytruncate's copy, gzip's output) or
    // an older one: its lines were counted from this one.
    if (!same_file && length < r.offset) return;
    bool continues;
    if (head.compressed) {
      if (scanned_at != r.offset) scan = scan_content(f.fd, scanned_at = r.offset);
      continues = scan->tail_hash_at_mark == r.tail_hash;
    } else {
      continues = length >= r.offset && tail_hash_before(f.fd, r.offset) == r.tail_hash;
    }
    if (!continues) continue;
    if (claimed_[i]) {  // a copy of a file this plan reads already
      note_stat(passed_.emplace_back(Passed{{}, i}).stat, f, now);
      return;
    }
    claimed_[i] = true;
    old = i;
    break;
  }
  // A file shorter than the first bytes of a known file, and those bytes'
  // start: a copy just begun (or an older one). Known by the bytes this
  // process read; a state file keeps only their hash.
  if (!old && head.bytes.size() < kFingerprintBytes) {
    for (const FileRecord& r : records_) {
      const bool same_file = r.device == f.st.st_dev && r.inode == f.st.st_ino;
      if (!same_file && r.head.size() > head.bytes.size() && r.offset > length && r.head.starts_with(head.bytes)) {
        return;
      }
    }
  }
  SpanPlan plan;
  plan.file = index;
  plan.span.path = "/proc/self/fd/" + std::to_string(f.fd);
  plan.span.name = f.name;
  plan.span.begin = old ? records_[*old].offset : 0;
  plan.span.first_line = old ? records_[*old].lines : 0;
  if (old) {
    plan.previous = records_[*old];
  } else {
    plan.previous.head_hash = plan.previous.tail_hash = fingerprint_hash("");
  }
  FileRecord& next = plan.next;
  next = plan.previous;
  note_stat(next, f, now);
  next.compressed = head.compressed;
  uint64_t end;
  if (head.compressed) {
    end = scan->length;
    next.tail_hash = scan->tail_hash;
  } else {
    const auto size = static_cast<uint64_t>(f.st.st_size);
    end = f.to_end ? std::max(size, plan.span.begin) : last_line_end(f.fd, size, plan.span.begin);
    next.tail_hash = tail_hash_before(f.fd, end).value_or(0);
  }
  plan.span.end = next.offset = end;
  next.lines = plan.span.first_line;
  next.head_bytes = std::min<uint64_t>({end, kFingerprintBytes, head.bytes.size()});
  next.head = head.bytes.substr(0, static_cast<size_t>(next.head_bytes));
  next.head_hash = fingerprint_hash(next.head);
  if (end == plan.span.begin) {  // nothing new: only the record moves
    if (old) records_[*old] = next;
    return;
  }
  if (old) {
    plan.record = *old;
  } else {  // a new record, claimed: a copy of this file later in the plan is known by it
    plan.record = records_.size();
    records_.push_back(next);
    claimed_.push_back(true);
    index_record(plan.record);
  }
  plans.push_back(std::move(plan));
}

void FileTracker::commit(std::vector<SpanPlan>& plans, const std::vector<SpanRead>& reads) {
  for (size_t k = 0; k < plans.size(); ++k) {
    SpanPlan& p = plans[k];
    p.next.lines += reads[k].lines;
    records_[p.record] = p.next;
    if (p.next.offset == 0) {  // nothing of a new file was read after all: a record that matches no file
      records_[p.record] = FileRecord{};
      records_[p.record].head_bytes = records_[p.record].offset = UINT64_MAX;
      claimed_[p.record] = false;
    }
  }
}

uint64_t FileTracker::unfinished_bytes(const struct stat& st) const {
  const auto size = static_cast<uint64_t>(st.st_size);
  for (const size_t i : same_inode(st)) {  // the record the last plan claimed, not an older one of the file
    const FileRecord& r = records_[i];
    if (claimed_[i] && !r.compressed && r.offset < size) return size - r.offset;
  }
  return 0;
}

uint64_t FileTracker::found() const {
  return static_cast<uint64_t>(std::count(claimed_.begin(), claimed_.end(), true));
}

std::vector<FileRecord> FileTracker::kept(int64_t now, int64_t forget_seconds) const {
  std::vector<FileRecord> out;
  for (size_t i = 0; i < records_.size(); ++i) {
    if (claimed_[i] || now - records_[i].seen < forget_seconds) out.push_back(records_[i]);
  }
  return out;
}

bool holds_planned_bytes(const SpanPlan& p, int fd) {
  int own = -1;
  if (fd < 0) {
    fd = own = ::open(p.span.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
  }
  struct stat now {};
  const bool same = ::fstat(fd, &now) == 0 &&
                    (!p.span.file || (p.span.file->device == static_cast<uint64_t>(now.st_dev) &&
                                      p.span.file->inode == static_cast<uint64_t>(now.st_ino))) &&
                    static_cast<uint64_t>(now.st_size) >= p.span.end &&
                    tail_hash_before(fd, p.next.head_bytes) == p.next.head_hash &&
                    tail_hash_before(fd, p.span.begin) == p.previous.tail_hash &&
                    tail_hash_before(fd, p.span.end) == p.next.tail_hash;
  if (own >= 0) ::close(own);
  return same;
}

}  // namespace logagg
