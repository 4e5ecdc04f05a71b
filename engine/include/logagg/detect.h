// `logagg detect`: which fields of a log hold its time, its ids and its
// measures, and the commands that would count it, from a sample of its lines.
// The sample (sample_inputs), the sampled lines' shape (read_shape) and the
// suggestions (detect), in that order; the command line's `detect` and its
// hint after a run that counted nothing both use them.
#pragma once

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result_parts.h"  // InputError

namespace logagg {

// The lines `logagg detect` looks at: a bounded sample of its inputs, so
// that it answers at once on files of any size. Per file, the first 64 KiB
// and 15 windows of 16 KiB spread evenly through the rest (whole lines
// only); a compressed file, standard input or any other stream, its first
// 256 KiB of content. At most 64 files (spread through the list) and 4000
// lines in all, shared out between the files.

struct SampleLimits {
  size_t head_bytes = size_t{64} << 10;
  size_t windows = 15;  // after the head
  size_t window_bytes = size_t{16} << 10;
  size_t stream_bytes = size_t{256} << 10;
  size_t max_files = 64;
  size_t max_lines = 4000;
};

struct Sample {
  std::vector<std::string> files;  // the inputs sampled, in order
  std::vector<std::string> lines;  // without LF and one CR before it
  std::vector<size_t> first_line;  // for each of files, the index in lines of its first
  std::vector<InputError> errors;  // inputs that could not be read
};

// Samples the inputs `paths` names (files, folders as logagg reads them, "-").
Sample sample_inputs(const std::vector<std::string>& paths, const SampleLimits& limits = {});

// What the sampled lines of `logagg detect` hold: for each field, in how
// many lines it is and which values it has. A field is a top-level key, named
// as --app-field takes it (its plain name; a JSON Pointer if it starts with
// '/'), or a key of an object nested up to three levels deep, named by its
// JSON Pointer. Values kept: strings decoded, numbers as written, the first
// kKeptValues of each field.

struct FieldValues {
  static constexpr size_t kKeptValues = 512;
  static constexpr size_t kDistinctCap = 257;  // distinct values counted up to this

  std::string name;                             // as --app-field and --time-field take it
  size_t lines = 0;                             // lines that have it
  size_t strings = 0;                           // of those, lines where it is a string
  size_t numbers = 0;                           // ... a number
  std::vector<std::string> values;              // kept: strings and numbers' text
  std::vector<bool> value_is_number;            // for each kept value
  std::set<std::string> distinct;               // distinct strings, up to kDistinctCap
  std::array<size_t, 256> strings_with_byte{};  // for each byte, how many of its strings hold it
  size_t long_strings = 0;                      // strings longer than kLongString bytes
  static constexpr size_t kLongString = 100;
};

struct SampleShape {
  size_t lines = 0;                 // not blank
  size_t objects = 0;               // of those, JSON objects
  std::vector<FieldValues> fields;  // in the order first seen
  std::string first_other;          // the first line that is not a JSON object
};

// The shape of `lines` (blank lines are not counted).
SampleShape read_shape(const std::vector<std::string>& lines);

// Whether a sampled field holds HTTP statuses: most (90%) of its kept values
// three digits 100..599, as numbers or strings (whatever its name).
bool holds_http_statuses(const FieldValues& f);

// `logagg detect`'s suggestions: from the sampled lines' shape (above),
// the commands that would count them, each checked by running the real line
// parser over the sample, ranked, the best first.
//
// - Time fields: every field whose values (strings or numbers) read as
//   instants in 2000..2099 in one of rfc3339, clf, unix, unix-ms, unix-us,
//   unix-ns, or auto where that reads more of them (mixed or common forms);
//   of those reading at least 90% as many as the best, the one whose name
//   says the request came in (start, received) over a plain one over an
//   end, stage, write or expiry (detect/field_names.h, time_rank).
// - Id fields: strings that are not a time, mostly (90%) at most 100 bytes
//   long, never a name that says level, message, URI, agent, date, version
//   or the id of one request (key_name), in at least two distinct values (one
//   for a name that says who) and not one per line (an id of requests is no
//   app), not only nginx's "-", with the narrowest pattern of the bytes in at
//   least 2% of the values (so a few malformed ones are rejected, not let
//   in): the default [A-Za-z0-9]+ when it fits, else a class of those bytes:
//   `[a-z0-9.:-]+` for hosts with ports, `[a-z0-9 >@-]+` for router chains.
// - Each id field with the best time field, by --by-app (the five best); the time field alone
//   (--app-field none); and the status field (numbers or strings 100..599,
//   a 0 aside, a name with "status", "code" or "response"; what the client
//   got over another hop's, status_rank) as --by-status-class.
// - The measures (rate, errors, duration), per minute, where the lines have
//   their fields: the status by class with --count-if 'F>=500'; a duration
//   (numbers, a name with duration, latency, elapsed, response_time,
//   request_time, took, ttfb or time_to_first_byte; not a bound, not
//   constant, the request's own over a part's) as --quantiles, with --unit
//   when its name's last word or its producer tells the unit; a size
//   (numbers, a name with bytes, size or length, not a part's; what was
//   sent or responded before others, what was received or requested last)
//   as --sum.
// Ranked by lines counted, except that an id field whose name says who was
// asked or served comes first (the site asked, then what served it, then a
// logger or user: who_rank) when it counts at least two thirds of the most
// any counts.

struct Suggestion {
  std::vector<std::string> flags;  // the command's arguments after its inputs
  size_t counted = 0;              // sampled lines the command counts
  std::string what;                // what it counts by, in a few words
  std::string key_field;           // the --app-field of a suggestion by --by-app; "" for others
};

// The fields the measures' suggestion uses; "" for none found.
struct MeasureFields {
  std::string status, duration, size;
  std::string duration_unit;  // "milliseconds", ... as the duration's name tells it; "" if it does not
};

struct Detection {
  size_t lines = 0;    // sampled lines, not blank
  size_t objects = 0;  // of those, JSON objects
  // The time field and its format, and the key of the first suggestion
  // ("" for none), as the suggestions use them; "" when no time was found.
  std::string time_field, time_format, key_field;
  // Best first; the per-app ones, then --app-field none, the status
  // breakdown and the measures.
  std::vector<Suggestion> suggestions;
  MeasureFields measures;
  std::string not_json;  // when under half the lines are JSON objects: what the first other one looks like
};

Detection detect(const std::vector<std::string>& lines);

// The sampled files grouped by shape: files whose own lines detect reads
// alike (the same time field and format and the same first key; files of
// no JSON lines, or with no time, are a group of their own), in the order
// their first file was sampled, each with the detection of all its files'
// lines. One group when the files are of one shape.
struct ShapeGroup {
  std::vector<size_t> files;  // indexes into Sample::files
  Detection detection;
};
std::vector<ShapeGroup> detect_groups(const Sample& sample);

// `arg` as a POSIX shell reads it back: as it is when it is made of safe
// bytes only, else in single quotes.
std::string shell_quoted(const std::string& arg);

}  // namespace logagg
