// The suggestions of `logagg detect` (logagg/detect.h).
#include "logagg/detect.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "detect/field_names.h"
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
  const KeyName says = key_name(f.name);
  if (says == KeyName::kNever) return false;  // a level, a message, a URI, a request's id
  // One value is enough for a name that says who (a log of one service), not for any other (a constant).
  const size_t fewest = says == KeyName::kNamesWho ? 1 : 2;
  if (f.name == time_field || f.strings == 0 || f.long_strings * 10 > f.strings || f.distinct.size() < fewest) {
    return false;
  }
  // nginx's "-" for a value it does not have names no one.
  if (std::all_of(f.distinct.begin(), f.distinct.end(), [](const std::string& v) { return v == "-" || v.empty(); })) {
    return false;
  }
  if (time_candidate(f)) return false;  // another time (Cloudflare's EdgeEndTimestamp beside EdgeStartTimestamp)
  if (common_byte(f, '\n') || common_byte(f, '\t')) return false;
  // Not one value per line, unless the name says it is an id (and its values
  // are not numbers, as upstream_service_time's): a handful of Pino lines
  // from as many pods, a Caddy log of many sites.
  return f.strings < 4 || f.distinct.size() * 2 <= f.strings || (says == KeyName::kNamesWho && !numeric_field(f));
}

bool status_field(const FieldValues& f) {
  return holds_any(folded(f.name), {"status", "code", "response"}) && holds_http_statuses(f);
}

// The status field: by its name and values (status_field), what the client
// got (DownstreamStatus) over what another hop answered (OriginStatus); ""
// if there is none.
std::string best_status_field(const SampleShape& shape, const std::string& time_field) {
  std::string best;
  for (const FieldValues& f : shape.fields) {
    if (f.name == time_field || !status_field(f)) continue;
    if (best.empty() || status_rank(f.name) > status_rank(best)) best = f.name;
  }
  return best;
}

// Whether every kept value of `f` is the same (a bound, a version: no measurement).
bool constant(const FieldValues& f) {
  return std::all_of(f.values.begin(), f.values.end(), [&f](const std::string& v) { return v == f.values.front(); });
}

// A duration's unit where its name does not say it and its producer does:
// Caddy's `duration` (beside `/request/host`) and nginx's `request_time` in
// seconds, Envoy's `duration` (beside `upstream_cluster` or
// `response_flags`) in milliseconds, Traefik's `Duration` (beside
// `RouterName` or `DownstreamStatus`) in nanoseconds.
std::string producer_duration_unit(const SampleShape& shape, std::string_view name) {
  const auto has = [&shape](std::initializer_list<std::string_view> names) {
    return std::any_of(shape.fields.begin(), shape.fields.end(), [names](const FieldValues& f) {
      return std::find(names.begin(), names.end(), f.name) != names.end();
    });
  };
  if (name == "request_time" || name == "upstream_response_time") return "seconds";
  if (name == "duration" && has({"/request/host"})) return "seconds";
  if (name == "duration" && has({"upstream_cluster", "response_flags"})) return "milliseconds";
  if (name == "Duration" && has({"RouterName", "DownstreamStatus"})) return "nanoseconds";
  return "";
}

// The --unit of a duration unit's name ("milliseconds": "ms").
std::string_view unit_flag(std::string_view unit) {
  return unit == "seconds" ? "s" : unit == "milliseconds" ? "ms" : unit == "microseconds" ? "us" : "ns";
}

// How well a numeric field's name says it is the size of what clients were
// sent: 3 for what was sent downstream (nginx's body_bytes_sent, Traefik's
// DownstreamContentSize, Cloudflare's EdgeResponseBytes), 2 for a response's
// otherwise, 1 for a size or bytes, 0 for what was read or requested; -1
// for no size at all.
int size_rank(std::string_view name) {
  const std::string n = folded(name);
  if (!holds_any(n, {"bytes", "size", "length"})) return -1;
  if (sub_part_name(name)) return -1;  // a process's memory, a store's traffic: not what clients got
  if (holds_any(n, {"sent", "downstream", "edge"})) return 3;
  if (holds_any(n, {"resp"})) return 2;
  if (holds_any(n, {"read", "received", "req", "upstream"})) return 0;
  return 1;
}

