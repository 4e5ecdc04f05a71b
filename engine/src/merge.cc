// Reading `--format json` results back and adding them up (see merge.h).
// The documents are small next to the logs they describe, so simdjson's DOM
// API reads them whole.
#include "logagg/merge.h"

#include <simdjson.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "logagg/civil_time.h"
#include "logagg/rfc3339.h"

namespace logagg {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

[[noreturn]] void fail(const std::string& why) { throw std::runtime_error(why); }

// "second", "minute", "hour", "day" or a duration such as "5s".
Bucketing bucketing_named(std::string_view name) {
  if (name == "second") return Bucketing::of_seconds(1);
  if (name == "minute") return Bucketing::of_seconds(60);
  if (name == "hour") return Bucketing::of_seconds(3600);
  if (name == "day") return Bucketing::of_seconds(kSecondsPerDay);
  try {
    return parse_bucketing(name);
  } catch (const std::invalid_argument& e) {
    fail(std::string("bucket ") + e.what());
  }
}

// A time as the report writes it: RFC 3339, except that the year may have a
// '-' sign or more than 4 digits (an offset can move a valid timestamp into
// year -1 or 10000 in UTC). Such a year is read apart, the rest is parsed
// with year 2000 (a leap year) in its place, and the days are moved over.
int64_t instant(std::string_view text, std::string_view what) {
  const auto refuse = [&] {
    fail(std::string(what) + " '" + std::string(text) + "' is not an RFC 3339 date-time");
  };
  if (const std::optional<int64_t> second = parse_rfc3339(text)) return *second;
  const bool negative = text.starts_with('-');
  const size_t digits_end = text.find('-', negative ? 1 : 0);
  if (digits_end == std::string_view::npos || digits_end - negative < 4 || digits_end - negative > 6) refuse();
  int64_t year = 0;
  for (const char c : text.substr(negative, digits_end - negative)) {
    if (c < '0' || c > '9') refuse();
    year = year * 10 + (c - '0');
  }
  if (negative) year = -year;
  const std::string in_2000 = "2000" + std::string(text.substr(digits_end));
  const std::optional<int64_t> second = parse_rfc3339(in_2000);
  if (!second) refuse();
  const auto month = static_cast<unsigned>((in_2000[5] - '0') * 10 + (in_2000[6] - '0'));
  const auto day = static_cast<unsigned>((in_2000[8] - '0') * 10 + (in_2000[9] - '0'));
  if (month == 2 && day == 29 && !is_leap_year(year)) refuse();
  return *second + (days_from_civil(year, month, day) - days_from_civil(2000, month, day)) * kSecondsPerDay;
}

uint64_t number(const object& o, std::string_view key) {
  uint64_t v = 0;
  if (o[key].get(v) != simdjson::SUCCESS) fail("summary." + std::string(key) + " is missing or not a count");
  return v;
}

std::optional<int64_t> optional_instant(const object& doc, std::string_view key) {
  std::string_view text;
  if (doc[key].get(text) != simdjson::SUCCESS) return std::nullopt;
  return instant(text, key);
}

std::string describe(const std::optional<int64_t>& second) {
  if (!second) return "none";
  char buf[kUtcSecondMaxChars];
  return std::string(buf, static_cast<size_t>(format_utc_second(*second, buf)));
}

}  // namespace

