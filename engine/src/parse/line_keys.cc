// Compiling --by keys, --where filters and the measured fields, and a line's
// key tuple and measures (see line_keys.h).
#include "parse/line_keys.h"

#include <stdexcept>

#include "parse/short_measure.h"  // measure_of
#include "parse/where_holds.h"
#include "text/ascii.h"

namespace logagg {
namespace {

// The target of `name`'s field among those gathered so far, added if new.
int target_of(const char* option, const std::string& name, const FieldPath* app, const FieldPath& time, KeyRules& rules,
              std::string_view named_by) {
  std::vector<FieldPath>& fields = rules.fields;
  FieldPath path;
  try {
    path = parse_field_path(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(option) + " " + name + ": " + e.what());
  }
  const auto same_or_apart = [&](const FieldPath& other, const char* what) {
    if (other.steps == path.steps) return true;
    if (paths_overlap(other, path)) {
      throw std::invalid_argument(std::string(option) + " " + name + ": inside or around the " + what +
                                  "; name a field apart from it");
    }
    return false;
  };
  if (app != nullptr && same_or_apart(*app, "app field")) return kApp;
  if (same_or_apart(time, "time field")) return kTime;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (same_or_apart(fields[i], "field of another --by or --where")) return KeyRules::kExtra + static_cast<int>(i);
  }
  if (KeyRules::kExtra + fields.size() >= kMaxTargets) {
    throw std::invalid_argument(std::string(option) + " " + name + ": at most " +
                                std::to_string(kMaxTargets - KeyRules::kExtra) +
                                " distinct fields in --by and --where together");
  }
  fields.push_back(std::move(path));
  rules.names.push_back(name);
  rules.named_by.emplace_back(named_by);
  return KeyRules::kExtra + static_cast<int>(fields.size() - 1);
}

// The option that names a key: --by, --by-status-class or --by-path-prefix.
std::string key_flag(const KeyField& key) {
  switch (key.kind) {
    case KeyField::Kind::kStatusClass:
      return "--by-status-class";
    case KeyField::Kind::kPathPrefix:
      return "--by-path-prefix";
    case KeyField::Kind::kValue:
      break;
  }
  return "--by";
}

// The key as its option wrote it: "--by host", "--by-path-prefix 2 url".
std::string key_option(const KeyField& key) {
  const std::string segments = key.kind == KeyField::Kind::kPathPrefix ? std::to_string(key.segments) + " " : "";
  return key_flag(key) + " " + segments + key.field;
}

// Refuses a key that shows what another key or --by-app already shows: the
// same field (however spelt: "host" and "/host") with the same derivation,
// or the app field beside --by-app.
void refuse_twice(const KeyField& key, const KeyRules::Key& added, const std::vector<KeyRules::Key>& keys,
                  const Question& question) {
  const std::string named = key_flag(key) + " " + key.field;
  if (question.by_app && added.target == kApp && added.kind == KeyField::Kind::kValue) {
    throw std::invalid_argument(named + ": the app field, which --by-app already shows; drop one");
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].target == added.target && keys[i].kind == added.kind && keys[i].segments == added.segments) {
      throw std::invalid_argument(named + ": the same key as " + question.by[i].column() +
                                  ", named twice; each key is one column");
    }
  }
}

}  // namespace

