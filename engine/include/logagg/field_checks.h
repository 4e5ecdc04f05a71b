// Whether a run answered the question that was meant: the warnings that the
// summary's field tallies give (Summary::fields, one per Query::fields()), so
// that a field the log does not have, or a comparison its values can never
// meet, is named rather than answered with zeros.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "logagg/query.h"
#include "logagg/result_parts.h"

namespace logagg {

// A field the log has, from a sample of its lines (detect.h's read_shape):
// its name as --by takes it, and whether it holds HTTP statuses
// (holds_http_statuses).
struct LogField {
  std::string name;
  bool statuses = false;
};

// The warnings for a run of `query` whose summary is `summary`, in the order
// of Query::fields(), one at most per field; none when no line was valid (or
// the summary has no field tallies: a document written before they were kept):
// - "no_such_field": no valid line had the field. The message names the
//   option, then the fields of `log_fields`, nearest first (by edit
//   distance, to the plain and the dotted spelling of a JSON Pointer), and,
//   for a name that says status or code, the field that holds statuses.
// - "never_matches": a --where or --count-if comparison that no value the
//   field had can meet by its JSON type (`response=="200"` where response
//   is a number on every line: a quoted value is text); says what would
//   match (`response==200`) when it can.
// - "no_number": a --sum or --quantiles field that no counted line had a
//   number in (its sum and quantiles are printed as absent, never 0).
std::vector<FieldWarning> check_fields(const Query& query, const Summary& summary,
                                       std::span<const LogField> log_fields = {});

// Whether any of `warnings` is a field no line had: the one warning whose
// message a sample of the log's fields (`log_fields`) improves.
bool names_missing_fields(const std::vector<FieldWarning>& warnings);

}  // namespace logagg
