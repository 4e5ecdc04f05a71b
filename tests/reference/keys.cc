// The reference's keys and filters (--by, --by-status-class,
// --by-path-prefix, --by-app, --where; see reference.h): each field looked
// up on the document tree step by step; --where expressions read by a plain
// scan of their own; numbers compared through a normalised scientific form
// (sign, the position of the first significant digit, the significant
// digits); patterns by RE2's FullMatch; the csv of a tally. Independent of
// the engine's where.cc, decimal.cc and line_keys.cc by design.
#include <date/date.h>
#include <re2/re2.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "reference/reference.h"

namespace reference {

// What a field holds in one document.
struct FieldValue {
  enum class State { kMissing, kTwice, kContainer, kString, kNumber, kLiteral } state = State::kMissing;
  std::string text;  // kString: decoded; kNumber, kLiteral: as written

  bool has_value() const { return state == State::kString || state == State::kNumber || state == State::kLiteral; }
};

namespace {

FieldValue look_up(const JsonDocument& doc, const std::vector<std::string>& steps) {
  const JsonValue* at = &doc.top();
  for (const std::string& step : steps) {
    size_t found = 0;
    const JsonValue* next = nullptr;
    if (at->kind == JsonKind::kObject) {
      for (size_t i = 0; i < at->keys.size(); ++i) {
        if (at->keys[i] == step) {
          ++found;
          next = &doc.values[at->children[i]];
        }
      }
    } else if (at->kind == JsonKind::kArray) {
      for (size_t i = 0; i < at->children.size(); ++i) {
        if (std::to_string(i) == step) {
          ++found;
          next = &doc.values[at->children[i]];
        }
      }
    }
    if (found == 0) return {};
    if (found > 1) return {FieldValue::State::kTwice, {}};
    at = next;
  }
  switch (at->kind) {
    case JsonKind::kString:
      return {FieldValue::State::kString, at->text};
    case JsonKind::kNumber:
      return {FieldValue::State::kNumber, at->text};
    case JsonKind::kLiteral:
      return {FieldValue::State::kLiteral, at->text};
    default:
      return {FieldValue::State::kContainer, {}};
  }
}

// A JSON number as sign * 0.digits * 10^exponent, digits without leading or
// trailing zeros (none for zero, whose sign is 0). Written exponents are
// taken up to 4e18 (the documented limit, logagg's decimal.h).
// A 128-bit integer (a GCC and Clang extension), so sums of exponents cannot overflow.
__extension__ typedef __int128 Wide;

struct Scientific {
  int sign = 0;
  Wide exponent = 0;
  std::string digits;

  static Scientific of(const std::string& number) {
    Scientific n;
    size_t i = 0;
    const bool negative = number[0] == '-';
    i += negative;
    std::string mantissa;
    Wide point = 0;  // digits before the decimal point
    bool after_point = false;
    for (; i < number.size() && number[i] != 'e' && number[i] != 'E'; ++i) {
      if (number[i] == '.') {
        after_point = true;
        continue;
      }
      mantissa += number[i];
      if (!after_point) ++point;
    }
    Wide written = 0;
    if (i < number.size()) {
      ++i;
      const bool minus = number[i] == '-';
      if (number[i] == '-' || number[i] == '+') ++i;
      for (; i < number.size(); ++i) written = std::min<Wide>(written * 10 + (number[i] - '0'), Wide{4'000'000'000'000'000'000});
      if (minus) written = -written;
    }
    const size_t first = mantissa.find_first_not_of('0');
    if (first == std::string::npos) return n;  // zero
    const size_t last = mantissa.find_last_not_of('0');
    n.sign = negative ? -1 : 1;
    n.digits = mantissa.substr(first, last - first + 1);
    n.exponent = point - static_cast<Wide>(first) + written;
    return n;
  }
};

int compare_numbers(const std::string& a, const std::string& b) {
  const Scientific x = Scientific::of(a), y = Scientific::of(b);
  if (x.sign != y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign == 0) return 0;
  int magnitude;
  if (x.exponent != y.exponent) {
    magnitude = x.exponent < y.exponent ? -1 : 1;
  } else {
    magnitude = x.digits.compare(y.digits);  // same length prefix decides, then the longer is bigger
    magnitude = magnitude < 0 ? -1 : (magnitude > 0 ? 1 : 0);
  }
  return x.sign * magnitude;
}

bool is_number(const std::string& text) {
  const std::optional<JsonDocument> doc = parse_json(text);
  return doc && doc->top().kind == JsonKind::kNumber && doc->top().text == text;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The length of the JSON string at the start of `s` and its decoded text, if it starts with one.
std::optional<std::pair<size_t, std::string>> leading_string(std::string_view s) {
  if (s.empty() || s[0] != '"') return std::nullopt;
  for (size_t end = 1; end < s.size(); ++end) {
    if (s[end] == '\\') {
      ++end;
    } else if (s[end] == '"') {
      const std::optional<JsonDocument> doc = parse_json(s.substr(0, end + 1));
      if (!doc || doc->top().kind != JsonKind::kString) return std::nullopt;
      return std::pair{end + 1, doc->top().text};
    }
  }
  return std::nullopt;
}

}  // namespace

// One --where filter.
class Filter {
 public:
  enum class Op { kExists, kMissing, kEq, kNe, kLt, kLe, kGt, kGe, kMatch, kNoMatch };
  enum class Kind { kText, kNumber, kLiteral };

