// Dotted field names' nested forms (see dotted_names.h).
#include "parse/dotted_names.h"

#include <string>
#include <string_view>
#include <vector>

namespace logagg {

std::optional<FieldPath> nested_form(const FieldPath& path) {
  if (path.pointer || path.steps.size() != 1) return std::nullopt;
  const std::string_view name = path.steps.front();
  if (name.find('.') == std::string_view::npos) return std::nullopt;
  FieldPath nested;
  nested.pointer = true;
  for (size_t at = 0;;) {
    const size_t dot = name.find('.', at);
    const std::string_view part = name.substr(at, dot == std::string_view::npos ? dot : dot - at);
    if (part.empty()) return std::nullopt;
    nested.steps.emplace_back(part);
    if (dot == std::string_view::npos) return nested;
    at = dot + 1;
  }
}

void add_nested_forms(LineRules& rules) {
  const auto apart = [&](const FieldPath& nested, const FieldPath* other, const FieldPath* other_nested) {
    if (other != nullptr && paths_overlap(nested, *other)) return false;
    if (other_nested != nullptr && paths_overlap(nested, *other_nested)) return false;
    for (const FieldPath& field : rules.keys.fields) {
      if (paths_overlap(nested, field)) return false;
    }
    return true;
  };
  std::optional<FieldPath> app = rules.has_app ? nested_form(rules.app) : std::nullopt;
  std::optional<FieldPath> time = nested_form(rules.time);
  if (app && !apart(*app, &rules.time, time ? &*time : nullptr)) app.reset();
  if (time && !apart(*time, rules.has_app ? &rules.app : nullptr, app ? &*app : nullptr)) time.reset();
  rules.app_nested = std::move(app);
  rules.time_nested = std::move(time);
}

}  // namespace logagg
