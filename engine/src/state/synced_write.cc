// Writes that survive a crash (see synced_write.h).
#include "state/synced_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace logagg {

std::string write_synced(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return path + ": " + std::strerror(errno);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  const int error = done < bytes.size() ? errno : ::fsync(fd) != 0 ? errno : 0;
  ::close(fd);
  if (error == 0) return {};
  ::unlink(path.c_str());
  return path + ": " + std::strerror(error);
}

void sync_folder(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::string rename_synced(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return to + ": " + std::strerror(errno);
  sync_folder(to);
  return {};
}

}  // namespace logagg
