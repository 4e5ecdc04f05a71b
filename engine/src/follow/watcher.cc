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

Watcher::Watcher(int stop_fd)
    : changes_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)),
      created_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)),
      stop_fd_(stop_fd) {}

Watcher::~Watcher() {
  if (changes_ >= 0) ::close(changes_);
  if (created_ >= 0) ::close(created_);
}

void Watcher::watch(const std::string& dir) {
  if (changes_ < 0 || watched_.count(dir) != 0) return;
  constexpr uint32_t kEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE |
                               IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
  // A folder that cannot be watched (gone, no watches left) is still looked
  // at after every timeout.
  if (::inotify_add_watch(changes_, dir.c_str(), kEvents) < 0) return;
  if (created_ >= 0) {
    const int wd = ::inotify_add_watch(created_, dir.c_str(), IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE);
    if (wd >= 0) named_[wd] = dir;
  }
  watched_.insert(dir);
}

Watcher::Wake Watcher::wait(std::chrono::milliseconds timeout, bool changes, const std::vector<int>& streams) {
  Wake wake;
  if (stopped_) return wake;
  std::vector<pollfd> fds = {{stop_fd_, POLLIN, 0}, {created_, POLLIN, 0}, {changes ? changes_ : -1, POLLIN, 0}};
  for (const int fd : streams) fds.push_back({fd, POLLIN, 0});
  const auto ms = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(timeout.count(), 0, INT_MAX));
  if (::poll(fds.data(), fds.size(), ms) <= 0) return wake;
  if ((fds[0].revents & (POLLIN | POLLHUP)) != 0) stopped_ = true;
  wake.created = (fds[1].revents & POLLIN) != 0 && read_names();
  wake.changed = drain(changes_, fds[2].revents) || wake.created;
  wake.streams = std::any_of(fds.begin() + 3, fds.end(), [](const pollfd& p) { return p.revents != 0; });
  // A watched folder that was removed or moved is watched again if it
  // comes back.
  if (wake.changed) watched_.clear();
  return wake;
}

bool Watcher::read_names() {
  bool created = false;
  alignas(inotify_event) char buf[16384];
  for (ssize_t n; (n = ::read(created_, buf, sizeof buf)) > 0;) {
    for (const char* p = buf; p < buf + n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(p);
      p += sizeof(inotify_event) + e->len;
      const auto folder = named_.find(e->wd);
      if (e->len == 0 || folder == named_.end() || (e->mask & IN_ISDIR) != 0) continue;
      const std::string& dir = folder->second;
      std::string path = dir == "." ? "" : dir.ends_with('/') ? dir : dir + "/";
      path += e->name;
      const NameEvent::Kind kind = (e->mask & IN_CREATE) != 0     ? NameEvent::kCreated
                                   : (e->mask & IN_MOVED_TO) != 0   ? NameEvent::kMovedIn
                                   : (e->mask & IN_MOVED_FROM) != 0 ? NameEvent::kMovedOut
                                                                    : NameEvent::kRemoved;
      names_.push_back({std::move(path), kind});
      created = created || kind == NameEvent::kCreated || kind == NameEvent::kMovedIn;
    }
  }
  return created;
}

std::vector<Watcher::NameEvent> Watcher::take_names() {
  if (created_ >= 0) read_names();
  return std::exchange(names_, {});
}

}  // namespace logagg
