// What wakes --follow up: a change in a watched folder (inotify: an entry
// created, renamed, written to, truncated or deleted), the stop descriptor
// becoming readable, or a timeout, which also covers file systems where
// inotify sees nothing (network file systems) or cannot be used at all.
#pragma once

#include <chrono>
#include <set>
#include <string>

namespace logagg {

class Watcher {
 public:
  explicit Watcher(int stop_fd);
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Watches the entries of folder `dir` (again: nothing happens).
  void watch(const std::string& dir);
  // Waits for a change, the stop descriptor or `timeout`, whichever comes
  // first; returns whether stop was asked for (now or before).
  bool wait(std::chrono::milliseconds timeout);
  // Sleeps for `pause`, waking only for the stop descriptor; returns as wait.
  bool pause(std::chrono::milliseconds pause);
  bool stopped() const { return stopped_; }

 private:
  // Polls the stop descriptor, and inotify if `changes`, for up to `timeout`.
  bool poll_for(std::chrono::milliseconds timeout, bool changes);

  int inotify_ = -1;  // -1: inotify cannot be used, only timeouts
  int stop_fd_;
  bool stopped_ = false;
  std::set<std::string> watched_;
};

}  // namespace logagg
