// Buckets handed out as they complete (see bucket_stream.h).
#include "follow/bucket_stream.h"

#include <algorithm>
#include <utility>

namespace logagg {

void BucketStream::add_count(int64_t second, const std::string* app, uint64_t count, const MeasureCell* cell) {
  const int64_t start = bucketing_.start_of(second);
  auto done = done_.find(start);
  // A bucket older than one handed out was handed out with it, empty: its
  // first lines are late too (a file found only after a rotation moved it,
  // or a writer that fell behind), and make a correction from zero rather
  // than a row out of order.
  if (done == done_.end() && !done_.empty() && start < done_.rbegin()->first) done = done_.try_emplace(start).first;
  Bucket* b;
  if (done != done_.end()) {
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
    if (cell != nullptr) b->cells[*app].add(*cell);
  } else {
    b->total += count;
    if (cell != nullptr) b->cell.add(*cell);
  }
}

void BucketStream::add(const Result& round) {
  // A measured round's cells go with its app rows when it has any, else with its seconds.
  if (!round.cells.empty() && !cells_) cells_ = round.cells.empty_like();
  const bool cells_by_second = !round.cells.empty() && round.app_counts.empty();
  MeasureCell cell;
  const auto cell_of = [&](bool has, size_t row) -> const MeasureCell* {
    if (!has) return nullptr;
    round.cells.get(row, cell);
    return &cell;
  };
  for (size_t i = 0; i < round.counts.size(); ++i) {
    const SecondCount& c = round.counts[i];
    add_count(c.second, nullptr, c.count, cell_of(cells_by_second, i));
    if (!newest_ || c.second > *newest_) newest_ = c.second;
  }
  capped_ = capped_ || round.apps_capped;
  const std::string other(kOtherApp);
  for (size_t i = 0; i < round.app_counts.size(); ++i) {
    const AppCount& c = round.app_counts[i];
    const std::string* app = &round.apps[c.app];
    if (*app != other && known_apps_.count(*app) == 0) {
      if (known_apps_.size() < max_apps_) {
        known_apps_.insert(*app);
      } else {
        app = &other;
        capped_ = true;
      }
    }
    add_count(c.second, app, c.count, cell_of(!round.cells.empty(), i));
  }
}

FollowRow BucketStream::row_of(int64_t start, const Bucket& b, const std::string* app, bool correction) {
  if (app == nullptr) return {start, {}, b.total, correction, b.cell};
  const auto cell = b.cells.find(*app);
  return {start, *app, b.apps.at(*app), correction, cell != b.cells.end() ? cell->second : MeasureCell{}};
}

FollowRow BucketStream::others_row(int64_t start, const Bucket& b, bool correction) {
  MeasureCell cells;
  for (const auto& [app, cell] : b.cells) {
    if (b.shown.count(app) == 0) cells.add(cell);
  }
  return {start, std::string(kOtherApp), others(b), correction, std::move(cells)};
}

uint64_t BucketStream::others(const Bucket& b) {
  uint64_t shown = 0;
  for (const std::string& app : b.shown) shown += b.apps.at(app);
  return b.total - shown;
}

void BucketStream::append_rows(int64_t start, Bucket& b, std::vector<FollowRow>& rows) const {
  if (b.apps.empty()) {
    rows.push_back(row_of(start, b, nullptr, false));
    return;
  }
  if (top_ == 0) {
    for (const auto& entry : b.apps) rows.push_back(row_of(start, b, &entry.first, false));
    return;
  }
  std::vector<std::pair<uint64_t, const std::string*>> busiest;
  for (const auto& [app, count] : b.apps) {
    if (app != kOtherApp) busiest.push_back({count, &app});
  }
  std::stable_sort(busiest.begin(), busiest.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (size_t i = 0; i < std::min(top_, busiest.size()); ++i) b.shown.insert(*busiest[i].second);
  for (const std::string& app : b.shown) rows.push_back(row_of(start, b, &app, false));
  if (others(b) != 0) rows.push_back(others_row(start, b, false));
}

std::vector<FollowRow> BucketStream::take(bool all) {
  std::vector<FollowRow> rows;
  for (const auto& [start, changes] : changed_) {
    const Bucket& b = done_.at(start);
    if (changes.apps.empty()) {
      rows.push_back(row_of(start, b, nullptr, true));
      continue;
    }
    bool other = false;  // with top: an app it does not show changed
    for (const auto& entry : changes.apps) {
      if (top_ == 0 || b.shown.count(entry.first) != 0) {
        rows.push_back(row_of(start, b, &entry.first, true));
      } else {
        other = true;
      }
    }
    if (other) rows.push_back(others_row(start, b, true));
  }
  changed_.clear();
  while (!open_.empty()) {
    const auto first = open_.begin();
    const bool complete = newest_ && *newest_ >= bucketing_.next(first->first) + late_;
    if (!all && !complete) break;
    append_rows(first->first, first->second, rows);
    done_.insert(open_.extract(first));
  }
  return rows;
}

Result BucketStream::totals() const {
  Result r;
  r.apps_capped = capped_;
  if (cells_) r.cells = cells_->empty_like();
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
    if (cells_ && b->apps.empty()) r.cells.push_back(b->cell);
    for (const auto& [app, count] : b->apps) {
      r.app_counts.push_back({start, ids.at(app), count});
      if (const auto cell = b->cells.find(app); cell != b->cells.end()) r.cells.push_back(cell->second);
    }
  }
  return r;
}

}  // namespace logagg
