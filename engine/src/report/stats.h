// Summary statistics of a bucketed series: total, first and last bucket,
// peak, mean, median, p95, p99 and max per bucket. Exact: integers and one
// ratio (the mean), computed from every bucket, nothing sampled.
//
// The series is every bucket from the first non-empty one to the last,
// empty buckets included as zeros: a quiet hour between two busy ones lowers
// the median as it would on a chart of the traffic. The zeros are counted,
// never stored, so a series spanning years of seconds costs memory only for
// its non-empty buckets.
//
// Percentiles are nearest-rank: with the N bucket counts sorted ascending,
// the p-th percentile is the one at rank ceil(p/100 * N) (1-based, at least
// 1), always a count that some bucket has; the median is the 50th percentile.
//
// With --by-app, top_apps ranks the apps by their lines over the whole run;
// report_stats gathers both, and the measures of the whole run, for the
// report formats.
//
// Pure and thread-safe; fails only by std::bad_alloc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/measures.h"
#include "logagg/result.h"

namespace logagg {

struct BucketStats {
  uint64_t buckets = 0;  // N: buckets from first to last, empty ones included; 0 if nothing counted
  uint64_t empty = 0;    // of which had no counted line
  uint64_t total = 0;    // lines counted in all buckets
  // The fields below are meaningful only when buckets > 0.
  int64_t first = 0;  // start of the first non-empty bucket
  int64_t last = 0;   // start of the last non-empty bucket
  int64_t peak = 0;   // start of the earliest bucket with the largest count
  uint64_t max = 0;   // the peak's count
  uint64_t median = 0;
  uint64_t p95 = 0;
  uint64_t p99 = 0;
  // The mean per bucket is total / buckets, left as that ratio; reports print
  // it rounded to 3 decimals.
};

// Statistics of `buckets` (ascending by start, non-empty buckets only, as
// rebucket() returns them) under `bucketing`.
BucketStats compute_stats(const std::vector<SecondCount>& buckets, const Bucketing& bucketing);

// An app and its lines over the whole run.
struct AppTotal {
  uint32_t app;  // index into the apps given
  uint64_t count;
};

// The `n` apps with most lines (all, if n == 0) in `counts` (indexes into
// `apps`), busiest first, ties in name order; kOtherApp is never ranked.
std::vector<AppTotal> top_apps(const std::vector<std::string>& apps, const std::vector<AppCount>& counts, size_t n);

// Apps the statistics rank when --top does not say: 10.
inline constexpr size_t kDefaultRankedApps = 10;

// The statistics every report format shows, built once and rendered by each
// (the text block of --stats, the json "stats", the html table): the bucket
// statistics with their texts, and for a result counted per app its apps
// ranked by lines (the --top N, or kDefaultRankedApps).
struct ReportStats {
  BucketStats buckets;
  // The first, last and peak bucket starts as the bucketing writes them, and
  // the figures per bucket by name, in the order every format lists them:
  // mean (total / buckets, 3 decimals), median, p95, p99, max. The texts
  // are empty when nothing was counted (buckets.buckets == 0) and for the
  // whole run's one bucket (--overall), which is no series over time.
  bool over_time = true;  // false for the whole run's one bucket
  std::string first, last, peak;
  std::vector<std::pair<std::string_view, std::string>> figures;
  struct RankedApp {
    std::string_view id;  // never kOtherApp: it is not ranked
    uint64_t count;
    std::string percent;  // of all counted lines, 3 decimals
  };
  std::vector<RankedApp> ranked_apps;  // empty unless counted per app
  // With measures: those of every counted line, the cells of all rows added
  // (each format writes them as its rows, through MeasureText).
  std::optional<MeasureCell> measures;
};
ReportStats report_stats(const Result& result, bool by_app, const std::vector<SecondCount>& buckets,
                         const Bucketing& bucketing, size_t top);

// The nearest-rank p-th percentile (0 < p <= 100) of a series made of `zeros`
// zero counts and the counts in `sorted_nonzero` (ascending).
uint64_t nearest_rank_percentile(const std::vector<uint64_t>& sorted_nonzero, uint64_t zeros, unsigned p);

}  // namespace logagg
