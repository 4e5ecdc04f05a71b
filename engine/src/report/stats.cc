// Summary statistics of a bucketed series (see stats.h).
#include "report/stats.h"

#include <algorithm>

#include "logagg/result.h"
#include "report/report_text.h"

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

std::vector<AppTotal> top_apps(const std::vector<std::string>& apps, const std::vector<AppCount>& counts,
                               size_t n) {
  std::vector<AppTotal> totals(apps.size());
  for (uint32_t i = 0; i < totals.size(); ++i) totals[i].app = i;
  for (const AppCount& c : counts) totals[c.app].count += c.count;
  std::erase_if(totals, [&](const AppTotal& t) { return t.count == 0 || apps[t.app] == kOtherApp; });
  const auto busier = [&](const AppTotal& a, const AppTotal& b) {
    return a.count != b.count ? a.count > b.count : apps[a.app] < apps[b.app];
  };
  if (n == 0 || n > totals.size()) n = totals.size();
  std::partial_sort(totals.begin(), totals.begin() + static_cast<ptrdiff_t>(n), totals.end(), busier);
  totals.resize(n);
  return totals;
}

ReportStats report_stats(const Result& result, bool by_app, const std::vector<SecondCount>& buckets,
                         const Bucketing& bucketing, size_t top) {
  ReportStats stats;
  stats.buckets = compute_stats(buckets, bucketing);
  const BucketStats& st = stats.buckets;
  stats.figures = {{"mean", ""}, {"median", ""}, {"p95", ""}, {"p99", ""}, {"max", ""}};
  stats.over_time = !bucketing.is_whole();
  if (st.buckets > 0 && stats.over_time) {
    stats.first = start_text(bucketing, st.first);
    stats.last = start_text(bucketing, st.last);
    stats.peak = start_text(bucketing, st.peak);
    const uint64_t values[] = {st.median, st.p95, st.p99, st.max};
    stats.figures[0].second = ratio_text(st.total, st.buckets);
    for (size_t i = 0; i < std::size(values); ++i) stats.figures[i + 1].second = std::to_string(values[i]);
  }
  if (!result.cells.empty()) {
    stats.measures.emplace();
    MeasureCell cell;
    for (size_t row = 0; row < result.cells.size(); ++row) {
      result.cells.get(row, cell);
      stats.measures->add(cell);
    }
  }
  if (!by_app) return stats;
  for (const AppTotal& t : top_apps(result.apps, result.app_counts, top != 0 ? top : kDefaultRankedApps)) {
    stats.ranked_apps.push_back({result.apps[t.app], t.count, ratio_text(t.count * 100, st.total)});
  }
  return stats;
}

}  // namespace logagg
