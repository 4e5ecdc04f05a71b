// The rows of --follow (and of a live page) as they are handed out, bucket
// by bucket, and as text for a stream: the batch report's row writers
// (report/row_writer.h), streamed. Used by follow (logagg/follow.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "logagg/measures.h"
#include "logagg/query.h"
#include "logagg/report.h"

namespace logagg {

// One row handed out: a bucket's count (with Question::by_app, one app's),
// or a correction of a row handed out before.
struct FollowRow {
  int64_t start;              // the bucket's start, a UTC second
  std::string app;            // with by_app: the id (kOtherApp for ids past max_apps); empty without
  uint64_t count;             // the bucket's (or the app's) total so far
  bool correction;            // a row for this bucket (and app) was handed out before
  MeasureCell measures = {};  // with measures: the bucket's (or the app's) so far
};

// Called with the rows of each round, ascending by bucket then app
// (corrections first); returns false to stop following (a closed pipe).
using FollowSink = std::function<bool(const std::vector<FollowRow>&)>;

// The rows of --follow as text, a line each, for a stream: csv (a header
// line, then "START,count" or "START,app_id,count" rows; a correction is the
// bucket's row again, so the last row of a bucket is its total), json (one
// object a line, NDJSON: {COLUMN: "START", ["app_id": "...",] "count": N},
// with "correction": true on corrections) or table (aligned columns, START,
// count, then the app id, last so that any id keeps the columns aligned;
// "(correction)" after a correction; a total line at the end). Ids are
// written as the batch formats write them (report.h). Thread-compatible.
class FollowWriter {
 public:
  // `query`: the question followed (its key columns, none: rows per bucket
  // only; its measures, none: no measure columns). `report`: its format (not
  // html), bucketing and csv_neutralise_formulas.
  FollowWriter(const Query& query, const ReportOptions& report) : query_(query), report_(report) {}
  std::string header() const;
  std::string rows(const std::vector<FollowRow>& rows) const;
  std::string footer(uint64_t counted) const;  // the table's total line; empty for csv and json

 private:
  Query query_;
  ReportOptions report_;
};

}  // namespace logagg
