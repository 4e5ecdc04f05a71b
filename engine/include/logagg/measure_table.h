// The measures of many rows in little memory (Result::cells): each row's
// cell (logagg/measures.h) stored as a fixed run of 64-bit words laid out by
// the run's MeasureSpec, so a row costs only what the run measures:
//
//   count | a count per --count-if | per field: n (and the sum's digits),
//   with --sum the 128-bit sum, with --quantiles min, max and the sketch
//
// The text of an extreme a double does not write back (FieldMeasure's
// min_text, max_text: values of over 15 digits) is kept beside the rows.
//
// A sketch keeps up to kInlineBuckets buckets in its row (a second of a
// quiet key holds a few values); a sketch with more moves to a list of its
// own. Rows live in blocks of a fixed size, so a growing table never holds
// two copies of itself. Blocks and lists live in memory of the table's own,
// asked of the kernel in huge pages once the table is large. Reading a row
// gives a MeasureCell; adding one to a row adds it exactly as
// MeasureCell::add does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "logagg/measures.h"

namespace logagg {

class MeasureTable {
 public:
  static constexpr size_t kInlineBuckets = 3;

  // A table of no measures: empty, and no row can be added.
  MeasureTable();
  explicit MeasureTable(const MeasureSpec& spec);
  MeasureTable(const MeasureTable& other);
  MeasureTable& operator=(const MeasureTable& other);
  MeasureTable(MeasureTable&&) noexcept;
  MeasureTable& operator=(MeasureTable&&) noexcept;
  ~MeasureTable();
  // An empty table laid out alike.
  MeasureTable empty_like() const;

  size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }

  // Row `row`'s cell, into `out` (reusing its lists), or as a new cell.
  void get(size_t row, MeasureCell& out) const;
  MeasureCell operator[](size_t row) const {
    MeasureCell cell;
    get(row, cell);
    return cell;
  }
  // Row `row`'s line count.
  uint64_t count(size_t row) const { return row_words(row)[0]; }
  // Row `row`'s sum of field `field` (0 when the field is not summed).
  FixedSum sum(size_t row, size_t field) const;
  // Appends `cell` as a new row (parts the layout does not measure are not kept).
  void push_back(const MeasureCell& cell);
  // Adds `cell` into row `row`.
  void add(size_t row, const MeasureCell& cell);
  // No rows; the layout stays.
  void clear();
  // The rows in a new order: row i becomes the row that was `order[i]` (a
  // permutation of the rows).
  void reorder(std::vector<uint32_t> order);

  // The buckets the rows' sketches hold, and the bytes of the rows and of
  // the sketches' own lists (what the rows hold, whatever order they were
  // added in: not the blocks' unused room).
  uint64_t sketch_buckets() const;
  size_t bytes() const;

 private:
  // A field's words in a row: n (and the sum's digits); with --sum the sum's
  // two; with --quantiles min, max, then the sketch's kInlineBuckets.
  struct Field {
    uint32_t n_at, sum_at, min_at;
    bool summed, quantiled;  // summed: the sum kept (MeasureSpec::Field::keeps_sum)
    uint32_t histogram_at, bounds;  // a histogram's counts, one word a bound
    uint32_t sketch_at() const { return min_at + 2; }
  };
  static constexpr size_t kBlockRows = size_t{1} << 14;
  // The blocks and the sketches' own lists, and the memory they live in
  // (measure_table.cc).
  struct Lists;

  uint64_t* row_words(size_t row);
  const uint64_t* row_words(size_t row) const;
  size_t physical(size_t row) const { return order_.empty() ? row : order_[row]; }
  void add_sketch(uint64_t* words, const std::vector<uint64_t>& buckets);
  void new_lists();
  // An extreme's word and text (key: exact_key) take value v, written `text`, if it is beyond them.
  void take_extreme(uint64_t& word, uint64_t key, double v, const std::string& text, bool is_min);
  uint64_t exact_key(size_t row, size_t field, bool is_min) const {
    return (physical(row) * fields_.size() + field) * 2 + (is_min ? 0 : 1);
  }
  std::string_view exact_text(uint64_t key) const;
  std::vector<uint64_t> sketch_of(const uint64_t* words) const;

  uint32_t matched_ = 0;  // --count-if predicates
  std::vector<Field> fields_;
  uint32_t stride_ = 0;  // words a row
  std::vector<uint64_t> empty_row_;
  std::unique_ptr<Lists> lists_;  // none before the first row (and in a table of no measures)
  size_t rows_ = 0;
  std::vector<uint32_t> order_;  // after reorder: row -> where it is stored
  std::unordered_map<uint64_t, std::string> exact_;  // by exact_key: the extremes that have a text
};

}  // namespace logagg
