// Date-times in the common forms loggers write (see common_date_time.h).
#include "parse/common_date_time.h"

#include "text/ascii.h"
#include "time/civil_time.h"
#include "time/time_zone.h"

namespace logagg {
namespace {

// The number of the two digits at p, or -1 if they are not both digits.
int checked_two_digits(const char* p) noexcept {
  return is_digit(p[0]) && is_digit(p[1]) ? (p[0] - '0') * 10 + (p[1] - '0') : -1;
}

// The zone at [p, end), the whole of it: Z, UTC, +hh:mm, +hhmm or +hh (or
// '-'). Sets `offset` (seconds east of UTC); false if it is not one.
bool read_zone(const char* p, const char* end, int64_t& offset) noexcept {
  const std::string_view zone(p, static_cast<size_t>(end - p));
  if (zone == "Z" || zone == "UTC") {
    offset = 0;
    return true;
  }
  if (zone.size() < 3 || (zone[0] != '+' && zone[0] != '-')) return false;
  const int hours = checked_two_digits(p + 1);
  int minutes = 0;
  if (zone.size() == 6 && zone[3] == ':') {
    minutes = checked_two_digits(p + 4);
  } else if (zone.size() == 5) {
    minutes = checked_two_digits(p + 3);
  } else if (zone.size() != 3) {
    return false;
  }
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return false;
  offset = (zone[0] == '-' ? -1 : 1) * int64_t{hours * 3600 + minutes * 60};
  return true;
}

}  // namespace

std::optional<int64_t> parse_common_date_time(std::string_view text, const TimeZone* zone) noexcept {
  if (text.size() < 19) return std::nullopt;
  const char* t = text.data();
  const char* const end = t + text.size();
  const int century = checked_two_digits(t), year2 = checked_two_digits(t + 2), month = checked_two_digits(t + 5),
            day = checked_two_digits(t + 8);
  const int hour = checked_two_digits(t + 11), minute = checked_two_digits(t + 14), second = checked_two_digits(t + 17);
  if (century < 0 || year2 < 0 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') || t[13] != ':' ||
      t[16] != ':' || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59) {
    return std::nullopt;
  }
  const int64_t year = century * 100 + year2;
  if (static_cast<unsigned>(day) > days_in_month(year, static_cast<unsigned>(month))) return std::nullopt;
  const char* p = t + 19;
  if (p != end && (*p == '.' || *p == ',')) {
    const char* const digits = ++p;
    while (p != end && is_digit(*p)) ++p;
    if (p == digits) return std::nullopt;
  }
  const int64_t local =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * kSecondsPerDay + hour * 3600 +
      minute * 60 + second;
  if (p == end) return zone != nullptr ? zone->utc_of_local(local) : local;
  if (*p == ' ') ++p;
  int64_t offset = 0;
  if (!read_zone(p, end, offset)) return std::nullopt;
  return local - offset;
}

}  // namespace logagg
