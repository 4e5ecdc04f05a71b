// --by-app: numbering the app ids of a run. All workers share one AppTable,
// which gives each distinct app id a number; each worker looks ids up through
// its own AppCache first, so the shared table is locked only the first time a
// worker meets an id.
//
// Memory stays bounded however many distinct ids the logs hold: the table
// keeps at most `max_apps` of them (Options::max_apps). Once it is full it is
// never written again, and an id it does not hold is numbered kOther: its
// lines are counted as "(other)". Which ids made it in before the table
// filled depends on the order the workers met them, so a run that fills the
// table says so (Result::apps_capped); below the cap the numbering does not
// change any output.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace logagg {

class AppTable {
 public:
  static constexpr uint32_t kOther = UINT32_MAX;

  explicit AppTable(size_t max_apps) : max_apps_(max_apps), full_(max_apps == 0) {}

  // The number of `app`, given it if it is new and the table has room; kOther
  // if the table is full without it. Thread-safe.
  uint32_t intern(std::string_view app);

  // Whether some id was refused for lack of room.
  bool capped() const { return capped_.load(std::memory_order_relaxed); }
  // The ids by number. Call after the workers are done.
  const std::vector<std::string>& names() const { return names_; }

 private:
  size_t max_apps_;
  std::mutex mu_;
  absl::flat_hash_map<std::string, uint32_t> ids_;  // read without the lock once full_
  std::vector<std::string> names_;
  std::atomic<bool> full_{false};
  std::atomic<bool> capped_{false};
};

// A worker's private memo of the shared table's answers (never kOther: an id
// left out is asked again, so the memo holds at most max_apps ids).
class AppCache {
 public:
  explicit AppCache(AppTable& table) : table_(&table) {}

  uint32_t id(std::string_view app) {
    const auto it = ids_.find(absl::string_view(app.data(), app.size()));
    if (it != ids_.end()) [[likely]] return it->second;
    const uint32_t id = table_->intern(app);
    if (id != AppTable::kOther) ids_.emplace(app, id);
    return id;
  }

 private:
  AppTable* table_;
  absl::flat_hash_map<std::string, uint32_t> ids_;
};

}  // namespace logagg
