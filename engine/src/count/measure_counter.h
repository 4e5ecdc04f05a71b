// Counting with measures (--sum, --quantiles, --count-if): each counted line
// goes into the cell (logagg/measures.h) of its (second, key number), which
// holds the line count beside the measures, so a measured run counts through
// here alone. Each worker owns a MeasureCounter; a worker whose map of cells
// reaches its cap adds it into the one SharedMeasures (under a mutex), so
// memory grows with the distinct (second, key) cells, not threads x cells.
// The cap starts low and grows while the cells spilled come back.
// Cells add up exactly (sums in fixed point, sketches bucket by bucket), so
// the merged cells are the same whichever worker counted which line.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

#include "logagg/measure_table.h"
#include "logagg/measures.h"
#include "logagg/result.h"
#include "model/line_verdict.h"

namespace logagg {

struct CellKey {
  int64_t second;
  uint32_t app;  // the key tuple's number (AppTable), 0 without keys
  bool operator==(const CellKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const CellKey& k) {
    return H::combine(std::move(h), k.second, k.app);
  }
};

// A worker's cells by key. The cells live in the worker's pool
// (MeasureCounter), where each stays put while others are added, so the
// worker keeps pointers to the cells it counts into.
using CellMap = absl::flat_hash_map<CellKey, MeasureCell*>;

// The merged cells of all workers: one row of a MeasureTable per (second,
// key number), found through a set of row numbers hashed by their keys.
class SharedMeasures {
 public:
  explicit SharedMeasures(const MeasureSpec& spec);
  SharedMeasures(const SharedMeasures&) = delete;
  SharedMeasures& operator=(const SharedMeasures&) = delete;

  // Adds every cell of `cells`; returns how many met a row already there
  // (spilled before, by this worker or another). Thread-safe.
  size_t add(const CellMap& cells);
  // The keys, their numbers renumbered by `order` (old number -> new;
  // AppTable::kOther -> other_app; without keys: empty, numbers kept),
  // ascending by (second, new number), and into `cells` their cells in the
  // same order; leaves this empty.
  std::vector<CellKey> take_sorted(const std::vector<uint32_t>& order, uint32_t other_app, MeasureTable& cells);

 private:
  // Hash and equality of row numbers by their rows' keys, also looked up by a key.
  struct RowHash {
    using is_transparent = void;
    const std::vector<CellKey>* keys;
    size_t operator()(uint32_t row) const { return (*this)((*keys)[row]); }
    size_t operator()(const CellKey& key) const { return absl::Hash<CellKey>{}(key); }
  };
  struct RowEq {
    using is_transparent = void;
    const std::vector<CellKey>* keys;
    const CellKey& key(uint32_t row) const { return (*keys)[row]; }
    const CellKey& key(const CellKey& k) const { return k; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return key(a) == key(b);
    }
  };

  std::mutex mu_;
  MeasureTable table_;
  std::vector<CellKey> keys_;  // each row's
  absl::flat_hash_set<uint32_t, RowHash, RowEq> rows_;
};

class MeasureCounter {
 public:
  // A worker's cells before a spill: at first kFirstCells, doubled after a
  // spill of which more than an eighth met rows already there (cells split
  // across spills: more live at once than the cap), up to max_cells. Each
  // new cell takes the pool's next place, a few KiB of lists (a sketch's
  // pending values and window), so the cap is the memory a worker cycles
  // through even when only a few cells are live (a log in time order, whose
  // cap stays at the first on one thread; with more, a second where two
  // workers' segments meet is a cell of both, which counts as met too). A
  // low cap keeps that memory near the caches; a log of many cells live at
  // once (shuffled) needs a high one, or its cells are split and merged in
  // parts: 1,024 cells took 0.95x the time of 4,096 for a RED report in
  // time order, 1.16x for one shuffled (docs/bench-notes/2026-12-07-cells-cap.md,
  // 2026-12-07-cells-cap-grows.md).
  static constexpr size_t kFirstCells = size_t{1} << 10;
  static constexpr size_t kDefaultMaxCells = size_t{1} << 12;

  MeasureCounter(SharedMeasures& shared, const MeasureSpec& spec, size_t max_cells = kDefaultMaxCells);

  // The cells a spill happens at now (from min(kFirstCells, max_cells) up to max_cells).
  size_t cap() const { return cap_; }

