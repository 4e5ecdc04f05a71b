// The end of a run: what its workers counted and how each input was read,
// gathered into one Result (rows in order, the summary, errors and the first
// rejected lines' positions).
#pragma once

#include <memory>
#include <vector>

#include "count/count.h"
#include "logagg/measures.h"
#include "logagg/query.h"
#include "logagg/result.h"
#include "run/source.h"
#include "run/spans.h"

namespace logagg {

// What the workers of one run count into together: the per-second counts,
// the key numbering (--by-app, --by) and the measured cells.
struct SharedTallies {
  explicit SharedTallies(const Query& query)
      : apps(query.question().max_apps), spec(query.measures()), measures(spec) {}
  SharedCounts counts;
  AppTable apps;
  const MeasureSpec& spec;  // the query's
  SharedMeasures measures;
};

// The result of the workers' run over `sources` for `query`, with the input errors
// `errors` (then each source's, in input order) and, with `reads`, how each
// source was read. The elapsed time is left to the caller.
Result gather(const std::vector<std::unique_ptr<Source>>& sources, const std::vector<Worker>& workers,
              SharedTallies& tallies, const Query& query, size_t max_reject_samples, std::vector<InputError> errors,
              std::vector<SpanRead>* reads);

}  // namespace logagg
