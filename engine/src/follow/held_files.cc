// The files --follow holds, and its descriptors (see held_files.h).
#include "follow/held_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "input/input.h"

namespace logagg {
namespace {

std::pair<uint64_t, uint64_t> id_of(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

std::tuple<uint64_t, uint64_t, int64_t, int64_t, int64_t> stat_of(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), st.st_size, st.st_mtim.tv_sec,
          st.st_mtim.tv_nsec};
}

bool same_stat(const struct stat& a, const struct stat& b) { return stat_of(a) == stat_of(b); }

bool lack_of_descriptors(int error) { return error == EMFILE || error == ENFILE; }

}  // namespace

HeldFiles::~HeldFiles() {
  for (const Held& h : held_) {
    if (h.file.fd >= 0) ::close(h.file.fd);
  }
}

Held* HeldFiles::holding(const struct stat& st, const std::string& path) {
  // A file held open keeps its inode; a closed one's inode may be a new
  // file's by now (removed, and another created): found again only under
  // its own name (under another, it is taken as new, and the tracker knows
  // it by its content if it is the same).
  const auto it = std::find_if(held_.begin(), held_.end(), [&](const Held& h) {
    return id_of(h.found) == id_of(st) && (h.file.fd >= 0 || !h.opened || h.file.name == path);
  });
  return it != held_.end() ? &*it : nullptr;
}

void HeldFiles::take(const Found& found, bool first, std::vector<InputError>& errors) {
  for (Held& h : held_) h.at_path = false;
  for (const FoundFile& f : found.files) {
    if (history_.count(stat_of(f.st)) != 0) continue;
    if (Held* it = holding(f.st, f.path)) {
      it->at_path = true;
      it->missed = false;
      it->file.name = f.path;
      it->found = f.st;
      continue;
    }
    Held& h = held_.emplace_back();
    h.file = TrackedFile{f.path, -1, f.st};
    h.first_name = f.path;
    h.found = f.st;
    h.at_path = true;
    h.history = first && f.rotation;
  }
  for (const Held& h : held_) {
    if (!h.opened && !h.at_path && !h.history) lose_unopened(h, errors);
  }
  std::erase_if(held_, [](const Held& h) { return !h.opened && !h.at_path; });
}

bool HeldFiles::removed(const std::function<bool(const Held&)>& is_path, std::vector<InputError>& errors) {
  return std::erase_if(held_, [&](const Held& h) {
    if (h.opened || !is_path(h)) return false;
    struct stat st {};
    if (::stat(h.file.name.c_str(), &st) == 0 && id_of(st) == id_of(h.found)) return false;  // found after it came back
    if (!h.history) lose_unopened(h, errors);
    return true;
  }) != 0;
}

void HeldFiles::lose(const Held& h, const std::string& why, std::vector<InputError>& errors) {
  ++files_lost_;
  errors.push_back({h.file.name, why});
}

void HeldFiles::lose_unopened(const Held& h, std::vector<InputError>& errors) {
  lose(h, "gone (removed, or renamed out of the followed paths) before it could be opened: its lines are lost, "
          "not counted (" + std::to_string(h.found.st_size) + " bytes when last found)", errors);
}

