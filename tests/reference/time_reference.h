// The reference for the time formats (engine/src/parse/time_format.h) that
// the differential tests compare TimeFormat::second against: slow, plain
// and sharing no code with the engine.
//
// - unix*: a std::regex for the RFC 8259 number grammar, then exact decimal
//   arithmetic on the digit string (the decimal point moved by the exponent
//   and the unit, the integer digits cut off, the rest checked for nonzero).
// - clf and patterns: a std::regex written from the pattern's grammar (the
//   widths and forms TimeFormat accepts), then Howard Hinnant's date::parse
//   for the calendar, the clock, the offset and the year, and date's tz
//   database (get_info, to_sys with choose::earliest) for the input zone.
//   date::parse knows no %f and reads no 'Z' or "+hh:mm" for %z, so the
//   fraction is dropped and offsets are rewritten as "+hhmm" before it runs.
//
// Thread-safe: a TimePattern is not changed after it is made.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace date {
class time_zone;
}  // namespace date

namespace reference {

// The floored UTC second of `text`, an RFC 8259 number of units of
// 10^-unit_digits seconds (unit_digits 0, 3, 6 or 9), or nullopt if it is
// not one or its second is outside the years 0000..9999.
std::optional<int64_t> epoch_second(std::string_view text, int unit_digits);

class TimePattern {
 public:
  // `pattern` in TimeFormat's syntax (directives %Y %m %d %e %b %j %H %M %S
  // %f %z %%); `zone` the IANA zone of a pattern without %z. Throws
  // std::invalid_argument for a directive it does not know.
  TimePattern(std::string_view pattern, std::string_view zone);
  // The Common Log Format, with its optional brackets and +hhmm offsets.
  static TimePattern clf();

  // The UTC second of `text`, or nullopt if it does not match.
  std::optional<int64_t> second(std::string_view text) const;

 private:
  struct Token {
    char directive;       // 0 for a literal
    std::string literal;  // a literal's bytes
  };
  std::vector<Token> tokens_;
  std::regex regex_;             // the whole text, one group per directive
  std::string date_format_;      // for date::parse, after the rewriting
  const date::time_zone* zone_;  // nullptr with %z
  bool brackets_ = false;
  bool has_offset_ = false;
};

}  // namespace reference
