// The discover phase of --follow (see discovery.h).
#include "follow/discovery.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

#include "follow/rotation_names.h"
#include "input/input.h"
#include "logagg/inputs.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

// `path` without its last name: "dir/" for "dir/access.log", "" for "access.log".
std::string_view folder_prefix(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

std::string folder_of(std::string_view path) {
  const std::string_view prefix = folder_prefix(path);
  if (prefix.empty()) return ".";
  return prefix.size() == 1 ? "/" : std::string(prefix.substr(0, prefix.size() - 1));
}

// The names in `folder`, sorted; none if it cannot be listed.
std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

bool FollowedPaths::follows(const std::string& path) const {
  const std::string wanted = fs::path(path).lexically_normal().string();
  const std::string_view prefix = folder_prefix(wanted);
  for (const std::string& followed : paths_) {
    const std::string normal = fs::path(followed).lexically_normal().string();
    std::error_code ec;
    if (fs::is_directory(followed, ec)) {
      const std::string folder = normal.ends_with('/') ? normal : normal + "/";
      if (wanted.starts_with(folder) && selected_in_folder(wanted.substr(folder.size()), include_, exclude_)) {
        return true;
      }
    } else if (wanted == normal || (prefix == folder_prefix(normal) &&
                                    is_rotation_name(std::string_view(wanted).substr(prefix.size()),
                                                     std::string_view(normal).substr(prefix.size())))) {
      return true;
    }
  }
  return false;
}

Found FollowedPaths::discover() const {
  Found out;
  std::set<std::string> seen, folders;
  const auto add = [&](const std::string& path, bool rotation) {
    struct stat st {};
    if (!seen.insert(path).second || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    out.files.push_back({path, st, rotation});
    folders.insert(folder_of(path));
  };
  std::vector<InputError> errors;
  for (const std::string& path : expand_paths(paths_, errors, include_, exclude_)) add(path, false);
  for (InputError& e : errors) {
    // Not there yet, or gone: said nothing of. Told by the error itself, or
    // by a stat now (a dangling link); a stat alone would tell of a file
    // renamed away whose successor came between the two (a rotation).
    struct stat st {};
    if (e.message == std::strerror(ENOENT) || (::stat(e.path.c_str(), &st) != 0 && errno == ENOENT)) continue;
    out.errors.push_back(std::move(e));
  }
  // The followed files by folder, and their rotations there.
  std::map<std::string, std::vector<std::string>> followed_in;
  for (const std::string& path : paths_) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      folders.insert(path);
    } else {
      followed_in[folder_of(path)].push_back(path);
    }
  }
  for (const auto& [folder, files] : followed_in) {
    folders.insert(folder);
    const std::vector<std::string> names = names_in(folder);
    for (const std::string& file : files) {
      const std::string_view prefix = folder_prefix(file);
      const std::string_view followed = std::string_view(file).substr(prefix.size());
      for (const std::string& name : names) {
        if (is_rotation_name(name, followed)) add(std::string(prefix) + name, true);
      }
    }
  }
  out.folders.assign(folders.begin(), folders.end());
  return out;
}

}  // namespace logagg
