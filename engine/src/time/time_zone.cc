// Zones of the system's tz database: the look-up by name and the conversions
// between UTC and a zone's wall clock (see time_zone.h).
#include "time/time_zone.h"

#include <date/tz.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>

namespace logagg {
namespace {

// More than any zone's offset from UTC, so the UTC instant of a local time
// lies within this much of it.
constexpr int64_t kMaxOffset = 86400;

std::string zone_name_from_tz_variable(std::string_view tz) {
  if (!tz.empty() && tz.front() == ':') tz.remove_prefix(1);
  for (std::string_view prefix : {"/usr/share/zoneinfo/", "/usr/lib/zoneinfo/"}) {
    if (tz.substr(0, prefix.size()) == prefix) tz.remove_prefix(prefix.size());
  }
  return std::string(tz);
}

}  // namespace

TimeZone::Period TimeZone::period_at(int64_t t) const {
  thread_local const TimeZone* cached_zone = nullptr;
  thread_local Period cached{};
  if (cached_zone == this && t >= cached.begin && t < cached.end) return cached;
  const date::sys_info info = zone_->get_info(date::sys_seconds{std::chrono::seconds{t}});
  cached = {info.begin.time_since_epoch().count(), info.end.time_since_epoch().count(), info.offset.count()};
  cached_zone = this;
  return cached;
}

std::optional<int64_t> TimeZone::utc_of_local(int64_t local) const {
  // The local times [begin, end) whose earliest instant is local - offset.
  struct Stretch {
    int64_t begin, end, offset;
  };
  thread_local const TimeZone* cached_zone = nullptr;
  thread_local Stretch cached{};
  if (cached_zone == this && local >= cached.begin && local < cached.end) return local - cached.offset;

  // Periods in UTC order: the first that holds local - its offset holds the
  // earliest instant showing `local`.
  Period p = period_at(local - kMaxOffset);
  while (local - p.offset < p.begin || local - p.offset >= p.end) {
    if (p.end > local + kMaxOffset) return std::nullopt;  // skipped by a jump forward
    const Period next = period_at(p.end);
    if (next.begin <= p.begin) return std::nullopt;  // past the end of date's time line
    p = next;
  }
  // Its local times, less those an earlier period shows first: only periods
  // ending (in UTC) within kMaxOffset of its first local time can.
  Stretch s{p.begin + p.offset, p.end + p.offset, p.offset};
  for (int64_t before = p.begin; before > s.begin - kMaxOffset;) {
    const Period q = period_at(before - 1);
    if (q.begin >= before) break;  // the zone's first period: nothing before it
    s.begin = std::max(s.begin, q.end + q.offset);
    before = q.begin;
  }
  cached = s;
  cached_zone = this;
  return local - p.offset;
}

const TimeZone* find_time_zone(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<TimeZone>, std::less<>> zones;  // by the name asked for
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = zones.find(name); it != zones.end()) return it->second.get();
  std::string zone_name(name);
  const date::time_zone* zone = nullptr;
  try {
    if (name == "local") {
      const char* tz = std::getenv("TZ");
      if (tz != nullptr && *tz != '\0') {
        zone_name = zone_name_from_tz_variable(tz);
        try {
          zone = date::locate_zone(zone_name);
        } catch (const std::exception&) {
          throw std::invalid_argument("unknown time zone '" + zone_name + "' (TZ, for local)");
        }
      } else {
        zone = date::current_zone();
        zone_name = std::string(zone->name());
      }
    } else {
      zone = date::locate_zone(zone_name);
    }
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception&) {
    throw std::invalid_argument("unknown time zone '" + zone_name + "'");
  }
  auto& slot = zones[std::string(name)];
  slot = std::make_unique<TimeZone>(zone, zone_name);
  return slot.get();
}

const std::string& time_zone_name(const TimeZone& zone) { return zone.name(); }

}  // namespace logagg
