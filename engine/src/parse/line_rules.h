// The rules a Query compiles once from the question for the line parsers
// (query.h): where the app and time fields are, which app ids count, the
// time format (LineRules), and the fields that keys, filters and measures
// read (KeyRules: --by, --by-status-class, --by-path-prefix, --where, --sum,
// --quantiles, --count-if). Plain data, shared by every worker; what a line's
// walk does with them is the parsers' and line_keys.h's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "logagg/measures.h"
#include "logagg/options.h"
#include "model/line_verdict.h"  // MeasureForms
#include "parse/app_pattern.h"
#include "parse/field_path.h"
#include "parse/time_format.h"
#include "parse/where.h"

namespace logagg {

// The fields the --by keys, --where filters and measures read (targets
// kExtra on, after the app id and the time), and what each is for.
struct KeyRules {
  // The fields looked for besides the app id and the time: target kExtra + i.
  static constexpr int kExtra = 2;
  std::vector<FieldPath> fields;
  // Each field as first named, and the option that named it ("--where
  // status>=500"): what messages about it say.
  std::vector<std::string> names, named_by;
  struct Key {
    int target;
    KeyField::Kind kind;
    unsigned segments;
  };
  std::vector<Key> keys;                        // --by keys, in order
  bool key_app = false;                         // --by-app beside --by: the app id is the tuple's first part
  std::vector<std::pair<int, Filter>> filters;  // (target, filter), in --where order
  struct Measured {
    int target;
    MeasureForms forms;  // read as its measures use it (--sum: exact; --quantiles: real)
  };
  std::vector<Measured> measures;                // MeasureSpec::fields', in order
  std::vector<std::pair<int, Filter>> count_if;  // (target, predicate), in --count-if order

  bool active() const { return !keys.empty() || !filters.empty() || measured(); }
  bool measured() const { return !measures.empty() || !count_if.empty(); }

  // Throws std::invalid_argument, naming the option, for a field that is not
  // a valid path, one whose path overlaps another's without being the same
  // field (the app and time fields included), too many keys or fields, or a
  // filter it cannot read.
  static KeyRules of(const Question& question, const MeasureSpec& measures, const FieldPath* app,
                     const FieldPath& time);
};

// Where the fields are, which app ids count, and the keys and filters,
// compiled once from the question (by its Query, query.h). Copies share the compiled patterns;
// thread-safe to share.
struct LineRules {
  FieldPath app = parse_field_path("app_id");
  FieldPath time = parse_field_path("timestamp");
  bool has_app = true;  // false with --app-field none: `app` is not looked for
  AppPattern app_pattern = AppPattern::compile();
  TimeFormat time_format;  // rfc3339
  KeyRules keys;           // --by, --where
  // A dotted plain name's nested path, looked for where the line's object
  // lacks the name as a key (dotted_names.h); nullopt: none.
  std::optional<FieldPath> app_nested, time_nested;

  // Throws std::invalid_argument, with a message naming the option, for a
  // field that is not a valid path, fields whose paths overlap, a pattern
  // that does not compile, or a time format (or input zone) it cannot use.
  // Sets the nested forms of dotted names.
  static LineRules of(const Question& question, const MeasureSpec& measures);
};

}  // namespace logagg
