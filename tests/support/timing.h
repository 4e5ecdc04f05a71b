// Whether tests may check elapsed time: only in optimised builds without
// sanitizers (NDEBUG set, as in the release preset), and then only as
// generous bounds that catch work of the wrong order (a walk over every
// second of a span, a per-point redraw), never a tuned figure: the machines
// that run the suite are shared. Speed itself is measured by the benchmarks
// under profiling/.
#pragma once

#include "support/sanitizers.h"

namespace logagg::testing {

inline constexpr bool kTimingChecked =
#ifdef NDEBUG
    !kSanitized;
#else
    false;
#endif

}  // namespace logagg::testing
