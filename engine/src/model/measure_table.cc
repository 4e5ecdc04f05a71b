// The rows of measures in a flat layout (logagg/measure_table.h): the
// layout from the spec, a row read back as a cell, a cell added into a row;
// the rows and the sketches' lists in memory of the table's own.
#include "logagg/measure_table.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <numeric>
#include <stdexcept>

#include "model/huge_page_arena.h"

namespace logagg {

namespace {

// A field's first word: n in the low 56 bits, the sum's digits above.
constexpr int kDigitsShift = 56;
constexpr uint64_t kNMask = (uint64_t{1} << kDigitsShift) - 1;
// A sketch's first word when its buckets moved to a list of their own: a
// key no bucket has (all ones) above the list's index.
constexpr uint64_t kSpilledKey = (uint64_t{1} << (64 - LogSketch::kCountBits)) - 1;

bool spilled(uint64_t first) { return first >> LogSketch::kCountBits == kSpilledKey; }

// How many buckets a sketch not spilled holds in its row (they come first).
size_t inline_buckets(const uint64_t* words) {
  size_t n = 0;
  while (n < MeasureTable::kInlineBuckets && words[n] != 0) ++n;
  return n;
}

// A sum's two words: low, then high.
FixedSum load_sum(const uint64_t* at) {
  return FixedSum::of_units(static_cast<FixedUnits>(static_cast<FixedMagnitude>(at[1]) << 64 | at[0]));
}
void store_sum(uint64_t* at, FixedSum sum) {
  const auto units = static_cast<FixedMagnitude>(sum.units());
  at[0] = static_cast<uint64_t>(units);
  at[1] = static_cast<uint64_t>(units >> 64);
}

// A sketch's list this long or shorter is taken from a pool of lists of its
// size, where lists freed are reused; a longer one (a sketch of more buckets:
// a field's values spread over many factors of ten) from the arena itself.
constexpr size_t kLargestPooledList = size_t{64} << 10;
// At most this many lists of a size to a chunk the pool takes from the arena:
// its default lets a size's chunks double to hundreds of lists, most of the
// last one never used (a RED report's table, 23 MB of lists and 6 MB of rows,
// took 56 MB of arena, 33 MB with 32 a chunk:
// docs/bench-notes/2026-12-07-table-in-huge-pages.md).
constexpr size_t kBlocksPerChunk = 32;

}  // namespace

struct MeasureTable::Lists {
  HugePageArena arena;
  std::pmr::unsynchronized_pool_resource pool{{kBlocksPerChunk, kLargestPooledList}, &arena};
  std::vector<uint64_t*> blocks;  // kBlockRows rows each, from the arena
  std::vector<std::pmr::vector<uint64_t>> spilled;  // the sketches past kInlineBuckets buckets, from the pool

