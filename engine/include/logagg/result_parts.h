// The parts of a Result (result.h): rows of counts per UTC second (and per
// app or key tuple), the reasons a line is rejected, and the accounting of
// every line read. Plain values, shared by every stage that makes or reads a
// result, the line parsers included.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"

namespace logagg {

// One row of counts: a UTC second (or the start of a bucket, see buckets.h)
// and how many lines fell in it; with --by-app, also which app.
struct SecondCount {
  int64_t second;  // UTC seconds since 1970-01-01T00:00:00Z; a bucket's start after rebucketing
  uint64_t count;
  friend bool operator==(const SecondCount&, const SecondCount&) = default;
};

struct AppCount {
  int64_t second;  // as SecondCount::second
  uint32_t app;    // index into Result::apps
  uint64_t count;
  friend bool operator==(const AppCount&, const AppCount&) = default;
};

// Why a line was rejected. When a line has several problems, the first one in
// this order is reported: the JSON checks first, then app field, then time field.
enum class Reason : uint8_t {
  kLineTooLong,    // longer than Options::max_line_bytes; not parsed
  kInvalidJson,    // not exactly one RFC 8259 JSON value (syntax, UTF-8, escapes, trailing data)
  kNotObject,      // valid JSON, but not an object
  kMissingApp,     // the app field is absent (at the top level)
  kDuplicateApp,   // the app field appears more than once
  kAppNotString,   // the app field is not a string
  kBadApp,         // the app id is empty or has a byte outside [A-Za-z0-9]
  kMissingTime,    // the time field is absent (at the top level)
  kDuplicateTime,  // the time field appears more than once
  kTimeNotString,  // the time field is not a string
  kBadTime,        // the timestamp is not an RFC 3339 date-time
};
inline constexpr size_t kReasonCount = 11;

// Stable machine name, used in JSON output: "invalid_json", "bad_time", ...
std::string_view reason_key(Reason r) noexcept;
// Short human description, used on stderr: "invalid JSON", ...
std::string_view reason_text(Reason r) noexcept;
// The same for a run counted with `counted_with`: a time or an app id that
// does not match a non-default format or pattern names it ("time not in
// unix-ms", "app id does not match [a-z0-9.-]+"); the keys never change.
std::string reason_text(Reason r, const Question& counted_with);

using ReasonCounts = std::array<uint64_t, kReasonCount>;

// The form a time was read in under --time-format auto (time_format.h): RFC
// 3339, clf, the common date-times (`2023-11-14 22:13:20,118`), or a number
// of seconds, milliseconds, micro- or nanoseconds by its magnitude.
enum class TimeForm : uint8_t { kRfc3339, kClf, kCommon, kUnix, kUnixMs, kUnixUs, kUnixNs };
inline constexpr size_t kTimeFormCount = 7;
// Stable name, used in the json summary and on stderr: "rfc3339", "clf",
// "date-time", "unix", "unix-ms", "unix-us", "unix-ns" (the --time-format
// that reads the form alone, but for the common date-times).
std::string_view time_form_key(TimeForm f) noexcept;

// How every line read was accounted for.
// How the lines a question looked at (counted, outside the range or
// filtered out: valid lines) held one of its fields besides the app id and
// the time (Query::fields()): not at all, or as a JSON number, a string, or
// something else (an object, array or literal, or there twice).
struct FieldTally {
  uint64_t absent = 0;
  uint64_t numbers = 0;
  uint64_t strings = 0;
  uint64_t others = 0;

