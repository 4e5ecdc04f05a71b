// Following a stream (see stream_input.h).
#include "follow/stream_input.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "input/input.h"

namespace logagg {
namespace {

// What the buffer may hold beyond one line of the limit, before a round counts it.
constexpr size_t kBufferBytes = size_t{4} << 20;

bool readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

}  // namespace

StreamInput::StreamInput(std::string name, int fd, bool owned, uint64_t max_line_bytes)
    : name_(std::move(name)), fd_(fd), owned_(owned), max_line_bytes_(max_line_bytes) {}

StreamInput::~StreamInput() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

StreamInput::StreamInput(StreamInput&& o) noexcept
    : name_(std::move(o.name_)),
      fd_(std::exchange(o.fd_, -1)),
      owned_(o.owned_),
      max_line_bytes_(o.max_line_bytes_),
      buffer_(std::move(o.buffer_)),
      whole_(o.whole_),
      in_long_line_(o.in_long_line_),
      offset_(o.offset_),
      lines_(o.lines_),
      eof_(o.eof_),
      head_checked_(o.head_checked_),
      error_(std::move(o.error_)) {}

bool StreamInput::wants_data() const { return !eof_ && error_.empty() && whole_ < kBufferBytes; }

size_t StreamInput::countable() const {
  if (!error_.empty()) return 0;
  return eof_ ? buffer_.size() : whole_;
}

void StreamInput::check_head() {
  if (head_checked_ || offset_ != 0 || (buffer_.size() < 4 && !eof_)) return;
  head_checked_ = true;
  if (const Compression c = detect_compression(std::string_view(buffer_).substr(0, 4)); c != Compression::kNone) {
    error_ = "a " + std::string(compression_name(c)) +
             " stream cannot be followed: decompress it first (zcat FILE | logagg --follow -)";
  }
}

void StreamInput::read_available() {
  char chunk[65536];
  while (wants_data() && readable(fd_)) {
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;  // a FIFO no writer has opened yet
    if (n < 0) {
      error_ = std::strerror(errno);
      return;
    }
    if (n == 0) {
      eof_ = true;
    } else {
      keep(chunk, static_cast<size_t>(n));
    }
    check_head();
  }
}

void StreamInput::keep(const char* bytes, size_t n) {
  std::string_view in(bytes, n);
  while (!in.empty()) {
    const size_t lf = in.find('\n');
    const std::string_view part = in.substr(0, lf == std::string_view::npos ? in.size() : lf + 1);
    in.remove_prefix(part.size());
    if (in_long_line_) {  // only its end is kept: the line stays longer than the limit
      if (lf != std::string_view::npos) {
        buffer_.push_back('\n');
        in_long_line_ = false;
      }
    } else {
      buffer_.append(part);
      if (lf == std::string_view::npos && buffer_.size() - whole_ > max_line_bytes_ + 1) {
        buffer_.resize(whole_ + max_line_bytes_ + 1);
        in_long_line_ = true;
      }
    }
    if (lf != std::string_view::npos) whole_ = buffer_.size();
  }
}

InputSpan StreamInput::span() const {
  InputSpan s;
  s.name = name_;
  s.begin = offset_;
  s.first_line = lines_;
  s.text = std::string_view(buffer_).substr(0, countable());
  s.end = s.begin + s.text.size();
  return s;
}

void StreamInput::counted(uint64_t lines) {
  const size_t n = countable();
  buffer_.erase(0, n);
  whole_ = 0;
  offset_ += n;
  lines_ += lines;
}

}  // namespace logagg
