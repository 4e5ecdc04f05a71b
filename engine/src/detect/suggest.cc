// The suggestions of `logagg detect` (see suggest.h).
#include "detect/suggest.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "detect/fields.h"
#include "logagg/options.h"
#include "parse/line_parser.h"
#include "parse/time_format.h"

namespace logagg {
namespace {

// Instants a time field of today's logs holds: 2000-01-01 to 2099-12-31.
constexpr int64_t kFirstPlausible = 946684800, kLastPlausible = 4102444799;
// Suggestions by an id field, at most.
constexpr size_t kMostById = 5;

struct TimeCandidate {
  std::string field, format;
  size_t values = 0;  // kept values it reads
};

// How many of `f`'s kept values `format` reads as plausible instants.
size_t plausible(const FieldValues& f, const TimeFormat& format) {
  size_t n = 0;
  for (size_t i = 0; i < f.values.size(); ++i) {
    bool is_number = true;
    const std::optional<int64_t> s = f.value_is_number[i]
                                         ? (format.numeric() ? format.number_second(f.values[i], is_number) : std::nullopt)
                                         : format.second(f.values[i]);
    n += s && is_number && *s >= kFirstPlausible && *s <= kLastPlausible;
  }
  return n;
}

std::optional<TimeCandidate> time_candidate(const FieldValues& f) {
  static const std::array<std::string_view, 7> kFormats = {"rfc3339", "clf",     "unix",   "unix-ms",
                                                           "unix-us", "unix-ns", "auto"};
  TimeCandidate best{f.name, "", 0};
  for (const std::string_view name : kFormats) {
    const size_t n = plausible(f, TimeFormat::compile(name));
    if (n > best.values) best = {f.name, std::string(name), n};
  }
  if (best.values == 0 || best.values * 2 < f.values.size()) return std::nullopt;
  return best;
}

// Whether a field's name says it names what requests are for.
bool id_like_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* hint : {"host", "service", "app", "cluster", "router", "authority", "site", "domain", "tenant",
                           "server_name", "vhost", "username"}) {
    if (lower.find(hint) != std::string::npos) return true;
  }
  return false;
}

// Whether byte `b` is in enough of `f`'s strings to be part of its ids: in
// at least 2% of them, so that a few malformed values do not widen the
// pattern (they are rejected as bad_app, as they should be).
bool common_byte(const FieldValues& f, size_t b) { return f.strings_with_byte[b] * 50 >= f.strings && f.strings_with_byte[b] > 0; }

// The narrowest --app-pattern of the bytes common in its values; empty when the default fits.
std::string id_pattern(const FieldValues& f) {
  bool lower = false, upper = false, digit = false;
  std::string other;
  for (int b = 0; b < 256; ++b) {
    if (!common_byte(f, static_cast<size_t>(b))) continue;
    if (b >= 0x80) return ".+";
    const char c = static_cast<char>(b);
    if (c >= 'a' && c <= 'z') {
      lower = true;
    } else if (c >= 'A' && c <= 'Z') {
      upper = true;
    } else if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '-') {
      if (c == ']' || c == '\\' || c == '[' || c == '^') other += '\\';
      other += c;
    }
  }
  const bool dash = common_byte(f, '-');
  if (other.empty() && !dash) return "";
  return std::string("[") + (lower ? "a-z" : "") + (upper ? "A-Z" : "") + (digit ? "0-9" : "") + other +
         (dash ? "-" : "") + "]+";
}

bool id_candidate(const FieldValues& f, const std::string& time_field) {
  if (f.name == time_field || f.strings == 0 || f.long_strings * 10 > f.strings || f.distinct.size() < 2) return false;
  if (common_byte(f, '\n') || common_byte(f, '\t')) return false;
  return f.strings < 4 || f.distinct.size() * 2 <= f.strings;  // not one value per line
}

bool status_field(const FieldValues& f) {
  std::string lower(f.name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower.find("status") == std::string::npos && lower.find("code") == std::string::npos) return false;
  size_t in_range = 0;
  for (const std::string& v : f.values) {
    in_range += v.size() == 3 && v >= "100" && v <= "599" && std::all_of(v.begin(), v.end(), ::isdigit);
  }
  return !f.values.empty() && in_range * 10 >= f.values.size() * 9;
}

