// The date-time forms loggers write besides RFC 3339, for --time-format auto
// (time_format.h): a date, a time, maybe a fraction and maybe a zone, as
// Python's logging (`2023-11-14 22:13:20,118`), Go's time.Time.String
// (`2023-11-14 22:13:20.5 +0000`, without its zone name), Java's
// LocalDateTime (`2023-11-14T22:13:20.118`) and many SQL exports write them.
//
// Exactly: YYYY-MM-DD, then 'T' or one space, then hh:mm:ss (hour <= 23,
// minute and second <= 59: no leap second), then optionally '.' or ',' and
// one or more digits (truncated), then optionally one space and a zone, or
// a zone directly: Z, UTC, or +hh:mm, +hhmm, +hh (or '-'; hours <= 23,
// minutes <= 59). Nothing else. The date must exist. Without a zone the time
// is local in `zone` (gaps rejected, overlaps the earlier instant, as for
// patterns), or UTC when `zone` is null.
//
// Pure and allocation-free: thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace logagg {

class TimeZone;

// The UTC second of `text` in the forms above, floored; nullopt if it is not one.
std::optional<int64_t> parse_common_date_time(std::string_view text, const TimeZone* zone) noexcept;

}  // namespace logagg
