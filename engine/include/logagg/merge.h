// Partial results added up: the documents `logagg --format json` prints
// (write_report with Format::kJson; their fields are listed in report.h) are
// sums over lines and inputs, so results of runs over different inputs (or
// different --range pieces of one file) add up exactly to the result of one
// run over all of them. `logagg merge` and the Dask driver use this.
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

// Adds `other` into `into`: counts per bucket (and per app, matched by id),
// every summary number but the elapsed time (`into`'s stays). Throws,
// changing nothing, if the two were made with a different bucket, --tz zone,
// app field, time field, --since or --until, or one with --by-app and the
// other without.
void merge_into(Partial& into, const Partial& other);

}  // namespace logagg
