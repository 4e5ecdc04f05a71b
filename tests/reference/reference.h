// The reference implementation the differential tests compare the engine
// against: a slow, plain, obviously-correct rewrite of the line rules that
// shares no code with the engine (only its public result types), plus the
// random-input helpers those tests share.
//
// Nothing here is fast or clever on purpose: the JSON parser is a textbook
// RFC 8259 recursive descent (with an explicit stack, so nesting depth is only
// limited by memory) that keeps the whole document, fields are found by
// walking it one step of their path at a time, and the RFC 3339 check tests
// each character position and leaves the calendar to Howard Hinnant's date
// library. The time formats other than RFC 3339 are time_reference.h's, and
// app patterns other than the default are RE2's own FullMatch. The keys and
// filters of --by, --by-app, --where and --app-field none (reference/keys.cc)
// are looked up on the same document tree, numbers compared through a
// normalised scientific form, patterns by RE2's FullMatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/options.h"
#include "model/line_verdict.h"
#include "reference/time_reference.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace reference {

// ---------------------------------------------------------------------------
// The oracle.

enum class JsonKind { kObject, kArray, kString, kNumber, kLiteral };

// One value of a document. Containers name their children by their place in
// JsonDocument::values, so a document of any depth is one flat vector (and is
// built and destroyed without recursion).
struct JsonValue {
  JsonKind kind;
  std::string text;               // kString: the JSON-unescaped string; kNumber: the number as written
  std::vector<std::string> keys;  // kObject: each member's JSON-unescaped key, in document order
  std::vector<size_t> children;   // kObject: each member's value (keys[i] : children[i]);
                                  // kArray: the elements, in order
};

struct JsonDocument {
  std::vector<JsonValue> values;  // values[0] is the top-level value

  const JsonValue& top() const { return values.front(); }
};

// True when `bytes` is valid UTF-8 (RFC 3629: shortest form, no surrogates,
// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

// Parses `text` as exactly one RFC 8259 JSON value with optional whitespace
// around it, into the tree of all its values; nullopt if it is anything else.
// Unpaired UTF-16 surrogate escapes ("\ud800") are rejected.
std::optional<JsonDocument> parse_json(std::string_view text);

// The floored UTC second of an RFC 3339 date-time (local year 0000..9999), or
// nullopt if `text` is not one. See logagg/rfc3339.h for the exact grammar.
std::optional<int64_t> rfc3339_second(std::string_view text);

// The keys (and array indexes) a field option names: a name without a
// leading '/' is the one top-level key it spells, as it is; a name with one is
// an RFC 6901 JSON Pointer, one step after each '/', with "~1" read as '/' and
// "~0" as '~'. nullopt for a pointer with a '~' followed by anything else.
std::optional<std::vector<std::string>> field_steps(std::string_view name);

// The counting options of logagg::Options the reference honours (the fields,
// the line limit, the time format and its input zone, the app pattern), read
// once so that a line costs no compiling:
// - an app id: for the default pattern (logagg::kDefaultAppPattern, as text)
//   non-empty ASCII letters and digits, byte by byte; for any other pattern
//   RE2::FullMatch with RE2's default options;
// - a time: "rfc3339" rfc3339_second; "unix", "unix-ms", "unix-us",
//   "unix-ns" epoch_second (time_reference.h) of a string's content or of a
//   JSON number as written (any other format takes strings only); "clf"
//   TimePattern::clf(); a spec with '%' TimePattern(spec, input_tz), the zone
//   an IANA name.
// Throws std::invalid_argument for a field that is not a valid name
// (field_steps), a pattern RE2 does not compile, or a format it does not
// know. Usage errors are the engine's to find: give it options the engine
// accepts (fields that do not overlap, a zone exactly where one is needed).
// Thread-safe to share once made.
class KeyRules;

// A key tuple: the app id first with by_app, then each --by key's text, or
// nullopt for a key field without a value (printed "(none)").
using KeyTuple = std::vector<std::optional<std::string>>;
// The order of rows: part by part, bytewise, a part without a value after
// every text.
// The engine's spelling of a tuple (logagg/result.h): the parts joined by
// kKeySeparator, kNoKey for a part without a value.
std::string engine_key(const KeyTuple& tuple);