  explicit Filter(std::string_view expression) {
    const std::string_view e = trimmed(expression);
    for (const auto& [word, op] : {std::pair{std::string_view("exists "), Op::kExists},
                                   std::pair{std::string_view("missing "), Op::kMissing}}) {
      std::string_view rest = e;
      if (rest.size() > word.size() && rest.substr(0, word.size() - 1) == word.substr(0, word.size() - 1) &&
          is_space(rest[word.size() - 1])) {
        rest = trimmed(rest.substr(word.size()));
        const auto quoted = leading_string(rest);
        field = quoted && quoted->first == rest.size() ? quoted->second : std::string(rest);
        this->op = op;
        return;
      }
    }
    size_t at;
    if (const auto quoted = leading_string(e)) {
      field = quoted->second;
      at = quoted->first;
      while (at < e.size() && is_space(e[at])) ++at;
    } else {
      at = 0;
      while (at < e.size() && std::string_view("=!<>~").find(e[at]) == std::string_view::npos) ++at;
      field = std::string(trimmed(e.substr(0, at)));
    }
    static const std::pair<std::string_view, Op> kOps[] = {{"==", Op::kEq}, {"!=", Op::kNe}, {"!~", Op::kNoMatch},
                                                           {"<=", Op::kLe}, {">=", Op::kGe}, {"<", Op::kLt},
                                                           {">", Op::kGt},  {"~", Op::kMatch}};
    bool found = false;
    for (const auto& [text, o] : kOps) {
      if (e.substr(at, text.size()) == text) {
        op = o;
        at += text.size();
        found = true;
        break;
      }
    }
    if (!found || field.empty()) throw std::invalid_argument("not a filter: " + std::string(expression));
    const std::string_view rest = trimmed(e.substr(at));
    value = std::string(rest);
    kind = Kind::kText;
    if (const auto quoted = leading_string(rest); quoted && quoted->first == rest.size()) {
      value = quoted->second;
    } else if (rest == "true" || rest == "false" || rest == "null") {
      kind = Kind::kLiteral;
    } else if (is_number(value)) {
      kind = Kind::kNumber;
    }
    if (op == Op::kMatch || op == Op::kNoMatch) {
      re2::RE2::Options quiet;
      quiet.set_log_errors(false);
      pattern = std::make_shared<const re2::RE2>(value, quiet);
      if (!pattern->ok()) throw std::invalid_argument("pattern: " + pattern->error());
    }
  }