KeyRules KeyRules::of(const Question& question, const MeasureSpec& measures, const FieldPath* app,
                      const FieldPath& time) {
  KeyRules rules;
  if (question.by.size() + (question.by_app ? 1 : 0) > kMaxKeyFields) {
    throw std::invalid_argument("--by: at most " + std::to_string(kMaxKeyFields) + " keys (--by-app counts as one)");
  }
  if (question.by_app && app == nullptr) {
    throw std::invalid_argument("--by-app: no app field with --app-field none");
  }
  for (const KeyField& key : question.by) {
    if (key.kind == KeyField::Kind::kPathPrefix && key.segments == 0) {
      throw std::invalid_argument("--by-path-prefix: N must be 1 or more");
    }
    const Key added{target_of("--by", key.field, app, time, rules, key_option(key)), key.kind, key.segments};
    refuse_twice(key, added, rules.keys, question);
    rules.keys.push_back(added);
  }
  rules.key_app = question.by_app && !question.by.empty();
  if (question.where.size() > 255) throw std::invalid_argument("--where: at most 255 filters");
  for (const std::string& expression : question.where) {
    Filter filter = Filter::parse(expression);
    const int target = target_of("--where", filter.field(), app, time, rules, "--where " + expression);
    rules.filters.emplace_back(target, std::move(filter));
  }
  for (const MeasureSpec::Field& field : measures.fields) {
    const std::string option = field.summed ? "--sum" : "--quantiles";
    const int target = target_of(option.c_str(), field.name, app, time, rules, option + " " + field.name);
    const unsigned forms = (field.keeps_sum() ? kExactForm : 0) | (field.quantiled ? kRealForm : 0);
    rules.measures.push_back({target, static_cast<MeasureForms>(forms)});
  }
  if (question.count_if.size() > 64) throw std::invalid_argument("--count-if: at most 64 predicates");
  for (const std::string& expression : question.count_if) {
    Filter predicate = [&] {
      try {
        return Filter::parse(expression);
      } catch (const std::invalid_argument& e) {  // the grammar's message, named for this option
        const std::string_view what = e.what();
        throw std::invalid_argument("--count-if" + std::string(what.substr(what.starts_with("--where") ? 7 : 0)));
      }
    }();
    const int target = target_of("--count-if", predicate.field(), app, time, rules, "--count-if " + expression);
    rules.count_if.emplace_back(target, std::move(predicate));
  }
  return rules;
}

std::string_view status_class(std::string_view value) {
  static constexpr std::string_view kClasses[] = {"1xx", "2xx", "3xx", "4xx", "5xx"};
  if (value.size() == 3 && value[0] >= '1' && value[0] <= '5' && is_digit(value[1]) && is_digit(value[2])) {
    return kClasses[value[0] - '1'];
  }
  return "other";
}

namespace {

// The path of a request target: a path ("/a/b?x") as it is; an absolute
// URL's path, query and fragment ("https://h:8080/a/b?x" -> "/a/b?x", "/" for
// "https://h" or "https://h?x"); nullopt for anything else ("", "api/v1",
// "*", "mailto:x").
std::optional<std::string_view> request_path(std::string_view value) {
  if (!value.empty() && value[0] == '/') return value;
  // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then "://" and the authority.
  size_t at = 0;
  while (at < value.size() && (is_alpha(value[at]) || (at > 0 && (is_digit(value[at]) || value[at] == '+' ||
                                                                  value[at] == '-' || value[at] == '.')))) {
    ++at;
  }
  if (at == 0 || value.substr(at, 3) != "://") return std::nullopt;
  const size_t path = value.find_first_of("/?#", at + 3);
  if (path == std::string_view::npos || value[path] != '/') return std::string_view("/");
  return value.substr(path);
}

}  // namespace

std::string_view path_prefix(std::string_view value, unsigned segments) {
  const std::optional<std::string_view> path = request_path(value);
  if (!path) return "other";
  value = path->substr(0, path->find_first_of("?#"));
  size_t at = 1;
  for (unsigned n = 0; n < segments; ++n) {
    const size_t slash = value.find('/', at);
    if (slash == std::string_view::npos) return value;
    if (n + 1 == segments) return value.substr(0, slash);
    at = slash + 1;
  }
  return value;
}

std::string_view LineKeys::derived_key(const KeyRules::Key& key, std::string_view value) {
  switch (key.kind) {
    case KeyField::Kind::kValue:
      break;
    case KeyField::Kind::kStatusClass:
      return status_class(value);
    case KeyField::Kind::kPathPrefix:
      return path_prefix(value, key.segments);
  }
  return value;
}

