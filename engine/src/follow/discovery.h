// What --follow's paths name at one moment (the discover phase of a round,
// follow.cc): the files under the followed names and in the followed
// folders (as a batch run lists them), and, for each followed file, its
// rotations in its folder (rotation_names.h), so that following one file
// follows it through any rotation as following its folder would, without
// the folder's other files. Streams (`-`, FIFOs, devices) are not looked
// for here (stream_input.h).
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

#include "logagg/result.h"

namespace logagg {

struct FoundFile {
  std::string path;
  struct stat st {};
  bool rotation = false;  // a rotation of a followed file, not followed itself
};

struct Found {
  std::vector<FoundFile> files;      // regular files, each once: the followed ones first, in path order
  std::vector<InputError> errors;    // paths that cannot be looked at (one not there yet is no error)
  std::vector<std::string> folders;  // where changes are watched for
};

class FollowedPaths {
 public:
  // `paths`: the files and folders followed; `include` and `exclude` select
  // the files of folders (Options).
  FollowedPaths(std::vector<std::string> paths, std::vector<std::string> include, std::vector<std::string> exclude)
      : paths_(std::move(paths)), include_(std::move(include)), exclude_(std::move(exclude)) {}

  Found discover() const;
  // Whether a file at `path` (a path as a watched folder's name joined to
  // an entry's: found.folders) would be found by discover(): the file
  // followed, one of its rotations, or a file a followed folder selects.
  bool follows(const std::string& path) const;
  bool empty() const { return paths_.empty(); }

 private:
  std::vector<std::string> paths_, include_, exclude_;
};

}  // namespace logagg