  bool holds(const FieldValue& v) const {
    if (op == Op::kExists) return v.state != FieldValue::State::kMissing;
    if (op == Op::kMissing) return v.state == FieldValue::State::kMissing;
    if (op == Op::kMatch || op == Op::kNoMatch) {
      if (v.state != FieldValue::State::kString && v.state != FieldValue::State::kNumber) return false;
      return re2::RE2::FullMatch(v.text, *pattern) == (op == Op::kMatch);
    }
    int order = 0;
    switch (kind) {
      case Kind::kNumber:
        if (v.state == FieldValue::State::kNumber || (v.state == FieldValue::State::kString && is_number(v.text))) {
          order = compare_numbers(v.text, value);
        } else {
          return false;
        }
        break;
      case Kind::kText:
        if (v.state != FieldValue::State::kString) return false;
        order = v.text.compare(value);
        break;
      case Kind::kLiteral:
        if (v.state != FieldValue::State::kLiteral) return false;
        order = v.text == value ? 0 : 1;
        break;
    }
    switch (op) {
      case Op::kEq:
        return order == 0;
      case Op::kNe:
        return order != 0;
      case Op::kLt:
        return order < 0;
      case Op::kLe:
        return order <= 0;
      case Op::kGt:
        return order > 0;
      case Op::kGe:
        return order >= 0;
      default:
        return false;
    }
  }

