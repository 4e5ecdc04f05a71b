// An event stream of LiveServer's, kept and handed to each client as
// server-sent events, each "id: RUN.N" (RUN: this run's, N numbered from 1)
// and "data: DATA": for /events each bucket's rows as follow hands them out
// (completed, or corrected by a late line), DATA being the line --follow
// --format json prints for a row; for /page-events the live page's
// documents (LivePage). The events of the last `history` buckets are kept
// (and at most kMaxKeptRows events of at most kMaxKeptBytes in all), so
// that a client that connects gets
// them first, and one that comes back (Last-Event-ID of this run) what it
// missed, or a gap event.
// Thread-safe: follow's thread publishes, each client's thread waits.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/follow_rows.h"

namespace logagg {

// An event of a bucket: its start, and its data (one line).
struct StreamEvent {
  int64_t start;
  std::string data;
};

// The events of /events for `rows`, each the line `json` (a FollowWriter of
// --format json) writes for a row.
std::vector<StreamEvent> row_events(const FollowWriter& json, const std::vector<FollowRow>& rows);

class EventHub {
 public:
  static constexpr size_t kMaxKeptRows = 200000;
  static constexpr size_t kMaxKeptBytes = size_t{64} << 20;
  // At most this many bytes of events a take_after: a client far behind
  // gets them in pieces, and a stop is seen between two.
  static constexpr size_t kMaxTake = 256 * 1024;

  explicit EventHub(size_t history);

  void publish(const std::vector<StreamEvent>& events);
  // The events after number `after`, as the text of an event stream (at
  // most about kMaxTake bytes), and `after` moved to the last; waits up to
  // `wait` for one. An empty text: none came (or the hub stopped). Rows no
  // longer kept are skipped: the text then starts with a "gap" event saying
  // how many.
  std::string take_after(uint64_t& after, std::chrono::milliseconds wait);
  // Where a client starts (the number take_after takes): after the event
  // `last_event_id` names (a Last-Event-ID of this run), else before the
  // first row kept.
  uint64_t start_after(std::string_view last_event_id) const;
  // The id of the last event published ("" before the first): a client
  // that starts after it (start_after) gets what comes next.
  std::string last_event_id() const;
  // Wakes every waiting client; take_after returns at once from then on,
  // with the events a client has not had yet (those published before the
  // stop: the last rows reach it), then empty.
  void stop();
  bool stopped() const;

 private:
  struct Event {
    uint64_t id;
    int64_t start;
    std::string text;
  };

  const size_t history_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Event> events_;
  std::set<int64_t> starts_;  // of the buckets kept
  std::string run_;           // this run's part of the ids
  uint64_t last_id_ = 0;
  size_t bytes_ = 0;  // of events_' texts
  bool stopped_ = false;
};

}  // namespace logagg
