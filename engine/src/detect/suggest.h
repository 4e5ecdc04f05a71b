// `logagg detect`'s suggestions: from the sampled lines' shape (fields.h),
// the commands that would count them, each checked by running the real line
// parser over the sample, ranked, the best first.
//
// - Time fields: every field whose values (strings or numbers) read as
//   instants in 2000..2099 in one of rfc3339, clf, unix, unix-ms, unix-us,
//   unix-ns, or auto where that reads more of them (mixed or common forms).
// - Id fields: strings that are not a time, mostly (90%) at most 100 bytes
//   long, in at least two distinct values and not one per line (an id of
//   requests is no app), with the narrowest pattern of the bytes in at least
//   2% of the values (so a few malformed ones are rejected, not let in): the
//   default [A-Za-z0-9]+ when it fits, else a class of those bytes:
//   `[a-z0-9.:-]+` for hosts with ports, `[a-z0-9 >@-]+` for router chains.
// - Each id field with the best time field, by --by-app (the five best); the time field alone
//   (--app-field none); and a status field (integers 100..599, a name with
//   "status" or "code") as --by-status-class.
// - The measures (rate, errors, duration), per minute, where the lines have
//   their fields: the status by class with --count-if 'F>=500'; a duration
//   (numbers, a name with duration, latency, elapsed, response_time,
//   request_time, took, ttfb or time_to_first_byte) as --quantiles, its unit
//   told by the end of its name (ms, us, ns, sec...) if it says; a size
//   (numbers, a name with bytes, size or length; what was sent or responded
//   before others, what was received or requested last) as --sum.
// Ranked by lines counted, except that an id field whose name says it names
// a site, service or app (host, service, app, cluster, router, ...) comes
// first when it counts at least 90% of the most any counts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace logagg {

struct Suggestion {
  std::vector<std::string> flags;  // the command's arguments after its inputs
  size_t counted = 0;              // sampled lines the command counts
  std::string what;                // what it counts by, in a few words
};

// The fields the measures' suggestion uses; "" for none found.
struct MeasureFields {
  std::string status, duration, size;
  std::string duration_unit;  // "milliseconds", ... as the duration's name tells it; "" if it does not
};

struct Detection {
  size_t lines = 0;    // sampled lines, not blank
  size_t objects = 0;  // of those, JSON objects
  // Best first; the per-app ones, then --app-field none, the status
  // breakdown and the measures.
  std::vector<Suggestion> suggestions;
  MeasureFields measures;
  std::string not_json;  // when under half the lines are JSON objects: what the first other one looks like
};

Detection detect(const std::vector<std::string>& lines);

// `arg` as a POSIX shell reads it back: as it is when it is made of safe
// bytes only, else in single quotes.
std::string shell_quoted(const std::string& arg);

}  // namespace logagg
