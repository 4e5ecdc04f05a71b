// What a run of the engine is asked: the question (Question: which lines
// count, under which keys, with which measures), and how to run it
// (RunSettings: threads, segments, limits, which files of a folder), both in
// one Options. Plain data as written
// on the command line; the CLI fills it from flags, embedders fill it
// directly. A question is read and checked once, into a Query (query.h),
// which the engine, the reports and the result documents use. How the
// counts are shown (buckets, time zone, gaps, --top, format) is
// ReportOptions, in report.h: aggregate() always counts per second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace logagg {

// Letters and digits: the app ids that count unless Question::app_pattern says otherwise.
inline constexpr std::string_view kDefaultAppPattern = "[A-Za-z0-9]+";

// Question::app_field for logs without an app id (--app-field none): no app
// field is looked for and the app rules do not apply. A field literally
// named "none" is still reachable as the JSON Pointer "/none".
inline constexpr std::string_view kNoAppField = "none";

// The column names of Question::by_app's key and of the derived keys.
inline constexpr std::string_view kAppColumn = "app_id";

// One key of a breakdown (--by and its derived forms): a field, written as
// Question::app_field is (a top-level name or a JSON Pointer), and what of its
// value makes the key.
struct KeyField {
  enum class Kind : uint8_t {
    kValue,        // --by: a string's text, a number as written, true/false/null
    kStatusClass,  // --by-status-class: 1xx ... 5xx for a status 100-599, else "other"
    kPathPrefix,   // --by-path-prefix N: the first N segments of a URL path, query dropped
  };
  std::string field;
  Kind kind = Kind::kValue;
  unsigned segments = 0;  // kPathPrefix: N >= 1

  // The key's column name: the field as written; "status_class(FIELD)";
  // "path_prefix(FIELD,N)".
  std::string column() const;
  friend bool operator==(const KeyField&, const KeyField&) = default;
};
inline constexpr size_t kMaxKeyFields = 4;  // --by keys, --by-app included
// A kind's name in result documents ("value", "status_class", "path_prefix"), and back.
std::string_view key_kind_name(KeyField::Kind kind);
std::optional<KeyField::Kind> key_kind_named(std::string_view name);

// The question, as asked. A plain value: copy it, share it read-only.
struct Question {
  // The fields holding the application id and the timestamp: a top-level key
  // as it is ("app_id", "service.name"), or with a leading '/' an RFC 6901
  // JSON Pointer into nested objects and arrays ("/request/host", "/tags/0";
  // "~1" for '/', "~0" for '~'). Query refuses a malformed pointer and two
  // fields whose paths overlap.
  // app_field may be kNoAppField ("none"): every line with a valid time counts.
  std::string app_field = "app_id";
  std::string time_field = "timestamp";
  // How the time field is written: "rfc3339"; "unix", "unix-ms", "unix-us",
  // "unix-ns" (a JSON number, or a string holding one, floored to the second
  // exactly); "clf" (Apache %t, nginx $time_local); or a strptime-style
  // pattern with '%' directives; or "auto", each value in its own form (the
  // summary counts the lines of each: Summary::time_forms). `input_tz`: the
  // zone of a pattern without %z ("UTC", "Europe/Berlin", "local").
  // Query refuses a format or zone it cannot use.
  std::string time_format = "rfc3339";
  std::string input_tz;
  // Which app ids count: the decoded id must match this RE2 pattern whole.
  // Query refuses one that does not compile.
  std::string app_pattern = std::string(kDefaultAppPattern);
  // Which lines count: those whose UTC second is in [since, until).
  std::optional<int64_t> since, until;  // UTC seconds; unset: unbounded
  // Also count per app id (Result::apps, Result::app_counts). At most
  // `max_apps` distinct ids are told apart, which bounds memory; the lines of
  // ids met after that are counted as "(other)" (Result::apps_capped).
  bool by_app = false;
  size_t max_apps = 100000;  // at most 2^32 - 2 (app numbers are 32-bit)
  // Also count per key (--by): the keys' values, after the app id with
  // by_app, make one key tuple per line, told apart and capped exactly as
  // app ids are (Result::apps holds the tuples, see key_parts()); a line
  // without a value for a key field (missing, an object or array, or there
  // twice) has the key kNoKey. At most kMaxKeyFields keys in all.
  std::vector<KeyField> by;
  // Which valid lines count (--where): each filter, "FIELD OP VALUE" or
  // "exists FIELD" / "missing FIELD" (where.h), must hold; a line that fails
  // one is tallied as filtered (Summary::filtered_by, by the first that
  // fails), not rejected. Query refuses one it cannot read.
  std::vector<std::string> where;
  // Measures of each row (measures.h): the exact sum of each `sum` field,
  // the quantiles at `percentiles` (with exact min and max) of each
  // `quantiles` field, the count of lines each `count_if` predicate (the
  // --where grammar) holds for. A field in both is read once. A counted
  // line without a usable number in a measured field still counts; the
  // field's n(F) column and Summary::no_measure say so.
  std::vector<std::string> sum, quantiles, count_if;
  std::vector<std::string> percentiles = {"50", "90", "99"};  // each 0..100, as written ("99.9")
  // Histograms of --quantiles fields (--serve's /metrics): per field, the
  // buckets' upper bounds in the field's own unit, ascending; each counts
  // exactly the values at most its bound (and above the one before).
  std::vector<std::pair<std::string, std::vector<double>>> histograms;
};

// How a run reads its inputs, whatever the question: threads, segments,
// limits, which files of a folder, which bytes of a file.
struct RunSettings {
  unsigned threads = 0;                      // worker threads; 0 = the machine's hardware threads
  size_t segment_bytes = 0;                  // nominal segment size; 0 = chosen from input size and threads
  size_t max_reject_samples = 0;             // keep the locations of the first N rejected lines
  bool sample_long_lines = false;            // and of every line too long, past those N (--follow names each)
  size_t max_line_bytes = size_t{64} << 20;  // longer lines are rejected as "line too long"
  // Files found by walking a folder are read if they match one of `include`
  // (all, if empty) and none of `exclude`: fnmatch globs (`*`, `?`, `[...]`)
  // matched against the file name if the glob has no '/' ("*.gz"), else
  // against the path relative to the folder ("2024/*/access.log*", where `*`
  // does not cross a '/'). Paths named directly are always read.
  std::vector<std::string> include, exclude;
  // Only the lines that start in the byte range [begin, end) of the single
  // input, which must be an uncompressed regular file: ranges that tile a
  // file count each of its lines exactly once (the segment rule: a line
  // belongs to the range it starts in). The file counts as one of
  // Summary::files only in the range that starts at byte 0.
  struct ByteRange {
    uint64_t begin = 0, end = 0;
  };
  std::optional<ByteRange> range;
};

// A run: the question, and how to run it, as the command line gives them. A
// plain value: copy it, share it read-only between threads.
struct Options : Question, RunSettings {};

}  // namespace logagg