  std::string field;
  Op op = Op::kExists;
  Kind kind = Kind::kText;
  std::string value;
  std::shared_ptr<const re2::RE2> pattern;
};

class KeyRules {
 public:
  struct Key {
    std::vector<std::string> steps;
    logagg::KeyField::Kind kind;
    unsigned segments;
  };
  std::vector<Key> keys;
  std::vector<std::pair<std::vector<std::string>, Filter>> filters;
  // The fields of the keys and filters but the app and time fields, each
  // once, as first named (the engine's Query::fields()).
  std::vector<std::vector<std::string>> fields;
};

namespace {

std::vector<std::string> steps_of(const std::string& field) {
  std::optional<std::vector<std::string>> steps = field_steps(field);
  if (!steps) throw std::invalid_argument("not a field name: " + quoted(field));
  return *steps;
}

std::string status_class_of(const std::string& value) {
  if (value.size() != 3 || !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return "other";
  }
  const int status = std::stoi(value);
  return status >= 100 && status <= 599 ? std::to_string(status / 100) + "xx" : "other";
}

std::string path_prefix_of(const std::string& value, unsigned n) {
  // A path as it is; an absolute URL's path (its authority dropped; "/" when
  // it has none); anything else is "other".
  std::string target = value, url_path;
  static const re2::RE2 kUrl("(?s)[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*(.*)");
  if (re2::RE2::FullMatch(value, kUrl, &url_path)) {
    target = url_path.empty() || url_path[0] != '/' ? "/" : url_path;
  } else if (value.empty() || value[0] != '/') {
    return "other";
  }
  const std::string path = target.substr(0, target.find_first_of("?#"));
  std::vector<std::string> segments{""};
  for (size_t i = 1; i < path.size(); ++i) {
    if (path[i] == '/') {
      segments.emplace_back();
    } else {
      segments.back() += path[i];
    }
  }
  if (segments.size() <= n) return path;
  std::string out = "/";
  for (unsigned i = 0; i < n; ++i) out += (i > 0 ? "/" : "") + segments[i];
  return out;
}

// How a line held a field: a JSON number, a string, nothing, or anything
// else (an object, array or literal, or a key on its path twice).
logagg::FieldKind kind_of(const FieldValue& v) {
  switch (v.state) {
    case FieldValue::State::kMissing:
      return logagg::FieldKind::kAbsent;
    case FieldValue::State::kNumber:
      return logagg::FieldKind::kNumber;
    case FieldValue::State::kString:
      return logagg::FieldKind::kString;
    default:
      return logagg::FieldKind::kOther;
  }
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

bool KeyTupleBefore::operator()(const KeyTuple& a, const KeyTuple& b) const {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i]) continue;
    if (!a[i] || !b[i]) return b[i] == std::nullopt;  // no value last
    return *a[i] < *b[i];                              // std::string: bytes as unsigned char
  }
  return a.size() < b.size();
}

std::shared_ptr<const KeyRules> make_key_rules(const logagg::Options& options) {
  auto rules = std::make_shared<KeyRules>();
  for (const logagg::KeyField& key : options.by) rules->keys.push_back({steps_of(key.field), key.kind, key.segments});
  for (const std::string& expression : options.where) {
    Filter filter(expression);
    rules->filters.emplace_back(steps_of(filter.field), std::move(filter));
  }
  std::vector<std::vector<std::string>> taken{steps_of(options.time_field)};
  if (options.app_field != logagg::kNoAppField) taken.push_back(steps_of(options.app_field));
  const auto add = [&](const std::vector<std::string>& steps) {
    if (std::find(taken.begin(), taken.end(), steps) != taken.end()) return;
    taken.push_back(steps);
    rules->fields.push_back(steps);
  };
  for (const KeyRules::Key& key : rules->keys) add(key.steps);
  for (const auto& filter : rules->filters) add(filter.first);
  return rules;
}

size_t Rules::key_count() const { return keys_->keys.size(); }
size_t Rules::filter_count() const { return keys_->filters.size(); }
size_t Rules::field_count() const { return keys_->fields.size(); }

Rules::Keyed Rules::keys_of(const JsonDocument& doc, const std::string& app) const {
  Keyed out;
  for (size_t i = 0; i < keys_->fields.size(); ++i) {
    out.field_kinds |= static_cast<uint32_t>(kind_of(look_up(doc, keys_->fields[i]))) << (2 * i);
  }
  for (size_t i = 0; i < keys_->filters.size(); ++i) {
    if (!keys_->filters[i].second.holds(look_up(doc, keys_->filters[i].first))) {
      out.failed_filter = i;
      return out;
    }
  }
  if (by_app_) out.tuple.emplace_back(app);
  for (size_t i = 0; i < keys_->keys.size(); ++i) {
    const KeyRules::Key& key = keys_->keys[i];
    const FieldValue v = look_up(doc, key.steps);
    if (!v.has_value()) {
      out.tuple.emplace_back(std::nullopt);
      out.no_value |= 1u << i;
    } else if (key.kind == logagg::KeyField::Kind::kStatusClass) {
      out.tuple.emplace_back(status_class_of(v.text));
    } else if (key.kind == logagg::KeyField::Kind::kPathPrefix) {
      out.tuple.emplace_back(path_prefix_of(v.text, key.segments));
    } else {
      out.tuple.emplace_back(v.text);
    }
  }
  return out;
}

std::string csv(const Aggregate& result, const logagg::Options& options) {
  const auto second_text = [](int64_t second) {
    return date::format("%FT%TZ", date::sys_seconds{std::chrono::seconds(second)});
  };
  std::string out = "second";
  if (options.by_app) out += ",app_id";
  for (const logagg::KeyField& key : options.by) {
    std::string column = key.field;
    if (key.kind == logagg::KeyField::Kind::kStatusClass) column = "status_class(" + key.field + ")";
    if (key.kind == logagg::KeyField::Kind::kPathPrefix) {
      column = "path_prefix(" + key.field + "," + std::to_string(key.segments) + ")";
    }
    out += ',';
    out += csv_field(column);
  }
  out += ",count\n";
  if (!options.by_app && options.by.empty()) {
    for (const auto& [second, count] : result.counts) out += second_text(second) + "," + std::to_string(count) + "\n";
    return out;
  }
  for (const auto& [row, count] : result.key_counts) {
    out += second_text(row.first);
    for (const std::optional<std::string>& part : row.second) {
      out += ',';
      out += csv_field(part ? *part : "(none)");
    }
    out += ',';
    out += std::to_string(count);
    out += '\n';
  }
  return out;
}

std::string engine_key(const KeyTuple& tuple) {
  std::string out;
  for (size_t i = 0; i < tuple.size(); ++i) {
    if (i > 0) out += logagg::kKeySeparator;
    out += tuple[i] ? *tuple[i] : std::string(logagg::kNoKey);
  }
  return out;
}

}  // namespace reference
