// The report writers' output: text accumulated and handed to the caller's
// sink in chunks of about 64 KiB, so a report of millions of rows never sits
// in memory whole.
#pragma once

#include <cstddef>
#include <string>

#include "logagg/report.h"

namespace logagg {

// Writers append to text() and call row_done() after each row; flush() at
// the end. A sink that throws is not called again.
class Output {
 public:
  explicit Output(const ReportSink& sink) : sink_(sink) {}
  std::string& text() { return buf_; }
  void row_done() {
    if (buf_.size() >= kChunkBytes) flush();
  }
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  const ReportSink& sink_;
  std::string buf_;
};

}  // namespace logagg
