// Bucket widths: parsing, names, and summing per-second counts (see buckets.h).
#include "logagg/buckets.h"

#include <stdexcept>

#include "ascii.h"

namespace logagg {
namespace {

struct Unit {
  char suffix;
  int64_t seconds;
  const char* name;  // the bucket named by one of this unit
};
constexpr Unit kUnits[] = {{'d', kSecondsPerDay, "day"}, {'h', 3600, "hour"}, {'m', 60, "minute"}, {'s', 1, "second"}};

}  // namespace

std::string Bucketing::name() const {
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

std::vector<SecondCount> rebucket(const std::vector<SecondCount>& per_second, const Bucketing& bucketing) {
  std::vector<SecondCount> out;
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