struct KeyTupleBefore {
  bool operator()(const KeyTuple& a, const KeyTuple& b) const;
  bool operator()(const std::pair<int64_t, KeyTuple>& a, const std::pair<int64_t, KeyTuple>& b) const {
    return a.first != b.first ? a.first < b.first : (*this)(a.second, b.second);
  }
};

// The rules also honour Options::by, by_app, where and app_field "none"
// (logagg::kNoAppField): with "none" no app field is looked for and every
// line with a valid time counts; a counted line then meets each filter in
// order (the first that fails makes it filtered by that one), and gets its
// key tuple: the app id with by_app, then per key the field's value (a
// string's text, a number or literal as written; nothing when the field is
// missing, there twice, or a container), or its status class (three ASCII
// digits read as 100..599: "Nxx"; any other value "other"), or its first N
// path segments (the text before the first '?' or '#', cut at its (N+1)th
// segment start).
class Rules {
 public:
  explicit Rules(const logagg::Options& options);

  bool has_app() const { return has_app_; }
  // Whether lines are counted per key tuple (by_app or --by).
  bool keyed() const { return keyed_; }
  // How many --by keys and --where filters.
  size_t key_count() const;
  size_t filter_count() const;
  size_t field_count() const;  // the fields of the keys and filters, each once, but the app and time fields
  // The filters and keys of a counted line of `doc`: the index of the first
  // filter that fails, or the tuple (app id `app` first with by_app) and the
  // bits of keys without a value.
  struct Keyed {
    std::optional<size_t> failed_filter;
    KeyTuple tuple;
    unsigned no_value = 0;
    uint32_t field_kinds = 0;  // as LineVerdict::field_kinds, for field_count() fields
  };
  Keyed keys_of(const JsonDocument& doc, const std::string& app) const;

  const std::vector<std::string>& app_steps() const { return app_steps_; }
  const std::vector<std::string>& time_steps() const { return time_steps_; }
  size_t max_line_bytes() const { return max_line_bytes_; }
  // Whether a JSON number may hold the time (the unix* formats).
  bool numeric_time() const { return epoch_digits_ >= 0; }
  // Whether the decoded id `id` is an app id.
  bool app_matches(std::string_view id) const;
  // The UTC second of a time field's text, or nullopt if it is not one.
  std::optional<int64_t> second(std::string_view text) const;

 private:
  std::vector<std::string> app_steps_, time_steps_;
  size_t max_line_bytes_;
  std::shared_ptr<const re2::RE2> app_pattern_;  // null for the default
  int epoch_digits_ = -1;                        // unix*: 0, 3, 6 or 9
  std::optional<TimePattern> time_pattern_;      // clf and patterns
  bool has_app_ = true, keyed_ = false, by_app_ = false;
  std::shared_ptr<const KeyRules> keys_;         // --by and --where
};

// The verdict for one line (without its LF and final CR), per the rules in
// logagg/line_parser.h: the line validated whole, then each field walked from
// the top-level object one step at a time. A step names an object's member by
// its unescaped key (a key there twice makes the field a duplicate, even if
// one of the two leads nowhere) or an array's element by its index ("0", or
// digits without a leading zero); a step that is not there, or into a scalar,
// leaves the field missing; the value at the end must be a string (or, for
// the unix* formats, a number). The app field is judged before the time
// field, then the filters (a line failing one is LineVerdict::filtered by
// it, whose no_value is left 0). The verdict's app is left empty; a counted
// line's app id goes to `app` if given, and its key tuple to `keyed` if given
// (with the bits of keys without a value in its no_value).
logagg::LineVerdict classify(std::string_view line, const Rules& rules, std::string* app = nullptr,
                             KeyTuple* keyed = nullptr);

// The same with the default time format and app pattern: Rules of the two
// field names and the limit (which throws as Rules does).
logagg::LineVerdict classify(std::string_view line, const std::string& app_field,
                             const std::string& time_field, size_t max_line_bytes,
                             std::string* app = nullptr);

// The lines of a file: a leading UTF-8 BOM is skipped, lines end at LF, one CR
// before the LF is dropped, and a last line without LF still counts.
std::vector<std::string_view> split_lines(std::string_view data);

