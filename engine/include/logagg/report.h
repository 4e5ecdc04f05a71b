// Turns a Result into text: the per-second report on stdout (table, csv or
// json) and the human summary and reject list on stderr.
//
// Reports are deterministic: they depend only on the counts and the line
// accounting, never on thread count or timing, so any two runs over the same
// input print the same bytes. The elapsed time appears only in the summary.
//
// Every function here is pure (reads its arguments only) and thread-safe; none
// fails except by std::bad_alloc, or by whatever the caller's sink throws.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "logagg/aggregate.h"
#include "logagg/options.h"

namespace logagg {

enum class Format { kTable, kCsv, kJson };

// csv:   "second,count" then "YYYY-MM-DDThh:mm:ssZ,N" rows.
// table: aligned columns with a header and a total line.
// json:  {"logagg": 1, "bucket": "second", "app_field": ..., "time_field": ...,
//         "counts": [{"second": "...Z", "count": N}, ...],
//         "summary": {"files", "unreadable", "bytes", "lines", "counted", "blank",
//                     "rejected", "rejected_by_reason": {reason_key: N, ...}}}
//        Every number in it is a sum over lines or inputs, so two documents
//        with the same bucket and fields merge by adding.
// Writes the report through `sink`, in chunks of about 64 KiB, so memory does
// not grow with the number of rows.
using ReportSink = std::function<void(std::string_view chunk)>;
void write_report(const Result& result, const Options& options, Format format, const ReportSink& sink);

// The whole report as one string (convenient for small results and tests).
std::string format_report(const Result& result, const Options& options, Format format);

// The run summary for stderr: files, bytes, lines, counted, blank, rejected by
// reason, elapsed time and throughput.
std::string format_summary(const Summary& summary);

// "PATH:LINE: reason" lines for the kept reject samples.
std::string format_rejects(const Result& result);

}  // namespace logagg
