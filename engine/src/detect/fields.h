// What the sampled lines of `logagg detect` hold: for each field, in how
// many lines it is and which values it has. A field is a top-level key, named
// as --app-field takes it (its plain name; a JSON Pointer if it starts with
// '/'), or a key of an object nested up to three levels deep, named by its
// JSON Pointer. Values kept: strings decoded, numbers as written, the first
// kKeptValues of each field.
#pragma once

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace logagg {

struct FieldValues {
  static constexpr size_t kKeptValues = 512;
  static constexpr size_t kDistinctCap = 257;  // distinct values counted up to this

  std::string name;    // as --app-field and --time-field take it
  size_t lines = 0;    // lines that have it
  size_t strings = 0;  // of those, lines where it is a string
  size_t numbers = 0;  // ... a number
  std::vector<std::string> values;     // kept: strings and numbers' text
  std::vector<bool> value_is_number;   // for each kept value
  std::set<std::string> distinct;      // distinct strings, up to kDistinctCap
  std::array<size_t, 256> strings_with_byte{};  // for each byte, how many of its strings hold it
  size_t long_strings = 0;                       // strings longer than kLongString bytes
  static constexpr size_t kLongString = 100;
};

struct SampleShape {
  size_t lines = 0;    // not blank
  size_t objects = 0;  // of those, JSON objects
  std::vector<FieldValues> fields;  // in the order first seen
  std::string first_other;          // the first line that is not a JSON object
};

// The shape of `lines` (blank lines are not counted).
SampleShape read_shape(const std::vector<std::string>& lines);

// A field name as --app-field takes it for the path `steps` from the line's
// object: a plain key (not starting with '/') for one step, else a JSON Pointer.
std::string field_name(const std::vector<std::string_view>& steps);

}  // namespace logagg
