// Compiling --by keys and --where filters, and a line's key tuple (see
// line_keys.h).
#include "parse/line_keys.h"

#include <stdexcept>

#include "text/ascii.h"

namespace logagg {
namespace {

// The target of `name`'s field among those gathered so far, added if new.
int target_of(const char* option, const std::string& name, const FieldPath* app, const FieldPath& time,
              std::vector<FieldPath>& fields) {
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
  return KeyRules::kExtra + static_cast<int>(fields.size() - 1);
}

// Refuses a key that shows what another key or --by-app already shows: the
// same field (however spelt: "host" and "/host") with the same derivation,
// or the app field beside --by-app.
void refuse_twice(const KeyField& key, const KeyRules::Key& added, const std::vector<KeyRules::Key>& keys,
                  const Question& question) {
  const std::string flag = key.kind == KeyField::Kind::kStatusClass  ? "--by-status-class"
                           : key.kind == KeyField::Kind::kPathPrefix ? "--by-path-prefix"
                                                                     : "--by";
  if (question.by_app && added.target == kApp && added.kind == KeyField::Kind::kValue) {
    throw std::invalid_argument(flag + " " + key.field + ": the app field, which --by-app already shows; drop one");
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].target == added.target && keys[i].kind == added.kind && keys[i].segments == added.segments) {
      throw std::invalid_argument(flag + " " + key.field + ": the same key as " + question.by[i].column() +
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
    const Key added{target_of("--by", key.field, app, time, rules.fields), key.kind, key.segments};
    refuse_twice(key, added, rules.keys, question);
    rules.keys.push_back(added);
  }
  rules.key_app = question.by_app && !question.by.empty();
  if (question.where.size() > 255) throw std::invalid_argument("--where: at most 255 filters");
  for (const std::string& expression : question.where) {
    Filter filter = Filter::parse(expression);
    const int target = target_of("--where", filter.field(), app, time, rules.fields);
    rules.filters.emplace_back(target, std::move(filter));
  }
  for (const MeasureSpec::Field& field : measures.fields) {
    rules.measures.push_back(target_of(field.summed ? "--sum" : "--quantiles", field.name, app, time, rules.fields));
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
    const int target = target_of("--count-if", predicate.field(), app, time, rules.fields);
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

namespace {

// The text of one key of a line (nullopt: no value, kNoKey).
std::optional<std::string_view> key_text(const KeyRules::Key& key, const FieldTarget* targets) {
  const std::optional<std::string_view> value = targets[key.target].seen.value();
  if (!value) return std::nullopt;
  switch (key.kind) {
    case KeyField::Kind::kValue:
      return value;
    case KeyField::Kind::kStatusClass:
      return status_class(*value);
    case KeyField::Kind::kPathPrefix:
      return path_prefix(*value, key.segments);
  }
  return value;
}

}  // namespace

LineVerdict LineKeys::apply(LineVerdict v, const FieldTarget* targets) {
  for (size_t i = 0; i < rules_.filters.size(); ++i) {
    const auto& [target, filter] = rules_.filters[i];
    if (!filter.holds(targets[target].seen)) return LineVerdict::filtered(static_cast<uint8_t>(i));
  }
  if (rules_.measured()) v.measures = &read_measures(targets);
  const std::vector<KeyRules::Key>& keys = rules_.keys;
  if (keys.empty()) return v;
  if (keys.size() == 1 && !rules_.key_app) {  // one key: the tuple is its text, not copied
    const std::optional<std::string_view> text = key_text(keys[0], targets);
    v.app = text.value_or(kNoKey);
    v.no_value = text ? 0 : 1;
    return v;
  }
  tuple_.clear();
  if (rules_.key_app) tuple_.append(v.app);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 || rules_.key_app) tuple_.push_back(kKeySeparator);
    const std::optional<std::string_view> text = key_text(keys[i], targets);
    tuple_.append(text.value_or(kNoKey));
    if (!text) v.no_value |= static_cast<uint8_t>(1u << i);
  }
  v.app = tuple_;
  return v;
}

const LineMeasures& LineKeys::read_measures(const FieldTarget* targets) {
  measures_.values.resize(rules_.measures.size());
  for (size_t i = 0; i < rules_.measures.size(); ++i) {
    const std::optional<std::string_view> text = targets[rules_.measures[i]].seen.value();
    measures_.values[i] = text ? read_measure(*text) : std::nullopt;
  }
  measures_.matched = 0;
  for (size_t i = 0; i < rules_.count_if.size(); ++i) {
    const auto& [target, predicate] = rules_.count_if[i];
    if (predicate.holds(targets[target].seen)) measures_.matched |= uint64_t{1} << i;
  }
  return measures_;
}

}  // namespace logagg
