// The live dashboard's window, page and events (see live_page.h).
#include "serve/live_page.h"

#include <algorithm>
#include <set>

#include "count/count.h"

namespace logagg {

LivePage::LivePage(const Query& query, const ReportOptions& report, size_t history)
    : query_(query), report_(report), history_(std::max<size_t>(1, history)) {
  report_.format = Format::kHtml;
  report_.fill_gaps = false;
}

std::vector<StreamEvent> LivePage::add(const std::vector<FollowRow>& rows) {
  if (!has_html_format()) return {};  // no page to draw (LiveServer says so at /)
  const bool had = !window_.empty();
  const int64_t last = had ? window_.rbegin()->first : 0;
  std::set<int64_t> changed;
  for (const FollowRow& row : rows) {
    MeasureCell& cell = window_[row.start][row.app];
    cell = row.measures;
    cell.count = row.count;
    changed.insert(row.start);
  }
  while (window_.size() > history_) window_.erase(window_.begin());
  std::vector<StreamEvent> events;
  for (const int64_t start : changed) {
    if (!window_.contains(start)) continue;  // older than the window
    if (had && start <= last) {
      events.push_back(event_of(start, start));
    } else {  // the new buckets, from the last the page has (or the first)
      events.push_back(event_of(had && window_.contains(last) ? last : start, *changed.rbegin()));
      break;
    }
  }
  return events;
}

Result LivePage::rows_between(int64_t first, int64_t last) const {
  Result out;
  out.query = query_;
  std::vector<MeasuredRow> rows;
  for (auto b = window_.lower_bound(first); b != window_.end() && b->first <= last; ++b) {
    for (const auto& [key, cell] : b->second) rows.push_back({b->first, key, cell});
  }
  if (query_.measured()) {
    set_measured_rows(std::move(rows), query_.measures(), query_.keyed(), out);
    return out;
  }
  if (!query_.keyed()) {
    for (const MeasuredRow& r : rows) out.counts.push_back({r.second, r.cell.count});
    return out;
  }
  for (const MeasuredRow& r : rows) out.apps.push_back(r.key);
  std::sort(out.apps.begin(), out.apps.end(), app_before);
  out.apps.erase(std::unique(out.apps.begin(), out.apps.end()), out.apps.end());
  std::vector<AppCount> counts;
  for (const MeasuredRow& r : rows) {
    const auto app = std::lower_bound(out.apps.begin(), out.apps.end(), r.key, app_before) - out.apps.begin();
    counts.push_back({r.second, static_cast<uint32_t>(app), r.cell.count});
  }
  add_up_app_rows(counts, out);
  return out;
}

StreamEvent LivePage::event_of(int64_t first, int64_t last) const {
  std::string data = live_html_data(rows_between(first, last), report_);
  return {first, data.empty() ? R"({"reload":true})" : std::move(data)};
}

Result LivePage::window(const Summary& summary) const {
  Result out = window_.empty() ? Result{} : rows_between(window_.begin()->first, window_.rbegin()->first);
  out.query = query_;
  out.summary = summary;
  return out;
}

std::string LivePage::page(const Result& window, const std::string& events) const {
  std::string out;
  write_live_html_report(window, report_, LiveHtml{events, history_},
                         [&out](std::string_view chunk) { out.append(chunk); });
  return out;
}

}  // namespace logagg
