// Zones of the system's tz database (through Howard Hinnant's date/tz.h),
// for the report's buckets in a zone (--tz, report/buckets.cc) and for the
// time formats' local times (--input-tz, parse/time_format.cc), which is why
// they live in parse/. Zones are found with find_time_zone
// (logagg/time_zone.h), defined in time_zone.cc: one look-up and one cache of
// zones for every user.
//
// A TimeZone lives until the program ends. Its functions are thread-safe,
// allocation-free and never throw once the zone's data is loaded, which the
// first call does (reading the zone's file; that call may throw what date
// throws on a broken file).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "logagg/time_zone.h"

namespace date {
class time_zone;
}  // namespace date

namespace logagg {

class TimeZone {
 public:
  TimeZone(const date::time_zone* zone, std::string name) : zone_(zone), name_(std::move(name)) {}
  // The IANA name ("local" resolved: "Europe/Madrid").
  const std::string& name() const { return name_; }

  // The stretch of UTC seconds [begin, end) around `t` with one UTC offset
  // (seconds east of UTC). Each thread keeps the last period it was given,
  // since callers ask for the same one over and over.
  struct Period {
    int64_t begin, end, offset;
  };
  Period period_at(int64_t t) const;

  // The UTC second whose wall-clock time here is `local` (seconds since
  // 1970-01-01T00:00 local time): nullopt for a local time the zone skips
  // (the clock jumps forward past it); for one the zone shows twice (the
  // clock goes back) the earlier of the two instants. Each thread keeps the
  // last stretch of local times with one answer's offset, so a log within
  // one period costs two compares per call. Local times past date's time
  // line (years -32767..32767) are nullopt too.
  std::optional<int64_t> utc_of_local(int64_t local) const;

 private:
  const date::time_zone* zone_;
  std::string name_;
};

}  // namespace logagg
