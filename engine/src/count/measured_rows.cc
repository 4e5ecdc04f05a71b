// Measured rows in order and added up (count.h).
#include "count/count.h"

#include <algorithm>

namespace logagg {

std::vector<MeasuredRow> measured_rows(const Result& result, bool keyed) {
  std::vector<MeasuredRow> rows;
  const size_t n = keyed ? result.app_counts.size() : result.counts.size();
  rows.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (keyed) {
      const AppCount& c = result.app_counts[i];
      rows.push_back({c.second, result.apps[c.app], result.cells[i]});
    } else {
      rows.push_back({result.counts[i].second, {}, result.cells[i]});
    }
  }
  return rows;
}

void set_measured_rows(std::vector<MeasuredRow> rows, const MeasureSpec& spec, bool keyed, Result& result) {
  std::sort(rows.begin(), rows.end(), [](const MeasuredRow& a, const MeasuredRow& b) {
    return a.second != b.second ? a.second < b.second : app_before(a.key, b.key);
  });
  std::vector<MeasuredRow> added;
  for (MeasuredRow& r : rows) {
    if (!added.empty() && added.back().second == r.second && added.back().key == r.key) {
      added.back().cell.add(r.cell);
    } else {
      added.push_back(std::move(r));
    }
  }
  result.counts.clear();
  result.app_counts.clear();
  result.cells = MeasureTable(spec);
  if (keyed) {
    std::vector<std::string> names;
    for (const MeasuredRow& r : added) names.push_back(r.key);
    std::sort(names.begin(), names.end(), app_before);
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const MeasuredRow& r : added) {
      const auto app =
          static_cast<uint32_t>(std::lower_bound(names.begin(), names.end(), r.key, app_before) - names.begin());
      result.app_counts.push_back({r.second, app, r.cell.count});
    }
    result.apps = std::move(names);
  }
  for (MeasuredRow& r : added) {
    if (!keyed) result.counts.push_back({r.second, r.cell.count});
    if (!spec.empty()) result.cells.push_back(std::move(r.cell));
  }
  if (keyed) sum_app_counts_per_second(result);
}

}  // namespace logagg
