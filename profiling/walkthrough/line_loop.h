// The loop that stages 0-3 of the walkthrough share, and the three pieces they
// swap in and out of it: the JSON reader, the timestamp parser and the app id
// check.
//
// The loop is the Java aggregator's shape in C++: std::ifstream + std::getline,
// one line at a time, counts in a std::map. It applies the engine's counting
// rules (README "Which lines count") around the pieces, so every stage yields
// the same logagg::Result as logagg::aggregate for the same file: one CR
// before a LF is dropped, a BOM at the start of the file is skipped, blank and
// over-long lines are set aside before any piece runs, and a rejected line
// gets the first reason that applies, in the engine's order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "logagg/aggregate.h"
#include "logagg/options.h"

namespace logagg::walkthrough {

// What a JSON reader found for the app or the time field at the top level.
struct FieldSeen {
  int count = 0;           // how often the key occurs (after unescaping)
  bool is_string = false;  // the first occurrence's value is a string
  std::string_view text;   // that string, unescaped; valid until the reader's next read()
};

struct JsonFields {
  enum class Shape { kInvalid, kNotObject, kObject };
  Shape shape = Shape::kInvalid;
  FieldSeen app, time;  // set when shape == kObject
};

// Parses one line (without its line end) as exactly one RFC 8259 JSON value
// and reports the two fields. One reader per thread.
class JsonReader {
 public:
  virtual ~JsonReader() = default;
  virtual JsonFields read(const std::string& line) = 0;
};

// The UTC second of an RFC 3339 timestamp (floored), or nullopt.
using TimestampParser = std::optional<int64_t> (*)(std::string_view text);
// Whether an app id is non-empty ASCII [A-Za-z0-9].
using AppIdCheck = bool (*)(std::string_view id);

struct Pieces {
  std::unique_ptr<JsonReader> json;
  TimestampParser timestamp;
  AppIdCheck app_id;
};

// Counts the lines of the file at `path` with `pieces` (whose JSON reader was
// made for options.app_field and options.time_field), every valid line in its
// UTC second: of the options, only max_line_bytes applies here (no since or
// until). A file that cannot be opened is reported in Result::errors, as
// logagg::aggregate does.
Result count_lines(const std::string& path, const Options& options, const Pieces& pieces);

}  // namespace logagg::walkthrough
