// inotify and the stop descriptor, polled together (see watcher.h).
#include "follow/watcher.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

namespace logagg {

Watcher::Watcher(int stop_fd) : inotify_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)), stop_fd_(stop_fd) {}

Watcher::~Watcher() {
  if (inotify_ >= 0) ::close(inotify_);
}

void Watcher::watch(const std::string& dir) {
  if (inotify_ < 0 || watched_.count(dir) != 0) return;
  constexpr uint32_t kEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE |
                               IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
  // A folder that cannot be watched (gone, no watches left) is still looked
  // at after every timeout.
  if (::inotify_add_watch(inotify_, dir.c_str(), kEvents) >= 0) watched_.insert(dir);
}

bool Watcher::wait(std::chrono::milliseconds timeout) { return poll_for(timeout, /*changes=*/true); }

bool Watcher::pause(std::chrono::milliseconds pause) { return poll_for(pause, /*changes=*/false); }

bool Watcher::poll_for(std::chrono::milliseconds timeout, bool changes) {
  if (stopped_) return true;
  pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {inotify_, POLLIN, 0}};
  const bool with_inotify = changes && inotify_ >= 0;
  const auto ms = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(timeout.count(), 0, INT_MAX));
  const int n = ::poll(fds, with_inotify ? 2 : 1, ms);
  if (n > 0 && (fds[0].revents & (POLLIN | POLLHUP)) != 0) stopped_ = true;
  if (n > 0 && with_inotify && (fds[1].revents & POLLIN) != 0) {
    // Only that something changed matters: the events are drained, and every
    // file is looked at.
    alignas(inotify_event) char buf[16384];
    while (::read(inotify_, buf, sizeof buf) > 0) {
    }
    // A watched folder that was removed or moved is watched again if it
    // comes back.
    watched_.clear();
  }
  return stopped_;
}

}  // namespace logagg
