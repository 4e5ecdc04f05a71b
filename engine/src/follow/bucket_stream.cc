// Buckets handed out as they complete (see bucket_stream.h).
#include "follow/bucket_stream.h"

namespace logagg {

void BucketStream::add_count(int64_t second, const std::string* app, uint64_t count) {
  const int64_t start = bucketing_.start_of(second);
  Bucket* b;
  if (auto done = done_.find(start); done != done_.end()) {
    b = &done->second;
    Bucket& changes = changed_[start];  // what to correct; the rows take their totals from done_
    if (app != nullptr) {
      changes.apps[*app] = 1;
    } else {
      late_lines_ += count;
    }
  } else {
    b = &open_[start];
  }
  if (app != nullptr) {
    b->apps[*app] += count;
  } else {
    b->total += count;
  }
}

void BucketStream::add(const Result& round) {
  for (const SecondCount& c : round.counts) {
    add_count(c.second, nullptr, c.count);
    if (!newest_ || c.second > *newest_) newest_ = c.second;
  }
  for (const AppCount& c : round.app_counts) add_count(c.second, &round.apps[c.app], c.count);
}

void BucketStream::append_rows(int64_t start, const Bucket& b, bool correction, std::vector<FollowRow>& rows) {
  if (b.apps.empty()) {
    rows.push_back({start, {}, b.total, correction});
    return;
  }
  for (const auto& [app, count] : b.apps) rows.push_back({start, app, count, correction});
}

std::vector<FollowRow> BucketStream::take(bool all) {
  std::vector<FollowRow> rows;
  for (const auto& [start, changes] : changed_) {
    const Bucket& b = done_.at(start);
    if (changes.apps.empty()) {
      rows.push_back({start, {}, b.total, true});
    } else {
      for (const auto& entry : changes.apps) rows.push_back({start, entry.first, b.apps.at(entry.first), true});
    }
  }
  changed_.clear();
  while (!open_.empty()) {
    const auto first = open_.begin();
    const bool complete = newest_ && *newest_ >= bucketing_.next(first->first) + late_;
    if (!all && !complete) break;
    append_rows(first->first, first->second, false, rows);
    done_.insert(open_.extract(first));
  }
  return rows;
}

Result BucketStream::totals() const {
  Result r;
  std::map<std::string, uint32_t> ids;
  for (const auto* buckets : {&done_, &open_}) {
    for (const auto& [start, b] : *buckets) {
      for (const auto& entry : b.apps) ids.emplace(entry.first, 0);
    }
  }
  for (auto& [app, index] : ids) {
    index = static_cast<uint32_t>(r.apps.size());
    r.apps.push_back(app);
  }
  std::map<int64_t, const Bucket*> all;
  for (const auto* buckets : {&done_, &open_}) {
    for (const auto& [start, b] : *buckets) all[start] = &b;
  }
  for (const auto& [start, b] : all) {
    r.counts.push_back({start, b->total});
    for (const auto& [app, count] : b->apps) r.app_counts.push_back({start, ids.at(app), count});
  }
  return r;
}

}  // namespace logagg