// The fields of the measures: the status (status_field), the first field
// named like a duration, the size that ranks best (the first of them).
MeasureFields measure_fields(const SampleShape& shape, const std::string& time_field) {
  MeasureFields m;
  m.status = best_status_field(shape, time_field);
  int best_size = -1;
  for (const FieldValues& f : shape.fields) {
    if (f.name == time_field || status_field(f)) continue;
    if (!numeric_field(f)) continue;
    if (holds_any(folded(f.name), {"duration", "latency", "elapsed", "responsetime", "requesttime", "took", "ttfb",
                                   "timetofirstbyte"})) {
      // The first that measures the request: not a bound (GitLab's
      // target_duration_s), not constant, the request's own over a part's
      // (duration_s over redis_duration_s, wherever they are in the line).
      if (limit_name(f.name) || constant(f)) continue;
      if (!m.duration.empty() && (sub_part_name(f.name) || !sub_part_name(m.duration))) continue;
      m.duration = f.name;
      m.duration_unit = duration_unit_of_name(f.name);
      if (m.duration_unit.empty()) m.duration_unit = producer_duration_unit(shape, f.name);
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
    if (!m.duration_unit.empty())
      s.flags.insert(s.flags.end(), {"--unit", m.duration + "=" + std::string(unit_flag(m.duration_unit))});
    const bool by_name = !duration_unit_of_name(m.duration).empty();
    parts.push_back("quantiles of " + m.duration + " (" +
                    (m.duration_unit.empty()
                         ? "its unit not in its name"
                         : m.duration_unit + (by_name ? " by its name" : " as its producer writes it")) +
                    ")");
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

// The time of the request: of the fields that read (nearly: 90%) as many
// instants as the best, the one whose name says start or receipt over an
// end, stage or write time (time_rank); then the most read, the first.
std::optional<TimeCandidate> request_time(const SampleShape& shape) {
  std::vector<TimeCandidate> times;
  size_t most_read = 0;
  for (const FieldValues& f : shape.fields) {
    if (std::optional<TimeCandidate> t = time_candidate(f)) {
      most_read = std::max(most_read, t->values);
      times.push_back(std::move(*t));
    }
  }
  std::optional<TimeCandidate> time;
  for (const TimeCandidate& t : times) {
    if (t.values * 10 < most_read * 9) continue;
    if (!time || std::pair(time_rank(t.field), t.values) > std::pair(time_rank(time->field), time->values)) time = t;
  }
  return time;
}

}  // namespace

bool holds_http_statuses(const FieldValues& f) {
  size_t in_range = 0, zeros = 0;
  for (const std::string& v : f.values) {
    in_range += v.size() == 3 && v >= "100" && v <= "599" && std::all_of(v.begin(), v.end(), ::isdigit);
    zeros += v == "0";
  }
  return in_range > 0 && in_range * 10 >= (f.values.size() - zeros) * 9;
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
  const std::optional<TimeCandidate> time = request_time(shape);
  if (!time) return d;
  d.time_field = time->field;
  d.time_format = time->format;

  std::vector<std::pair<Suggestion, int>> by_app;  // and how closely the field's name says who (who_rank)
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
    s.key_field = f.name;
    if (s.counted > 0) by_app.emplace_back(std::move(s), who_rank(f.name));
  }
  // A field whose name says who comes first (the closest first) when it
  // counts at least two thirds of the most any counts (a Caddy log's
  // runtime lines have a logger and no host); then by lines counted.
  size_t most = 0;
  for (const auto& [s, who] : by_app) most = std::max(most, s.counted);
  std::stable_sort(by_app.begin(), by_app.end(), [most](const auto& a, const auto& b) {
    const int a_who = a.first.counted * 3 >= most * 2 ? a.second : 0;
    const int b_who = b.first.counted * 3 >= most * 2 ? b.second : 0;
    if (a_who != b_who) return a_who > b_who;
    return a.first.counted > b.first.counted;
  });
  if (by_app.size() > kMostById) by_app.resize(kMostById);
  if (!by_app.empty()) d.key_field = by_app.front().first.key_field;
  for (auto& [s, named] : by_app) d.suggestions.push_back(std::move(s));

  Suggestion all;
  Options options;
  add_time_flags(*time, all.flags, options);
  options.app_field = "none";
  all.flags.insert(all.flags.end(), {"--app-field", "none"});
  all.counted = counted(lines, options);
  all.what = "every line with a time, time " + time->field + " (" + time->format + ")";
  d.suggestions.push_back(all);
  d.measures = measure_fields(shape, time->field);
  if (const std::string& field = d.measures.status; !field.empty()) {
    Suggestion status = all;
    status.flags.insert(status.flags.end(), {"--by-status-class", field});
    status.what = "by status class of " + field + ", time " + time->field + " (" + time->format + ")";
    options.by = {{field, KeyField::Kind::kStatusClass}};
    status.counted = counted(lines, options);
    d.suggestions.push_back(std::move(status));
  }
  if (std::optional<Suggestion> red = measured(lines, *time, d.measures)) d.suggestions.push_back(std::move(*red));
  return d;
}

std::vector<ShapeGroup> detect_groups(const Sample& sample) {
  // The sampled lines of file `i`, appended to `out`.
  const auto add_lines_of = [&sample](size_t i, std::vector<std::string>& out) {
    const size_t end = i + 1 < sample.first_line.size() ? sample.first_line[i + 1] : sample.lines.size();
    out.insert(out.end(), sample.lines.begin() + static_cast<ptrdiff_t>(sample.first_line[i]),
               sample.lines.begin() + static_cast<ptrdiff_t>(end));
  };
  // Each file's shape: what detect reads in its own lines (a group of one
  // file keeps that detection: its lines are not read twice).
  std::vector<ShapeGroup> groups;
  std::vector<std::string> shapes;
  std::vector<Detection> own_detections;
  for (size_t i = 0; i < sample.files.size(); ++i) {
    std::vector<std::string> lines;
    add_lines_of(i, lines);
    const Detection& own = own_detections.emplace_back(detect(lines));
    const std::string shape = !own.not_json.empty()
                                  ? std::string("\x01not json")
                                  : own.time_field + '\x01' + own.time_format + '\x01' + own.key_field;
    const size_t g = static_cast<size_t>(std::find(shapes.begin(), shapes.end(), shape) - shapes.begin());
    if (g == shapes.size()) {
      shapes.push_back(shape);
      groups.emplace_back();
    }
    groups[g].files.push_back(i);
  }
  if (groups.empty()) return {{{}, detect(sample.lines)}};
  for (ShapeGroup& group : groups) {
    if (group.files.size() == 1) {
      group.detection = std::move(own_detections[group.files[0]]);
      continue;
    }
    std::vector<std::string> lines;
    for (const size_t i : group.files) add_lines_of(i, lines);
    group.detection = detect(lines);
  }
  return groups;
}

}  // namespace logagg
