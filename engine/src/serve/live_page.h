// The dashboard a followed run serves at / (LiveServer): the --format html
// page drawn from the rows of the last `history` buckets (at most max_rows
// rows), and the events that keep it live. For each round's rows, an event
// per change: a correction of a bucket the page has, or the buckets after
// the last one it has (from that last one, so that empty buckets between
// come as zeros), each a document of the page data's shape (live_html_data,
// logagg/report.h) with the kEventKeys busiest keys of its buckets named
// (every key, but for buckets of more; the rest as "(other)"), which the
// page merges into its charts. When such a document would be binned (points
// of more than one bucket), or the new buckets come after more empty ones
// than the window holds, the event is {"reload":true} instead. A build
// without --format html keeps no window and sends none.
// Not thread-safe: LiveServer holds it under a lock. A snapshot() taken
// under it is drawn outside it (page()): the buckets are shared, and add()
// copies one a snapshot holds before changing it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "logagg/follow_rows.h"
#include "logagg/query.h"
#include "logagg/report.h"
#include "logagg/result.h"
#include "serve/event_hub.h"

namespace logagg {

class LivePage {
 public:
  // Rows (a bucket and key) kept at most, as EventHub's: past them the
  // oldest buckets go, so memory stays bounded whatever the keys.
  static constexpr size_t kMaxRows = 200000;
  // Keys an event names at most: a page stacks few (10, or --top N), and an
  // event of every key of a bucket of a hundred thousand would be megabytes.
  static constexpr size_t kEventKeys = 1000;

  // The last row of each key of a bucket: its count in cell.count.
  using Bucket = std::map<std::string, MeasureCell>;
  using Snapshot = std::map<int64_t, std::shared_ptr<const Bucket>>;

  LivePage(const Query& query, const ReportOptions& report, size_t history, size_t max_rows = kMaxRows);

  // Takes a round's rows into the window (the last row of a bucket and key
  // is its total); returns the page's events for them.
  std::vector<StreamEvent> add(const std::vector<FollowRow>& rows);
  // The window as it is (cheap: its buckets are shared).
  Snapshot snapshot() const { return {window_.begin(), window_.end()}; }
  // The page of `window`, with `summary` as its accounting, following
  // `events` (its event stream's address).
  std::string page(const Snapshot& window, const Summary& summary, const std::string& events) const;

 private:
  // The rows of `window`'s buckets from `first` to `last`, as a result.
  template <class Window>
  Result rows_between(const Window& window, int64_t first, int64_t last) const;
  StreamEvent event_of(int64_t first, int64_t last) const;

  Query query_;
  ReportOptions report_;
  size_t history_;
  size_t max_rows_;
  std::map<int64_t, std::shared_ptr<Bucket>> window_;
  size_t rows_ = 0;  // in window_
};

}  // namespace logagg
