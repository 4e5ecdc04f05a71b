// The names created in, moved into, moved out of and removed from the
// folders --follow watches (watcher.h), read from inotify on a thread of
// their own that opens each new followed name the moment it is told of it,
// whatever the loop is doing: a file created, written, closed and removed
// within a millisecond is then held, and its bytes stay readable through
// the descriptor after the removal. The descriptors count against the
// follow's budget (descriptor_budget.h); a name that could not be opened (no
// descriptor left, or gone already) comes without one, for the loop to open
// or to tell as lost.
#pragma once

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "follow/descriptor_budget.h"
#include "follow/discovery.h"

namespace logagg {

struct NameEvent {
  enum Kind { kCreated, kMovedIn, kMovedOut, kRemoved };
  std::string path;  // the folder's path joined to the entry's name
  Kind kind = kCreated;
  int fd = -1;        // created or moved in, and followed: opened at once (the taker owns it), or -1
  struct stat st {};  // with fd: fstat's
  bool is_new() const { return kind == kCreated || kind == kMovedIn; }  // a name to open
};

class CreatedNames {
 public:
  // Opens the names `followed` follows, while `budget` has room. Without
  // inotify, nothing comes (ready_fd() is -1).
  CreatedNames(FollowedPaths followed, DescriptorBudget& budget);
  ~CreatedNames();  // stops the thread; closes the descriptors not taken
  CreatedNames(const CreatedNames&) = delete;
  CreatedNames& operator=(const CreatedNames&) = delete;

  // Watches the names of folder `dir` (again: nothing happens).
  void watch(const std::string& dir);
  // Readable while events wait to be taken, -1 if none can come.
  int ready_fd() const { return ready_; }
  // The events since the last call, in order; their descriptors are the
  // caller's, each counted in the budget until the caller gives it back.
  std::vector<NameEvent> take();

 private:
  void run();           // the thread: waits for inotify (or the quit), then reads
  void read_events();   // reads what inotify has, opening the new followed names
  void open(NameEvent& e);

  FollowedPaths followed_;
  DescriptorBudget& budget_;
  int inotify_ = -1, ready_ = -1, quit_ = -1;
  std::mutex mutex_;  // guards folders_ and events_
  std::map<int, std::string> folders_;  // by watch descriptor
  std::vector<NameEvent> events_;
  std::thread thread_;
};

}  // namespace logagg
