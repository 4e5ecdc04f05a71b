// inotify, the streams and the stop descriptor, polled together (see watcher.h).
#include "follow/watcher.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <utility>

namespace logagg {
namespace {

// Only that something happened matters: the events are drained.
bool drain(int fd, short revents) {
  if ((revents & POLLIN) == 0) return false;
  alignas(inotify_event) char buf[16384];
  while (::read(fd, buf, sizeof buf) > 0) {
  }
  return true;
}

}  // namespace

Watcher::Watcher(int stop_fd, FollowedPaths followed, DescriptorBudget& budget)
    : changes_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)), stop_fd_(stop_fd), created_(std::move(followed), budget) {}

Watcher::~Watcher() {
  if (changes_ >= 0) ::close(changes_);
  for (const NameEvent& e : names_) {
    if (e.fd >= 0) ::close(e.fd);
  }
}

void Watcher::watch(const std::string& dir) {
  if (changes_ < 0 || watched_.count(dir) != 0) return;
  constexpr uint32_t kEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE |
                               IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
  // A folder that cannot be watched (gone, no watches left) is still looked
  // at after every timeout.
  if (::inotify_add_watch(changes_, dir.c_str(), kEvents) < 0) return;
  created_.watch(dir);
  watched_.insert(dir);
}

Watcher::Wake Watcher::wait(std::chrono::milliseconds timeout, bool changes, const std::vector<int>& streams) {
  Wake wake;
  if (stopped_) return wake;
  std::vector<pollfd> fds = {
      {stop_fd_, POLLIN, 0}, {created_.ready_fd(), POLLIN, 0}, {changes ? changes_ : -1, POLLIN, 0}};
  for (const int fd : streams) fds.push_back({fd, POLLIN, 0});
  const auto ms = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(timeout.count(), 0, INT_MAX));
  if (::poll(fds.data(), fds.size(), ms) <= 0) return wake;
  if ((fds[0].revents & (POLLIN | POLLHUP)) != 0) stopped_ = true;
  if ((fds[1].revents & POLLIN) != 0) {
    std::vector<NameEvent> names = created_.take();
    wake.created = std::any_of(names.begin(), names.end(), [](const NameEvent& e) { return e.is_new(); });
    names_.insert(names_.end(), std::make_move_iterator(names.begin()), std::make_move_iterator(names.end()));
  }
  wake.changed = drain(changes_, fds[2].revents) || wake.created;
  wake.streams = std::any_of(fds.begin() + 3, fds.end(), [](const pollfd& p) { return p.revents != 0; });
  // A watched folder that was removed or moved is watched again if it
  // comes back.
  if (wake.changed) watched_.clear();
  return wake;
}

std::vector<NameEvent> Watcher::take_names() {
  std::vector<NameEvent> names = std::exchange(names_, {});
  std::vector<NameEvent> more = created_.take();
  names.insert(names.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  return names;
}

}  // namespace logagg
