// The result document read back: what `logagg --format json` prints
// (write_report with Format::kJson; its fields are listed in report.h), the
// state file holds and `logagg merge` and the Dask driver add up, as a
// Result again, with the question it answers. Written and read in one place
// (engine/src/report/document_writer.cc and result_document.cc, from one
// table of field names), so every field written is read back.
//
// Pure functions, thread-safe. Errors are thrown as std::runtime_error with a
// one-line message that says what is wrong (the caller adds which file).
#pragma once

#include <string_view>

#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

// A result read back: its bucketing (with the --tz zone; the rest of
// `report` keeps its defaults), and the result: the question it answers
// (result.query, from the document's settings: fields, formats, --since /
// --until, keys, filters, measures, and --max-apps if its app table filled
// up), the counts (bucket starts, ascending; per key when keyed) and the
// line accounting. Timing and input errors are not part of a result
// document: summary.elapsed_seconds is 0 and result.errors empty.
struct Partial {
  ReportOptions report;
  Result result;
};

// Reads one `logagg --format json` document. Throws if it is not one, if its
// settings are not a question logagg can answer (Query, query.h), if it
// was made with --top (its "(other)" hides different apps in each result), or
// if its numbers do not add up (rejected is not the sum of its reasons, lines
// not the sum of the verdicts, or the counts not summary.counted).
Partial parse_partial(std::string_view json);

}  // namespace logagg
