// What a run of the engine produces: exact counts per UTC second (and per
// app or key tuple), their measures, and the accounting of every line read,
// by verdict and reject reason, with the Query they answer. Plain values,
// shared by every stage that makes or reads a result: the counting core
// fills one (aggregate.h), the reports print it (report.h), the result
// documents carry it between runs (merge.h).
#pragma once

#include <string>
#include <vector>

#include "logagg/measure_table.h"
#include "logagg/query.h"
#include "logagg/result_parts.h"

namespace logagg {

struct Result {
  Query query;                      // the question counted
  std::vector<SecondCount> counts;  // ascending by second, only seconds with count > 0
  // With Question::by_app or by: the app ids (key tuples), ascending (bytewise,
  // a tuple part by part: key_before()), then kOtherApp if any line was
  // counted as that; and the counts per (second, app index),
  // ascending by second then index, only counts > 0. They sum to `counts`.
  std::vector<std::string> apps;
  std::vector<AppCount> app_counts;
  bool apps_capped = false;  // more than Question::max_apps ids: some counted as kOtherApp
  // With Query::measured(): the measures of each row, one cell per
  // element of app_counts when keyed, else of counts (same order).
  MeasureTable cells;
  Summary summary;
  std::vector<InputError> errors;     // in input order
  std::vector<RejectSample> rejects;  // the first Options::max_reject_samples, in input order
  // What the summary's field tallies warn of (check_fields, field_checks.h):
  // derived, set by whoever reports the result, never read back.
  std::vector<FieldWarning> warnings;
};

}  // namespace logagg
