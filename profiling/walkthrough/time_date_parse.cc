// Stages 0-1's timestamp parser: Howard Hinnant's date::parse, the C++ twin of
// the Java aggregator's OffsetDateTime.parse: a std::istringstream per
// timestamp, read through the format "%FT%T%Ez".
//
// date::parse's grammar is not RFC 3339's: it takes one-digit fields
// ("2023-1-14"), offsets without a colon or minutes ("+0200", "+02") or out of
// range ("+24:00", "-05:60") and stops before trailing text; it refuses 'Z',
// 't' and ' ' as separators, fractions (into whole seconds) and leap seconds.
// So the text is checked for RFC 3339's shape first and rewritten into the one
// spelling date::parse reads, "YYYY-MM-DDThh:mm:ss+hh:mm" (fraction dropped,
// as the engine truncates it; 'Z' as +00:00; :60 as :59, then required to be
// 23:59:59 UTC). date::parse still does the work the Java parser did: field
// ranges, the calendar and the arithmetic to UTC.
#include <date/date.h>

#include <sstream>
#include <string>

#include "pieces.h"

namespace logagg::walkthrough {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "YYYY-MM-DD?hh:mm:ss": 'd' a digit, '?' the date-time separator.
bool has_fixed_shape(std::string_view text) {
  constexpr std::string_view kShape = "dddd-dd-dd?dd:dd:dd";
  if (text.size() < kShape.size()) return false;
  for (size_t i = 0; i < kShape.size(); ++i) {
    const char c = text[i];
    const bool ok = kShape[i] == 'd'   ? is_digit(c)
                    : kShape[i] == '?' ? c == 'T' || c == 't' || c == ' '
                                       : c == kShape[i];
    if (!ok) return false;
  }
  return true;
}

// "+hh:mm" or "-hh:mm" with hours <= 23 and minutes <= 59.
bool is_numeric_offset(std::string_view z) {
  return z.size() == 6 && (z[0] == '+' || z[0] == '-') && is_digit(z[1]) && is_digit(z[2]) && z[3] == ':' &&
         is_digit(z[4]) && is_digit(z[5]) && z.substr(1, 2) <= "23" && z.substr(4, 2) <= "59";
}

}  // namespace

std::optional<int64_t> date_parse_second(std::string_view text) {
  if (!has_fixed_shape(text)) return std::nullopt;
  size_t zone_at = 19;
  if (zone_at < text.size() && text[zone_at] == '.') {
    const size_t digits = ++zone_at;
    while (zone_at < text.size() && is_digit(text[zone_at])) ++zone_at;
    if (zone_at == digits) return std::nullopt;
  }
  const std::string_view zone = text.substr(zone_at);
  if (zone != "Z" && zone != "z" && !is_numeric_offset(zone)) return std::nullopt;

  std::string canonical(text.substr(0, 19));
  canonical[10] = 'T';
  const bool leap_second = canonical.compare(17, 2, "60") == 0;
  if (leap_second) canonical.replace(17, 2, "59");
  canonical += zone.size() == 1 ? "+00:00" : zone;

  std::istringstream in(canonical);
  date::sys_seconds instant;
  in >> date::parse("%FT%T%Ez", instant);
  if (in.fail()) return std::nullopt;
  if (leap_second && instant - date::floor<date::days>(instant) != std::chrono::seconds(86399)) return std::nullopt;
  return instant.time_since_epoch().count();
}

}  // namespace logagg::walkthrough
