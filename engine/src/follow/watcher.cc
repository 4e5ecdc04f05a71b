// inotify and the stop descriptor, polled together (see watcher.h).
#include "follow/watcher.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>

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

bool Watcher::wait(std::chrono::milliseconds timeout) {
  if (stopped_) return true;
  pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {inotify_, POLLIN, 0}};
  const int n = ::poll(fds, inotify_ >= 0 ? 2 : 1, static_cast<int>(timeout.count()));
  if (n > 0 && (fds[0].revents & (POLLIN | POLLHUP)) != 0) stopped_ = true;
  if (n > 0 && inotify_ >= 0 && (fds[1].revents & POLLIN) != 0) {
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

bool Watcher::pause(std::chrono::milliseconds pause) {
  if (stopped_) return true;
  pollfd fd{stop_fd_, POLLIN, 0};
  if (::poll(&fd, 1, static_cast<int>(pause.count())) > 0 && (fd.revents & (POLLIN | POLLHUP)) != 0) stopped_ = true;
  return stopped_;
}

}  // namespace logagg
