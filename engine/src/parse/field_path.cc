// Field names and RFC 6901 JSON Pointers (see field_path.h).
#include "parse/field_path.h"

#include <algorithm>
#include <stdexcept>

#include "text/ascii.h"

namespace logagg {

std::optional<size_t> FieldPath::index(std::string_view step) noexcept {
  if (step.empty() || step.size() > 18 || (step.size() > 1 && step[0] == '0')) return std::nullopt;
  size_t n = 0;
  for (const char c : step) {
    if (!is_digit(c)) return std::nullopt;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  return n;
}

FieldPath parse_field_path(std::string_view name) {
  FieldPath path;
  if (!name.starts_with('/')) {
    path.steps.emplace_back(name);
    return path;
  }
  path.pointer = true;
  for (size_t at = 0; at < name.size();) {  // name[at] is the '/' before a step
    const size_t end = std::min(name.find('/', at + 1), name.size());
    std::string step;
    for (size_t i = at + 1; i < end; ++i) {
      if (name[i] != '~') {
        step.push_back(name[i]);
      } else if (i + 1 < end && (name[i + 1] == '0' || name[i + 1] == '1')) {
        step.push_back(name[++i] == '0' ? '~' : '/');
      } else {
        throw std::invalid_argument("'" + std::string(name) +
                                    "' is not a JSON Pointer: '~' must be followed by 0 (for ~) or 1 (for /)");
      }
    }
    path.steps.push_back(std::move(step));
    at = end;
  }
  return path;
}

bool paths_overlap(const FieldPath& a, const FieldPath& b) noexcept {
  const size_t n = std::min(a.steps.size(), b.steps.size());
  return std::equal(a.steps.begin(), a.steps.begin() + static_cast<ptrdiff_t>(n), b.steps.begin());
}

}  // namespace logagg