Partial parse_partial(std::string_view json) {
  simdjson::dom::parser parser;
  object doc;
  if (parser.parse(simdjson::padded_string(json)).get(doc) != simdjson::SUCCESS) {
    fail("not a logagg JSON result (invalid JSON, or not an object)");
  }
  uint64_t version = 0;
  if (doc["logagg"].get(version) != simdjson::SUCCESS || version != 1) {
    fail("not a logagg JSON result (no \"logagg\": 1)");
  }
  Partial p;
  std::string_view text;
  if (doc["bucket"].get(text) != simdjson::SUCCESS) fail("no \"bucket\"");
  p.options.bucketing = bucketing_named(text);
  if (doc["app_field"].get(text) != simdjson::SUCCESS) fail("no \"app_field\"");
  p.options.app_field = std::string(text);
  if (doc["time_field"].get(text) != simdjson::SUCCESS) fail("no \"time_field\"");
  p.options.time_field = std::string(text);
  if (doc["tz"].get(text) == simdjson::SUCCESS) {  // made with --tz: buckets in that zone
    try {
      p.options.bucketing = p.options.bucketing.in_zone(find_time_zone(text));
    } catch (const std::invalid_argument& e) {
      fail(std::string("tz: ") + e.what());
    }
  }
  p.options.since = optional_instant(doc, "since");
  p.options.until = optional_instant(doc, "until");

  simdjson::dom::array counts;
  if (doc["counts"].get(counts) != simdjson::SUCCESS) fail("no \"counts\" array");
  const std::string column = p.options.bucketing.column();
  int64_t previous = INT64_MIN;
  for (const element row : counts) {
    std::string_view start;
    uint64_t count = 0;
    if (row[column].get(start) != simdjson::SUCCESS || row["count"].get(count) != simdjson::SUCCESS) {
      fail("a \"counts\" row is not {\"" + column + "\": TIME, \"count\": N}");
    }
    const int64_t second = instant(start, column);
    if (second <= previous) fail("\"counts\" rows are not in ascending order");
    previous = second;
    if (count != 0) p.result.counts.push_back({second, count});  // rows of --fill-gaps add nothing
  }

  object s;
  if (doc["summary"].get(s) != simdjson::SUCCESS) fail("no \"summary\" object");
  Summary& sum = p.result.summary;
  sum.files = number(s, "files");
  sum.unreadable = number(s, "unreadable");
  sum.bytes = number(s, "bytes");
  sum.lines = number(s, "lines");
  sum.counted = number(s, "counted");
  if (p.options.since || p.options.until) sum.outside_range = number(s, "outside_range");
  sum.blank = number(s, "blank");
  object reasons;
  if (s["rejected_by_reason"].get(reasons) != simdjson::SUCCESS) fail("no \"summary.rejected_by_reason\"");
  for (size_t i = 0; i < kReasonCount; ++i) sum.rejected[i] = number(reasons, reason_key(static_cast<Reason>(i)));
  if (number(s, "rejected") != sum.rejected_total()) fail("summary.rejected is not the sum of its reasons");
  if (sum.lines != sum.counted + sum.outside_range + sum.blank + sum.rejected_total()) {
    fail("summary.lines is not counted + blank + rejected");
  }
  uint64_t total = 0;
  for (const SecondCount& c : p.result.counts) total += c.count;
  if (total != sum.counted) fail("the counts do not add up to summary.counted");
  return p;
}

void merge_into(Partial& into, const Partial& other) {
  const Options& a = into.options;
  const Options& b = other.options;
  const auto differ = [](const std::string& what, const std::string& x, const std::string& y) {
    fail("made with a different " + what + " (" + y + ", not " + x + "): results cannot be added");
  };
  const auto zone = [](const Bucketing& x) { return x.zone() ? time_zone_name(*x.zone()) : std::string("none"); };
  if (zone(a.bucketing) != zone(b.bucketing)) differ("--tz", zone(a.bucketing), zone(b.bucketing));
  if (a.bucketing.width_seconds() != b.bucketing.width_seconds()) differ("bucket", a.bucketing.name(), b.bucketing.name());
  if (a.app_field != b.app_field) differ("app field", a.app_field, b.app_field);
  if (a.time_field != b.time_field) differ("time field", a.time_field, b.time_field);
  if (a.since != b.since) differ("--since", describe(a.since), describe(b.since));
  if (a.until != b.until) differ("--until", describe(a.until), describe(b.until));

  std::vector<SecondCount> sum;
  sum.reserve(into.result.counts.size() + other.result.counts.size());
  auto x = into.result.counts.begin(), xe = into.result.counts.end();
  auto y = other.result.counts.begin(), ye = other.result.counts.end();
  while (x != xe || y != ye) {
    if (y == ye || (x != xe && x->second < y->second)) {
      sum.push_back(*x++);
    } else if (x == xe || y->second < x->second) {
      sum.push_back(*y++);
    } else {
      sum.push_back({x->second, x->count + y->count});
      ++x;
      ++y;
    }
  }
  into.result.counts = std::move(sum);
  const double elapsed = into.result.summary.elapsed_seconds;
  into.result.summary.add(other.result.summary);
  into.result.summary.elapsed_seconds = elapsed;
}

}  // namespace logagg
