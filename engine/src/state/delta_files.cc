// The delta files of --delta-dir, committed with the state (see
// delta_files.h).
#include "state/delta_files.h"

#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "logagg/state.h"
#include "state/synced_write.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

std::string in_dir(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

// .NNNNNNNNNNNN.json.pending, the pending delta of generation N: hidden, so
// that a consumer's glob (DIR/*.json) never sees it.
std::string pending_name(uint64_t generation) {
  std::string name = ".";  // (appended, not "." + a temporary: GCC 12 warns on that falsely, -Wrestrict)
  name += delta_file_name(generation);
  name += ".pending";
  return name;
}

// The generation of a pending file's name, or nothing for any other name.
std::optional<uint64_t> pending_generation(const std::string& name) {
  uint64_t generation = 0;
  if (std::sscanf(name.c_str(), ".%12" SCNu64, &generation) != 1 || name != pending_name(generation)) {
    return std::nullopt;
  }
  return generation;
}

}  // namespace

std::string delta_file_name(uint64_t generation) {
  char name[32];
  std::snprintf(name, sizeof name, "%012" PRIu64 ".json", generation);
  return name;
}

std::string delta_dir_path(const std::string& dir) {
  std::error_code error;
  fs::path path = fs::weakly_canonical(fs::absolute(dir), error);
  if (error) path = fs::absolute(dir).lexically_normal();
  if (!path.has_filename() && path != path.root_path()) path = path.parent_path();  // "/a/b/": "/a/b"
  return path.string();
}

void settle_deltas(const std::string& dir, const State& state, const std::string& state_path) {
  const std::string state_folder = fs::path(state_path).parent_path().string();
  if (delta_dir_path(state_folder.empty() ? "." : state_folder) == dir) {
    throw StateError(dir, "holds the state file itself: give the deltas a folder of their own");
  }
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw StateError(dir, "cannot be made: " + error.message());
  std::vector<uint64_t> pending;  // listed first: the folder changes below
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (const auto generation = pending_generation(it->path().filename().string())) pending.push_back(*generation);
  }
  if (error) throw StateError(dir, "cannot be read: " + error.message());
  const bool committed_here = state.delta_dir == dir;
  for (const uint64_t generation : pending) {
    if (committed_here && generation <= state.generation) {  // saved with the state, not published yet
      if (const std::string why = publish_delta(dir, generation); !why.empty()) {
        throw StateError(dir, "a saved delta cannot be published: " + why);
      }
    } else if (::unlink(in_dir(dir, pending_name(generation)).c_str()) != 0 && errno != ENOENT) {
      throw StateError(dir, "the delta of a run that did not save its state cannot be removed (" +
                                pending_name(generation) + "): " + std::strerror(errno));
    }
  }
  const std::string next = in_dir(dir, delta_file_name(state.generation + 1));
  if (fs::exists(next, error) || error) {
    throw StateError(next, "is there already, and this run's delta would take its name (a delta of another "
                           "state? give each state its own --delta-dir)");
  }
}

std::string write_pending_delta(const std::string& dir, uint64_t generation, const std::string& json) {
  const std::string path = in_dir(dir, pending_name(generation));
  if (std::string error = write_synced(path, json); !error.empty()) return error;
  sync_folder(path);
  return {};
}

void drop_pending_delta(const std::string& dir, uint64_t generation) {
  ::unlink(in_dir(dir, pending_name(generation)).c_str());
}

std::string publish_delta(const std::string& dir, uint64_t generation) {
  return rename_synced(in_dir(dir, pending_name(generation)), in_dir(dir, delta_file_name(generation)));
}

}  // namespace logagg
