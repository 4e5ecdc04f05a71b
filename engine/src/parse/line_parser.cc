// Line classification with simdjson On-Demand (see line_parser.h).
//
// On-Demand validates only what is read, so every value of the line is walked:
// stage 1 (run by iterate) checks UTF-8, unescaped control characters and
// unclosed strings for the whole line; the walk below checks structure, keys,
// string escapes (by unescaping the strings and keys that have a backslash;
// the others are valid as they stand and are read in place), and number and
// literal tokens (by their grammar, so numbers of any magnitude are valid).
// Containers are walked with an explicit stack, so nesting depth is limited
// only by the line length.
#include "parse/line_parser.h"

#include <simdjson.h>

#include <bit>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "parse/dotted_names.h"
#include "parse/field_targets.h"
#include "parse/line_keys.h"
#include "text/json_tokens.h"
#include "text/ascii.h"

namespace logagg {
namespace {

namespace od = simdjson::ondemand;
static_assert(kLinePadding == simdjson::SIMDJSON_PADDING);

// The text of a string token without its quotes.
std::string_view string_text(std::string_view token) noexcept {
  token = trim_trailing_space(token);
  return token.substr(1, token.size() - 2);
}

// The text of a field's key without its quotes, read in place, given where
// it starts (after the opening quote); false if it holds a backslash (then it
// must be unescaped). Stage 1 checked that the closing quote exists.
bool plain_key(const char* start, std::string_view& key) noexcept {
  const char* p = start;
  while (*p != '"') {
    if (*p == '\\') return false;
    ++p;
  }
  key = std::string_view(start, static_cast<size_t>(p - start));
  return true;
}

// A container being walked. On-Demand's ++ skips a child that was not read,
// so the iterator advances only once the current child has been visited.
struct Frame {
  bool is_object;
  bool visited = false;
  od::object_iterator object_it{}, object_end{};
  od::array_iterator array_it{}, array_end{};
};

}  // namespace

LineRules LineRules::of(const Question& question, const MeasureSpec& measures) {
  LineRules rules;
  const auto path = [](const char* option, const std::string& name) {
    try {
      return parse_field_path(name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(option) + ": " + e.what());
    }
  };
  rules.has_app = question.app_field != kNoAppField;
  if (rules.has_app) rules.app = path("--app-field", question.app_field);
  rules.time = path("--time-field", question.time_field);
  if (rules.has_app && paths_overlap(rules.app, rules.time)) {
    throw std::invalid_argument("--app-field and --time-field must name different fields");
  }
  try {
    rules.app_pattern = AppPattern::compile(question.app_pattern);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--app-pattern: ") + e.what());
  }
  try {
    rules.time_format = TimeFormat::compile(question.time_format, question.input_tz);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--time-format: ") + e.what());
  }
  rules.keys = KeyRules::of(question, measures, rules.has_app ? &rules.app : nullptr, rules.time);
  add_nested_forms(rules);
  return rules;
}

struct LineParser::Impl {
  Impl(const LineRules& rules, size_t max_line_bytes) : retry(rules, max_line_bytes) {}
  std::string app_field;  // the first step of each field's path
  std::string time_field;
  FieldTarget targets[kMaxTargets];  // kApp, kTime, then the fields of --by and --where
  size_t n_targets = 2;
  std::vector<std::string> first_steps;  // each target's first step
  unsigned looked_for = 0;               // the targets looked for (kApp's bit clear with --app-field none)
  bool general = false;                  // looks for more than the app and time fields, or not for the app
  std::optional<LineKeys> keys;          // --by, --where
  AppPattern app_pattern = AppPattern::compile();
  TimeFormat time_format;
  bool time_numbers = false;  // the time format reads JSON numbers too
  bool nested = false;        // a field's path has more than one step
  bool fields_plain;          // both field names non-empty, without quotes or backslashes: key_is() can compare them
  size_t max_line_bytes;
  // Whether the current line has a backslash anywhere. Most lines have none:
  // then every string and key is valid as it stands (stage 1 checked UTF-8,
  // control characters and closing quotes) and is its own text.
  bool escapes = false;
  const char* line_end = nullptr;
  od::parser parser;
  NestedRetry<LineParser> retry;  // a line missing a dotted field, again with its nested path
  std::vector<char> padded;       // copy of a line that lacks readable padding
  std::vector<Frame> stack;       // containers being walked, innermost last

  bool push_object(od::object obj) {
    Frame f{true};
    if (obj.begin().get(f.object_it) || obj.end().get(f.object_end)) return false;
    stack.push_back(f);
    return true;
  }

