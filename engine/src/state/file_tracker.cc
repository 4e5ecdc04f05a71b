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

#include "state/plan_phases.h"

namespace logagg {

std::vector<SpanPlan> FileTracker::plan(std::vector<TrackedFile>& files, int64_t now, std::vector<InputError>& errors,
                                        size_t keep_open) {
  claimed_.assign(records_.size(), false);
  copies_.clear();
  index_.build(records_);
  std::vector<bool> unchanged(files.size(), false);
  for (size_t j = 0; j < files.size(); ++j) {
    for (const size_t i : index_.same_inode(records_, files[j].st)) {
      if (unchanged[j] || !same_stat(records_[i], files[j].st)) continue;
      // A file read to its end must still be planned for its last line.
      if (files[j].to_end && records_[i].offset < records_[i].size && !records_[i].compressed) continue;
      unchanged[j] = true;  // a second name of a claimed file (a hard link) is not read either
      if (!claimed_[i]) {
        claimed_[i] = true;
        note_stat(records_[i], files[j].name, files[j].st, now);
      }
    }
  }
  // Files that changed: first those that are a record's own file (same
  // device and inode), so that a copy found earlier in path order cannot
  // take the record from the file that is still growing; then the others.
  const auto own_file = [&](const TrackedFile& f) { return !index_.same_inode(records_, f.st).empty(); };
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
  FileContent content = read_content(f.fd, f.st);
  if (content.changing) return;
  if (!content.error.empty()) {
    errors.push_back({f.name, content.error});
    if (content.pass_over) note_stat(passed_.emplace_back().stat, f.name, f.st, now);
    return;
  }
  const Classification found =
      classify(f.fd, f.st, content, records_, claimed_, recognise(index_, records_, content.head.bytes, f.st));
  if (found.kind == FileKind::kPartialCopy) return;
  if (found.kind == FileKind::kCopyOfClaimed) {  // a copy of a file this plan reads already
    // (Not a copy taking the record over yet: once the file is truncated,
    // the record is no longer claimed, and the copy continues it.)
    note_stat(passed_.emplace_back(Passed{{}, found.record}).stat, f.name, f.st, now);
    return;
  }
  const bool continues = found.kind == FileKind::kContinues;
  std::optional<SpanPlan> decided = decide(f, index, content, continues ? &records_[found.record] : nullptr, now);
  if (!decided) return;  // truncated meanwhile: planned again next time, from what it holds then
  SpanPlan& plan = *decided;
  if (continues) {
    claimed_[found.record] = true;
    const FileRecord& r = records_[found.record];
    if (r.device != static_cast<uint64_t>(f.st.st_dev) || r.inode != static_cast<uint64_t>(f.st.st_ino)) {
      copies_.push_back({r.device, r.inode, r.offset, content.length});
    }
  }
  if (plan.span.end == plan.span.begin) {  // nothing new: only the record moves
    if (continues) records_[found.record] = plan.next;
    return;
  }
  if (continues) {
    plan.record = found.record;
  } else {  // a new record, claimed: a copy of this file later in the plan is known by it
    plan.record = records_.size();
    records_.push_back(plan.next);
    claimed_.push_back(true);
    index_.add(records_, plan.record);
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
  for (const size_t i : index_.same_inode(records_, st)) {  // the record the last plan claimed, not an older one of the file
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