  uint64_t present() const noexcept { return numbers + strings + others; }
  void add(const FieldTally& o) noexcept {
    absent += o.absent;
    numbers += o.numbers;
    strings += o.strings;
    others += o.others;
  }
  friend bool operator==(const FieldTally&, const FieldTally&) = default;
};

struct Summary {
  uint64_t files = 0;       // inputs read (files and streams), including ones that failed midway
  uint64_t unreadable = 0;  // inputs that could not be read (see Result::errors)
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t counted = 0;
  uint64_t outside_range = 0;  // valid lines outside Question::since / until, not counted
  uint64_t blank = 0;
  ReasonCounts rejected{};  // indexed by Reason
  // Valid lines that failed an Question::where filter, by the first that
  // failed (indexed as Question::where; empty without filters). Their sum is
  // filtered(): lines = counted + outside_range + blank + rejected + filtered.
  std::vector<uint64_t> filtered_by;
  // Counted lines without a value for each Question::by key (indexed as it;
  // empty without --by): they count under kNoKey.
  std::vector<uint64_t> no_value;
  // Counted lines without a usable number in each measured field (indexed
  // as MeasureSpec::fields; empty without measures): not in its n(F).
  std::vector<uint64_t> no_measure;
  // With --time-format auto: the counted lines by the form their time was
  // read in (indexed by TimeForm, adding up to counted); empty otherwise.
  std::vector<uint64_t> time_forms;
  // How the valid lines held each of Query::fields() (indexed as it; empty
  // without --by, --where or measures).
  std::vector<FieldTally> fields;
  double elapsed_seconds = 0;

  uint64_t rejected_total() const noexcept {
    uint64_t total = 0;
    for (const uint64_t n : rejected) total += n;
    return total;
  }
  uint64_t filtered() const noexcept {
    uint64_t total = 0;
    for (const uint64_t n : filtered_by) total += n;
    return total;
  }
  // Adds another summary's counts (elapsed times add too).
  void add(const Summary& o) noexcept {
    files += o.files;
    unreadable += o.unreadable;
    bytes += o.bytes;
    lines += o.lines;
    counted += o.counted;
    outside_range += o.outside_range;
    blank += o.blank;
    for (size_t i = 0; i < kReasonCount; ++i) rejected[i] += o.rejected[i];
    add_each(filtered_by, o.filtered_by);
    add_each(no_value, o.no_value);
    add_each(no_measure, o.no_measure);
    add_each(time_forms, o.time_forms);
    if (fields.size() < o.fields.size()) fields.resize(o.fields.size());
    for (size_t i = 0; i < o.fields.size(); ++i) fields[i].add(o.fields[i]);
    elapsed_seconds += o.elapsed_seconds;
  }

 private:
  static void add_each(std::vector<uint64_t>& to, const std::vector<uint64_t>& from) {
    if (to.size() < from.size()) to.resize(from.size());
    for (size_t i = 0; i < from.size(); ++i) to[i] += from[i];
  }
};

struct InputError {
  std::string path;
  std::string message;  // includes the OS reason, e.g. "No such file or directory"
};

// A sign that a run did not answer what was meant (logagg/field_checks.h):
// a field no line has, a comparison its values never meet, a measure with no
// number.
struct FieldWarning {
  std::string code;     // stable: "no_such_field", "never_matches", "no_number"
  std::string field;    // as the options first named it
  std::string message;  // one line, for stderr
  friend bool operator==(const FieldWarning&, const FieldWarning&) = default;
};

struct RejectSample {
  std::string path;  // "<stdin>" for standard input
  uint64_t line;     // 1-based
  Reason reason;
};

// The key in Result::apps of the lines of apps not told apart (--max-apps,
// --top). It is not valid UTF-8, so no app id can be it (ids are decoded JSON
// text, even one spelt "(other)"); reports print it as kOtherAppName.
inline constexpr std::string_view kOtherApp = "\xff(other)";
inline constexpr std::string_view kOtherAppName = "(other)";

// With Question::by, a key tuple: its parts (the app id first with by_app,
// then each --by key) joined by kKeySeparator; a single key is itself. A key
// without a value is kNoKey, printed as kNoKeyName. Neither byte sequence is
// valid UTF-8, so no key text (decoded JSON text, a number as written) can
// hold them. The "(other)" tuple is kOtherApp alone.
inline constexpr char kKeySeparator = '\xfe';
inline constexpr std::string_view kNoKey = "\xff(none)";
inline constexpr std::string_view kNoKeyName = "(none)";
// The parts of a key tuple with `parts` parts: kOtherApp for each part of kOtherApp.
std::vector<std::string_view> key_parts(std::string_view tuple, size_t parts);

}  // namespace logagg
