// Measured counting's cells: a worker's switch to another cell, its spill,
// and the merged cells in order (see measure_counter.h).
#include "count/measure_counter.h"

#include <algorithm>

#include "count/app_table.h"

namespace logagg {

void SharedMeasures::add(CellMap& cells) {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (cells_.empty()) {
      cells_.swap(cells);
    } else {
      for (auto& [key, cell] : cells) {
        const auto [it, inserted] = cells_.try_emplace(key);
        if (inserted) {
          it->second = std::move(cell);
        } else {
          it->second.add(cell);
        }
      }
    }
  }
  cells.clear();
}

std::vector<std::pair<CellKey, MeasureCell>> SharedMeasures::take_sorted(const std::vector<uint32_t>& order,
                                                                         uint32_t other_app) {
  std::vector<std::pair<CellKey, MeasureCell>> out;
  out.reserve(cells_.size());
  for (auto& [key, cell] : cells_) {
    CellKey k = key;
    if (!order.empty()) k.app = k.app == AppTable::kOther ? other_app : order[k.app];
    out.emplace_back(k, std::move(cell));
  }
  CellMap().swap(cells_);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.first.second != b.first.second ? a.first.second < b.first.second : a.first.app < b.first.app;
  });
  return out;
}

MeasureCounter::MeasureCounter(SharedMeasures& shared, const MeasureSpec& spec, size_t max_cells)
    : shared_(&shared), empty_(spec.empty_cell()), max_cells_(max_cells) {
  for (const MeasureSpec::Field& f : spec.fields) fields_.push_back({f.summed, f.quantiled});
}

void MeasureCounter::switch_to(CellKey key) {
  if (cells_.size() >= max_cells_) spill();
  const auto [it, inserted] = cells_.try_emplace(key);
  if (inserted) it->second = empty_;
  last_key_ = key;
  last_ = &it->second;
}

void MeasureCounter::spill() {
  last_ = nullptr;
  if (!cells_.empty()) shared_->add(cells_);
}

}  // namespace logagg
