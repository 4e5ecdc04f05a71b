// The phases of planning one changed file (see plan_phases.h).
#include "state/plan_phases.h"

#include <sys/stat.h>

#include <algorithm>
#include <string>

namespace logagg {

FileContent read_content(int fd, const struct stat& st) {
  FileContent content;
  content.head = read_head(fd);
  if (!content.head.error.empty() && content.head.bytes.empty()) {
    content.error = content.head.error;
    return content;
  }
  content.length = static_cast<uint64_t>(st.st_size);
  if (content.head.compressed) {
    content.scan = scan_content(fd, 0);
    // Still being written (gzip's output): its first bytes and its whole
    // content may have been read from two different files. Planned again
    // once it stays the same.
    struct stat after {};
    if (::fstat(fd, &after) != 0 || after.st_size != st.st_size || after.st_mtim.tv_sec != st.st_mtim.tv_sec ||
        after.st_mtim.tv_nsec != st.st_mtim.tv_nsec) {
      content.changing = true;
      return content;
    }
    if (!content.scan->error.empty()) {  // damaged, or still being written (gzip running): not yet
      content.error = content.scan->error + "; not counted until it can be read whole";
      content.pass_over = true;
      return content;
    }
    content.length = content.scan->length;
  }
  return content;
}

std::vector<size_t> recognise(const RecordIndex& index, const std::vector<FileRecord>& records, std::string_view head,
                              const struct stat& st) {
  std::vector<size_t> candidates = index.same_head(records, head);
  const auto own = [&](size_t i) { return records[i].device == st.st_dev && records[i].inode == st.st_ino; };
  std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    if (own(a) != own(b)) return own(a);
    return records[a].offset > records[b].offset;
  });
  return candidates;
}

Classification classify(int fd, const struct stat& st, FileContent& content, const std::vector<FileRecord>& records,
                        const std::vector<bool>& claimed, const std::vector<size_t>& candidates) {
  const auto own = [&](const FileRecord& r) { return r.device == st.st_dev && r.inode == st.st_ino; };
  for (const size_t i : candidates) {
    const FileRecord& r = records[i];
    // Another file that starts like this one but is shorter than where it
    // stopped is a copy being made (copytruncate's copy, gzip's output) or
    // an older one: its lines were counted from this one.
    if (!own(r) && content.length < r.offset) return {FileKind::kPartialCopy, i};
    bool continues;
    if (content.scan) {  // compressed: scanned again if the last scan marked another stop
      if (content.scanned_mark != r.offset) content.scan = scan_content(fd, content.scanned_mark = r.offset);
      continues = content.scan->tail_hash_at_mark == r.tail_hash;
    } else {
      continues = content.length >= r.offset && tail_hash_before(fd, r.offset) == r.tail_hash;
    }
    if (!continues) continue;
    if (claimed[i]) return {FileKind::kCopyOfClaimed, i};
    return {FileKind::kContinues, i};
  }
  // A file shorter than the first bytes of a known file, and those bytes'
  // start: a copy just begun (or an older one). Known by the bytes this
  // process read; a state file keeps only their hash.
  const std::string& head = content.head.bytes;
  if (head.size() < kFingerprintBytes) {
    for (size_t i = 0; i < records.size(); ++i) {
      const FileRecord& r = records[i];
      if (!own(r) && r.head.size() > head.size() && r.offset > content.length && r.head.starts_with(head)) {
        return {FileKind::kPartialCopy, i};
      }
    }
  }
  return {};
}

std::optional<SpanPlan> decide(const TrackedFile& f, size_t index, const FileContent& content, const FileRecord* old,
                               int64_t now) {
  SpanPlan plan;
  plan.file = index;
  plan.span.path = "/proc/self/fd/" + std::to_string(f.fd);
  plan.span.name = f.name;
  plan.span.begin = old ? old->offset : 0;
  plan.span.first_line = old ? old->lines : 0;
  if (old) {
    plan.previous = *old;
  } else {
    plan.previous.head_hash = plan.previous.tail_hash = fingerprint_hash("");
  }
  FileRecord& next = plan.next;
  next = plan.previous;
  note_stat(next, f.name, f.st, now);
  next.compressed = content.head.compressed;
  uint64_t end;
  if (content.scan) {
    end = content.scan->length;
    next.tail_hash = content.scan->tail_hash;
  } else {
    const auto size = static_cast<uint64_t>(f.st.st_size);
    end = f.to_end ? std::max(size, plan.span.begin) : last_line_end(f.fd, size, plan.span.begin);
    const std::optional<uint64_t> tail = tail_hash_before(f.fd, end);
    if (!tail) return std::nullopt;  // shorter than planned: truncated meanwhile
    // Nothing new, and other bytes before the stop than classify() saw:
    // truncated and written again meanwhile (a span's read checks this).
    if (end == plan.span.begin && *tail != plan.previous.tail_hash) return std::nullopt;
    next.tail_hash = *tail;
  }
  plan.span.end = next.offset = end;
  next.lines = plan.span.first_line;
  next.head_bytes = std::min<uint64_t>({end, kFingerprintBytes, content.head.bytes.size()});
  next.head = content.head.bytes.substr(0, static_cast<size_t>(next.head_bytes));
  next.head_hash = fingerprint_hash(next.head);
  return plan;
}

}  // namespace logagg
