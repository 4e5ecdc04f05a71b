// Reads of a file with pread (input.h).
#include "input/input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

#include "text/lines.h"

namespace logagg {

ssize_t pread_all(int fd, char* buf, size_t size, uint64_t offset) {
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::pread(fd, buf + got, size - got, static_cast<off_t>(offset + got));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    got += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

std::optional<uint64_t> past_next_lf_in_file(int fd, uint64_t from, uint64_t end, std::span<char> buffer,
                                             bool* short_read) {
  while (from < end) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), end - from));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(from));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (short_read != nullptr) *short_read = true;
      return std::nullopt;
    }
    const size_t lf = next_lf(std::string_view(buffer.data(), static_cast<size_t>(n)), 0);
    if (lf != std::string_view::npos) return from + lf + 1;
    from += static_cast<uint64_t>(n);
  }
  return std::nullopt;
}

std::optional<Compression> file_compression(int fd, uint64_t size) {
  char head[4];  // as many bytes as detect_compression looks at
  const ssize_t n = pread_all(fd, head, static_cast<size_t>(std::min<uint64_t>(sizeof head, size)), 0);
  if (n < 0) return std::nullopt;
  return detect_compression(std::string_view(head, static_cast<size_t>(n)));
}

}  // namespace logagg
