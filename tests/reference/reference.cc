// The reference implementation of the line rules (see reference.h): a plain
// RFC 8259 parser that builds the whole document, field names and JSON
// Pointers walked over it step by step, a positional RFC 3339 check on top of
// the date library, the other time formats and app patterns through
// time_reference.h and RE2, and the line splitting and tallying of a whole
// buffer. Independent of the engine's parser, field path, timestamp, time
// format and app-id code by design.
#include "reference/reference.h"

#include <date/date.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace reference {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// RFC 8259 over a UTF-8-valid text, into a JsonDocument. Containers are
// tracked on an explicit stack instead of the call stack, so any nesting
// depth parses.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  std::optional<JsonDocument> parse() {
    Step step = Step::kNextValue;
    while (step == Step::kNextValue) {
      step = begin_value();
      while (step == Step::kValueDone) step = after_value();
    }
    if (step != Step::kEnd) return std::nullopt;
    return std::move(doc_);
  }

 private:
  enum class Step {
    kFail,       // not JSON
    kNextValue,  // a value must start here
    kValueDone,  // a value just ended
    kEnd,        // the top-level value ended, and so did the text
  };

  // Reads a scalar whole, or opens a container (and reads the first key of an
  // object); adds the value to the document, as the next child of the
  // innermost open container.
  Step begin_value() {
    skip_whitespace();
    if (at_end()) return Step::kFail;
    if (!stack_.empty()) doc_.values[stack_.back().value].children.push_back(doc_.values.size());
    JsonValue& value = doc_.values.emplace_back();
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      value.kind = c == '{' ? JsonKind::kObject : JsonKind::kArray;
      ++pos_;
      stack_.push_back({c == '{' ? '}' : ']', doc_.values.size() - 1});
      skip_whitespace();
      if (consume(stack_.back().close)) {
        stack_.pop_back();
        return Step::kValueDone;
      }
      return value.kind == JsonKind::kObject && !parse_key() ? Step::kFail : Step::kNextValue;
    }
    if (c == '"') {
      value.kind = JsonKind::kString;
      auto s = parse_string();
      if (!s) return Step::kFail;
      value.text = std::move(*s);
    } else if (c == '-' || is_digit(c)) {
      value.kind = JsonKind::kNumber;
      const size_t start = pos_;
      if (!parse_number()) return Step::kFail;
      value.text = std::string(text_.substr(start, pos_ - start));
    } else {
      value.kind = JsonKind::kLiteral;
      const size_t start = pos_;
      if (!parse_literal()) return Step::kFail;
      value.text = std::string(text_.substr(start, pos_ - start));
    }
    return Step::kValueDone;
  }

  // After a value: closes its container, moves past a comma (and the next
  // key) to the next element, or, at the top, requires the end of the text.
  Step after_value() {
    skip_whitespace();
    if (stack_.empty()) return at_end() ? Step::kEnd : Step::kFail;
    if (consume(',')) {
      return stack_.back().close == '}' && !parse_key() ? Step::kFail : Step::kNextValue;
    }
    if (!consume(stack_.back().close)) return Step::kFail;
    stack_.pop_back();
    return Step::kValueDone;
  }

  bool at_end() const { return pos_ >= text_.size(); }

  void skip_whitespace() {
    while (!at_end() && is_json_whitespace(text_[pos_])) ++pos_;
  }

  bool consume(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // `"key" :` of a member of the innermost open object, whose keys it joins.
  bool parse_key() {
    skip_whitespace();
    if (at_end() || text_[pos_] != '"') return false;
    auto key = parse_string();
    if (!key) return false;
    skip_whitespace();
    if (!consume(':')) return false;
    doc_.values[stack_.back().value].keys.push_back(std::move(*key));
    return true;
  }

  // The unescaped contents of the string starting at the opening quote.
  std::optional<std::string> parse_string() {
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (at_end()) return std::nullopt;
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) return std::nullopt;
      switch (text_[pos_++]) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          auto cp = parse_unicode_escape();
          if (!cp) return std::nullopt;
          append_utf8(out, *cp);
          break;
        }
        default:
          return std::nullopt;
      }
    }
  }

  // The code point of `XXXX` (after "\u"), joining a surrogate pair written as
  // "\uD8xx\uDCxx"; unpaired surrogates are errors.
  std::optional<uint32_t> parse_unicode_escape() {
    auto high = parse_hex4();
    if (!high) return std::nullopt;
    if (*high >= 0xDC00 && *high <= 0xDFFF) return std::nullopt;
    if (*high < 0xD800 || *high > 0xDBFF) return high;
    if (!consume('\\') || !consume('u')) return std::nullopt;
    auto low = parse_hex4();
    if (!low || *low < 0xDC00 || *low > 0xDFFF) return std::nullopt;
    return 0x10000 + ((*high - 0xD800) << 10) + (*low - 0xDC00);
  }

  std::optional<uint32_t> parse_hex4() {
    if (text_.size() - pos_ < 4) return std::nullopt;
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_value(text_[pos_++]);
      if (digit < 0) return std::nullopt;
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    return value;
  }

  // number = [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ("e"/"E") [ "+"/"-" ] 1*DIGIT ]
  bool parse_number() {
    consume('-');
    if (consume('0')) {
      // a leading zero stands alone
    } else if (!skip_digits()) {
      return false;
    }
    if (consume('.') && !skip_digits()) return false;
    if (consume('e') || consume('E')) {
      if (!consume('+')) consume('-');
      if (!skip_digits()) return false;
    }
    return true;
  }

  // Skips one or more digits; false if there is none.
  bool skip_digits() {
    const size_t start = pos_;
    while (!at_end() && is_digit(text_[pos_])) ++pos_;
    return pos_ > start;
  }

  bool parse_literal() {
    for (std::string_view literal : {"true", "false", "null"}) {
      if (text_.substr(pos_, literal.size()) == literal) {
        pos_ += literal.size();
        return true;
      }
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
  // An open container: its closing bracket and its place in doc_.values.
  struct Open {
    char close;
    size_t value;
  };
  std::vector<Open> stack_;  // innermost last
  JsonDocument doc_{};
};

// Decodes the UTF-8 sequence at bytes[i], advancing i; false if invalid.
bool decode_utf8(std::string_view bytes, size_t& i) {
  const auto lead = static_cast<unsigned char>(bytes[i]);
  int continuation;
  uint32_t cp;
  if (lead < 0x80) {
    ++i;
    return true;
  } else if (lead >= 0xC0 && lead < 0xE0) {
    continuation = 1;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead < 0xF0) {
    continuation = 2;
    cp = lead & 0x0F;
  } else if (lead >= 0xF0 && lead < 0xF8) {
    continuation = 3;
    cp = lead & 0x07;
  } else {
    return false;  // a continuation byte or 0xF8..0xFF as lead
  }
  if (bytes.size() - i <= static_cast<size_t>(continuation)) return false;
  for (int k = 1; k <= continuation; ++k) {
    const auto b = static_cast<unsigned char>(bytes[i + k]);
    if ((b & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (b & 0x3F);
  }
  constexpr uint32_t kMinimum[4] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[continuation]) return false;   // overlong
  if (cp >= 0xD800 && cp <= 0xDFFF) return false;  // UTF-16 surrogate
  if (cp > 0x10FFFF) return false;
  i += 1 + continuation;
  return true;
}

bool is_valid_app_id(std::string_view id) {
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c);
  });
}

