// What wakes --follow up: a change in a watched folder (inotify: an entry
// created, renamed, written to, truncated or deleted), a new name there
// (created or moved in: opened on a thread of its own the moment it is told
// of, before it can go, created_names.h; the names created and removed are
// kept, so that a file gone before it could be opened is told), data on a
// followed stream, the stop descriptor becoming readable, or a timeout,
// which also covers file systems where inotify sees nothing (network file
// systems) or cannot be used at all.
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "follow/created_names.h"
#include "follow/descriptor_budget.h"
#include "follow/discovery.h"

namespace logagg {

class Watcher {
 public:
  // New names that `followed` follows are opened while `budget` has room.
  Watcher(int stop_fd, FollowedPaths followed, DescriptorBudget& budget);
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Watches the entries of folder `dir` (again: nothing happens).
  void watch(const std::string& dir);

  struct Wake {
    bool changed = false;  // something changed in a watched folder
    bool created = false;  // a name was created or moved into one
    bool streams = false;  // one of the streams polled is readable (or at its end)
  };
  // Waits up to `timeout` for the stop descriptor, a new name or data on
  // `streams`, and, with `changes`, any change in a watched folder;
  // returns what came (nothing: the timeout or a stop, see stopped()).
  Wake wait(std::chrono::milliseconds timeout, bool changes, const std::vector<int>& streams);
  bool stopped() const { return stopped_; }

  // The names created, moved in, moved out and removed since the last call,
  // in order (taken now, and by wait()); their descriptors are the caller's.
  std::vector<NameEvent> take_names();

 private:
  int changes_ = -1;  // inotify for every change; -1: inotify cannot be used, only timeouts
  int stop_fd_;
  bool stopped_ = false;
  std::set<std::string> watched_;
  CreatedNames created_;
  std::vector<NameEvent> names_;  // taken by wait(), not yet by take_names()
};

}  // namespace logagg
