// Test shorthand for report inputs: an instant from its RFC 3339 text, a
// Result holding only per-second counts (all lines counted), and report
// options with a bucket width and gap filling.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/report.h"
#include "logagg/result.h"
#include "logagg/rfc3339.h"

namespace logagg {

inline int64_t at(const char* rfc3339) { return *parse_rfc3339(rfc3339); }

inline Result with_counts(std::vector<SecondCount> counts) {
  Result r;
  r.counts = std::move(counts);
  for (const SecondCount& c : r.counts) r.summary.counted += c.count;
  r.summary.lines = r.summary.counted;
  return r;
}

inline ReportOptions bucketed(const char* duration, bool fill_gaps) {
  ReportOptions o;
  o.bucketing = parse_bucketing(duration);
  o.fill_gaps = fill_gaps;
  return o;
}

}  // namespace logagg