// What a missing, repeated or non-string field is rejected as.
struct FieldReasons {
  logagg::Reason missing, duplicate, not_string;
};

// The unescaped string value (or, if `numbers` are taken, the number as
// written) of the field at `steps`, or why the line is rejected for it.
struct FieldLookup {
  std::optional<logagg::Reason> error;
  std::string value;
};

FieldLookup find_field(const JsonDocument& doc, const std::vector<std::string>& steps,
                       const FieldReasons& reasons, bool numbers = false) {
  const JsonValue* at = &doc.top();
  for (const std::string& step : steps) {
    // The children this step names: members with the step as key, or the
    // element whose index the step spells (std::to_string writes no leading
    // zeros); a scalar has no children.
    std::vector<size_t> named;
    if (at->kind == JsonKind::kObject) {
      for (size_t i = 0; i < at->keys.size(); ++i) {
        if (at->keys[i] == step) named.push_back(at->children[i]);
      }
    } else if (at->kind == JsonKind::kArray) {
      for (size_t i = 0; i < at->children.size(); ++i) {
        if (std::to_string(i) == step) named.push_back(at->children[i]);
      }
    }
    if (named.size() > 1) return {reasons.duplicate, {}};
    if (named.empty()) return {reasons.missing, {}};
    at = &doc.values[named.front()];
  }
  if (at->kind != JsonKind::kString && !(numbers && at->kind == JsonKind::kNumber)) {
    return {reasons.not_string, {}};
  }
  return {std::nullopt, at->text};
}