  bool push_array(od::array arr) {
    Frame f{false};
    if (arr.begin().get(f.array_it) || arr.end().get(f.array_end)) return false;
    stack.push_back(f);
    return true;
  }

  // Checks a scalar `v` completely, or pushes a container for drain().
  bool visit(od::value& v) {
    od::json_type type;
    if (v.type().get(type)) return false;
    switch (type) {
      case od::json_type::object: {
        od::object obj;
        return !v.get_object().get(obj) && push_object(obj);
      }
      case od::json_type::array: {
        od::array arr;
        return !v.get_array().get(arr) && push_array(arr);
      }
      case od::json_type::string: {
        std::string_view s;
        if (!escapes || !has_backslash(string_text(v.raw_json_token()))) return consume_string(v);
        return !v.get_string().get(s);
      }
      case od::json_type::number:
        return is_json_number(trim_trailing_space(v.raw_json_token()));
      case od::json_type::boolean: {
        const std::string_view t = trim_trailing_space(v.raw_json_token());
        return t == "true" || t == "false";
      }
      case od::json_type::null:
        return trim_trailing_space(v.raw_json_token()) == "null";
    }
    return false;
  }

  // Moves a frame's iterator to its next child; false once it has none.
  template <class It>
  static bool next_child(Frame& f, It& it, const It& end) {
    if (f.visited) ++it;
    f.visited = true;
    return it != end;
  }

  // Walks the stacked containers to their ends, visiting every key and child.
  // Fields and values are used in place (bound by reference), not copied: the
  // copies cost a store-forwarding stall each on the hot path.
  bool drain() {
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (!(f.is_object ? next_child(f, f.object_it, f.object_end) : next_child(f, f.array_it, f.array_end))) {
        stack.pop_back();
        continue;
      }
      if (f.is_object) {
        auto result = *f.object_it;
        if (result.error()) return false;
        od::field&& field = std::move(result).value_unsafe();
        std::string_view key;
        if ((escapes && !key_text(field, key)) || !visit(field.value())) return false;
      } else {
        auto result = *f.array_it;
        if (result.error()) return false;
        od::value&& child = std::move(result).value_unsafe();
        if (!visit(child)) return false;
      }
    }
    return true;
  }

  // Checks one value and everything inside it.
  bool check(od::value& v) {
    stack.clear();
    return visit(v) && drain();
  }

  // The key of `field`, unescaped (false if it has an invalid escape). A key
  // without escapes is read in place; the string's closing quote is known to
  // exist because stage 1 checked that every string is closed.
  static bool key_text(od::field& field, std::string_view& key) {
    return plain_key(field.key().raw(), key) || !field.unescaped_key().get(key);
  }

  // Whether a key, given by where its text starts, is `name`. Without escapes
  // in the line the key is compared in place, no byte past the line is read.
  bool key_is(const char* key, const std::string& name) const {
    const size_t n = name.size();
    return key + n < line_end && key[0] == name[0] && key[n] == '"' && std::memcmp(key, name.data(), n) == 0;
  }

  // A value whose key (or index) is step `depth` of the paths of the targets
  // in `mask`: the field itself after the last step, else a container to look
  // into. `matched` has the targets the enclosing container matched before:
  // a key met twice on a field's path makes the field a duplicate. Paths do
  // not overlap (LineRules), so a step is the last for all of `mask` or none.
  // `mask` is not empty.
  bool enter(od::value& v, unsigned mask, size_t depth, unsigned& matched) {
    if (mask == 0) [[unlikely]]
      return check(v);  // never: it keeps the compiler's bounds checks quiet
    for (unsigned twice = mask & matched; twice != 0; twice &= twice - 1) {
      targets[std::countr_zero(twice)].seen.step_twice = true;
    }
    matched |= mask;
    const int first = std::countr_zero(mask);
    if (depth + 1 == targets[first].path.steps.size()) {
      return capture(v, targets[first].seen, first == kTime && time_numbers);
    }
    return descend(v, mask, depth + 1);
  }

