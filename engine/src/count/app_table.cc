// The shared app id table (see app_table.h).
#include "count/app_table.h"

namespace logagg {

uint32_t AppTable::intern(std::string_view text) {
  const absl::string_view app(text.data(), text.size());  // Debian's abseil has its own string_view
  if (full_.load(std::memory_order_acquire)) {  // read-only from here on
    const auto it = ids_.find(app);
    if (it != ids_.end()) return it->second;
    capped_.store(true, std::memory_order_relaxed);
    return kOther;
  }
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = ids_.find(app);
  if (it != ids_.end()) return it->second;
  if (names_.size() >= max_apps_) {  // max_apps == 0, or filled by another worker just now
    capped_.store(true, std::memory_order_relaxed);
    return kOther;
  }
  const auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(text);
  ids_.emplace(app, id);
  if (names_.size() == max_apps_) full_.store(true, std::memory_order_release);
  return id;
}

}  // namespace logagg
