// The event stream's rows, kept and handed to each client (see event_hub.h).
#include "serve/event_hub.h"

#include <algorithm>
#include <charconv>
#include <chrono>

namespace logagg {

std::vector<StreamEvent> row_events(const FollowWriter& json, const std::vector<FollowRow>& rows) {
  const std::string lines = json.rows(rows);  // a line a row, none empty
  std::vector<StreamEvent> events;
  size_t at = 0;
  for (const FollowRow& row : rows) {
    const size_t end = lines.find('\n', at);
    events.push_back({row.start, lines.substr(at, end - at)});
    at = end + 1;
  }
  return events;
}

EventHub::EventHub(size_t history) : history_(std::max<size_t>(1, history)) {
  // The run: its start in milliseconds, so that a client coming back from
  // another run of logagg (whose numbers start again at 1) starts afresh.
  run_ = std::to_string(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

void EventHub::publish(const std::vector<StreamEvent>& events) {
  if (events.empty()) return;
  std::lock_guard lock(mutex_);
  for (const StreamEvent& event : events) {
    const std::string id = run_ + "." + std::to_string(++last_id_);
    events_.push_back({last_id_, event.start, "id: " + id + "\ndata: " + event.data + "\n\n"});
    bytes_ += events_.back().text.size();
    starts_.insert(event.start);
  }
  while (starts_.size() > history_) starts_.erase(starts_.begin());
  while (!events_.empty() && (events_.front().start < *starts_.begin() || events_.size() > kMaxKeptRows ||
                              bytes_ > kMaxKeptBytes)) {
    bytes_ -= events_.front().text.size();
    events_.pop_front();
  }
  changed_.notify_all();
}

std::string EventHub::take_after(uint64_t& after, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [&] { return stopped_ || last_id_ > after; });
  if (last_id_ <= after) return {};  // none came, or stopped with none left for this client
  std::string out;
  const uint64_t first = events_.empty() ? last_id_ + 1 : events_.front().id;
  if (after + 1 < first) {
    out = "event: gap\ndata: {\"missed\":" + std::to_string(first - after - 1) + "}\n\n";
    after = first - 1;
  }
  // Ids are consecutive in events_: the first wanted is at after + 1 - first.
  for (size_t i = after + 1 - first; i < events_.size() && out.size() < kMaxTake; ++i) {
    out += events_[i].text;
    after = events_[i].id;
  }
  return out;
}

uint64_t EventHub::start_after(std::string_view last_event_id) const {
  std::lock_guard lock(mutex_);
  const uint64_t before_kept = events_.empty() ? last_id_ : events_.front().id - 1;
  if (!last_event_id.starts_with(run_ + ".")) return before_kept;
  last_event_id.remove_prefix(run_.size() + 1);
  uint64_t id = 0;
  const auto [end, error] = std::from_chars(last_event_id.data(), last_event_id.data() + last_event_id.size(), id);
  if (error != std::errc() || end != last_event_id.data() + last_event_id.size() || id > last_id_) return before_kept;
  return id;  // behind what is kept: take_after tells the gap
}

std::string EventHub::last_event_id() const {
  std::lock_guard lock(mutex_);
  return last_id_ == 0 ? std::string() : run_ + "." + std::to_string(last_id_);
}

void EventHub::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  changed_.notify_all();
}

bool EventHub::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

}  // namespace logagg
