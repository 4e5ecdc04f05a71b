// The hand-rolled RFC 3339 date-time parser used on the per-line hot path.
//
// Accepted, exactly (section 5.6 of RFC 3339):
//   YYYY-MM-DD ('T' | 't' | ' ') hh:mm:ss [ '.' DIGIT+ ] ( 'Z' | 'z' | ('+'|'-') hh:mm )
// - the date must exist (leap years included), hour <= 23, minute <= 59;
// - second <= 59, or 60 when the instant in UTC is 23:59:60 (a leap second),
//   which is then counted in 23:59:59 UTC;
// - offset hours <= 23 and minutes <= 59; "-00:00" means UTC;
// - the fraction may have any number of digits and is truncated (floored).
// Nothing else: no surrounding spaces, no missing offset, no "+hhmm", no ",".
//
// Thread-safe and allocation-free.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace logagg {

// Returns the UTC second of the timestamp, floored, as seconds since
// 1970-01-01T00:00:00Z (negative before 1970), or nullopt if `text` is not an
// RFC 3339 date-time as described above.
std::optional<int64_t> parse_rfc3339(std::string_view text) noexcept;

// The most chars format_utc_second writes, with room to spare: 20 for years
// 0..9999 ("YYYY-MM-DDThh:mm:ssZ"), more for a '-' sign or a fifth digit
// (year 10000, which "9999-12-31T23:59:59-01:00" reaches).
inline constexpr int kUtcSecondMaxChars = 32;

// Writes `second` as "YYYY-MM-DDThh:mm:ssZ" (UTC, at least 4 year digits, a
// '-' sign before negative years) into `out` and returns the number of chars
// written. `out` must hold kUtcSecondMaxChars chars.
int format_utc_second(int64_t second, char* out) noexcept;

}  // namespace logagg
