// The progress line (see progress_line.h).
#include "progress_line.h"

#include <cstdio>

#include "logagg/report.h"

namespace logagg::cli {

std::string format_progress(uint64_t bytes_done, uint64_t bytes_total, uint64_t files_done,
                            uint64_t files_total, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(bytes_done) / seconds : 0;
  std::string line = "logagg: " + human_bytes(static_cast<double>(bytes_done));
  if (bytes_total > 0) {
    line += " of " + human_bytes(static_cast<double>(bytes_total)) + " (" +
            std::to_string(std::min<uint64_t>(100, bytes_done * 100 / bytes_total)) + "%)";
  }
  line += ", " + std::to_string(files_done) + " of " + std::to_string(files_total) + " file" +
          (files_total == 1 ? "" : "s") + ", " + human_bytes(rate) + "/s";
  if (bytes_total > bytes_done && rate > 0) {
    const auto left = static_cast<uint64_t>(static_cast<double>(bytes_total - bytes_done) / rate);
    char eta[32];
    std::snprintf(eta, sizeof eta, ", %llu:%02llu left", static_cast<unsigned long long>(left / 60),
                  static_cast<unsigned long long>(left % 60));
    line += eta;
  }
  return line;
}

ProgressLine::ProgressLine(const Progress& progress, std::chrono::milliseconds delay,
                           std::chrono::milliseconds interval)
    : progress_(progress), thread_([this, delay, interval] { run(delay, interval); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) std::fputs("\r\033[K", stderr);  // back to the start of the line, erase it
}

void ProgressLine::run(std::chrono::milliseconds delay, std::chrono::milliseconds interval) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, delay, [this] { return stop_; })) return;
  do {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string line =
        format_progress(progress_.bytes_done.load(std::memory_order_relaxed),
                        progress_.bytes_total.load(std::memory_order_relaxed),
                        progress_.files_done.load(std::memory_order_relaxed),
                        progress_.files_total.load(std::memory_order_relaxed), seconds);
    std::fprintf(stderr, "\r%s\033[K", line.c_str());  // redraw in place, erase what is left of the old one
    std::fflush(stderr);
    drawn_ = true;
  } while (!wake_.wait_for(lock, interval, [this] { return stop_; }));
}

}  // namespace logagg::cli