// The lines of `lines` the options count.
size_t counted(const std::vector<std::string>& lines, const Options& options) {
  LineParser parser(LineRules::of(options), options.max_line_bytes);
  size_t n = 0;
  for (const std::string& line : lines) {
    n += parser.classify(line, line.size()).status == LineStatus::kCounted;
  }
  return n;
}

// The flags of the time field (none for the defaults).
void add_time_flags(const TimeCandidate& time, std::vector<std::string>& flags, Options& options) {
  options.time_field = time.field;
  options.time_format = time.format;
  if (time.field != "timestamp") flags.insert(flags.end(), {"--time-field", time.field});
  if (time.format != "rfc3339") flags.insert(flags.end(), {"--time-format", time.format});
}

}  // namespace

std::string shell_quoted(const std::string& arg) {
  const bool safe = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("_-./:@%+=,").find(static_cast<char>(c)) != std::string_view::npos;
  });
  if (safe) return arg;
  std::string quoted = "'";
  for (const char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

Detection detect(const std::vector<std::string>& lines) {
  Detection d;
  const SampleShape shape = read_shape(lines);
  d.lines = shape.lines;
  d.objects = shape.objects;
  if (shape.objects * 2 < shape.lines || shape.objects == 0) {
    d.not_json = shape.first_other;
    return d;
  }
  std::optional<TimeCandidate> time;
  for (const FieldValues& f : shape.fields) {
    const std::optional<TimeCandidate> t = time_candidate(f);
    if (t && (!time || t->values > time->values)) time = t;
  }
  if (!time) return d;

  std::vector<std::pair<Suggestion, bool>> by_app;  // and whether the field's name says it is an id
  for (const FieldValues& f : shape.fields) {
    if (!id_candidate(f, time->field)) continue;
    Suggestion s;
    Options options;
    add_time_flags(*time, s.flags, options);
    options.app_field = f.name;
    options.app_pattern = id_pattern(f);
    if (options.app_pattern.empty()) options.app_pattern = std::string(kDefaultAppPattern);
    if (f.name != "app_id") s.flags.insert(s.flags.end(), {"--app-field", f.name});
    if (options.app_pattern != kDefaultAppPattern) s.flags.insert(s.flags.end(), {"--app-pattern", options.app_pattern});
    s.flags.push_back("--by-app");
    try {
      s.counted = counted(lines, options);
    } catch (const std::invalid_argument&) {
      continue;  // fields that overlap, a pattern RE2 refuses: not a command that runs
    }
    s.what = "per " + f.name + ", time " + time->field + " (" + time->format + ")";
    if (s.counted > 0) by_app.emplace_back(std::move(s), id_like_name(f.name));
  }
  size_t most = 0;
  for (const auto& [s, named] : by_app) most = std::max(most, s.counted);
  std::stable_sort(by_app.begin(), by_app.end(), [most](const auto& a, const auto& b) {
    const bool a_first = a.second && a.first.counted * 10 >= most * 9;
    const bool b_first = b.second && b.first.counted * 10 >= most * 9;
    if (a_first != b_first) return a_first;
    return a.first.counted > b.first.counted;
  });
  if (by_app.size() > kMostById) by_app.resize(kMostById);
  for (auto& [s, named] : by_app) d.suggestions.push_back(std::move(s));

  Suggestion all;
  Options options;
  add_time_flags(*time, all.flags, options);
  options.app_field = "none";
  all.flags.insert(all.flags.end(), {"--app-field", "none"});
  all.counted = counted(lines, options);
  all.what = "every line with a time, time " + time->field + " (" + time->format + ")";
  d.suggestions.push_back(all);
  for (const FieldValues& f : shape.fields) {
    if (f.name == time->field || !status_field(f)) continue;
    Suggestion status = all;
    status.flags.insert(status.flags.end(), {"--by-status-class", f.name});
    status.what = "by status class of " + f.name + ", time " + time->field + " (" + time->format + ")";
    options.by = {{f.name, KeyField::Kind::kStatusClass}};
    status.counted = counted(lines, options);
    d.suggestions.push_back(std::move(status));
    break;
  }
  return d;
}

}  // namespace logagg
