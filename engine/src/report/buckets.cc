// Bucket widths and time zones: parsing, names, zone look-ups, zoned bucket
// starts, and summing per-second counts (see buckets.h).
#include "logagg/buckets.h"

#include <algorithm>
#include <stdexcept>

#include "logagg/rfc3339.h"
#include "text/ascii.h"
#include "time/civil_time.h"
#include "time/time_zone.h"

namespace logagg {

namespace {

// Before any zone's first transition (date starts the first period in year
// -32767): no transition to consider before it.
constexpr int64_t kFarPast = int64_t{-30000} * 366 * kSecondsPerDay;

// Whether the transition at UTC second `at`, from `offset_before` to
// `offset_after`, starts a bucket: the local clock then reads a multiple of
// `width`, or has jumped forward past one.
bool transition_starts_bucket(int64_t at, int64_t offset_before, int64_t offset_after, int64_t width) {
  const int64_t local = at + offset_after;
  const int64_t local_before = at - 1 + offset_before;
  return local % width == 0 || floor_div(local, width) > floor_div(local_before, width);
}

struct Unit {
  char suffix;
  int64_t seconds;
  const char* name;  // the bucket named by one of this unit
};
constexpr Unit kUnits[] = {{'d', kSecondsPerDay, "day"}, {'h', 3600, "hour"}, {'m', 60, "minute"}, {'s', 1, "second"}};
// The name of Bucketing::whole().
constexpr std::string_view kWholeName = "overall";

}  // namespace

std::string Bucketing::name() const {
  if (is_whole()) return std::string(kWholeName);
  for (const Unit& u : kUnits) {
    if (width_ == u.seconds) return u.name;
  }
  for (const Unit& u : kUnits) {  // largest unit first, so 7200 is "2h", not "120m"
    if (width_ % u.seconds == 0) return std::to_string(width_ / u.seconds) + u.suffix;
  }
  return {};  // unreachable: every width is a multiple of 1 s
}

std::string Bucketing::column() const {
  for (const Unit& u : kUnits) {
    if (width_ == u.seconds) return u.name;
  }
  return "bucket";
}

Bucketing parse_bucketing(std::string_view text) {
  const auto refuse = [text](const char* why) { throw std::invalid_argument("'" + std::string(text) + "' " + why); };
  constexpr const char* kForm = "is not a duration: digits and a unit s, m, h or d, such as 5s, 15m, 1h, 1d";
  for (const Unit& u : kUnits) {
    if (text == u.name) return Bucketing::of_seconds(u.seconds);
  }
  if (text == kWholeName) return Bucketing::whole();
  if (text.size() < 2) refuse(kForm);
  const Unit* unit = nullptr;
  for (const Unit& u : kUnits) {
    if (u.suffix == text.back()) unit = &u;
  }
  if (unit == nullptr) refuse(kForm);
  int64_t number = 0;
  for (const char c : text.substr(0, text.size() - 1)) {
    if (!is_digit(c)) refuse(kForm);
    number = number * 10 + (c - '0');
    if (number > kSecondsPerDay) refuse("is longer than a day");  // before it can overflow
  }
  const int64_t width = number * unit->seconds;
  if (width == 0) refuse("is zero; a bucket is at least 1s");
  if (width > kSecondsPerDay) refuse("is longer than a day");
  if (kSecondsPerDay % width != 0) refuse("does not divide a day (86400 s) evenly, so buckets would not align to days");
  return Bucketing::of_seconds(width);
}

int64_t Bucketing::zoned_start_of(int64_t second) const noexcept {
  if (width_ == 1) return second;
  int64_t t = second;
  for (;;) {  // the last bucket start at or before t
    const TimeZone::Period p = zone_->period_at(t);
    const int64_t start = floor_div(t + p.offset, width_) * width_ - p.offset;
    if (start >= p.begin || p.begin <= kFarPast) return start;
    const int64_t offset_before = zone_->period_at(p.begin - 1).offset;
    if (transition_starts_bucket(p.begin, offset_before, p.offset, width_)) return p.begin;
    t = p.begin - 1;
  }
}

int64_t Bucketing::zoned_next(int64_t start) const noexcept {
  if (width_ == 1) return start + 1;
  int64_t t = start;
  for (;;) {  // the first bucket start after t
    const TimeZone::Period p = zone_->period_at(t);
    const int64_t next = (floor_div(t + p.offset, width_) + 1) * width_ - p.offset;
    if (next < p.end) return next;
    if (transition_starts_bucket(p.end, p.offset, zone_->period_at(p.end).offset, width_)) return p.end;
    t = p.end;
  }
}

int64_t Bucketing::local_time(int64_t second) const noexcept {
  return zone_ == nullptr ? second : second + zone_->period_at(second).offset;
}

int64_t Bucketing::advance(int64_t start, uint64_t n) const noexcept {
  if (zone_ == nullptr) return start + static_cast<int64_t>(n) * width_;
  // n buckets last n widths give or take the net change of the zone's offset
  // between them, which is far less than two days: the earliest second whose
  // bucket is the n-th after `start` lies in [start, start + n widths + 2 days).
  int64_t lo = start, hi = start + static_cast<int64_t>(n) * width_ + 2 * kSecondsPerDay;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (count_between(start, start_of(mid)) - 1 >= n) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

uint64_t Bucketing::zoned_count_between(int64_t first, int64_t last) const noexcept {
  if (width_ == 1) return static_cast<uint64_t>(last - first) + 1;
  uint64_t n = 1;
  int64_t t = first;
  while (t < last) {  // adds the bucket starts in (t, last]
    const TimeZone::Period p = zone_->period_at(t);
    const int64_t hi = std::min(last, p.end - 1);
    n += static_cast<uint64_t>(floor_div(hi + p.offset, width_) - floor_div(t + p.offset, width_));
    if (hi == last) break;
    if (transition_starts_bucket(p.end, p.offset, zone_->period_at(p.end).offset, width_)) ++n;
    t = p.end;
  }
  return n;
}

int Bucketing::format_start(int64_t start, char* out) const noexcept {
  if (is_whole()) return 0;
  if (zone_ == nullptr) return format_utc_second(start, out);
  const int64_t offset = zone_->period_at(start).offset;
  int len = format_utc_second(start + offset, out) - 1;  // without the 'Z'
  const int64_t a = offset < 0 ? -offset : offset;
  const auto two = [&](int64_t v) {
    out[len++] = static_cast<char>('0' + v / 10 % 10);
    out[len++] = static_cast<char>('0' + v % 10);
  };
  out[len++] = offset < 0 ? '-' : '+';
  two(a / 3600);
  out[len++] = ':';
  two(a / 60 % 60);
  if (a % 60 != 0) {
    out[len++] = ':';
    two(a % 60);
  }
  return len;
}

std::vector<SecondCount> rebucket(const std::vector<SecondCount>& per_second, const Bucketing& bucketing) {
  std::vector<SecondCount> out;
  if (bucketing.zone() != nullptr) {
    int64_t end = 0;  // of the last bucket in out
    for (const SecondCount& c : per_second) {
      if (!out.empty() && c.second < end) {
        out.back().count += c.count;
      } else {
        const int64_t start = bucketing.start_of(c.second);
        out.push_back({start, c.count});
        end = bucketing.next(start);
      }
    }
    return out;
  }
  for (const SecondCount& c : per_second) {
    const int64_t start = bucketing.start_of(c.second);
    if (!out.empty() && out.back().second == start) {
      out.back().count += c.count;
    } else {
      out.push_back({start, c.count});
    }
  }
  return out;
}

}  // namespace logagg