int number_at(std::string_view text, size_t pos, size_t len) {
  return std::stoi(std::string(text.substr(pos, len)));
}

int64_t floor_mod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

// Options with the two fields and the limit, and every other setting as it
// is by default.
logagg::Options default_rules(const std::string& app_field, const std::string& time_field,
                              size_t max_line_bytes) {
  logagg::Options options;
  options.app_field = app_field;
  options.time_field = time_field;
  options.max_line_bytes = max_line_bytes;
  return options;
}

constexpr const char* kReasonNames[logagg::kReasonCount] = {
    "line_too_long",  "invalid_json",    "not_object", "missing_app",
    "duplicate_app",  "app_not_string",  "bad_app",    "missing_time",
    "duplicate_time", "time_not_string", "bad_time",
};

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    if (!decode_utf8(bytes, i)) return false;
  }
  return true;
}

std::optional<JsonDocument> parse_json(std::string_view text) {
  if (!is_valid_utf8(text)) return std::nullopt;
  return JsonParser(text).parse();
}

std::optional<std::vector<std::string>> field_steps(std::string_view name) {
  if (!name.starts_with('/')) return std::vector<std::string>{std::string(name)};
  std::vector<std::string> steps;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const char next = i + 1 < name.size() ? name[i + 1] : '\0';
    if (c == '/') {
      steps.emplace_back();
    } else if (c != '~') {
      steps.back() += c;
    } else if (next == '0' || next == '1') {
      steps.back() += next == '0' ? '~' : '/';
      ++i;
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

std::optional<int64_t> rfc3339_second(std::string_view text) {
  // The fixed-width part: d = digit, S = date/time separator, others literal.
  constexpr std::string_view kPattern = "dddd-dd-ddSdd:dd:dd";
  if (text.size() < kPattern.size()) return std::nullopt;
  for (size_t i = 0; i < kPattern.size(); ++i) {
    const char c = text[i];
    const bool ok = kPattern[i] == 'd'   ? is_digit(c)
                    : kPattern[i] == 'S' ? (c == 'T' || c == 't' || c == ' ')
                                         : c == kPattern[i];
    if (!ok) return std::nullopt;
  }

  size_t pos = kPattern.size();
  if (pos < text.size() && text[pos] == '.') {
    const size_t first_digit = ++pos;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    if (pos == first_digit) return std::nullopt;
  }

  const std::string_view zone = text.substr(pos);
  int offset_minutes = 0;
  if (zone == "Z" || zone == "z") {
    offset_minutes = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && is_digit(zone[1]) &&
             is_digit(zone[2]) && zone[3] == ':' && is_digit(zone[4]) && is_digit(zone[5])) {
    const int hours = number_at(zone, 1, 2);
    const int minutes = number_at(zone, 4, 2);
    if (hours > 23 || minutes > 59) return std::nullopt;
    offset_minutes = (zone[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
  } else {
    return std::nullopt;
  }

  const int year = number_at(text, 0, 4);
  const int month = number_at(text, 5, 2);
  const int day = number_at(text, 8, 2);
  const int hour = number_at(text, 11, 2);
  const int minute = number_at(text, 14, 2);
  const int second = number_at(text, 17, 2);
  const date::year_month_day ymd{date::year{year}, date::month(static_cast<unsigned>(month)),
                                 date::day(static_cast<unsigned>(day))};
  if (year < 0 || !ymd.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;

  // A leap second is counted in the second before it, 23:59:59 UTC.
  const int64_t days = date::sys_days{ymd}.time_since_epoch().count();
  const int64_t local = days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59);
  const int64_t utc = local - int64_t{offset_minutes} * 60;
  if (second == 60 && floor_mod(utc, 86400) != 86399) return std::nullopt;
  return utc;
}

// The keys and filters of `options` (reference/keys.cc).
std::shared_ptr<const KeyRules> make_key_rules(const logagg::Options& options);

Rules::Rules(const logagg::Options& options)
    : max_line_bytes_(options.max_line_bytes),
      has_app_(options.app_field != logagg::kNoAppField),
      keyed_(options.by_app || !options.by.empty()),
      by_app_(options.by_app),
      keys_(make_key_rules(options)) {
  const std::optional<std::vector<std::string>> app = field_steps(has_app_ ? options.app_field : "app_id");
  const std::optional<std::vector<std::string>> time = field_steps(options.time_field);
  if (!app || !time) {
    throw std::invalid_argument("not a field name: " + quoted(app ? options.time_field : options.app_field));
  }
  app_steps_ = *app;
  time_steps_ = *time;
  if (options.app_pattern != logagg::kDefaultAppPattern) {
    re2::RE2::Options quiet;
    quiet.set_log_errors(false);
    auto pattern = std::make_shared<const re2::RE2>(options.app_pattern, quiet);
    if (!pattern->ok()) throw std::invalid_argument("app pattern: " + pattern->error());
    app_pattern_ = std::move(pattern);
  }
  const std::string& format = options.time_format;
  constexpr std::pair<std::string_view, int> kEpochs[] = {{"unix", 0}, {"unix-ms", 3}, {"unix-us", 6}, {"unix-ns", 9}};
  for (const auto& [name, digits] : kEpochs) {
    if (format == name) epoch_digits_ = digits;
  }
  if (format == "clf") {
    time_pattern_ = TimePattern::clf();
  } else if (format.find('%') != std::string::npos) {
    time_pattern_.emplace(format, options.input_tz);
  } else if (format != "rfc3339" && epoch_digits_ < 0) {
    throw std::invalid_argument("no time format " + quoted(format));
  }
}

bool Rules::app_matches(std::string_view id) const {
  return app_pattern_ ? re2::RE2::FullMatch(id, *app_pattern_) : is_valid_app_id(id);
}

std::optional<int64_t> Rules::second(std::string_view text) const {
  if (epoch_digits_ >= 0) return epoch_second(text, epoch_digits_);
  if (time_pattern_) return time_pattern_->second(text);
  return rfc3339_second(text);
}

logagg::LineVerdict classify(std::string_view line, const std::string& app_field,
                             const std::string& time_field, size_t max_line_bytes, std::string* app_out) {
  return classify(line, Rules(default_rules(app_field, time_field, max_line_bytes)), app_out);
}

logagg::LineVerdict classify(std::string_view line, const Rules& rules, std::string* app_out, KeyTuple* keyed) {
  using logagg::LineVerdict;
  using logagg::Reason;
  // A blank line is blank at any length; the limit applies to the others.
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return LineVerdict::blank();
  if (line.size() > rules.max_line_bytes()) return LineVerdict::rejected(Reason::kLineTooLong);

  const std::optional<JsonDocument> doc = parse_json(line);
  if (!doc) return LineVerdict::rejected(Reason::kInvalidJson);
  if (doc->top().kind != JsonKind::kObject) return LineVerdict::rejected(Reason::kNotObject);

  FieldLookup app;
  if (rules.has_app()) {
    app = find_field(*doc, rules.app_steps(), {Reason::kMissingApp, Reason::kDuplicateApp, Reason::kAppNotString});
    if (app.error) return LineVerdict::rejected(*app.error);
    if (!rules.app_matches(app.value)) return LineVerdict::rejected(Reason::kBadApp);
  }

  const FieldLookup time = find_field(*doc, rules.time_steps(),
                                      {Reason::kMissingTime, Reason::kDuplicateTime, Reason::kTimeNotString},
                                      rules.numeric_time());
  if (time.error) return LineVerdict::rejected(*time.error);
  const std::optional<int64_t> second = rules.second(time.value);
  if (!second) return LineVerdict::rejected(Reason::kBadTime);
  const Rules::Keyed keys = rules.keys_of(*doc, app.value);
  if (keys.failed_filter) return LineVerdict::filtered(static_cast<uint8_t>(*keys.failed_filter), keys.field_kinds);
  if (app_out != nullptr) *app_out = app.value;
  if (keyed != nullptr) *keyed = keys.tuple;
  LineVerdict v = LineVerdict::counted(*second);
  v.no_value = static_cast<uint8_t>(keys.no_value);
  v.field_kinds = keys.field_kinds;
  return v;
}

std::vector<std::string_view> split_lines(std::string_view data) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (data.substr(0, kBom.size()) == kBom) data.remove_prefix(kBom.size());
  std::vector<std::string_view> lines;
  while (!data.empty()) {
    const size_t lf = data.find('\n');
    std::string_view line = data.substr(0, lf);
    data = lf == std::string_view::npos ? std::string_view{} : data.substr(lf + 1);
    if (lf != std::string_view::npos && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
  }
  return lines;
}

Aggregate aggregate_buffer(std::string_view data, const std::string& app_field,
                           const std::string& time_field, size_t max_line_bytes) {
  return aggregate_buffer(data, Rules(default_rules(app_field, time_field, max_line_bytes)));
}

Aggregate aggregate_buffer(std::string_view data, const Rules& rules) {
  Aggregate result;
  result.filtered_by.resize(rules.filter_count());
  result.no_value.resize(rules.key_count());
  result.fields.resize(rules.field_count());
  const auto tally_fields = [&](uint32_t kinds) {
    for (size_t i = 0; i < result.fields.size(); ++i) {
      logagg::FieldTally& t = result.fields[i];
      uint64_t* const by_kind[] = {&t.absent, &t.numbers, &t.strings, &t.others};
      ++*by_kind[(kinds >> (2 * i)) & 3u];
    }
  };
  std::string app;
  KeyTuple tuple;
  for (std::string_view line : split_lines(data)) {
    const logagg::LineVerdict v = classify(line, rules, &app, &tuple);
    ++result.lines;
    switch (v.status) {
      case logagg::LineStatus::kCounted:
        ++result.counted;
        ++result.counts[v.second];
        ++result.app_counts[{v.second, app}];
        if (rules.keyed()) ++result.key_counts[{v.second, tuple}];
        for (size_t i = 0; i < result.no_value.size(); ++i) result.no_value[i] += (v.no_value >> i) & 1u;
        tally_fields(v.field_kinds);
        break;
      case logagg::LineStatus::kFiltered:
        ++result.filtered_by[v.filter];
        tally_fields(v.field_kinds);
        break;
      case logagg::LineStatus::kBlank:
        ++result.blank;
        break;
      case logagg::LineStatus::kRejected:
        ++result.rejected[static_cast<size_t>(v.reason)];
        break;
    }
  }
  return result;
}

bool same_verdict(const logagg::LineVerdict& a, const logagg::LineVerdict& b) {
  if (a.status != b.status) return false;
  if (a.status == logagg::LineStatus::kRejected) return a.reason == b.reason;
  if (a.status == logagg::LineStatus::kCounted) return a.second == b.second;
  if (a.status == logagg::LineStatus::kFiltered) return a.filter == b.filter;
  return true;
}

std::string describe(const logagg::LineVerdict& v) {
  switch (v.status) {
    case logagg::LineStatus::kCounted:
      return "counted " + std::to_string(v.second);
    case logagg::LineStatus::kBlank:
      return "blank";
    case logagg::LineStatus::kRejected: {
      const auto index = static_cast<size_t>(v.reason);
      return std::string("rejected ") +
             (index < logagg::kReasonCount ? kReasonNames[index] : "<bad reason>");
    }
    case logagg::LineStatus::kFiltered:
      return "filtered by " + std::to_string(v.filter);
  }
  return "<bad status>";
}

std::string utf8(std::u32string_view code_points) {
  std::string out;
  for (const char32_t cp : code_points) append_utf8(out, cp);
  return out;
}

std::string quoted(std::string_view bytes) {
  std::string out = "\"";
  for (const char c : bytes) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        if (c >= 0x20 && c < 0x7F) {
          out += c;
        } else {
          // Close the literal after \xNN so a following hex digit is not absorbed.
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02X\"\"", static_cast<unsigned char>(c));
          out += hex;
        }
    }
  }
  return out + "\"";
}

std::string Timestamp::text() const {
  char head[32];
  std::snprintf(head, sizeof head, "%04d-%02d-%02d%c%02d:%02d:%02d", year, month, day, separator,
                hour, minute, second);
  return head + (fraction.empty() ? "" : "." + fraction) + zone;
}

Timestamp random_timestamp(std::mt19937_64& rng, const TimestampLimits& limits) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto one_in = [&uniform](int n) { return uniform(1, n) == 1; };
  // Mostly uniform, sometimes the top or bottom of the range.
  auto edgy = [&](int lo, int hi) { return one_in(4) ? (one_in(2) ? lo : hi) : uniform(lo, hi); };

  Timestamp t{};
  t.year = one_in(8) ? (one_in(2) ? 2000 : 1900) : edgy(1, 9999);
  t.month = edgy(1, 12);
  const auto last_day = (date::year{t.year} / t.month / date::last).day();
  t.day = edgy(1, static_cast<int>(static_cast<unsigned>(last_day)));
  t.hour = edgy(0, 23);
  t.minute = edgy(0, 59);
  t.second = edgy(0, 59);
  t.separator = "Tt "[uniform(0, 2)];

  const size_t digits = std::uniform_int_distribution<size_t>(0, limits.max_fraction_digits)(rng);
  for (size_t i = 0; i < digits; ++i) t.fraction += static_cast<char>('0' + edgy(0, 9));

  int offset = 0;  // minutes east of UTC
  if (one_in(2)) {
    constexpr std::string_view kUtcZones[] = {"Z", "z", "+00:00", "-00:00"};
    t.zone = std::string(kUtcZones[uniform(0, 3)]);
  } else {
    offset = edgy(-(23 * 60 + 59), 23 * 60 + 59);
    char zone[16];
    std::snprintf(zone, sizeof zone, "%c%02d:%02d", offset < 0 ? '-' : '+', std::abs(offset) / 60,
                  std::abs(offset) % 60);
    t.zone = zone;
  }
  if (limits.leap_seconds && one_in(16)) {
    // Local time-of-day that is 23:59 UTC, then second 60.
    const int local = static_cast<int>(floor_mod(23 * 60 + 59 + offset, 24 * 60));
    t.hour = local / 60;
    t.minute = local % 60;
    t.second = 60;
  }
  return t;
}

