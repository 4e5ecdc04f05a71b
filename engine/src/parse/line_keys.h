// The keys, filters and measures of a line (--by, --by-status-class,
// --by-path-prefix, --where, --sum, --quantiles, --count-if): from the
// fields they read (KeyRules, line_rules.h, compiled once from the Query;
// KeyRules::of is in line_keys.cc) and what the walk of a line found in
// them, the line's verdict:
// filtered out by the first filter that fails, or counted under its key
// tuple (logagg/result.h). Shared by both line parsers, so both give the
// same keys.
//
// A key's text: a string's decoded text, a number or literal as written
// (200, true); kNoKey when the field is missing, an object or array, or
// there twice. Derived keys: the status class of a status written as a
// number or a string of three digits 100-599 ("2xx"; any other value:
// "other"); the path prefix, the value up to its first '?' or '#' and up to
// the '/' that ends its Nth segment ("/api/v1/orders/7?x" -> "/api/v1" for
// N = 2; a path of fewer segments whole).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/line_verdict.h"
#include "parse/field_targets.h"
#include "parse/line_rules.h"  // KeyRules

namespace logagg {

// One parser's scratch for the key tuple of the current line.
class LineKeys {
 public:
  explicit LineKeys(KeyRules rules)
      : rules_(std::move(rules)),
        field_count_(static_cast<uint32_t>(rules_.fields.size())),
        one_key_only_(rules_.keys.size() == 1 && !rules_.key_app && rules_.filters.empty() && !rules_.measured()),
        one_measure_only_(rules_.keys.empty() && rules_.filters.empty() && rules_.measures.size() == 1 &&
                          rules_.count_if.empty()),
        first_key_(rules_.keys.empty() ? KeyRules::Key{} : rules_.keys[0]),
        first_measure_(rules_.measures.empty() ? KeyRules::Measured{} : rules_.measures[0]) {
    measures_.values.resize(rules_.measures.size());
  }
  const KeyRules& rules() const { return rules_; }

  // Makes `v`, a line counted (its app id, if any, in v.app), the line's
  // verdict, given what the walk found for every target: filtered out, or
  // counted under its key tuple. The tuple and the measures are valid until
  // the next call. The most common question, one --by key and nothing else,
  // is answered here, inline in the walk's verdict; one measured field and
  // no --by key, filter or predicate (--sum F, --quantiles F, with or without
  // --by-app) without the general rules' loops.
  [[gnu::always_inline]] void apply(LineVerdict& v, const FieldTarget* targets) {
    if (!one_key_only_) {
      if (one_measure_only_) {
        one_measure(v, targets);
      } else {
        apply_rules(v, targets);
      }
      return;
    }
    v.field_kinds = one_field_kinds(targets);
    one_key(v, targets);
  }

 private:
  void apply_rules(LineVerdict& v, const FieldTarget* targets);
  void one_measure(LineVerdict& v, const FieldTarget* targets);
  // The field kinds of a question of at most one field (apply_rules: of each).
  uint32_t one_field_kinds(const FieldTarget* targets) const {
    return field_count_ == 0 ? 0 : targets[KeyRules::kExtra].seen.kind();
  }
  // A tuple of one key: its text, not copied, and whether it has a value.
  void one_key(LineVerdict& v, const FieldTarget* targets) const {
    std::string_view text;
    v.no_value = key_text(first_key_, targets, text) ? 0 : 1;
    v.app = text;
  }
  // The text of one key of a line, into `text`; false for no value (kNoKey).
  // Not an optional: returned from beside derived_key's call, it went through
  // memory, written a member at a time and read back whole, which the stores
  // could not forward (docs/bench-notes/2026-12-06-fields-and-cells.md).
  static bool key_text(const KeyRules::Key& key, const FieldTarget* targets, std::string_view& text) {
    const std::optional<std::string_view> value = targets[key.target].seen.value();
    if (!value) [[unlikely]] {
      text = kNoKey;
      return false;
    }
    text = key.kind == KeyField::Kind::kValue ? *value : derived_key(key, *value);
    return true;
  }
  // A key derived from its field's value (--by-status-class, --by-path-prefix).
  [[gnu::noinline]] static std::string_view derived_key(const KeyRules::Key& key, std::string_view value);
  [[gnu::always_inline]] const LineMeasures& read_measures(const FieldTarget* targets, uint32_t kinds);

  KeyRules rules_;
  uint32_t field_count_;              // rules_.fields' size, read for every line
  bool one_key_only_;                 // one --by key, and no filter or measure: the question apply() answers inline
  bool one_measure_only_;             // one measured field, and no key, filter or predicate: one_measure()'s question
  KeyRules::Key first_key_;           // rules_.keys[0], if any, held here: one_key() reads it for every line
  KeyRules::Measured first_measure_;  // rules_.measures[0], if any, held here for one_measure()
  std::string tuple_;
  LineMeasures measures_;
};

// The key of one part derived from a field's value (nullopt: kNoKey).
std::string_view status_class(std::string_view value);
// The first `segments` segments of a request's path: of a path ("/a/b?x"),
// or of an absolute URL's path ("https://h/a/b?x"), the query and fragment
// dropped ("/a" for 1); "other" for a value that is neither.
std::string_view path_prefix(std::string_view value, unsigned segments);

}  // namespace logagg
