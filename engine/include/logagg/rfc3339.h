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

// What rfc3339_second_or_invalid returns for text that is not an RFC 3339
// date-time: no timestamp of years 0..9999 is this second.
inline constexpr int64_t kInvalidRfc3339 = INT64_MIN;

// parse_rfc3339 below, with kInvalidRfc3339 for nullopt. Out of line, it
// returns its answer in one register: an std::optional was built on the stack
// and read back whole after a one-byte store, a stall on every call.
int64_t rfc3339_second_or_invalid(std::string_view text) noexcept;

// Returns the UTC second of the timestamp, floored, as seconds since
// 1970-01-01T00:00:00Z (negative before 1970), or nullopt if `text` is not an
// RFC 3339 date-time as described above.
inline std::optional<int64_t> parse_rfc3339(std::string_view text) noexcept {
  const int64_t second = rfc3339_second_or_invalid(text);
  if (second == kInvalidRfc3339) return std::nullopt;
  return second;
}

// The most chars format_utc_second writes, with room to spare: 20 for years
// 0..9999 ("YYYY-MM-DDThh:mm:ssZ"), more for a '-' sign or a fifth digit
// (year 10000, which "9999-12-31T23:59:59-01:00" reaches).
inline constexpr int kUtcSecondMaxChars = 32;

// Writes `second` as "YYYY-MM-DDThh:mm:ssZ" (UTC, at least 4 year digits, a
// '-' sign before negative years) into `out` and returns the number of chars
// written. `out` must hold kUtcSecondMaxChars chars.
int format_utc_second(int64_t second, char* out) noexcept;

}  // namespace logagg
