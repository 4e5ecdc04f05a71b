// The time formats a log's time field may be written in (--time-format and
// --input-tz): compiled once at start-up, then second() turns one field's
// text into its UTC second on the per-line path.
//
// The formats, by the spec given to compile():
// - "rfc3339" (the default): parse_rfc3339 (rfc3339.h), unchanged.
// - "unix", "unix-ms", "unix-us", "unix-ns": seconds, milliseconds,
//   microseconds or nanoseconds since 1970-01-01T00:00:00Z, written as an
//   RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?,
//   the whole text and nothing else (no spaces, no '+', no leading zeros).
//   The instant is floored to the second exactly from the decimal digits,
//   never through a double (1700000000.9999999 is second 1700000000; -0.5 is
//   second -1), and must lie in the years 0000..9999 UTC (seconds
//   -62167219200 to 253402300799).
// - "clf": the Common Log Format time (Apache %t, nginx $time_local),
//   dd/Mon/yyyy:hh:mm:ss +hhmm, with or without '[' before and ']' after it
//   (both or neither). Month abbreviations in English and in exactly the
//   servers' case (Jan, Feb, ... Dec).
// - "auto": each value in whichever of these forms it is written, so one
//   field may mix them: a string in RFC 3339 (as rfc3339), then a JSON number
//   or a string holding one (as unix*, the unit from the value's magnitude,
//   read exactly from its decimal text: |v| < 1e11 seconds, up to 1e14
//   milliseconds, up to 1e17 microseconds, from 1e17 nanoseconds; so each
//   unit covers 1973-03-03T09:46:40Z to 5138-11-16T09:46:40Z, before 1970
//   mirrored), then clf, then the common forms of common_date_time.h (local
//   times in the input zone, or UTC without one). second() and
//   number_second() tell the form each value was read in (TimeForm,
//   logagg/result.h), which the summary counts.
// - A pattern, any spec holding a '%': the whole text must match it, byte by
//   byte for literal characters (a space matches one space), with the
//   directives
//     %Y year, 4 digits        %m month, 2 digits      %d day, 2 digits
//     %e day, 2 characters: a space or a digit, then a digit (" 5", "05", "15")
//     %b month abbreviation, as for clf              %j day of the year, 3 digits
//     %H hour, 2 digits (00..23)  %M minute, 2 digits  %S second, 2 digits (00..59)
//     %f fraction digits, one or more, truncated
//     %z offset: +hhmm, +hh:mm (or '-'; hours <= 23, minutes <= 59) or Z
//     %% a '%'
//   Numbers have exactly the widths strftime writes them with. A pattern
//   gives the year, the date once (%m or %b with %d or %e; or %j), and may
//   leave out the time from the right (%S, then %M, then %H; missing ones
//   are 0); %f needs %S, and may not be followed directly by something that
//   starts with a digit (it takes every digit).
// For clf and patterns: dates must exist (leap years included); second 60
// does not match (unlike RFC 3339, no leap second: the clocks that write
// these formats have none); a local year is 0000..9999, and with an offset
// the UTC instant may lie a day outside those years, as for RFC 3339.
//
// Time zones: rfc3339, clf and patterns with %z carry their own offset and
// unix* times are UTC instants, so an input zone is refused for them; auto
// takes one for its zone-less forms. A
// pattern without %z needs one (compile throws without it): its local times
// are converted in that zone (time_zone.h, the system's tz database). A local
// time the zone skips (spring forward) does not match; one it shows twice
// (fall back) is the EARLIER of the two instants, the first time the clock
// showed it.
//
// A TimeFormat is a small immutable value sharing its compiled state: copy
// it freely and use one from any number of threads. Only compile throws.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "logagg/result_parts.h"  // TimeForm
#include "logagg/rfc3339.h"

namespace logagg {

class TimeZone;

class TimeFormat {
 public:
  // The default, rfc3339.
  TimeFormat() noexcept = default;

  // Compiles `spec` (see above) with the input zone `input_zone`: an IANA
  // name ("UTC", "Europe/Berlin"), "local" (as find_time_zone reads it:
  // $TZ, else the system's zone), or "" for none. Throws
  // std::invalid_argument with a one-line message naming what is wrong: an
  // unknown format name, an unsupported or repeated directive, a missing
  // field, a zone missing, refused or unknown.
  static TimeFormat compile(std::string_view spec, std::string_view input_zone = {});

  // unix* and auto: the time may be a JSON number (its token's text goes to
  // number_second()) as well as a string holding one.
  bool numeric() const noexcept { return kind_ == Kind::kEpoch || kind_ == Kind::kAuto; }
  // rfc3339, the default.
  bool is_default() const noexcept { return kind_ == Kind::kRfc3339; }
  // The spec as given: "rfc3339", "unix-ms", "%Y-%m-%d %H:%M:%S".
  const std::string& name() const noexcept;
  // The input zone; nullptr when there is none.
  const TimeZone* input_zone() const noexcept;

  // numeric() only: second() of a JSON number token, in the same pass that
  // checks the token's JSON number grammar (`is_number`: false for a token
  // that is not a JSON number, then nullopt).
  std::optional<int64_t> number_second(std::string_view token, bool& is_number,
                                       TimeForm* form = nullptr) const noexcept;

  // The UTC second of `text` (a JSON string's decoded content; the line
  // parser reads a JSON number token with number_second() above, which also
  // checks its grammar), floored; nullopt if it does not match.
  // Allocation-free. Under auto, the form a matching text was read in goes
  // to `*form` (when not null); other formats leave it as it is.
  std::optional<int64_t> second(std::string_view text, TimeForm* form = nullptr) const noexcept {
    if (kind_ == Kind::kRfc3339) [[likely]] {
      return parse_rfc3339(text);
    }
    switch (kind_) {
      case Kind::kEpoch:
        return epoch_second(text);
      case Kind::kPattern:
        return pattern_second(text);
      default:
        return auto_second(text, form);
    }
  }


 private:
  struct Compiled;  // the name, reject text, zone and a pattern's steps (time_format.cc)
  enum class Kind : uint8_t { kRfc3339, kEpoch, kPattern, kAuto };
  TimeFormat(Kind kind, int epoch_digits, std::shared_ptr<const Compiled> compiled) noexcept
      : kind_(kind), epoch_digits_(epoch_digits), compiled_(std::move(compiled)) {}
  std::optional<int64_t> epoch_second(std::string_view text) const noexcept;
  std::optional<int64_t> pattern_second(std::string_view text) const noexcept;
  std::optional<int64_t> auto_second(std::string_view text, TimeForm* form) const noexcept;

  Kind kind_ = Kind::kRfc3339;
  int epoch_digits_ = 0;  // unix*: the decimal digits of a second (0, 3, 6, 9); auto: -1, from each value
  std::shared_ptr<const Compiled> compiled_;  // nullptr for the default
};

}  // namespace logagg
