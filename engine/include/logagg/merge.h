// Partial results added up: the documents `logagg --format json` prints are
// sums over lines and inputs, so results of runs over different inputs (or
// different --range pieces of one file) add up exactly to the result of one
// run over all of them. `logagg merge` and the Dask driver use this.
//
// Pure functions, thread-safe. Errors are thrown as std::runtime_error with a
// one-line message that says what is wrong (the caller adds which file).
#pragma once

#include <string_view>

#include "logagg/options.h"
#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

// A result read back: the settings it was counted with (app and time
// fields, --since / --until, --by-app), its bucketing (with the --tz zone),
// and the counts (bucket starts, ascending) with the line accounting. Timing
// is not part of a result document.
struct Partial {
  Options options;
  ReportOptions report;
  Result result;
};

// Reads one `logagg --format json` document. Throws if it is not one, or if
// its numbers do not add up (rejected is not the sum of its reasons).
Partial parse_partial(std::string_view json);

// Adds `other` into `into`: counts per bucket, every summary number, errors.
// Throws, changing nothing, if the two were made with a different bucket,
// --tz zone, app field, time field, --since or --until.
void merge_into(Partial& into, const Partial& other);

}  // namespace logagg
