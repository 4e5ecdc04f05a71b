// Memory mapping and block reading (see input.h).
#include "input/input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "text/ascii.h"
#include "text/lines.h"

namespace logagg {
ReadMode choose_read_mode(const struct stat& st) {
  return S_ISREG(st.st_mode) && st.st_size > 0 ? ReadMode::kMap : ReadMode::kStream;
}

MappedFile MappedFile::map(int fd, size_t size) {
  MappedFile m;
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return m;
  ::madvise(p, size, MADV_SEQUENTIAL);
  m.data_ = static_cast<const char*>(p);
  m.size_ = size;
  return m;
}

void MappedFile::prefetch(size_t begin, size_t end) const {
  // The kernel cuts one request to the larger of the device's read-ahead
  // window and its largest transfer (128 KiB and 512 KiB to a few MiB on
  // common disks): ask in pieces that fit.
  constexpr size_t kPiece = size_t{512} << 10;
  end = std::min(end, size_);
  if (begin >= end) return;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  for (size_t at = begin / page * page; at < end; at += kPiece) {
    ::madvise(const_cast<char*>(data_) + at, std::min(kPiece, end - at), MADV_WILLNEED);
  }
}

void MappedFile::release(size_t begin, size_t end) const {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t first = (begin + page - 1) / page * page;
  const size_t last = std::min(end, size_) / page * page;
  if (first < last) ::madvise(const_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    this->~MappedFile();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

namespace {
constexpr size_t kBlockBytes = size_t{1} << 20;
}

bool discard(ByteSource& source, uint64_t n, std::vector<char>& buffer) {
  if (buffer.size() < kBlockBytes + kLinePadding) buffer.resize(kBlockBytes + kLinePadding);
  while (n > 0) {
    const ptrdiff_t got = source.read(buffer.data(), static_cast<size_t>(std::min<uint64_t>(n, kBlockBytes)));
    if (got <= 0) return false;
    n -= static_cast<uint64_t>(got);
  }
  return true;
}

StreamReader::StreamReader(ByteSource& source, size_t max_line_bytes, std::vector<char>& buffer, bool at_start)
    : source_(source), max_line_bytes_(max_line_bytes), buf_(buffer), at_start_(at_start) {
  if (buf_.size() < kBlockBytes + kLinePadding) buf_.resize(kBlockBytes + kLinePadding);
}

bool StreamReader::fill() {
  if (eof_ || failed_) return false;
  // Make room: drop consumed bytes, then grow if a long line fills the buffer.
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - kLinePadding - end_ < kBlockBytes / 2) buf_.resize(buf_.size() * 2);
  const ptrdiff_t n = source_.read(buf_.data() + end_, buf_.size() - kLinePadding - end_);
  if (n > 0) {
    end_ += static_cast<size_t>(n);
    return true;
  }
  (n == 0 ? eof_ : failed_) = true;
  return false;
}

bool StreamReader::next(Chunk& chunk) {
  chunk = Chunk{};
  for (;;) {
    const char* data = buf_.data() + begin_;
    const size_t size = end_ - begin_;
    const bool ended = eof_ || failed_;

    if (at_start_) {  // a UTF-8 BOM at the very start of the stream is skipped
      if (size < kUtf8Bom.size() && !ended) {
        fill();
        continue;
      }
      if (std::string_view(data, size).starts_with(kUtf8Bom)) begin_ += kUtf8Bom.size();
      at_start_ = false;
      continue;
    }

    if (discarding_) {
      const size_t lf = next_lf(std::string_view(data, size), 0);
      const size_t line_part = lf != std::string_view::npos ? lf : size;
      discarded_blank_ = discarded_blank_ && is_blank(std::string_view(data, line_part));
      if (lf != std::string_view::npos || ended) {
        begin_ += lf != std::string_view::npos ? line_part + 1 : size;
        discarding_ = false;
        chunk.skipped_long_line = true;
        chunk.skipped_line_blank = discarded_blank_;
        return true;
      }
      begin_ = end_;  // drop what we have of the long line
      fill();
      continue;
    }

    // No LF in the first max+2 bytes: the first line (less a CR) is too long
    // to buffer. It is dropped as it streams by; only whether it was blank is kept.
    const size_t window = max_line_bytes_ + 2;
    if (size >= window && next_lf(std::string_view(data, window), 0) == std::string_view::npos) {
      discarding_ = true;
      discarded_blank_ = true;
      continue;
    }

    const char* lf = size > 0 ? static_cast<const char*>(memrchr(data, '\n', size)) : nullptr;
    if (lf != nullptr) {
      const size_t take = static_cast<size_t>(lf - data) + 1;
      chunk.text = std::string_view(data, take);
      chunk.readable = buf_.size() - begin_;
      begin_ += take;
      return true;
    }
    if (ended) {
      if (size == 0) return false;
      chunk.text = std::string_view(data, size);  // last line without LF
      chunk.readable = buf_.size() - begin_;
      begin_ = end_;
      return true;
    }
    fill();
  }
}

}  // namespace logagg