void HeldFiles::open_new(std::vector<InputError>& errors) {
  for (size_t i = 0; i < held_.size();) {
    Held& h = held_[i];
    const Opening opening = h.opened || h.missed ? Opening::kOpened : open_one(h, errors);
    if (opening == Opening::kNoDescriptor) return;  // the rest wait too
    if (opening == Opening::kDropped) {
      held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

HeldFiles::Opening HeldFiles::open_one(Held& h, std::vector<InputError>& errors) {
  if (free_descriptors() == 0) close_idle(1);
  if (free_descriptors() == 0) return Opening::kNoDescriptor;
  // O_NONBLOCK: should the path have become a FIFO since it was found,
  // opening it does not wait for a writer; fstat() then tells.
  int fd = ::open(h.file.name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && lack_of_descriptors(errno) && close_oldest_idle()) {
    fd = ::open(h.file.name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  }
  if (fd < 0) {
    const int error = errno;
    if (lack_of_descriptors(error)) {
      if (error == EMFILE && open_ == 0) out_of_descriptors_ = h.file.name + ": " + std::strerror(error);
      return Opening::kNoDescriptor;
    }
    if (error != ENOENT) {
      errors.push_back({h.file.name, std::strerror(error)});
      return Opening::kDropped;
    }
    h.missed = true;  // renamed (found again under its new name) or removed (lost): the next discovery tells
    return Opening::kMissed;
  }
  out_of_descriptors_.clear();
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Opening::kDropped;
  }
  if (id_of(st) != id_of(h.found)) {
    ::close(fd);  // another file under the name by now: the next discovery finds both
    h.missed = true;
    return Opening::kMissed;
  }
  if (h.history && file_compression(fd, static_cast<uint64_t>(st.st_size)).value_or(Compression::kNone) !=
                       Compression::kNone) {
    history_.insert(stat_of(st));  // a compressed rotation of before: never read, under any name
    ::close(fd);
    return Opening::kDropped;
  }
  budget_.add();
  hold_open(h, fd, st);
  return Opening::kOpened;
}

bool HeldFiles::hold_created(const std::string& path, int fd, const struct stat& created) {
  struct stat st = created;
  if (fd < 0) {
    if (free_descriptors() == 0) close_idle(1);
    if (free_descriptors() == 0) return false;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return false;
    }
    budget_.add();
  }
  if (Held* same = holding(st, path); (same != nullptr && same->opened) || history_.count(stat_of(st)) != 0) {
    ::close(fd);  // held already, or a compressed rotation of before renamed (never read)
    budget_.give_back();
  } else if (same != nullptr) {
    hold_open(*same, fd, st);  // found already, waiting for a descriptor
  } else {
    Held& h = held_.emplace_back();
    h.file.name = h.first_name = path;
    h.found = st;
    h.at_path = true;
    hold_open(h, fd, st);
  }
  return true;
}

void HeldFiles::hold_open(Held& h, int fd, const struct stat& st) {
  h.file.fd = fd;
  h.file.st = st;
  h.opened = true;
  h.fresh = true;
  most_open_ = std::max(most_open_, ++open_);
  if (!h.history) ++files_read_;
}

void HeldFiles::close_idle(size_t wanted) {
  while (free_descriptors() < wanted && close_oldest_idle()) {
  }
}

bool HeldFiles::close_oldest_idle() {
  Held* oldest = nullptr;
  for (Held& h : held_) {
    if (h.file.fd >= 0 && h.idle() && (oldest == nullptr || h.grew < oldest->grew)) oldest = &h;
  }
  if (oldest == nullptr) return false;
  ::close(oldest->file.fd);
  oldest->file.fd = -1;
  --open_;
  budget_.give_back();
  return true;
}

void HeldFiles::adopt(size_t index, int fd) {
  Held& h = held_[index];
  if (fd < 0 || h.file.fd == fd) return;
  h.file.fd = fd;
  budget_.add();
  most_open_ = std::max(most_open_, ++open_);
}

void HeldFiles::drop(size_t index, std::vector<InputError>& errors) {
  const Held& h = held_[index];
  if (h.changed_while_closed()) {
    lose(h, "changed while it was closed (descriptors were short), then gone before it could be opened again: "
            "what it gained is lost, not counted (" + std::to_string(h.file.st.st_size) + " bytes read, " +
            std::to_string(h.found.st_size) + " when last found)", errors);
  }
  if (held_[index].file.fd >= 0) {
    ::close(held_[index].file.fd);
    --open_;
    budget_.give_back();
  }
  held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(index));
}

bool Held::changed_while_closed() const { return opened && file.fd < 0 && !same_stat(found, file.st); }

bool HeldFiles::short_of_descriptors() const {
  return free_descriptors() < std::max(waiting(), budget_.max() / 4);
}

bool HeldFiles::round_frees() const {
  const auto any = [&](auto is) { return std::any_of(held_.begin(), held_.end(), is); };
  const bool some_idle = any([](const Held& h) { return h.file.fd >= 0 && h.idle(); });
  const bool some_gone = any([](const Held& h) { return h.file.fd >= 0 && !h.at_path; });
  return (waiting() > 0 && free_descriptors() == 0 && some_idle) || (short_of_descriptors() && some_gone);
}

size_t HeldFiles::waiting() const {
  return static_cast<size_t>(std::count_if(held_.begin(), held_.end(), [](const Held& h) {
    return !h.opened || (h.at_path && h.changed_while_closed());
  }));
}

}  // namespace logagg
