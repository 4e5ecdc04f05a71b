// Bucketing and cutting the apps for a report (see report_rows.h).
#include "report/report_rows.h"

#include <algorithm>
#include <utility>

#include "report/stats.h"

namespace logagg {
namespace {

// The apps a report shows: all of them, or the `top` busiest in name order
// and "(other)" for the rest when there are more. Fills `shown_as` (index in
// result.apps -> index in the returned list).
std::vector<std::string> choose_apps(const Result& result, size_t top, std::vector<uint32_t>& shown_as) {
  const std::vector<std::string>& apps = result.apps;
  shown_as.resize(apps.size());
  const bool has_other = !apps.empty() && apps.back() == kOtherApp;
  const size_t named = apps.size() - has_other;
  if (top == 0 || top >= named) {
    for (uint32_t i = 0; i < apps.size(); ++i) shown_as[i] = i;
    return apps;
  }
  std::vector<uint32_t> kept;
  for (const AppTotal& t : top_apps(apps, result.app_counts, top)) kept.push_back(t.app);
  std::sort(kept.begin(), kept.end());  // indexes ascend in name order
  std::vector<std::string> shown;
  const auto other = static_cast<uint32_t>(kept.size());
  std::fill(shown_as.begin(), shown_as.end(), other);
  for (const uint32_t i : kept) {
    shown_as[i] = static_cast<uint32_t>(shown.size());
    shown.push_back(apps[i]);
  }
  shown.emplace_back(kOtherApp);
  return shown;
}

// Sums (second, app) counts, ascending by second, into (bucket, shown app)
// rows, ascending by bucket then app; with `cells` (one per count), their
// cells into `out_cells` alike.
std::vector<AppCount> bucket_apps(const std::vector<AppCount>& counts, const std::vector<uint32_t>& shown_as,
                                  size_t shown, const Bucketing& bucketing, const MeasureTable* cells,
                                  MeasureTable& out_cells) {
  std::vector<AppCount> out;
  std::vector<uint64_t> current(shown, 0);  // the current bucket's count per shown app
  std::vector<MeasureCell> current_cells(cells != nullptr ? shown : 0);
  MeasureCell cell;
  std::vector<uint32_t> touched;            // which of them are non-zero
  int64_t start = 0, end = 0;
  const auto flush = [&] {
    std::sort(touched.begin(), touched.end());
    for (const uint32_t app : touched) {
      out.push_back({start, app, current[app]});
      current[app] = 0;
      if (cells != nullptr) out_cells.push_back(std::exchange(current_cells[app], MeasureCell{}));
    }
    touched.clear();
  };
  for (size_t i = 0; i < counts.size(); ++i) {
    const AppCount& c = counts[i];
    if (touched.empty() || c.second >= end) {
      flush();
      start = bucketing.start_of(c.second);
      end = bucketing.next(start);
    }
    const uint32_t app = shown_as[c.app];
    if (current[app] == 0) touched.push_back(app);
    current[app] += c.count;
    if (cells != nullptr) {
      cells->get(i, cell);
      current_cells[app].add(cell);
    }
  }
  flush();
  return out;
}

// The cells of per-second rows (`counts`, one cell each) added up into the
// buckets of rebucket(counts).
MeasureTable bucket_cells(const std::vector<SecondCount>& counts, const MeasureTable& cells,
                          const Bucketing& bucketing) {
  MeasureTable out = cells.empty_like();
  MeasureCell cell;
  int64_t end = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    cells.get(i, cell);
    if (out.empty() || counts[i].second >= end) {
      out.push_back(cell);
      end = bucketing.next(bucketing.start_of(counts[i].second));
    } else {
      out.add(out.size() - 1, cell);
    }
  }
  return out;
}

}  // namespace

void ReportRows::order_by_count() {
  const std::vector<AppCount>& rows = *app_buckets_;
  order_.resize(rows.size());
  for (uint32_t r = 0; r < order_.size(); ++r) order_[r] = r;
  // Apps are numbered in key order, so the index breaks ties; "(other)" of
  // the keys not told apart is a remainder, not a key: last.
  std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
    const bool a_other = is_other(rows[a].app), b_other = is_other(rows[b].app);
    if (a_other != b_other) return b_other;
    return rows[a].count > rows[b].count;
  });
}

ReportRows::ReportRows(const Result& result, std::vector<std::string> key_columns, const ReportOptions& report)
    : bucketing_(report.bucketing),
      fill_gaps_(report.fill_gaps),
      key_columns_(std::move(key_columns)),
      buckets_(&result.counts) {
  const bool measured = !result.cells.empty();
  if (measured) {
    cells_ = &result.cells;
    owned_cells_ = result.cells.empty_like();
  }
  if (bucketing_ != Bucketing{}) {
    owned_ = rebucket(result.counts, bucketing_);
    buckets_ = &owned_;
    if (measured && !by_app()) {
      owned_cells_ = bucket_cells(result.counts, result.cells, bucketing_);
      cells_ = &owned_cells_;
    }
  }
  if (by_app()) {
    std::vector<uint32_t> shown_as;
    apps_ = choose_apps(result, report.top, shown_as);
    app_buckets_ = &result.app_counts;
    if (bucketing_ != Bucketing{} || apps_ != result.apps) {  // buckets or apps to sum
      owned_app_buckets_ = bucket_apps(result.app_counts, shown_as, apps_.size(), bucketing_,
                                       measured ? &result.cells : nullptr, owned_cells_);
      app_buckets_ = &owned_app_buckets_;
      if (measured) cells_ = &owned_cells_;
    }
    other_shown_ = !apps_.empty() && apps_.back() == kOtherApp;
    if (other_shown_) apps_.back() = kOtherAppName;
    if (bucketing_.is_whole()) order_by_count();
  }
}

}  // namespace logagg
