// Finding the inputs: command-line paths expanded (folders walked, globs
// applied) and a listing's facts about each file (see logagg/inputs.h).
#include "logagg/inputs.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "input/input.h"  // file_compression

namespace logagg {
namespace fs = std::filesystem;

namespace {

bool is_hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

std::string os_reason(const std::error_code& ec) { return ec.message(); }

// Appends every regular file below `dir` (not following folder symlinks).
// Entries that cannot be read are named in `errors`: dangling or looping
// symlinks, and FIFOs, sockets and devices, which are skipped because reading
// one could block forever or never end (they are read only when named).
void walk_folder(const fs::path& dir, std::vector<std::string>& files, std::vector<InputError>& errors) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    errors.push_back({dir.string(), os_reason(ec)});
    return;
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    if (is_hidden(entry.path())) continue;
    std::error_code link_ec, target_ec;
    // The type readdir gave, when it is exact: a plain file or folder costs
    // no stat (thousands of rotated logs in a folder).
    if (!entry.is_symlink(link_ec) && !link_ec) {
      if (entry.is_regular_file(target_ec) && !target_ec) {
        files.push_back(entry.path().string());
        continue;
      }
    }
    const fs::file_status link = entry.symlink_status(link_ec);
    if (fs::is_directory(link)) {
      walk_folder(entry.path(), files, errors);
      continue;
    }
    const fs::file_status target = entry.status(target_ec);
    if (fs::is_regular_file(target)) {
      files.push_back(entry.path().string());
    } else if (target_ec) {
      errors.push_back({entry.path().string(), fs::is_symlink(link)
                                                   ? "symbolic link cannot be followed: " + os_reason(target_ec)
                                                   : os_reason(target_ec)});
    } else if (!fs::is_directory(target)) {  // symlinks to folders are not followed, silently
      errors.push_back({entry.path().string(), "not a regular file (skipped inside a folder)"});
    }
  }
  if (ec) errors.push_back({dir.string(), os_reason(ec)});
}

// A glob without '/' is matched against the file name, one with '/' against
// the whole relative path (as in .gitignore).
bool matches_any(const std::string& relative, const std::vector<std::string>& globs) {
  const std::string name = fs::path(relative).filename().string();
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
    const std::string& subject = g.find('/') == std::string::npos ? name : relative;
    return ::fnmatch(g.c_str(), subject.c_str(), FNM_PATHNAME) == 0;
  });
}

bool selected(const std::string& relative, const std::vector<std::string>& include,
              const std::vector<std::string>& exclude) {
  return (include.empty() || matches_any(relative, include)) && !matches_any(relative, exclude);
}

}  // namespace

bool selected_in_folder(const std::string& relative, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude) {
  const fs::path path(relative);
  return std::none_of(path.begin(), path.end(), is_hidden) && selected(relative, include, exclude);
}

std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<InputError>& errors,
                                      const std::vector<std::string>& include,
                                      const std::vector<std::string>& exclude) {
  std::vector<std::string> inputs;
  for (const std::string& path : paths) {
    if (path == "-") {
      inputs.push_back(path);
      continue;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec && !fs::exists(st)) {
      errors.push_back({path, os_reason(ec)});
    } else if (fs::is_directory(st)) {
      std::vector<std::string> files;
      walk_folder(path, files, errors);
      std::sort(files.begin(), files.end());
      for (const std::string& file : files) {
        if (selected(fs::path(file).lexically_relative(path).string(), include, exclude)) inputs.push_back(file);
      }
    } else {
      inputs.push_back(path);  // files and anything else named explicitly
    }
  }
  return inputs;
}

std::optional<FileFacts> regular_file_facts(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  FileFacts facts{static_cast<uint64_t>(st.st_size), std::nullopt};
  // O_NONBLOCK: should the path have become a FIFO since stat(), opening it
  // does not wait for a writer; fstat() then tells, and it is not read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return facts;
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular) {
    facts.bytes = static_cast<uint64_t>(st.st_size);
    facts.compression = file_compression(fd, facts.bytes);
  }
  ::close(fd);
  if (!regular) return std::nullopt;
  return facts;
}

}  // namespace logagg