  // Looks for step `depth` of the targets in `mask` among the children of
  // `v`, checking every child completely; a scalar has no children, so the
  // fields stay missing.
  bool descend(od::value& v, unsigned mask, size_t depth) {
    od::json_type type;
    if (v.type().get(type)) return false;
    unsigned matched = 0;
    if (type == od::json_type::object) {
      od::object obj;
      if (v.get_object().get(obj)) return false;
      for (auto result : obj) {
        if (result.error()) return false;
        od::field&& field = std::move(result).value_unsafe();
        std::string_view key;
        if (!key_text(field, key)) return false;
        unsigned hit = 0;
        for (unsigned m = mask; m != 0; m &= m - 1) {
          const int t = std::countr_zero(m);
          if (targets[t].path.steps[depth] == key) hit |= 1u << t;
        }
        od::value& child = field.value();
        if (!(hit != 0 ? enter(child, hit, depth, matched) : check(child))) return false;
      }
      return true;
    }
    if (type == od::json_type::array) {
      od::array arr;
      if (v.get_array().get(arr)) return false;
      size_t index = 0;
      for (auto result : arr) {
        if (result.error()) return false;
        od::value&& child = std::move(result).value_unsafe();
        unsigned hit = 0;
        for (unsigned m = mask; m != 0; m &= m - 1) {
          const int t = std::countr_zero(m);
          if (targets[t].indexes[depth] == index) hit |= 1u << t;
        }
        if (!(hit != 0 ? enter(child, hit, depth, matched) : check(child))) return false;
        ++index;
      }
      return true;
    }
    return check(v);
  }

  // Records an occurrence of a field and checks its value. A JSON number is
  // kept too, as its text, where the time format reads numbers (`numbers`:
  // the time field of a unix* format); any number or literal as a scalar.
  bool capture(od::value& v, FieldSeen& seen, bool numbers = false) {
    if (++seen.count > 1) return check(v);
    od::json_type type;
    if (v.type().get(type)) return false;
    if (numbers && type == od::json_type::number) {
      seen.is_number = true;
      seen.text = trim_trailing_space(v.raw_json_token());
      bool is_number;
      seen.second = time_format.number_second(seen.text, is_number, &seen.form);
      return is_number;
    }
    if (type != od::json_type::string) {
      if (type != od::json_type::object && type != od::json_type::array) {
        seen.is_scalar = true;
        seen.text = trim_trailing_space(v.raw_json_token());
      }
      return check(v);
    }
    seen.is_string = true;
    seen.text = string_text(v.raw_json_token());
    if (!escapes || !has_backslash(seen.text)) return consume_string(v);
    return !v.get_string().get(seen.text);
  }

  // Moves past a string value without unescaping it. Every string value must
  // be consumed: On-Demand's skip of an unread child takes a string followed
  // by ':' for a key and would skip on past a syntax error.
  static bool consume_string(od::value& v) {
    od::raw_json_string raw;
    return !v.get_raw_json_string().get(raw);
  }

  static bool at_end(od::document& doc) { return doc.current_location().error() == simdjson::OUT_OF_BOUNDS; }

  // True when a document that is not an object is nevertheless valid JSON.
  bool is_valid_non_object(od::document& doc, od::json_type type, std::string_view trimmed) {
    switch (type) {
      case od::json_type::array: {
        od::array arr;
        stack.clear();
        return !doc.get_array().get(arr) && push_array(arr) && drain() && at_end(doc);
      }
      case od::json_type::string: {
        std::string_view s;
        return !doc.get_string().get(s) && at_end(doc);
      }
      case od::json_type::number:
        return is_json_number(trimmed);
      case od::json_type::boolean:
        return trimmed == "true" || trimmed == "false";
      case od::json_type::null:
        return trimmed == "null";
      case od::json_type::object:
        break;
    }
    return false;
  }

