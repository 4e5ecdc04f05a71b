// The suggestions of `logagg detect` (logagg/detect.h).
#include "logagg/detect.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "detect/fields.h"
#include "logagg/options.h"
#include "logagg/query.h"
#include "parse/line_parser.h"

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
    const std::optional<int64_t> s =
        f.value_is_number[i] ? (format.numeric() ? format.number_second(f.values[i], is_number) : std::nullopt)
                             : format.second(f.values[i]);
    n += s && is_number && *s >= kFirstPlausible && *s <= kLastPlausible;
  }
  return n;
}

std::optional<TimeCandidate> time_candidate(const FieldValues& f) {
  static const std::array<std::string_view, 7> kFormats = {"rfc3339", "clf",     "unix", "unix-ms",
                                                           "unix-us", "unix-ns", "auto"};
  TimeCandidate best{f.name, "", 0};
  for (const std::string_view name : kFormats) {
    const size_t n = plausible(f, TimeFormat::compile(name));
    if (n > best.values) best = {f.name, std::string(name), n};
  }
  if (best.values == 0 || best.values * 2 < f.values.size()) return std::nullopt;
  return best;
}

// A field's name folded for matching words in it: its ASCII letters in
// lower case and its digits, nothing else ("/res/statusCode" is
// "resstatuscode", "body_bytes_sent" "bodybytessent").
std::string folded(std::string_view name) {
  std::string out;
  for (const unsigned char c : name) {
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// Whether `name` (folded) holds one of `words`.
bool holds_any(std::string_view name, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(),
                     [name](std::string_view w) { return name.find(w) != std::string_view::npos; });
}

// Whether a field's name says it names what requests are for.
bool id_like_name(std::string_view name) {
  return holds_any(folded(name), {"host", "service", "app", "cluster", "router", "authority", "site", "domain",
                                  "tenant", "servername", "vhost", "username"});
}

// Whether byte `b` is in enough of `f`'s strings to be part of its ids: in
// at least 2% of them, so that a few malformed values do not widen the
// pattern (they are rejected as bad_app, as they should be).
bool common_byte(const FieldValues& f, size_t b) {
  return f.strings_with_byte[b] * 50 >= f.strings && f.strings_with_byte[b] > 0;
}

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

// Whether most (90%) of the kept values of `f` are numbers a measure reads
// (JSON numbers, or strings holding one).
bool numeric_field(const FieldValues& f) {
  size_t n = 0;
  for (const std::string& v : f.values) n += read_measure(v).has_value();
  return !f.values.empty() && n * 10 >= f.values.size() * 9;
}

bool id_candidate(const FieldValues& f, const std::string& time_field) {
  if (f.name == time_field || f.strings == 0 || f.long_strings * 10 > f.strings || f.distinct.size() < 2) return false;
  if (time_candidate(f)) return false;  // another time (Cloudflare's EdgeEndTimestamp beside EdgeStartTimestamp)
  if (common_byte(f, '\n') || common_byte(f, '\t')) return false;
  // Not one value per line, unless the name says it is an id (and its values
  // are not numbers, as upstream_service_time's): a handful of Pino lines
  // from as many pods, a Caddy log of many sites.
  return f.strings < 4 || f.distinct.size() * 2 <= f.strings || (id_like_name(f.name) && !numeric_field(f));
}

bool status_field(const FieldValues& f) {
  return holds_any(folded(f.name), {"status", "code"}) && holds_http_statuses(f);
}

// The unit of a duration its name tells (its last letters), else "".
std::string duration_unit(std::string_view name) {
  const std::string n = folded(name);
  const auto ends = [&n](std::initializer_list<std::string_view> tails) {
    return std::any_of(tails.begin(), tails.end(), [&n](std::string_view t) { return n.ends_with(t); });
  };
  if (ends({"ms", "msec", "millis", "milliseconds"})) return "milliseconds";
  if (ends({"us", "usec", "micros", "microseconds"})) return "microseconds";
  if (ends({"ns", "nsec", "nanos", "nanoseconds"})) return "nanoseconds";
  if (ends({"sec", "secs", "seconds"})) return "seconds";
  return "";
}

// How well a numeric field's name says it is the size of what clients were
// sent: 3 for what was sent downstream (nginx's body_bytes_sent, Traefik's
// DownstreamContentSize, Cloudflare's EdgeResponseBytes), 2 for a response's
// otherwise, 1 for a size or bytes, 0 for what was read or requested; -1
// for no size at all.
int size_rank(std::string_view name) {
  const std::string n = folded(name);
  if (!holds_any(n, {"bytes", "size", "length"})) return -1;
  if (holds_any(n, {"sent", "downstream", "edge"})) return 3;
  if (holds_any(n, {"resp"})) return 2;
  if (holds_any(n, {"read", "received", "req", "upstream"})) return 0;
  return 1;
}

// The fields of the measures: the status (status_field), the first field
// named like a duration, the size that ranks best (the first of them).
MeasureFields measure_fields(const SampleShape& shape, const std::string& time_field) {
  MeasureFields m;
  int best_size = -1;
  for (const FieldValues& f : shape.fields) {
    if (f.name == time_field) continue;
    if (m.status.empty() && status_field(f)) {
      m.status = f.name;
      continue;
    }
    if (!numeric_field(f)) continue;
    if (m.duration.empty() && holds_any(folded(f.name), {"duration", "latency", "elapsed", "responsetime",
                                                         "requesttime", "took", "ttfb", "timetofirstbyte"})) {
      m.duration = f.name;
      m.duration_unit = duration_unit(f.name);
    } else if (const int rank = size_rank(f.name); rank > best_size) {
      best_size = rank;
      m.size = f.name;
    }
  }
  return m;
}

// The lines of `lines` the options count.
size_t counted(const std::vector<std::string>& lines, const Options& options) {
  LineParser parser(Query(options).rules(), options.max_line_bytes);
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

// Rate, errors and duration (RED) per minute, from the measure fields found:
// by status class with its 5xx counted (--count-if), the duration's
// quantiles, the size summed; none when no field was found.
std::optional<Suggestion> measured(const std::vector<std::string>& lines, const TimeCandidate& time,
                                   const MeasureFields& m) {
  if (m.status.empty() && m.duration.empty() && m.size.empty()) return std::nullopt;
  Suggestion s;
  Options options;
  add_time_flags(time, s.flags, options);
  options.app_field = "none";
  s.flags.insert(s.flags.end(), {"--app-field", "none", "--per-minute"});
  std::vector<std::string> parts;
  if (!m.status.empty()) {
    options.by = {{m.status, KeyField::Kind::kStatusClass}};
    s.flags.insert(s.flags.end(), {"--by-status-class", m.status});
    if (m.status.find_first_of("=<>!~\"") == std::string::npos) {  // else it would need quoting in --count-if
      options.count_if = {m.status + ">=500"};
      s.flags.insert(s.flags.end(), {"--count-if", options.count_if[0]});
      parts.push_back("by status class of " + m.status + ", its 5xx counted and their ratio");
    } else {
      parts.push_back("by status class of " + m.status);
    }
  }
  if (!m.duration.empty()) {
    options.quantiles = {m.duration};
    s.flags.insert(s.flags.end(), {"--quantiles", m.duration});
    parts.push_back("quantiles of " + m.duration + " (" +
                    (m.duration_unit.empty() ? "its unit not in its name" : m.duration_unit + " by its name") + ")");
  }
  if (!m.size.empty()) {
    options.sum = {m.size};
    s.flags.insert(s.flags.end(), {"--sum", m.size});
    parts.push_back("sum of " + m.size);
  }
  try {
    s.counted = counted(lines, options);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // fields that overlap: not a command that runs
  }
  s.what = "per minute: ";
  for (size_t i = 0; i < parts.size(); ++i) s.what += (i > 0 ? ", " : "") + parts[i];
  s.what += "; time " + time.field + " (" + time.format + ")";
  return s;
}

}  // namespace

bool holds_http_statuses(const FieldValues& f) {
  size_t in_range = 0;
  for (const std::string& v : f.values) {
    in_range += v.size() == 3 && v >= "100" && v <= "599" && std::all_of(v.begin(), v.end(), ::isdigit);
  }
  return !f.values.empty() && in_range * 10 >= f.values.size() * 9;
}

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
    if (options.app_pattern != kDefaultAppPattern)
      s.flags.insert(s.flags.end(), {"--app-pattern", options.app_pattern});
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
  d.measures = measure_fields(shape, time->field);
  if (std::optional<Suggestion> red = measured(lines, *time, d.measures)) d.suggestions.push_back(std::move(*red));
  return d;
}

}  // namespace logagg
