// The end of a run: what its workers counted and how each input was read,
// gathered into one Result (rows in order, the summary, errors and the first
// rejected lines' positions).
#pragma once

#include <memory>
#include <vector>

#include "count/count.h"
#include "logagg/query.h"
#include "logagg/result.h"
#include "run/source.h"
#include "run/spans.h"

namespace logagg {

// The result of the workers' run over `sources` for `query`, counted into
// `tallies`, with the input errors `errors` (then each source's, in input
// order) and, with `reads`, how each source was read. The elapsed time is
// left to the caller.
Result gather(const std::vector<std::unique_ptr<Source>>& sources, RunTallies& tallies, const Query& query,
              size_t max_reject_samples, std::vector<InputError> errors, std::vector<SpanRead>* reads);

}  // namespace logagg