  // A counted line of `second` under key number `app`, with what its
  // measures read; tallies its fields without a usable value in `tally`.
  [[gnu::always_inline]] void add(int64_t second, uint32_t app, const LineMeasures& line, Summary& tally) {
    if (last_ == nullptr || last_key_.second != second || last_key_.app != app) [[unlikely]] {
      const Indexed* at = app < by_key_.size() ? &by_key_[app] : nullptr;
      if (second == index_second_ && at != nullptr && at->generation == generation_) {
        last_key_ = {second, app};
        last_ = at->cell;
      } else {
        switch_to({second, app});
      }
    }
    MeasureCell& cell = *last_;
    ++cell.count;
    if (one_sum_) {  // --sum F alone (with or without keys): no loop, no predicate, no form to test
      if ((line.usable & 1) == 0) [[unlikely]] {
        ++tally.no_measure[0];
        return;
      }
      ++cell.fields[0].n;
      add_sum(cell.fields[0], line.values[0]);
      return;
    }
    for (uint64_t m = line.matched; m != 0; m &= m - 1) ++cell.matched[static_cast<size_t>(__builtin_ctzll(m))];
    // Through pointers taken once: a cell's writes could otherwise be its
    // vectors' own bounds, which the compiler then read again each field.
    const Field* const how = fields_.data();
    FieldMeasure* const measured = cell.fields.data();
    const MeasureValue* const values = line.values.data();
    for (size_t i = 0, n = fields_.size(); i < n; ++i) {
      if ((line.usable >> i & 1) == 0) [[unlikely]] {
        ++tally.no_measure[i];
        continue;
      }
      add_value(measured[i], how[i], values[i]);
    }
  }

  // Adds the remaining cells into the shared ones, and frees the pool (at the end).
  void spill();

 private:
  struct Field {
    bool summed, quantiled;  // summed: the sum kept (MeasureSpec::Field::keeps_sum)
    std::vector<double> bounds;  // a histogram's, or empty
  };
  static void add_sum(FieldMeasure& f, const MeasureValue& v) {
    f.sum.add(v.fixed);
    f.digits = std::max(f.digits, static_cast<uint8_t>(v.digits));
  }
  static void add_value(FieldMeasure& f, const Field& how, const MeasureValue& v) {
    ++f.n;
    if (how.summed) add_sum(f, v);
    if (how.quantiled) {
      f.take_min(v.real, v.written);
      f.take_max(v.real, v.written);
      f.sketch.add_key(LogSketch::key_of(v.real));
      if (!how.bounds.empty()) [[unlikely]] {
        // The first bound the value is at most; past the last, none.
        const auto at = std::lower_bound(how.bounds.begin(), how.bounds.end(), v.real) - how.bounds.begin();
        if (static_cast<size_t>(at) < f.histogram.size()) ++f.histogram[static_cast<size_t>(at)];
      }
    }
  }
  void switch_to(CellKey key);
  // Adds the cells into the shared ones and forgets them, keeping the pool.
  void spill_cells();
  void forget_index() { ++generation_; }

  // Where the cells of one second are, by key number (a cell of
  // index_second_ at by_key_[app] if its generation is the current one), for
  // the first kIndexedKeys numbers: with keys, most lines go to another key's
  // cell than the line before, found here rather than hashed into cells_.
  // The pointers are valid until cells_ spills, which bumps the generation,
  // as does another second.
  static constexpr uint32_t kIndexedKeys = uint32_t{1} << 16;  // at most 1 MiB of index
  struct Indexed {
    uint64_t generation = 0;
    MeasureCell* cell = nullptr;
  };

  SharedMeasures* shared_;
  std::vector<Field> fields_;
  bool one_sum_;  // one field, summed only, and no --count-if: add()'s own path
  MeasureCell empty_;  // a new cell's start: a place for each --count-if and field
  size_t max_cells_;
  size_t cap_;  // cells_ spills at this many
  CellMap cells_;
  // The cells, the first used_ of them in cells_. A spill keeps them: a new
  // cell is empty_ assigned over a spilled one, which keeps the room of its
  // lists (a sketch's pending values, window and buckets), so that a cell
  // seldom allocates once a worker has made as many as it holds at a time.
  // The pool holds at most cap_ cells, each with the room its largest
  // lists took: the bound a full map reached before a spill.
  std::deque<MeasureCell> pool_;
  size_t used_ = 0;
  CellKey last_key_{0, 0};
  MeasureCell* last_ = nullptr;  // the cell of last_key_: stable until the next spill
  int64_t index_second_ = 0;
  uint64_t generation_ = 1;
  std::vector<Indexed> by_key_;
};

}  // namespace logagg
