// Summary statistics of a bucketed series (see stats.h).
#include "logagg/stats.h"

#include <algorithm>

namespace logagg {

uint64_t nearest_rank_percentile(const std::vector<uint64_t>& sorted_nonzero, uint64_t zeros, unsigned p) {
  const uint64_t n = zeros + sorted_nonzero.size();
  const uint64_t rank = std::max<uint64_t>(1, (n * p + 99) / 100);
  return rank <= zeros ? 0 : sorted_nonzero[rank - zeros - 1];
}

BucketStats compute_stats(const std::vector<SecondCount>& buckets, const Bucketing& bucketing) {
  BucketStats s;
  if (buckets.empty()) return s;
  s.first = buckets.front().second;
  s.last = buckets.back().second;
  s.buckets = bucketing.count_between(s.first, s.last);
  s.empty = s.buckets - buckets.size();
  std::vector<uint64_t> sorted;
  sorted.reserve(buckets.size());
  for (const SecondCount& b : buckets) {
    s.total += b.count;
    if (b.count > s.max) {  // strictly greater: the earliest peak wins ties
      s.max = b.count;
      s.peak = b.second;
    }
    sorted.push_back(b.count);
  }
  std::sort(sorted.begin(), sorted.end());
  s.median = nearest_rank_percentile(sorted, s.empty, 50);
  s.p95 = nearest_rank_percentile(sorted, s.empty, 95);
  s.p99 = nearest_rank_percentile(sorted, s.empty, 99);
  return s;
}

}  // namespace logagg
