// What wakes --follow up: a change in a watched folder (inotify: an entry
// created, renamed, written to, truncated or deleted), a new name there
// (created or moved in: opened at once, before it can go; the names created
// and removed are kept, so that a file gone before it could be opened is
// told), data on a
// followed stream, the stop descriptor becoming readable, or a timeout,
// which also covers file systems where inotify sees nothing (network file
// systems) or cannot be used at all.
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace logagg {

class Watcher {
 public:
  explicit Watcher(int stop_fd);
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

  // A name created, moved in, moved out or removed in a watched folder, as
  // the folder's path joined to the entry's name.
  struct NameEvent {
    enum Kind { kCreated, kMovedIn, kMovedOut, kRemoved };
    std::string path;
    Kind kind = kCreated;
  };
  // The names created and removed since the last call, in order (read now,
  // and by wait()).
  std::vector<NameEvent> take_names();

 private:
  int changes_ = -1;  // inotify for every change; -1: inotify cannot be used, only timeouts
  int created_ = -1;  // inotify for new names only
  int stop_fd_;
  bool stopped_ = false;
  std::set<std::string> watched_;
  std::map<int, std::string> named_;  // created_'s watch descriptors: their folders
  std::vector<NameEvent> names_;

  bool read_names();  // reads created_'s events into names_; true if a name was created
};

}  // namespace logagg
