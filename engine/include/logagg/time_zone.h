// Time zones of the system's tz database (/usr/share/zoneinfo), read through
// Howard Hinnant's date/tz.h: the zones --tz aligns buckets to (buckets.h)
// and --input-tz reads local times in (options.h). Implemented in the base's
// time stage (time/time_zone.cc), under the parsers and the report.
#pragma once

#include <string>
#include <string_view>

namespace logagg {

// A zone of the system's tz database; opaque, found with find_time_zone, and
// alive until the program ends.
class TimeZone;

// The zone named `name`: an IANA name ("Europe/Madrid", "UTC") of the
// system's tz database, or "local": the zone named by $TZ if set (a leading
// ':' and a /usr/share/zoneinfo/ or /usr/lib/zoneinfo/ prefix are ignored),
// else the system's zone.
// Throws std::invalid_argument "unknown time zone 'NAME'" if there is none
// ("unknown time zone 'NAME' (TZ, for local)" when $TZ named it).
// Thread-safe; the same name gives the same pointer.
const TimeZone* find_time_zone(std::string_view name);
// The zone's IANA name ("local" resolved: "Europe/Madrid").
const std::string& time_zone_name(const TimeZone& zone);

}  // namespace logagg
