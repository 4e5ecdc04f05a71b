// The names of the question's parts (logagg/options.h): a key's column and
// its kind's name in result documents.
#include "logagg/options.h"

#include <string>

namespace logagg {

std::string KeyField::column() const {
  switch (kind) {
    case Kind::kValue:
      return field;
    case Kind::kStatusClass:
      return "status_class(" + field + ")";
    case Kind::kPathPrefix:
      return "path_prefix(" + field + "," + std::to_string(segments) + ")";
  }
  return field;
}

namespace {
constexpr std::string_view kKindNames[] = {"value", "status_class", "path_prefix"};
}  // namespace

std::string_view key_kind_name(KeyField::Kind kind) { return kKindNames[static_cast<size_t>(kind)]; }

std::optional<KeyField::Kind> key_kind_named(std::string_view name) {
  for (size_t i = 0; i < std::size(kKindNames); ++i) {
    if (kKindNames[i] == name) return static_cast<KeyField::Kind>(i);
  }
  return std::nullopt;
}

}  // namespace logagg
