// Progress on a terminal: while a long job runs, one line on stderr with the
// bytes and files done of the total, the rate and the time left, redrawn a
// few times a second and erased when the job ends. main() uses it only when
// stderr is a terminal and --quiet is not given, so pipes, files and CI logs
// never see it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "logagg/aggregate.h"

namespace logagg::cli {

// The text of one progress line (no control characters), e.g.
// "logagg: 1.2 GiB of 10.0 GiB (12%), 3 of 120 files, 850.0 MiB/s, 0:10 left".
std::string format_progress(uint64_t bytes_done, uint64_t bytes_total, uint64_t files_done,
                            uint64_t files_total, double seconds);

class ProgressLine {
 public:
  // Draws nothing before `delay` (short jobs never show a line), then every
  // `interval`, until destroyed.
  ProgressLine(const Progress& progress, std::chrono::milliseconds delay, std::chrono::milliseconds interval);
  ~ProgressLine();  // stops, and erases the line if one was drawn
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void run(std::chrono::milliseconds delay, std::chrono::milliseconds interval);

  const Progress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace logagg::cli
