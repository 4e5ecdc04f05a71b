// Measured counting's cells: a worker's switch to another cell, its spill,
// and the merged cells in order (see measure_counter.h).
#include "count/measure_counter.h"

#include <algorithm>
#include <numeric>

#include "count/app_table.h"

namespace logagg {

SharedMeasures::SharedMeasures(const MeasureSpec& spec)
    : table_(spec), rows_(0, RowHash{&keys_}, RowEq{&keys_}) {}

size_t SharedMeasures::add(const CellMap& cells) {
  const std::lock_guard<std::mutex> lock(mu_);
  rows_.reserve(rows_.size() + cells.size());
  size_t met = 0;
  for (const auto& [key, cell] : cells) {
    if (const auto it = rows_.find(key); it != rows_.end()) {
      table_.add(*it, *cell);
      ++met;
      continue;
    }
    keys_.push_back(key);
    table_.push_back(*cell);
    rows_.insert(static_cast<uint32_t>(keys_.size() - 1));
  }
  return met;
}

std::vector<CellKey> SharedMeasures::take_sorted(const std::vector<uint32_t>& order, uint32_t other_app,
                                                 MeasureTable& cells) {
  decltype(rows_)(0, RowHash{&keys_}, RowEq{&keys_}).swap(rows_);
  if (!order.empty()) {
    for (CellKey& k : keys_) k.app = k.app == AppTable::kOther ? other_app : order[k.app];
  }
  std::vector<uint32_t> rows(keys_.size());
  std::iota(rows.begin(), rows.end(), uint32_t{0});
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    const CellKey& x = keys_[a];
    const CellKey& y = keys_[b];
    return x.second != y.second ? x.second < y.second : x.app < y.app;
  });
  std::vector<CellKey> sorted;
  sorted.reserve(rows.size());
  for (const uint32_t row : rows) sorted.push_back(keys_[row]);
  std::vector<CellKey>().swap(keys_);
  table_.reorder(std::move(rows));
  cells = std::move(table_);
  table_ = cells.empty_like();
  return sorted;
}

MeasureCounter::MeasureCounter(SharedMeasures& shared, const MeasureSpec& spec, size_t max_cells)
    : shared_(&shared), empty_(spec.empty_cell()), max_cells_(max_cells), cap_(std::min(max_cells, kFirstCells)) {
  for (const MeasureSpec::Field& f : spec.fields) fields_.push_back({f.keeps_sum(), f.quantiled, f.bounds});
  // A field not quantiled is summed, and has no histogram (MeasureSpec::of).
  one_sum_ = fields_.size() == 1 && !fields_[0].quantiled && spec.count_if.empty();
}

void MeasureCounter::switch_to(CellKey key) {
  if (cells_.size() >= cap_) spill_cells();
  const auto [it, inserted] = cells_.try_emplace(key);
  if (inserted) {
    if (used_ == pool_.size()) {
      pool_.push_back(empty_);
    } else {
      pool_[used_] = empty_;
    }
    it->second = &pool_[used_++];
  }
  if (key.second != index_second_) {
    forget_index();
    index_second_ = key.second;
  }
  if (key.app < kIndexedKeys) {  // kOther too is left out
    if (key.app >= by_key_.size()) by_key_.resize(key.app + size_t{1});
    by_key_[key.app] = {generation_, it->second};
  }
  last_key_ = key;
  last_ = it->second;
}

void MeasureCounter::spill_cells() {
  forget_index();
  last_ = nullptr;
  if (cells_.empty()) return;
  const size_t met = shared_->add(cells_);
  const size_t held = cells_.size();
  if (met > held / 8) cap_ = std::min(max_cells_, 2 * cap_);
  cells_.clear();  // which frees a large table: room for as many again, at once
  cells_.reserve(cap_);  // held is at most cap_, which only grows
  used_ = 0;
}

void MeasureCounter::spill() {
  spill_cells();
  std::deque<MeasureCell>().swap(pool_);
}

}  // namespace logagg