Timestamp timestamp_at(int64_t utc, std::mt19937_64& rng) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Timestamp t{};
  int offset = 0;  // minutes east of UTC
  constexpr std::string_view kUtcZones[] = {"Z", "z", "+00:00", "-00:00"};
  if (uniform(0, 1) == 0) {
    t.zone = std::string(kUtcZones[uniform(0, 3)]);
  } else {
    offset = uniform(-(23 * 60 + 59), 23 * 60 + 59);
    char zone[16];
    std::snprintf(zone, sizeof zone, "%c%02d:%02d", offset < 0 ? '-' : '+', std::abs(offset) / 60,
                  std::abs(offset) % 60);
    t.zone = zone;
  }
  const date::sys_seconds local{std::chrono::seconds(utc + offset * 60)};
  const auto day = date::floor<date::days>(local);
  const date::year_month_day ymd{day};
  const date::hh_mm_ss<std::chrono::seconds> time{local - day};
  t.year = static_cast<int>(ymd.year());
  t.month = static_cast<int>(static_cast<unsigned>(ymd.month()));
  t.day = static_cast<int>(static_cast<unsigned>(ymd.day()));
  t.hour = static_cast<int>(time.hours().count());
  t.minute = static_cast<int>(time.minutes().count());
  t.second = static_cast<int>(time.seconds().count());
  t.separator = "Tt "[uniform(0, 2)];
  for (int n = uniform(0, 1) == 0 ? 0 : uniform(1, 12); n > 0; --n) t.fraction += static_cast<char>('0' + uniform(0, 9));
  return t;
}

