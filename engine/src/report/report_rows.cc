// Bucketing and cutting the apps for a report (see report_rows.h).
#include "report/report_rows.h"

#include <algorithm>

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
// rows, ascending by bucket then app.
std::vector<AppCount> bucket_apps(const std::vector<AppCount>& counts, const std::vector<uint32_t>& shown_as,
                                  size_t shown, const Bucketing& bucketing) {
  std::vector<AppCount> out;
  std::vector<uint64_t> current(shown, 0);  // the current bucket's count per shown app
  std::vector<uint32_t> touched;            // which of them are non-zero
  int64_t start = 0, end = 0;
  const auto flush = [&] {
    std::sort(touched.begin(), touched.end());
    for (const uint32_t app : touched) {
      out.push_back({start, app, current[app]});
      current[app] = 0;
    }
    touched.clear();
  };
  for (const AppCount& c : counts) {
    if (touched.empty() || c.second >= end) {
      flush();
      start = bucketing.start_of(c.second);
      end = bucketing.next(start);
    }
    const uint32_t app = shown_as[c.app];
    if (current[app] == 0) touched.push_back(app);
    current[app] += c.count;
  }
  flush();
  return out;
}

}  // namespace

ReportRows::ReportRows(const Result& result, std::vector<std::string> key_columns, const ReportOptions& report)
    : bucketing_(report.bucketing),
      fill_gaps_(report.fill_gaps),
      key_columns_(std::move(key_columns)),
      buckets_(&result.counts) {
  if (bucketing_ != Bucketing{}) {
    owned_ = rebucket(result.counts, bucketing_);
    buckets_ = &owned_;
  }
  if (by_app()) {
    std::vector<uint32_t> shown_as;
    apps_ = choose_apps(result, report.top, shown_as);
    app_buckets_ = &result.app_counts;
    if (bucketing_ != Bucketing{} || apps_ != result.apps) {  // buckets or apps to sum
      owned_app_buckets_ = bucket_apps(result.app_counts, shown_as, apps_.size(), bucketing_);
      app_buckets_ = &owned_app_buckets_;
    }
    other_shown_ = !apps_.empty() && apps_.back() == kOtherApp;
    if (other_shown_) apps_.back() = kOtherAppName;
  }
}

}  // namespace logagg