struct Aggregate {
  std::map<int64_t, uint64_t> counts;  // second -> lines counted in it
  std::map<std::pair<int64_t, std::string>, uint64_t> app_counts;  // (second, app id) -> lines
  uint64_t lines = 0;
  uint64_t counted = 0;
  uint64_t blank = 0;
  logagg::ReasonCounts rejected{};
  // With keys and filters (Rules::keyed(), Options::where):
  std::map<std::pair<int64_t, KeyTuple>, uint64_t, KeyTupleBefore> key_counts;  // (second, tuple) -> lines
  std::vector<uint64_t> filtered_by;  // per filter, the lines it was the first to fail
  std::vector<uint64_t> no_value;     // per --by key, the counted lines without a value
  std::vector<logagg::FieldTally> fields;  // per field of the keys and filters: how the valid lines held it
};

// What logagg --format csv prints for `result`, counted with `options`, one
// row per second: the header "second", each key column (Options's
// key_columns()), "count", fields quoted per RFC 4180 where they hold a
// comma, a double quote, a CR or a LF; rows by second, then key tuple
// (KeyTupleBefore), a key without a value written "(none)".
std::string csv(const Aggregate& result, const logagg::Options& options);

// Classifies every line of `data` (see split_lines) and tallies the verdicts;
// the second form with the default time format and app pattern.
Aggregate aggregate_buffer(std::string_view data, const Rules& rules);
Aggregate aggregate_buffer(std::string_view data, const std::string& app_field,
                           const std::string& time_field, size_t max_line_bytes);

// ---------------------------------------------------------------------------
// Helpers for writing and reading the differential tests.

// Whether two verdicts mean the same thing (reason only when rejected, second
// only when counted).
bool same_verdict(const logagg::LineVerdict& a, const logagg::LineVerdict& b);

// "counted 1623760496", "blank", "rejected invalid_json".
std::string describe(const logagg::LineVerdict& v);

// The UTF-8 encoding of `code_points` (all valid scalar values).
std::string utf8(std::u32string_view code_points);

// `bytes` as a double-quoted C-style literal with \t, \r, \n, \\, \" and \xNN
// for everything outside printable ASCII, so any failing input can be pasted
// back into a test.
std::string quoted(std::string_view bytes);

// The parts of an RFC 3339 date-time, so tests can build and vary timestamps.
struct Timestamp {
  int year, month, day, hour, minute, second;
  std::string fraction;  // digits after '.', empty for none
  char separator;        // 'T', 't' or ' '
  std::string zone;      // "Z", "z" or "+hh:mm" / "-hh:mm"

  std::string text() const;
};

struct TimestampLimits {
  size_t max_fraction_digits = 30;
  bool leap_seconds = true;  // sometimes produce a valid hh:mm:60
};

// A random valid timestamp over years 1..9999, biased towards the edges
// (month ends, Feb 29, 23:59:59, extreme offsets, years 1 and 9999).
Timestamp random_timestamp(std::mt19937_64& rng, const TimestampLimits& limits = {});

// A timestamp one step from the edge of validity, on either side: hour 24,
// minute 60, second 60 or 61 off the last minute of the UTC day (and on it),
// day 31 of 30-day months, Feb 29 of common and leap years, Feb 30, day 0,
// months 0 and 13, offsets +-24:00, +-23:59 and minutes 60. When `utc` is
// given the timestamp is about that instant (in a random zone and spelling)
// before the step off, so the valid ones land in a narrow range of seconds.
Timestamp near_valid_timestamp(std::mt19937_64& rng, std::optional<int64_t> utc = std::nullopt);

// A valid timestamp of the UTC second `utc`, years 1..9999 once the offset is
// applied, written in a random zone (Z, z, +-00:00, any offset), separator
// and fraction.
Timestamp timestamp_at(int64_t utc, std::mt19937_64& rng);

// Applies `edits` random byte edits to `text`: delete, insert or replace a
// byte (inserted bytes are drawn from `palette`), duplicate or drop a run, or
// truncate.
void mutate(std::string& text, std::mt19937_64& rng, std::string_view palette, int edits);

// Greedily removes chunks of `input` while `still_fails` holds, so a failing
// random input can be reported in its smallest form.
template <typename Predicate>
std::string shrink(std::string input, Predicate still_fails) {
  for (size_t chunk = input.size(); chunk > 0; chunk /= 2) {
    for (size_t at = 0; at + chunk <= input.size();) {
      std::string candidate = input.substr(0, at) + input.substr(at + chunk);
      if (still_fails(candidate)) {
        input = std::move(candidate);
      } else {
        at += chunk;
      }
    }
  }
  return input;
}

}  // namespace reference