void LineKeys::apply_rules(LineVerdict& v, const FieldTarget* targets) {
  uint32_t kinds = 0;
  const FieldTarget* field = targets + KeyRules::kExtra;
  for (uint32_t shift = 0; shift < 2 * field_count_; shift += 2, ++field) kinds |= field->seen.kind() << shift;
  v.field_kinds = kinds;
  for (size_t i = 0; i < rules_.filters.size(); ++i) {
    const auto& [target, filter] = rules_.filters[i];
    if (!filter.holds(targets[target].seen)) {
      v = LineVerdict::filtered(static_cast<uint8_t>(i), kinds);
      return;
    }
  }
  if (rules_.measured()) v.measures = &read_measures(targets, kinds);
  const std::vector<KeyRules::Key>& keys = rules_.keys;
  if (keys.empty()) return;
  if (keys.size() == 1 && !rules_.key_app) {
    one_key(v, targets);
    return;
  }
  tuple_.clear();
  if (rules_.key_app) tuple_.append(v.app);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 || rules_.key_app) tuple_.push_back(kKeySeparator);
    std::string_view text;
    if (!key_text(keys[i], targets, text)) v.no_value |= static_cast<uint8_t>(1u << i);
    tuple_.append(text);
  }
  v.app = tuple_;
}

namespace {

// A measured field's value in the forms kForms, into `value`: its short
// number (FieldSeen::short_number), else the whole reading of its text.
template <MeasureForms kForms>
[[gnu::always_inline]] inline bool read_seen_measure(const FieldSeen& seen, MeasureValue& value) {
  ShortNumber n;
  return (seen.short_number(n) && measure_of<kForms>(n, seen.text, value)) || read_long_measure(seen.text, value);
}

// A measured field's value in the forms its measures use, into `value`,
// from its record and its kind (FieldSeen::kind): only a number or a
// string has one. False for none.
[[gnu::always_inline]] inline bool read_field_measure(const FieldSeen& seen, uint32_t kind, KeyRules::Measured field,
                                                      MeasureValue& value) {
  if (kind != static_cast<uint32_t>(FieldKind::kNumber) && kind != static_cast<uint32_t>(FieldKind::kString)) {
    return false;
  }
  return field.forms == kExactForm  ? read_seen_measure<kExactForm>(seen, value)
         : field.forms == kRealForm ? read_seen_measure<kRealForm>(seen, value)
                                    : read_seen_measure<kAllForms>(seen, value);
}

}  // namespace

void LineKeys::one_measure(LineVerdict& v, const FieldTarget* targets) {
  const FieldSeen& seen = targets[first_measure_.target].seen;
  const uint32_t kind = seen.kind();
  v.field_kinds = field_count_ == 0 ? 0 : kind;  // a field of the question's own is the measured one
  measures_.usable = read_field_measure(seen, kind, first_measure_, measures_.values[0]) ? 1 : 0;
  v.measures = &measures_;  // measures_.matched: 0, as no predicate is asked
}

// `kinds`: the kinds of the question's own fields (LineVerdict::field_kinds).
inline const LineMeasures& LineKeys::read_measures(const FieldTarget* targets, uint32_t kinds) {
  static_assert(kMaxTargets <= 64, "LineMeasures::usable has a bit for each measured field");
  uint64_t usable = 0;
  for (size_t i = 0; i < rules_.measures.size(); ++i) {
    const int target = rules_.measures[i].target;
    const FieldSeen& seen = targets[target].seen;
    const uint32_t kind = target >= KeyRules::kExtra ? kinds >> 2 * (target - KeyRules::kExtra) & 3 : seen.kind();
    if (read_field_measure(seen, kind, rules_.measures[i], measures_.values[i])) usable |= uint64_t{1} << i;
  }
  measures_.usable = usable;
  measures_.matched = 0;
  for (size_t i = 0; i < rules_.count_if.size(); ++i) {
    const auto& [target, predicate] = rules_.count_if[i];
    if (predicate.holds(targets[target].seen)) measures_.matched |= uint64_t{1} << i;
  }
  return measures_;
}

}  // namespace logagg
