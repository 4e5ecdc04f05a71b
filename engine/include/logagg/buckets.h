// Buckets: how per-second counts become per-minute, per-hour, per-day or
// per-N-second counts for the report.
//
// Bucketing happens after aggregation, on the sorted per-second counts, so it
// is exact and costs one pass over the distinct seconds; the per-line path
// always counts seconds. A bucket is named by its start, a UTC second. Buckets
// are aligned to the UTC epoch: with a width dividing a day (the only widths
// allowed), every day starts a bucket, so a minute bucket starts at hh:mm:00
// UTC and a day bucket at 00:00:00 UTC, before 1970 as after it.
//
// All code walks buckets through start_of / next / count_between, never by
// adding the width itself: buckets aligned to a time zone (in_zone, --tz)
// are not all as wide as the width.
//
// In a time zone, buckets follow the local wall clock: a bucket starts each
// time the local clock reads a multiple of the width counted from local
// midnight (00:00, 01:00, ... for hours), or jumps forward past one (spring
// forward: then at the instant of the jump, so with Europe/Madrid's clocks
// going from 02:00 to 03:00 the day is 23 hours and no 02:00 hour exists).
// When the clock goes back (fall back, 03:00 -> 02:00 in Madrid) it reads
// 02:00 a second time and a second 02:00 bucket starts, with the new offset:
// the day is 25 hours, with hours 02:00+02:00 and 02:00+01:00. Every UTC
// second is in exactly one bucket and bucket starts ascend in UTC. Zone data
// comes from the system's tz database (/usr/share/zoneinfo) through Howard
// Hinnant's date/tz.h; past its last transition (2037 in Debian's files) a
// zone keeps its last offset.
//
// One bucket can also hold the whole input (--overall, Bucketing::whole()):
// every second is in it, its start is kWholeRunStart, which no report prints
// (its rows have no time column), and it has no zone.
//
// Bucketing is a small immutable value: copy it, share it between threads.
// Every function is pure; only parse_bucketing throws. The zones are those
// of time_zone.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result.h"
#include "logagg/time_zone.h"

namespace logagg {

// The start of the one bucket of Bucketing::whole(): before every second.
inline constexpr int64_t kWholeRunStart = INT64_MIN;

// The most chars Bucketing::format_start writes.
inline constexpr int kBucketStartMaxChars = 48;

class Bucketing {
 public:
  // One-second buckets: the per-second report.
  constexpr Bucketing() noexcept = default;
  // Buckets `width` seconds wide. Precondition: width > 0 and divides 86400
  // (parse_bucketing checks this for user input).
  static constexpr Bucketing of_seconds(int64_t width) noexcept { return Bucketing(width); }

  // One bucket for the whole input (--overall).
  static constexpr Bucketing whole() noexcept { return Bucketing(0); }
  constexpr bool is_whole() const noexcept { return width_ == 0; }

  // The width; 0 for whole().
  constexpr int64_t width_seconds() const noexcept { return width_; }

  // The same width, aligned to local time in `zone` (see above); nullptr:
  // aligned to the UTC epoch and printed in UTC, the default. whole() has
  // no zone: it stays as it is.
  constexpr Bucketing in_zone(const TimeZone* zone) const noexcept {
    Bucketing b = *this;
    if (!is_whole()) b.zone_ = zone;
    return b;
  }
  constexpr const TimeZone* zone() const noexcept { return zone_; }

  // The start of the bucket holding UTC second `second` (floored, also for
  // negative seconds: 1969-12-31T23:59:59Z is in the day 1969-12-31).
  constexpr int64_t start_of(int64_t second) const noexcept {
    if (is_whole()) return kWholeRunStart;
    if (zone_ != nullptr) return zoned_start_of(second);
    return second - (second % width_ + width_) % width_;
  }
  // The start of the bucket after the one starting at `start`.
  constexpr int64_t next(int64_t start) const noexcept {
    if (is_whole()) return INT64_MAX;
    if (zone_ != nullptr) return zoned_next(start);
    return start + width_;
  }
  // How many buckets there are from the one starting at `first` to the one
  // starting at `last`, both included (first <= last, both bucket starts).
  // In a zone this costs a look-up per zone transition between the two.
  constexpr uint64_t count_between(int64_t first, int64_t last) const noexcept {
    if (is_whole()) return 1;
    if (zone_ != nullptr) return zoned_count_between(first, last);
    return static_cast<uint64_t>((last - first) / width_) + 1;
  }

  // The UTC second `second` on the zone's wall clock (seconds since
  // 1970-01-01T00:00 local time); `second` itself without a zone.
  int64_t local_time(int64_t second) const noexcept;

  // The start of the bucket `n` buckets after the one starting at `start`
  // (n = 0: `start`). Without a zone, arithmetic; in a zone, a bisection of
  // about 40 count_between calls over those n buckets, so that stepping
  // through years of buckets in large strides stays cheap. Precondition:
  // not whole().
  int64_t advance(int64_t start, uint64_t n) const noexcept;

  // Writes the bucket start `start` into `out` (kBucketStartMaxChars chars)
  // and returns the chars written: "2023-11-14T22:13:20Z" without a zone, the
  // local time and its offset in one, "2023-11-14T23:13:20+01:00" (+00:00 in
  // UTC; ±hh:mm:ss for the odd pre-1900 local mean time with seconds).
  // whole(): nothing (0 chars).
  int format_start(int64_t start, char* out) const noexcept;

  // The canonical name: "second", "minute", "hour" or "day" for those widths,
  // otherwise the number and the largest unit that divides it exactly ("5s",
  // "90s", "15m", "2h"); "overall" for whole(). parse_bucketing reads every
  // name back.
  std::string name() const;
  // The report's column for the bucket start: name() for second, minute, hour
  // and day, "bucket" for every other width (whole() has no such column).
  std::string column() const;

  friend constexpr bool operator==(const Bucketing&, const Bucketing&) = default;

 private:
  constexpr explicit Bucketing(int64_t width) noexcept : width_(width) {}
  int64_t zoned_start_of(int64_t second) const noexcept;
  int64_t zoned_next(int64_t start) const noexcept;
  uint64_t zoned_count_between(int64_t first, int64_t last) const noexcept;
  int64_t width_ = 1;
  const TimeZone* zone_ = nullptr;  // nullptr: UTC epoch
};

// Parses a duration "<digits><unit>", unit s, m, h or d (lowercase), e.g. 5s,
// 15m, 1h, 1d, or a unit's name ("second", "minute", "hour", "day"), so that
// it reads back whatever Bucketing::name() prints ("overall" too). Throws
// std::invalid_argument, with a one-line message that quotes `text`, if it is
// not of that form, is zero, or does not divide a day.
Bucketing parse_bucketing(std::string_view text);

// Sums sorted per-second counts (ascending, as in Result::counts) into
// buckets: ascending by bucket start, only buckets with count > 0. Each
// SecondCount::second of the result is a bucket start. In a zone, the zone
// is looked up once per bucket, not per second.
std::vector<SecondCount> rebucket(const std::vector<SecondCount>& per_second, const Bucketing& bucketing);

}  // namespace logagg
