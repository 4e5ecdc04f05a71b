// Fingerprints of files for incremental runs (declared in file_tracker.h).
#include "state/file_tracker.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "input/input.h"

namespace logagg {
namespace {

constexpr size_t kBlockBytes = size_t{1} << 16;

// The last kFingerprintBytes of what was appended, kept as a window.
void keep_tail(std::string& window, std::string_view more) {
  if (more.size() >= kFingerprintBytes) {
    window.assign(more.substr(more.size() - kFingerprintBytes));
    return;
  }
  window.append(more);
  if (window.size() > kFingerprintBytes) window.erase(0, window.size() - kFingerprintBytes);
}

}  // namespace

uint64_t fingerprint_hash(std::string_view bytes, uint64_t from) noexcept {
  uint64_t h = from;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3u;
  }
  return h;
}

FileHead read_head(int fd) {
  FileHead head;
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    head.error = std::strerror(errno);
    return head;
  }
  const std::unique_ptr<ByteSource> source = open_byte_source(fd);
  head.compressed = file_compression(fd).value_or(Compression::kNone) != Compression::kNone;
  head.bytes.resize(kFingerprintBytes);
  size_t got = 0;
  while (got < head.bytes.size()) {
    const ptrdiff_t n = source->read(head.bytes.data() + got, head.bytes.size() - got);
    if (n <= 0) {
      if (n < 0) head.error = source->error();
      break;
    }
    got += static_cast<size_t>(n);
  }
  head.bytes.resize(got);
  return head;
}

std::optional<uint64_t> tail_hash_before(int fd, uint64_t end) {
  const uint64_t begin = end - std::min<uint64_t>(end, kFingerprintBytes);
  std::string bytes(end - begin, '\0');
  if (pread_all(fd, bytes.data(), bytes.size(), begin) != static_cast<ssize_t>(bytes.size())) return std::nullopt;
  return fingerprint_hash(bytes);
}

uint64_t last_line_end(int fd, uint64_t size, uint64_t from) {
  // Not zeroed: --follow asks this of a busy file every round.
  const size_t block_bytes = static_cast<size_t>(std::min<uint64_t>(size - std::min(size, from), kBlockBytes));
  const std::unique_ptr<char[]> block = std::make_unique_for_overwrite<char[]>(block_bytes);
  uint64_t end = size;
  while (end > from) {
    const uint64_t begin = std::max(from, end - std::min<uint64_t>(end, block_bytes));
    const ssize_t n = pread_all(fd, block.get(), end - begin, begin);
    if (n != static_cast<ssize_t>(end - begin)) return from;  // shrank or failed: nothing new for now
    for (size_t i = static_cast<size_t>(n); i > 0; --i) {
      if (block[i - 1] == '\n') return begin + i;
    }
    end = begin;
  }
  return from;
}

ContentScan scan_content(int fd, uint64_t mark) {
  ContentScan scan;
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    scan.error = std::strerror(errno);
    return scan;
  }
  const std::unique_ptr<ByteSource> source = open_byte_source(fd);
  std::vector<char> block(size_t{1} << 20);
  std::string window;
  if (mark == 0) scan.tail_hash_at_mark = fingerprint_hash("");
  for (;;) {
    const ptrdiff_t n = source->read(block.data(), block.size());
    if (n <= 0) {
      if (n < 0) scan.error = source->error();
      break;
    }
    std::string_view more(block.data(), static_cast<size_t>(n));
    if (scan.length < mark && mark <= scan.length + more.size()) {
      const size_t before = static_cast<size_t>(mark - scan.length);
      keep_tail(window, more.substr(0, before));
      scan.tail_hash_at_mark = fingerprint_hash(window);
      scan.length += before;
      more.remove_prefix(before);
    }
    keep_tail(window, more);
    scan.length += more.size();
  }
  scan.tail_hash = fingerprint_hash(window);
  return scan;
}

}  // namespace logagg
