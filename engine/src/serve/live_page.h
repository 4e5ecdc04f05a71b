// The dashboard a followed run serves at / (LiveServer): the --format html
// page drawn from the rows of the last `history` buckets, and the events that
// keep it live. For each round's rows, an event per change: a correction of
// a bucket the page has, or the buckets after the last one it has (from that
// last one, so that empty buckets between come as zeros), each a document of
// the page data's shape (live_html_data, logagg/report.h) with every key of
// its buckets (none folded into "(other)"), which the page merges into its
// charts. When such a document would be binned (points of more than one
// bucket), the event is {"reload":true} instead. A build without --format
// html keeps no window and sends none. Not thread-safe: LiveServer holds it
// under a lock.
#pragma once

#include <cstdint>
#include <map>
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
  LivePage(const Query& query, const ReportOptions& report, size_t history);

  // Takes a round's rows into the window (the last row of a bucket and key
  // is its total); returns the page's events for them.
  std::vector<StreamEvent> add(const std::vector<FollowRow>& rows);
  // The rows of the window as a result (a copy, so that the page can be
  // drawn outside the lock), with `summary` as its accounting.
  Result window(const Summary& summary) const;
  // The page of `window`, following `events` (its event stream's address).
  std::string page(const Result& window, const std::string& events) const;

 private:
  // The rows of the buckets from `first` to `last`.
  Result rows_between(int64_t first, int64_t last) const;
  StreamEvent event_of(int64_t first, int64_t last) const;

  Query query_;
  ReportOptions report_;
  size_t history_;
  // The last row of each bucket and key: its count in cell.count.
  std::map<int64_t, std::map<std::string, MeasureCell>> window_;
};

}  // namespace logagg
