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

void HeldFiles::take(const Found& found, bool first) {
  for (Held& h : held_) h.at_path = false;
  for (const FoundFile& f : found.files) {
    if (history_.count(stat_of(f.st)) != 0) continue;
    const auto same = [&](const Held& h) { return id_of(h.found) == id_of(f.st); };
    if (const auto it = std::find_if(held_.begin(), held_.end(), same); it != held_.end()) {
      it->at_path = true;
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
  std::erase_if(held_, [](const Held& h) { return !h.opened && !h.at_path; });
}

void HeldFiles::open_new(std::vector<InputError>& errors) {
  for (size_t i = 0; i < held_.size();) {
    Held& h = held_[i];
    if (h.opened) {
      ++i;
    } else if (open_one(h, errors)) {
      if (h.file.fd < 0) return;  // no descriptor to be had: the rest wait too
      ++i;
    } else {
      held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

bool HeldFiles::open_one(Held& h, std::vector<InputError>& errors) {
  if (free_descriptors() == 0) close_idle(1);
  if (free_descriptors() == 0) return true;
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
      return true;
    }
    if (error != ENOENT) errors.push_back({h.file.name, std::strerror(error)});  // gone: nothing to say
    return false;
  }
  out_of_descriptors_.clear();
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || id_of(st) != id_of(h.found)) {
    ::close(fd);  // another file under the name by now: the next discovery finds it
    return false;
  }
  if (h.history && file_compression(fd, static_cast<uint64_t>(st.st_size)).value_or(Compression::kNone) !=
                       Compression::kNone) {
    history_.insert(stat_of(st));  // a compressed rotation of before: never read, under any name
    ::close(fd);
    return false;
  }
  h.file.fd = fd;
  h.file.st = st;
  h.opened = true;
  h.fresh = true;
  ++open_;
  if (!h.history) ++files_read_;
  return true;
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
  return true;
}

void HeldFiles::adopt(size_t index, int fd) {
  Held& h = held_[index];
  if (fd < 0 || h.file.fd == fd) return;
  h.file.fd = fd;
  ++open_;
}

void HeldFiles::drop(size_t index) {
  if (held_[index].file.fd >= 0) {
    ::close(held_[index].file.fd);
    --open_;
  }
  held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(index));
}

size_t HeldFiles::waiting() const {
  return static_cast<size_t>(std::count_if(held_.begin(), held_.end(), [](const Held& h) {
    return !h.opened || (h.file.fd < 0 && h.at_path && !same_stat(h.found, h.file.st));
  }));
}

}  // namespace logagg
