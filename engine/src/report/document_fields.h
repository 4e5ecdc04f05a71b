// The result document's field names (`--format json`, the state file's
// result, `logagg merge`'s inputs, the Dask driver's pieces): one table that
// its writer (document_writer.cc) and its reader (result_document.cc) both
// spell them from, so a field cannot be written under one name and looked
// for under another. The measure columns of a row (count(EXPR), n(F),
// sum(F), ...) are MeasureSpec::columns()'s, the same as csv's headers; the
// bucket column is Bucketing::column()'s; a key column is its key's.
// tests/unit/document_test.cc checks that every field written is read back,
// and the Dask driver's fields against this table.
#pragma once

#include <string>
#include <string_view>

namespace logagg::result_doc {

// PREFIX"NAME": , a field's name as the document writes it.
inline void append_key(std::string& out, std::string_view prefix, std::string_view name) {
  out.append(prefix).append("\"").append(name).append("\": ");
}

// The head: the version, then the settings the result was counted with
// (those that are not the default: merges refuse results made otherwise).
inline constexpr std::string_view kVersion = "logagg";  // 1, or 2 with keys, filters, --app-field none or measures
inline constexpr std::string_view kBucket = "bucket";
inline constexpr std::string_view kAppField = "app_field";
inline constexpr std::string_view kTimeField = "time_field";
inline constexpr std::string_view kTimeFormat = "time_format";
inline constexpr std::string_view kInputTz = "input_tz";
inline constexpr std::string_view kAppPattern = "app_pattern";
inline constexpr std::string_view kTz = "tz";
inline constexpr std::string_view kByApp = "by_app";
inline constexpr std::string_view kBy = "by";  // [{kKeyField, kKeyKind[, kKeySegments]}]
inline constexpr std::string_view kKeyField = "field";
inline constexpr std::string_view kKeyKind = "key";
inline constexpr std::string_view kKeySegments = "segments";
inline constexpr std::string_view kTop = "top";
inline constexpr std::string_view kMaxApps = "max_apps";
inline constexpr std::string_view kWhere = "where";
inline constexpr std::string_view kSum = "sum";
inline constexpr std::string_view kQuantiles = "quantiles";
inline constexpr std::string_view kPercentiles = "percentiles";
inline constexpr std::string_view kCountIf = "count_if";
inline constexpr std::string_view kQuantileAccuracy = "quantile_accuracy";
inline constexpr std::string_view kSince = "since";
inline constexpr std::string_view kUntil = "until";

// The rows: {BUCKET COLUMN, [KEY COLUMNS,] kCount[, measure columns]}.
inline constexpr std::string_view kCounts = "counts";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kRealApp = "real_app";       // a key spelt "(other)" that is one
inline constexpr std::string_view kCorrection = "correction";  // --follow's rows only
inline constexpr std::string_view kSketch = "sketch";          // sketch(F): [[key, count], ...]

// The line accounting.
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kFiles = "files";
inline constexpr std::string_view kUnreadable = "unreadable";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kLines = "lines";
inline constexpr std::string_view kCounted = "counted";
inline constexpr std::string_view kOutsideRange = "outside_range";
inline constexpr std::string_view kBlank = "blank";
inline constexpr std::string_view kRejected = "rejected";
inline constexpr std::string_view kRejectedByReason = "rejected_by_reason";  // {reason_key: N}
inline constexpr std::string_view kFiltered = "filtered";
inline constexpr std::string_view kFilteredBy = "filtered_by";  // [{kWhere: EXPR, kLines: N}]
inline constexpr std::string_view kNoValue = "no_value";        // [{kNoValueKey: COLUMN, kLines: N}]
inline constexpr std::string_view kNoValueKey = "key";
inline constexpr std::string_view kNoMeasure = "no_measure";  // [{kNoMeasureField: F, kLines: N}]
inline constexpr std::string_view kNoMeasureField = "field";
inline constexpr std::string_view kTimeFormats = "time_formats";  // {time_form_key: N}
// How the valid lines held each of the question's fields (Query::fields()):
// [{kFieldName: F, kFieldAbsent: N, kFieldNumbers: N, kFieldStrings: N, kFieldOthers: N}].
inline constexpr std::string_view kFields = "fields";
inline constexpr std::string_view kFieldName = "field";
inline constexpr std::string_view kFieldAbsent = "absent";
inline constexpr std::string_view kFieldNumbers = "numbers";
inline constexpr std::string_view kFieldStrings = "strings";
inline constexpr std::string_view kFieldOthers = "others";
// What the run's fields suggest it did not ask what was meant (field_checks.h),
// derived from the rest (never read back): [{kWarningCode, kWarningField, kWarningMessage}].
inline constexpr std::string_view kWarnings = "warnings";
inline constexpr std::string_view kWarningCode = "code";
inline constexpr std::string_view kWarningField = "field";
inline constexpr std::string_view kWarningMessage = "message";

// The statistics, recomputed from the counts (never read back).
inline constexpr std::string_view kStats = "stats";
inline constexpr std::string_view kStatBuckets = "buckets";
inline constexpr std::string_view kStatEmptyBuckets = "empty_buckets";
inline constexpr std::string_view kStatTotal = "total";
inline constexpr std::string_view kStatFirst = "first";
inline constexpr std::string_view kStatLast = "last";
inline constexpr std::string_view kStatPeak = "peak";  // {kStatPeakBucket, kCount}
inline constexpr std::string_view kStatPeakBucket = "bucket";
inline constexpr std::string_view kStatMeasures = "measures";
inline constexpr std::string_view kStatTopApps = "top_apps";
inline constexpr std::string_view kStatTopKeys = "top_keys";
inline constexpr std::string_view kStatPercent = "percent";

}  // namespace logagg::result_doc
