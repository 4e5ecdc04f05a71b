// A stream followed (`logagg --follow -`, a FIFO, /dev/stdin, a terminal):
// read as its bytes come, without ever blocking (only what poll() says is
// there), and handed to the rounds of follower.h a run of whole lines at a
// time, until its end (EOF: every writer gone) or a stop. The last line
// counts without its LF at the end. A line longer than the line limit is
// kept only up to the limit, so memory stays bounded, and is rejected as too
// long as a batch run rejects it. A compressed stream cannot be followed
// (its end decides what its bytes are): it is named and left.
#pragma once

#include <cstdint>
#include <string>

#include "run/spans.h"

namespace logagg {

class StreamInput {
 public:
  // Reads `fd` (closed at the end if `owned`), named `name` in messages.
  StreamInput(std::string name, int fd, bool owned, uint64_t max_line_bytes);
  ~StreamInput();
  StreamInput(StreamInput&& other) noexcept;
  StreamInput& operator=(StreamInput&&) = delete;
  StreamInput(const StreamInput&) = delete;

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // Whether there is room to read into (else it is not polled until a round
  // has counted what it holds), and no end or error yet.
  bool wants_data() const;
  // Reads what is there, up to what the buffer holds, without waiting.
  void read_available();
  // The whole lines read and not counted yet (at the end: all the rest), as
  // a span from memory; empty if there are none.
  InputSpan span() const;
  // The span of span() was counted as `lines` lines.
  void counted(uint64_t lines);
  // EOF read and every byte counted, or an error.
  bool ended() const { return (eof_ && buffer_.empty()) || !error_.empty(); }
  const std::string& error() const { return error_; }  // why it cannot be read, or empty
  // Bytes read and not counted (a last line without its LF, when stopped).
  uint64_t pending_bytes() const { return buffer_.size(); }

 private:
  void keep(const char* bytes, size_t n);
  void check_head();         // a compressed stream is an error
  size_t countable() const;  // the bytes of buffer_ a round may count

  std::string name_;
  int fd_;
  bool owned_;
  uint64_t max_line_bytes_;
  std::string buffer_;         // read, not counted yet
  size_t whole_ = 0;           // the bytes of buffer_ up to its last LF
  bool in_long_line_ = false;  // dropping the bytes of a line past the limit until its LF
  uint64_t offset_ = 0;        // bytes of the stream before buffer_
  uint64_t lines_ = 0;         // lines counted
  bool eof_ = false;
  bool head_checked_ = false;
  std::string error_;
};

}  // namespace logagg
