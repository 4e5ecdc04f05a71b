// Where a field lives in a line's object: `--app-field` and `--time-field`.
//
// A name without a leading '/' is one top-level key, taken as it is (so flat
// names such as "id.orig_h" or "service.name" keep working). A name with a
// leading '/' is an RFC 6901 JSON Pointer: each step after a '/' is an object
// key, "~1" standing for '/' and "~0" for '~', or, inside an array, an index
// ("0", or digits without a leading zero). Keys are compared after JSON
// unescaping, byte for byte.
//
// Pure functions and plain values: thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logagg {

struct FieldPath {
  std::vector<std::string> steps;  // unescaped; at least one
  bool pointer = false;            // given as a JSON Pointer

  // The array index a step names, or nullopt if it is not one.
  static std::optional<size_t> index(std::string_view step) noexcept;
};

// The path a field option names. A plain name is taken as it is, even empty.
// Throws std::invalid_argument with a one-line message if a pointer has a '~'
// not followed by '0' or '1'.
FieldPath parse_field_path(std::string_view name);

// Whether two paths can select the same value (one is a prefix of the other,
// or they are equal): the app and the time field must be apart.
bool paths_overlap(const FieldPath& a, const FieldPath& b) noexcept;

}  // namespace logagg