  LineVerdict classify(std::string_view line, size_t readable) {
    size_t first = 0;
    while (first < line.size() && is_json_space(line[first])) ++first;
    if (first == line.size()) return LineVerdict::blank();
    if (line.size() > max_line_bytes) return LineVerdict::rejected(Reason::kLineTooLong);

    const char* buf = line.data();
    size_t capacity = readable;
    if (readable < line.size() + kLinePadding) {
      if (padded.size() < line.size() + kLinePadding) padded.resize(line.size() + kLinePadding);
      std::memcpy(padded.data(), line.data(), line.size());
      std::memset(padded.data() + line.size(), ' ', kLinePadding);
      buf = padded.data();
      capacity = padded.size();
    }

    escapes = has_backslash(line);
    line_end = buf + line.size();
    const auto invalid = LineVerdict::rejected(Reason::kInvalidJson);
    od::document doc;
    od::json_type type;
    if (parser.iterate(buf, line.size(), capacity).get(doc) || doc.type().get(type)) return invalid;
    if (type != od::json_type::object) {
      const std::string_view trimmed = trim_trailing_space(line.substr(first));
      return is_valid_non_object(doc, type, trimmed) ? LineVerdict::rejected(Reason::kNotObject) : invalid;
    }

    od::object obj;
    if (doc.get_object().get(obj)) return invalid;
    for (size_t t = 0; t < n_targets; ++t) targets[t].seen = FieldSeen{};
    unsigned top_matched = 0;  // targets whose first step this object has had
    FieldSeen& app = targets[kApp].seen;
    FieldSeen& time = targets[kTime].seen;
    for (auto result : obj) {
      if (result.error()) return invalid;
      od::field&& field = std::move(result).value_unsafe();
      if (general) [[unlikely]] {
        std::string_view key;
        if (!key_text(field, key)) return invalid;
        unsigned hit = 0;
        for (unsigned m = looked_for; m != 0; m &= m - 1) {
          const int t = std::countr_zero(m);
          if (first_steps[t] == key) hit |= 1u << t;
        }
        od::value& v = field.value();
        const int first = std::countr_zero(hit);
        const bool ok = hit == 0 ? check(v)
                        : nested ? enter(v, hit, 0, top_matched)
                                 : capture(v, targets[first].seen, first == kTime && time_numbers);
        if (!ok) return invalid;
        continue;
      }
      bool is_app, is_time;
      if (!escapes && fields_plain) {
        const char* key = field.key().raw();
        is_app = key_is(key, app_field);
        is_time = (nested || !is_app) && key_is(key, time_field);
      } else {
        std::string_view key;
        if (!key_text(field, key)) return invalid;
        is_app = key == app_field;
        is_time = key == time_field;
      }
      od::value& v = field.value();
      const bool ok = !is_app && !is_time ? check(v)
                      : nested ? enter(v, (is_app ? 1u << kApp : 0u) | (is_time ? 1u << kTime : 0u), 0, top_matched)
                               : capture(v, is_app ? app : time, !is_app && time_numbers);
      if (!ok) return invalid;
    }
    if (!at_end(doc)) return invalid;

    LineVerdict verdict = field_verdict(looked_for & (1u << kApp) ? &app : nullptr, time, app_pattern, time_format);
    if (keys && verdict.status == LineStatus::kCounted) keys->apply(verdict, targets);
    return verdict;
  }
};

LineParser::LineParser(const LineRules& rules, size_t max_line_bytes)
    : impl_(std::make_unique<Impl>(rules, max_line_bytes)) {
  Impl& m = *impl_;
  m.targets[kApp] = FieldTarget(rules.app);
  m.targets[kTime] = FieldTarget(rules.time);
  for (const FieldPath& field : rules.keys.fields) m.targets[m.n_targets++] = FieldTarget(field);
  for (size_t t = 0; t < m.n_targets; ++t) m.first_steps.push_back(m.targets[t].path.steps.front());
  m.looked_for = ((1u << m.n_targets) - 1) & ~(rules.has_app ? 0u : 1u << kApp);
  m.general = m.n_targets > 2 || !rules.has_app;
  if (rules.keys.active()) m.keys.emplace(rules.keys);
  m.app_pattern = rules.app_pattern;
  m.time_format = rules.time_format;
  m.time_numbers = rules.time_format.numeric();
  m.app_field = rules.app.steps.front();
  m.time_field = rules.time.steps.front();
  m.nested = false;
  for (size_t t = 0; t < m.n_targets; ++t) m.nested |= m.targets[t].path.steps.size() > 1;
  m.fields_plain = !m.app_field.empty() && !m.time_field.empty() &&
                   (m.app_field + m.time_field).find_first_of("\"\\") == std::string::npos;
  m.max_line_bytes = max_line_bytes;
}

LineParser::LineParser(std::string_view app_field, std::string_view time_field, size_t max_line_bytes)
    : LineParser(
          [&] {
            LineRules rules;
            rules.app = parse_field_path(app_field);
            rules.time = parse_field_path(time_field);
            add_nested_forms(rules);
            return rules;
          }(),
          max_line_bytes) {}

LineParser::~LineParser() = default;
LineParser::LineParser(LineParser&&) noexcept = default;
LineParser& LineParser::operator=(LineParser&&) noexcept = default;

LineVerdict LineParser::classify(std::string_view line, size_t readable) {
  const LineVerdict v = impl_->classify(line, readable);
  if (v.status == LineStatus::kRejected) [[unlikely]] {
    if (LineParser* nested = impl_->retry.parser_for(v)) return nested->classify(line, readable);
  }
  return v;
}

#define LOGAGG_STRINGIFY_(x) #x
#define LOGAGG_STRINGIFY(x) LOGAGG_STRINGIFY_(x)
std::string json_parser_description() {
  return std::string("simdjson ") + LOGAGG_STRINGIFY(SIMDJSON_VERSION) + ", " +
         simdjson::get_active_implementation()->name();
}

}  // namespace logagg
