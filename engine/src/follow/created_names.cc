// inotify's name events, read and opened on a thread of their own (see
// created_names.h).
#include "follow/created_names.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cstdint>
#include <utility>

namespace logagg {
namespace {

void signal(int eventfd) {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(eventfd, &one, sizeof one);
}

void drain(int eventfd) {
  uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = ::read(eventfd, &count, sizeof count);
}

}  // namespace

CreatedNames::CreatedNames(FollowedPaths followed, DescriptorBudget& budget)
    : followed_(std::move(followed)), budget_(budget) {
  inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ready_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  quit_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (inotify_ >= 0 && ready_ >= 0 && quit_ >= 0) {
    thread_ = std::thread([this] { run(); });
  } else {  // nothing comes: the loop's timeouts and discoveries find the names
    for (int* fd : {&inotify_, &ready_, &quit_}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
  }
}

CreatedNames::~CreatedNames() {
  if (!thread_.joinable()) return;
  signal(quit_);
  thread_.join();
  for (const NameEvent& e : events_) {
    if (e.fd < 0) continue;
    ::close(e.fd);
    budget_.give_back();
  }
  for (const int fd : {inotify_, ready_, quit_}) ::close(fd);
}

void CreatedNames::watch(const std::string& dir) {
  if (inotify_ < 0) return;
  // Under the lock: an event of the new watch waits for its folder.
  const std::lock_guard lock(mutex_);
  const int wd = ::inotify_add_watch(inotify_, dir.c_str(), IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE);
  if (wd >= 0) folders_[wd] = dir;
}

std::vector<NameEvent> CreatedNames::take() {
  if (ready_ < 0) return {};
  drain(ready_);  // before the events: one pushed meanwhile signals again
  const std::lock_guard lock(mutex_);
  return std::exchange(events_, {});
}

void CreatedNames::run() {
  for (;;) {
    pollfd fds[] = {{quit_, POLLIN, 0}, {inotify_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[0].revents != 0) return;
    if (fds[1].revents != 0) read_events();
  }
}

void CreatedNames::read_events() {
  alignas(inotify_event) char buf[16384];
  for (ssize_t n; (n = ::read(inotify_, buf, sizeof buf)) > 0;) {
    std::vector<NameEvent> read;
    for (const char* p = buf; p < buf + n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(p);
      p += sizeof(inotify_event) + e->len;
      if (e->len == 0 || (e->mask & IN_ISDIR) != 0) continue;
      std::string dir;
      {
        const std::lock_guard lock(mutex_);
        const auto folder = folders_.find(e->wd);
        if (folder == folders_.end()) continue;
        dir = folder->second;
      }
      NameEvent& name = read.emplace_back();
      name.path = dir == "." ? "" : dir.ends_with('/') ? dir : dir + "/";
      name.path += e->name;
      name.kind = (e->mask & IN_CREATE) != 0     ? NameEvent::kCreated
                  : (e->mask & IN_MOVED_TO) != 0   ? NameEvent::kMovedIn
                  : (e->mask & IN_MOVED_FROM) != 0 ? NameEvent::kMovedOut
                                                   : NameEvent::kRemoved;
      if (name.is_new()) open(name);
    }
    const std::lock_guard lock(mutex_);
    events_.insert(events_.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
  }
  signal(ready_);
}

void CreatedNames::open(NameEvent& e) {
  if (!followed_.follows(e.path) || !budget_.take()) return;
  // O_NONBLOCK: a FIFO created there does not make the open wait for a writer.
  e.fd = ::open(e.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (e.fd >= 0 && ::fstat(e.fd, &e.st) == 0 && S_ISREG(e.st.st_mode)) return;
  if (e.fd >= 0) ::close(e.fd);
  e.fd = -1;
  budget_.give_back();
}

}  // namespace logagg
