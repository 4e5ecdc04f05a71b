// The live dashboard's window, page and events (see live_page.h).
#include "serve/live_page.h"

#include <algorithm>
#include <memory>
#include <set>

#include "count/count.h"

namespace logagg {

LivePage::LivePage(const Query& query, const ReportOptions& report, size_t history, size_t max_rows)
    : query_(query), report_(report), history_(std::max<size_t>(1, history)), max_rows_(max_rows) {
  report_.format = Format::kHtml;
  report_.fill_gaps = false;
}

std::vector<StreamEvent> LivePage::add(const std::vector<FollowRow>& rows) {
  if (!has_html_format()) return {};  // no page to draw (LiveServer says so at /)
  const bool had = !window_.empty();
  const int64_t last = had ? window_.rbegin()->first : 0;
  std::set<int64_t> changed;
  for (const FollowRow& row : rows) {
    std::shared_ptr<Bucket>& bucket = window_[row.start];
    if (!bucket) {
      bucket = std::make_shared<Bucket>();
    } else if (bucket.use_count() > 1) {  // a snapshot holds it: changed in a copy
      bucket = std::make_shared<Bucket>(*bucket);
    }
    const auto [at, added] = bucket->try_emplace(row.app);
    rows_ += added ? 1 : 0;
    at->second = row.measures;
    at->second.count = row.count;
    changed.insert(row.start);
  }
  while (window_.size() > history_ || (rows_ > max_rows_ && window_.size() > 1)) {
    rows_ -= window_.begin()->second->size();
    window_.erase(window_.begin());
  }
  std::vector<StreamEvent> events;
  for (const int64_t start : changed) {
    if (!window_.contains(start)) continue;  // older than the window
    if (had && start <= last) {
      events.push_back(event_of(start, start));
    } else if (had && report_.bucketing.count_between(last, *changed.rbegin()) > history_) {
      events.push_back({start, R"({"reload":true})"});  // the page would keep none of its points
      break;
    } else {  // the new buckets, from the last the page has (or the first)
      events.push_back(event_of(had && window_.contains(last) ? last : start, *changed.rbegin()));
      break;
    }
  }
  return events;
}

template <class Window>
Result LivePage::rows_between(const Window& window, int64_t first, int64_t last) const {
  Result out;
  out.query = query_;
  std::vector<MeasuredRow> rows;
  for (auto b = window.lower_bound(first); b != window.end() && b->first <= last; ++b) {
    for (const auto& [key, cell] : *b->second) rows.push_back({b->first, key, cell});
  }
  set_measured_rows(std::move(rows), query_.measures(), query_.keyed(), out);
  return out;
}

StreamEvent LivePage::event_of(int64_t first, int64_t last) const {
  std::string data = live_html_data(rows_between(window_, first, last), report_, kEventKeys);
  return {first, data.empty() ? R"({"reload":true})" : std::move(data)};
}

std::string LivePage::page(const Snapshot& window, const Summary& summary, const std::string& events) const {
  Result result = window.empty() ? Result{} : rows_between(window, window.begin()->first, window.rbegin()->first);
  result.query = query_;
  result.summary = summary;
  std::string out;
  write_live_html_report(result, report_, LiveHtml{events, history_},
                         [&out](std::string_view chunk) { out.append(chunk); });
  return out;
}

}  // namespace logagg
