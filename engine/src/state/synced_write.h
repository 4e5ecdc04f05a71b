// Writes that survive a crash, for the state file and the delta files
// (state_file.h, delta_files.h): a file's bytes synced to disk, a rename
// synced in its folder. Each returns an error message naming the file, or
// empty on success.
#pragma once

#include <string>
#include <string_view>

namespace logagg {

// Makes (or empties) `path`, writes `bytes` and fsyncs it; on failure the
// file is removed.
std::string write_synced(const std::string& path, std::string_view bytes);

// fsync of the folder holding `path`, so that a file made, renamed or
// removed in it stays so.
void sync_folder(const std::string& path);

// Renames `from` over `to` (one folder), then syncs the folder.
std::string rename_synced(const std::string& from, const std::string& to);

}  // namespace logagg