  // A new block of `bytes`, appended to `blocks`.
  uint64_t* new_block(size_t bytes) {
    blocks.push_back(static_cast<uint64_t*>(arena.allocate(bytes, alignof(uint64_t))));
    return blocks.back();
  }
};

void MeasureTable::new_lists() { lists_ = std::make_unique<Lists>(); }

MeasureTable::MeasureTable() = default;
MeasureTable::MeasureTable(MeasureTable&&) noexcept = default;
MeasureTable& MeasureTable::operator=(MeasureTable&&) noexcept = default;
MeasureTable::~MeasureTable() = default;

MeasureTable::MeasureTable(const MeasureSpec& spec) : matched_(static_cast<uint32_t>(spec.count_if.size())) {
  uint32_t at = 1 + matched_;
  for (const MeasureSpec::Field& f : spec.fields) {
    const uint32_t sum_at = at + 1;
    const uint32_t min_at = sum_at + (f.keeps_sum() ? 2 : 0);
    const uint32_t histogram_at = min_at + (f.quantiled ? 2 + kInlineBuckets : 0);
    const auto bounds = static_cast<uint32_t>(f.bounds.size());
    fields_.push_back({at, sum_at, min_at, f.keeps_sum(), f.quantiled, histogram_at, bounds});
    at = histogram_at + bounds;
  }
  stride_ = at;
  empty_row_.assign(stride_, 0);
  for (const Field& f : fields_) {
    if (!f.quantiled) continue;
    empty_row_[f.min_at] = std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
    empty_row_[f.min_at + 1] = std::bit_cast<uint64_t>(-std::numeric_limits<double>::infinity());
  }
}

MeasureTable::MeasureTable(const MeasureTable& other)
    : matched_(other.matched_),
      fields_(other.fields_),
      stride_(other.stride_),
      empty_row_(other.empty_row_),
      rows_(other.rows_),
      order_(other.order_),
      exact_(other.exact_) {
  if (other.lists_ == nullptr) return;
  new_lists();
  const size_t block_bytes = kBlockRows * stride_ * sizeof(uint64_t);
  for (const uint64_t* block : other.lists_->blocks) std::memcpy(lists_->new_block(block_bytes), block, block_bytes);
  lists_->spilled.reserve(other.lists_->spilled.size());
  for (const std::pmr::vector<uint64_t>& s : other.lists_->spilled) lists_->spilled.emplace_back(s, &lists_->pool);
}

MeasureTable& MeasureTable::operator=(const MeasureTable& other) {
  if (this != &other) *this = MeasureTable(other);
  return *this;
}

MeasureTable MeasureTable::empty_like() const {
  MeasureTable t;
  t.matched_ = matched_;
  t.fields_ = fields_;
  t.stride_ = stride_;
  t.empty_row_ = empty_row_;
  return t;
}

uint64_t* MeasureTable::row_words(size_t row) {
  const size_t at = physical(row);
  return lists_->blocks[at / kBlockRows] + at % kBlockRows * stride_;
}

const uint64_t* MeasureTable::row_words(size_t row) const {
  const size_t at = physical(row);
  return lists_->blocks[at / kBlockRows] + at % kBlockRows * stride_;
}

std::vector<uint64_t> MeasureTable::sketch_of(const uint64_t* words) const {
  if (spilled(words[0])) {
    const std::pmr::vector<uint64_t>& list = lists_->spilled[words[0] & LogSketch::kCountMask];
    return {list.begin(), list.end()};
  }
  return {words, words + inline_buckets(words)};
}

void MeasureTable::get(size_t row, MeasureCell& out) const {
  const uint64_t* w = row_words(row);
  out.count = w[0];
  out.matched.assign(w + 1, w + 1 + matched_);
  out.fields.resize(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    FieldMeasure& m = out.fields[i];
    m = FieldMeasure{};
    m.n = w[f.n_at] & kNMask;
    m.digits = static_cast<uint8_t>(w[f.n_at] >> kDigitsShift);
    if (f.summed) m.sum = load_sum(w + f.sum_at);
    if (f.quantiled) {
      m.min = std::bit_cast<double>(w[f.min_at]);
      m.max = std::bit_cast<double>(w[f.min_at + 1]);
      if (!exact_.empty()) {
        m.min_text = exact_text(exact_key(row, i, true));
        m.max_text = exact_text(exact_key(row, i, false));
      }
      m.sketch = LogSketch::of_packed(sketch_of(w + f.sketch_at()));
    }
    m.histogram.assign(w + f.histogram_at, w + f.histogram_at + f.bounds);
  }
}

FixedSum MeasureTable::sum(size_t row, size_t field) const {
  const Field& f = fields_[field];
  return f.summed ? load_sum(row_words(row) + f.sum_at) : FixedSum{};
}

void MeasureTable::push_back(const MeasureCell& cell) {
  if (stride_ == 0) throw std::logic_error("a row added to a table of no measures");
  if (lists_ == nullptr) new_lists();  // a table's memory is mapped at its first row
  if (rows_ % kBlockRows == 0 && rows_ / kBlockRows == lists_->blocks.size()) {
    lists_->new_block(kBlockRows * stride_ * sizeof(uint64_t));
  }
  if (!order_.empty()) order_.push_back(static_cast<uint32_t>(rows_));
  ++rows_;
  std::memcpy(row_words(rows_ - 1), empty_row_.data(), stride_ * sizeof(uint64_t));
  add(rows_ - 1, cell);
}

void MeasureTable::add_sketch(uint64_t* words, const std::vector<uint64_t>& buckets) {
  if (buckets.empty()) return;
  if (spilled(words[0])) {
    LogSketch::add_packed(lists_->spilled[words[0] & LogSketch::kCountMask], buckets);
    return;
  }
  std::pmr::vector<uint64_t> sum(words, words + inline_buckets(words), &lists_->pool);
  LogSketch::add_packed(sum, buckets);
  if (sum.size() <= kInlineBuckets) {
    std::copy(sum.begin(), sum.end(), words);
    return;
  }
  const size_t list = lists_->spilled.size();
  lists_->spilled.push_back(std::move(sum));  // before the row names it
  words[0] = kSpilledKey << LogSketch::kCountBits | list;
  std::fill(words + 1, words + kInlineBuckets, 0);
}

void MeasureTable::add(size_t row, const MeasureCell& cell) {
  uint64_t* w = row_words(row);
  w[0] += cell.count;
  for (size_t i = 0; i < std::min<size_t>(matched_, cell.matched.size()); ++i) w[1 + i] += cell.matched[i];
  for (size_t i = 0; i < std::min(fields_.size(), cell.fields.size()); ++i) {
    const Field& f = fields_[i];
    const FieldMeasure& m = cell.fields[i];
    uint64_t& n = w[f.n_at];
    const uint64_t digits = std::max(n >> kDigitsShift, uint64_t{m.digits});
    n = ((n & kNMask) + m.n) | digits << kDigitsShift;
    if (f.summed) {
      FixedSum sum = load_sum(w + f.sum_at);
      sum.add(m.sum);
      store_sum(w + f.sum_at, sum);
    }
    if (f.quantiled) {
      take_extreme(w[f.min_at], exact_key(row, i, true), m.min, m.min_text, true);
      take_extreme(w[f.min_at + 1], exact_key(row, i, false), m.max, m.max_text, false);
      add_sketch(w + f.sketch_at(), m.sketch.packed());
    }
    for (size_t b = 0; b < std::min<size_t>(f.bounds, m.histogram.size()); ++b) w[f.histogram_at + b] += m.histogram[b];
  }
}

void MeasureTable::take_extreme(uint64_t& word, uint64_t key, double v, const std::string& text, bool is_min) {
  const double current = std::bit_cast<double>(word);
  if (is_min ? v > current : v < current) return;
  const std::string_view current_text = exact_text(key);
  if (is_min ? !exactly_below(v, text, current, current_text) : !exactly_below(current, current_text, v, text)) return;
  word = std::bit_cast<uint64_t>(v);
  if (!text.empty()) {
    exact_[key] = text;
  } else if (!current_text.empty()) {
    exact_.erase(key);
  }
}

std::string_view MeasureTable::exact_text(uint64_t key) const {
  if (exact_.empty()) return {};
  const auto it = exact_.find(key);
  return it == exact_.end() ? std::string_view() : std::string_view(it->second);
}

void MeasureTable::clear() {
  lists_.reset();  // the memory of the rows and lists unmapped
  rows_ = 0;
  order_.clear();
  exact_.clear();
}

void MeasureTable::reorder(std::vector<uint32_t> order) {
  if (!order_.empty()) {
    for (uint32_t& at : order) at = order_[at];
  }
  order_ = std::move(order);
}

uint64_t MeasureTable::sketch_buckets() const {
  uint64_t n = 0;
  for (size_t row = 0; row < rows_; ++row) {
    const uint64_t* w = row_words(row);
    for (const Field& f : fields_) {
      if (!f.quantiled) continue;
      const uint64_t* sketch = w + f.sketch_at();
      if (spilled(sketch[0])) {
        n += lists_->spilled[sketch[0] & LogSketch::kCountMask].size();
      } else {
        n += inline_buckets(sketch);
      }
    }
  }
  return n;
}

size_t MeasureTable::bytes() const {
  size_t buckets = 0;
  if (lists_ != nullptr) {
    for (const std::pmr::vector<uint64_t>& s : lists_->spilled) buckets += s.size();
  }
  size_t texts = 0;
  for (const auto& [key, text] : exact_) texts += sizeof key + text.size();
  return (rows_ * stride_ + buckets) * sizeof(uint64_t) + texts;
}

}  // namespace logagg
