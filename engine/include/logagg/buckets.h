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
// adding the width itself, so that zone-aligned buckets (whose days last 23
// or 25 hours across a DST change) can later be added here alone.
//
// Bucketing is a small immutable value: copy it, share it between threads.
// Every function is pure; only parse_bucketing throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/counts.h"

namespace logagg {

inline constexpr int64_t kSecondsPerDay = 86400;

class Bucketing {
 public:
  // One-second buckets: the per-second report.
  constexpr Bucketing() noexcept = default;
  // Buckets `width` seconds wide. Precondition: width > 0 and divides 86400
  // (parse_bucketing checks this for user input).
  static constexpr Bucketing of_seconds(int64_t width) noexcept { return Bucketing(width); }

  constexpr int64_t width_seconds() const noexcept { return width_; }

  // The start of the bucket holding UTC second `second` (floored, also for
  // negative seconds: 1969-12-31T23:59:59Z is in the day 1969-12-31).
  constexpr int64_t start_of(int64_t second) const noexcept {
    return second - (second % width_ + width_) % width_;
  }
  // The start of the bucket after the one starting at `start`.
  constexpr int64_t next(int64_t start) const noexcept { return start + width_; }
  // How many buckets there are from the one starting at `first` to the one
  // starting at `last`, both included (first <= last, both bucket starts).
  constexpr uint64_t count_between(int64_t first, int64_t last) const noexcept {
    return static_cast<uint64_t>((last - first) / width_) + 1;
  }

  // The canonical name: "second", "minute", "hour" or "day" for those widths,
  // otherwise the number and the largest unit that divides it exactly ("5s",
  // "90s", "15m", "2h"), which parse_bucketing reads back to the same width.
  std::string name() const;
  // The report's column for the bucket start: name() for second, minute, hour
  // and day, "bucket" for every other width.
  std::string column() const;

  friend constexpr bool operator==(const Bucketing&, const Bucketing&) = default;

 private:
  constexpr explicit Bucketing(int64_t width) noexcept : width_(width) {}
  int64_t width_ = 1;
};

// Parses a duration "<digits><unit>", unit s, m, h or d (lowercase), e.g. 5s,
// 15m, 1h, 1d. Throws std::invalid_argument, with a one-line message that
// quotes `text`, if it is not of that form, is zero, or does not divide a day.
Bucketing parse_bucketing(std::string_view text);

// Sums sorted per-second counts (ascending, as in Result::counts) into
// buckets: ascending by bucket start, only buckets with count > 0. Each
// SecondCount::second of the result is a bucket start.
std::vector<SecondCount> rebucket(const std::vector<SecondCount>& per_second, const Bucketing& bucketing);

}  // namespace logagg
