// Dotted field names (--app-field service.name): a plain name with dots
// finds the top-level key of that name, as it always has, or else, in a
// line whose object lacks that key, the nested path its dots split it into
// (service.name: the key "name" of the object "service", as the JSON
// Pointer /service/name). The top-level key wins: a line that has it is
// judged on it alone, whatever the nested path holds, so a line with both
// forms counts or is rejected exactly as before dotted names matched both.
// JSON Pointers (/service.name) stay literal.
//
// Only the app and time fields have a nested form, and only where it keeps
// apart from every other field's path (a name whose dots split it into an
// empty part, or whose nested path overlaps another field, has none).
//
// The walk looks for the top-level key alone, so a line that has it costs
// nothing more; a line whose verdict is "missing" for a field with a nested
// form is classified again, whole, by a parser of the rules with that field
// replaced by its nested path (NestedRetry).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

#include "model/line_verdict.h"
#include "parse/field_path.h"
#include "parse/line_parser.h"

namespace logagg {

// The nested path of a plain name with dots, split at each dot; nullopt for
// a JSON Pointer, a name without a dot, or a part left empty ("a..b", ".a").
std::optional<FieldPath> nested_form(const FieldPath& path);

// Sets rules.app_nested and rules.time_nested: each field's nested form,
// where it overlaps no other field's path (nor the other's nested form).
void add_nested_forms(LineRules& rules);

// Classifies a line again when its verdict says a field with a nested form
// was missing. One per parser; it makes the parser of the retry rules the
// first time a line needs it.
template <class Parser>
class NestedRetry {
 public:
  NestedRetry(const LineRules& rules, size_t max_line_bytes)
      : rules_(rules.app_nested || rules.time_nested ? std::make_unique<LineRules>(rules) : nullptr),
        max_line_bytes_(max_line_bytes) {}

  // The parser to classify a line again with, given its verdict `v`; nullptr
  // when `v` stands.
  Parser* parser_for(const LineVerdict& v) {
    if (rules_ == nullptr || v.status != LineStatus::kRejected) return nullptr;
    const bool app = v.reason == Reason::kMissingApp && rules_->app_nested;
    if (!app && !(v.reason == Reason::kMissingTime && rules_->time_nested)) return nullptr;
    std::unique_ptr<Parser>& parser = app ? app_ : time_;
    if (parser == nullptr) {
      LineRules nested = *rules_;
      (app ? nested.app : nested.time) = *(app ? nested.app_nested : nested.time_nested);
      (app ? nested.app_nested : nested.time_nested).reset();
      parser = std::make_unique<Parser>(nested, max_line_bytes_);
    }
    return parser.get();
  }

 private:
  std::unique_ptr<LineRules> rules_;  // null: no field has a nested form
  size_t max_line_bytes_;
  std::unique_ptr<Parser> app_, time_;  // the rules with the app, or the time, field nested
};

}  // namespace logagg
