// Partial results added up: the documents `logagg --format json` prints
// (write_report with Format::kJson; their fields are listed in report.h,
// read back by parse_partial, result_document.h) are sums over lines and
// inputs, so results of runs over different inputs (or
// different --range pieces of one file) add up exactly to the result of one
// run over all of them. `logagg merge` and the Dask driver use this.
//
// Pure functions, thread-safe. Errors are thrown as std::runtime_error with a
// one-line message that says what is wrong (the caller adds which file).
#pragma once

#include <string_view>

#include "logagg/report.h"
#include "logagg/result.h"
#include "logagg/result_document.h"

namespace logagg {

// Adds `other` into `into`: counts per bucket (and per app, matched by id),
// every summary number but the elapsed time (`into`'s stays). Throws,
// changing nothing, if the two were made with a different bucket, --tz zone,
// app field, time field, --since or --until, or one with --by-app and the
// other without.
void merge_into(Partial& into, const Partial& other);

}  // namespace logagg