Timestamp near_valid_timestamp(std::mt19937_64& rng, std::optional<int64_t> utc) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Timestamp t = utc ? timestamp_at(*utc, rng) : random_timestamp(rng);
  // Minutes east of UTC of the zone written, and a zone with that offset.
  auto offset_of = [](const std::string& zone) {
    if (zone.size() != 6) return 0;
    const int minutes = std::stoi(zone.substr(1, 2)) * 60 + std::stoi(zone.substr(4, 2));
    return zone[0] == '-' ? -minutes : minutes;
  };
  auto zone = [](char sign, int hours, int minutes) {
    char text[16];
    std::snprintf(text, sizeof text, "%c%02d:%02d", sign, hours, minutes);
    return std::string(text);
  };
  const char sign = uniform(0, 1) == 0 ? '+' : '-';
  switch (uniform(0, 13)) {
    case 0:  // hour 24, also as 24:00:00
      t.hour = 24;
      if (uniform(0, 1) == 0) t.minute = t.second = 0;
      break;
    case 1:
      t.minute = 60;
      break;
    case 2:
    case 3: {  // second 60 in the last UTC minute of the day (valid), or one minute off it
      const int utc_minute = std::array<int, 4>{23 * 60 + 59, 23 * 60 + 59, 23 * 60 + 58, 0}[uniform(0, 3)];
      const int local = ((utc_minute + offset_of(t.zone)) % 1440 + 1440) % 1440;
      t.hour = local / 60;
      t.minute = local % 60;
      t.second = uniform(0, 4) == 0 ? 61 : 60;
      break;
    }
    case 4: {  // day 31 of a 30-day month
      constexpr int kThirty[] = {4, 6, 9, 11};
      t.month = kThirty[uniform(0, 3)];
      t.day = uniform(0, 3) == 0 ? 30 : 31;
      break;
    }
    case 5: {  // Feb 29: valid in leap years only; Feb 30 never
      constexpr int kYears[] = {1, 1900, 2023, 2100, 9999, 2000, 2024, 2400, 4, 0};
      t.year = kYears[uniform(0, 9)];
      t.month = 2;
      t.day = uniform(0, 4) == 0 ? 30 : 29;
      break;
    }
    case 6:
      t.day = 0;
      break;
    case 7:
      t.month = uniform(0, 1) == 0 ? 0 : 13;
      break;
    case 8:  // the last valid day of the month, or the day after it
      t.day = static_cast<int>(static_cast<unsigned>((date::year{t.year} / t.month / date::last).day())) +
              uniform(0, 1);
      break;
    case 9:  // offset hours 24 (invalid) or 23 (valid)
      t.zone = zone(sign, uniform(23, 24), uniform(0, 1) == 0 ? 0 : 59);
      break;
    case 10:  // offset minutes 60 (invalid) or 59 (valid)
      t.zone = zone(sign, uniform(0, 23), uniform(59, 60));
      break;
    case 11:  // hh:mm:ss at their highest valid values
      t.hour = 23;
      t.minute = 59;
      t.second = 59;
      break;
    case 12:  // years at the ends of the range, pushed across them by the offset
      t.year = uniform(0, 1) == 0 ? 0 : 9999;
      t.zone = zone(t.year == 0 ? '+' : '-', 23, 59);
      break;
    default:  // second 60 at 23:59 local time in a zone that is not UTC
      t.hour = 23;
      t.minute = 59;
      t.second = 60;
      break;
  }
  return t;
}

void mutate(std::string& text, std::mt19937_64& rng, std::string_view palette, int edits) {
  auto index = [&rng](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  auto random_byte = [&] { return palette[index(palette.size())]; };
  for (int i = 0; i < edits; ++i) {
    const size_t at = index(text.size() + 1);
    switch (index(6)) {
      case 0:  // insert
        text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), random_byte());
        break;
      case 1:  // replace
        if (at < text.size()) text[at] = random_byte();
        break;
      case 2:  // delete
        if (at < text.size()) text.erase(at, 1);
        break;
      case 3:  // duplicate a run
        text.insert(at, text.substr(at, index(8) + 1));
        break;
      case 4:  // drop a run
        text.erase(at, std::min(text.size() - at, index(8) + 1));
        break;
      case 5:  // truncate
        text.resize(at);
        break;
    }
  }
}

}  // namespace reference
