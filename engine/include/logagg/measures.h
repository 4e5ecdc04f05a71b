// What --sum, --quantiles and --count-if keep for the lines of one row (a
// second, or a bucket, and a key tuple): plain values that add up exactly, so
// a row's measures are the same whatever the thread count, the segment size
// or the order partial results are merged in (threads, --range, merge).
//
// - FixedSum: the exact sum of decimal numbers, in 128-bit fixed point with
//   18 fraction digits: values and totals within +-1.7e20 (2^127 units of
//   10^-18); a value's digits past the 18th fraction digit are rounded half
//   to even; a total past the range is marked overflowed, never wrapped.
// - LogSketch: the DDSketch construction. A value x != 0 goes to the bucket
//   i = ceil(log_gamma |x|) of its sign, gamma = (1 + a) / (1 - a); every
//   value in a bucket is within relative accuracy `a` of the bucket's
//   representative 2 gamma^i / (gamma + 1). Zero has a count of its own.
//   Sketches add bucket by bucket. The bucket index of a value is computed
//   once, the same way on every path, so the same values make the same
//   sketch however they were split.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"

namespace logagg {

__extension__ typedef __int128 FixedUnits;            // units of 10^-18
__extension__ typedef unsigned __int128 FixedMagnitude;  // a FixedUnits' magnitude

class FixedSum {
 public:
  static constexpr int kFractionDigits = 18;
  // The sum of an overflowed total: the one value no exact total reaches,
  // since totals stay within +-(2^127 - 1) units.
  static constexpr FixedUnits kOverflow = static_cast<FixedUnits>(FixedMagnitude{1} << 127);

  constexpr FixedSum() = default;
  static constexpr FixedSum of_units(FixedUnits units) {
    FixedSum s;
    s.units_ = units;
    return s;
  }
  constexpr bool overflowed() const { return units_ == kOverflow; }
  constexpr FixedUnits units() const { return units_; }

  void add(FixedSum other) {
    FixedUnits total;
    // A total of exactly kOverflow (-2^127) needs no test: it reads as overflowed.
    if (overflowed() || other.overflowed() || __builtin_add_overflow(units_, other.units_, &total)) {
      units_ = kOverflow;
      return;
    }
    units_ = total;
  }

  // The sum as a decimal with `digits` fraction digits (0..18), no exponent:
  // exact when every value added had at most `digits` fraction digits.
  // Precondition: not overflowed.
  void append(std::string& out, int digits) const;

  friend constexpr bool operator==(const FixedSum&, const FixedSum&) = default;

 private:
  FixedUnits units_ = 0;
};

// The relative accuracy of every quantile (--quantiles): 1 %.
inline constexpr double kSketchAccuracy = 0.01;

class LogSketch {
 public:
  // The key of a nonzero value's bucket: ascending with the value (negative
  // values' buckets below zero's key 0, positive above), so walking keys in
  // order walks the values in order. The same key as key_by_log, computed
  // from the double's exponent and a table of logarithms of its leading
  // mantissa bits; a value whose bucket index lies within 1e-7 of a whole
  // number (where that sum's rounding could tell otherwise) takes key_by_log.
  static int32_t key_of(double value);
  // The key from the definition: ceil(ln |value| / ln gamma), through std::log.
  static int32_t key_by_log(double value);
  // The representative value of a bucket key (0 for key 0).
  static double value_of(int32_t key);
  // Whether `key` is the key of some double's bucket (for documents read back).
  static bool valid_key(int64_t key);

  // Adds `count` values of bucket `key`. A single value waits in a short
  // list that is sorted into the buckets when it fills (or the sketch is
  // read), so adding costs a sort step, not a search and an insertion. When
  // the list first fills, the keys of its values (at most kWindowKeys of
  // them, around their median) get a counter each, and a value in that
  // window costs an increment.
  void add_key(int32_t key, uint64_t count = 1) {
    if (count == 1) [[likely]] {
      const auto slot = static_cast<uint32_t>(key - window_start_);
      if (slot < window_.size()) {
        ++window_[slot];
        return;
      }
      if (pending_.size() == pending_.capacity()) [[unlikely]] make_room();
      pending_.push_back(key);
      return;
    }
    settle();
    add_bucket(key, count);
  }
  void add(const LogSketch& other);

  // The value of rank `rank` (1-based, 1 <= rank <= total()) among those
  // added: its bucket's representative.
  double at_rank(uint64_t rank) const;
  uint64_t total() const;

  // (key, count) pairs ascending by key, for the result document.
  struct Bucket {
    int32_t key;
    uint64_t count;
    friend bool operator==(const Bucket&, const Bucket&) = default;
  };
  std::vector<Bucket> buckets() const;

  // The buckets as packed words (biased key << 44 | count), ascending by
  // key: the form MeasureTable stores and adds. A word is never 0.
  static constexpr int kCountBits = 44;
  static constexpr uint64_t kCountMask = (uint64_t{1} << kCountBits) - 1;
  const std::vector<uint64_t>& packed() const {
    settle();
    return packed_;
  }
  static LogSketch of_packed(std::vector<uint64_t> packed) {
    LogSketch s;
    s.packed_ = std::move(packed);
    return s;
  }
  // Adds the ascending packed buckets `y` into the ascending packed buckets
  // `x`, equal keys added: merged from the back, in place. Throws
  // std::overflow_error past 2^44 values in a bucket.
  static void add_packed(std::vector<uint64_t>& x, std::span<const uint64_t> y);
  static void add_packed(std::pmr::vector<uint64_t>& x, std::span<const uint64_t> y);

  friend bool operator==(const LogSketch& a, const LogSketch& b) {
    a.settle();
    b.settle();
    return a.packed_ == b.packed_;
  }

 private:
  static constexpr size_t kPendingMax = 128;
  static constexpr int32_t kWindowKeys = 512;
  // Room for one more pending value: the list full (kPendingMax values), as
  // list_full(); else a larger capacity, in few steps rather than doubling
  // from one (a sketch is made for every cell of a measured run).
  void make_room();
  // Sorts the pending values into the buckets, opening the window first
  // when the sketch has none.
  void list_full();
  void open_window();
  void sort_pending() const;
  // Sorts the pending values and the window's counts into the buckets.
  // Reading a sketch settles it first (hence const: only the form changes,
  // not the values).
  void settle() const;
  void add_bucket(int32_t key, uint64_t count) const;
  // Into `runs`, the bucket words of the nonzero counts[i], the counts of
  // keys low + i (each at most kCountMask), ascending by key.
  static void runs_of_counts(int32_t low, std::span<const uint64_t> counts, std::vector<uint64_t>& runs);

  // Each bucket as one word, its biased key in the high 20 bits and its count
  // in the low 44, ascending: a sketch of few values takes few words.
  static constexpr int32_t kKeyBias = 1 << 19;
  static uint64_t bucket_word(int32_t key, uint64_t count) {
    return static_cast<uint64_t>(key + kKeyBias) << kCountBits | count;
  }
  static int32_t key_in(uint64_t word) { return static_cast<int32_t>(word >> kCountBits) - kKeyBias; }
  mutable std::vector<uint64_t> packed_;
  mutable std::vector<int32_t> pending_;  // single values not sorted in yet
  mutable std::vector<uint64_t> window_;  // the count of key window_start_ + i, not in packed_ yet
  int32_t window_start_ = 0;
};

// Whether value a is below value b, exactly: each is a double and, when
// the double may not write it back, its decimal text (a JSON number; empty:
// the double's shortest digits are the value). By the doubles, and where
// they tie, by the decimals.
bool exactly_below(double a, std::string_view a_text, double b, std::string_view b_text);

// The text kept for an extreme `v` written `written` (a JSON number, or
// empty): its plain decimal (Decimal::append_plain) when that is not the
// double's shortest digits, else empty, so that a value has one text.
std::string extreme_text(double v, std::string_view written);

// One measured field in one row.
struct FieldMeasure {
  uint64_t n = 0;      // lines with a usable value
  uint8_t digits = 0;  // --sum: the most fraction digits a value had (the sum's precision)
  FixedSum sum;        // --sum
  // --quantiles: the extremes, exactly. The double orders them; the text is
  // extreme_text's: the plain decimal of one its double does not write back.
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  std::string min_text, max_text;
  LogSketch sketch;  // --quantiles
  // With a histogram (MeasureSpec::Field::bounds): the values at most each
  // bound and above the one before; those above the last are n less these.
  std::vector<uint64_t> histogram;

  // A value into min and max: `text` as MeasureValue::written (or a plain
  // decimal). Inline for the common case, doubles that differ.
  void take_min(double v, std::string_view text) {
    if (v > min || (v == min && text.empty() && min_text.empty())) return;
    if (text.empty() && min_text.empty()) {
      min = v;
      return;
    }
    take_exactly(v, text, /*is_min=*/true);
  }
  void take_max(double v, std::string_view text) {
    if (v < max || (v == max && text.empty() && max_text.empty())) return;
    if (text.empty() && max_text.empty()) {
      max = v;
      return;
    }
    take_exactly(v, text, /*is_min=*/false);
  }
  void add(const FieldMeasure& other);
  friend bool operator==(const FieldMeasure&, const FieldMeasure&) = default;

 private:
  void take_exactly(double v, std::string_view text, bool is_min);
};

// A percentile of --percentiles: p = numerator / 10^scale percent.
struct Percentile {
  std::string text;  // as written, without a leading "p": "99.9"
  uint64_t numerator = 0;
  int scale = 0;
  // Its nearest rank among n > 0 values: ceil(p / 100 * n), at least 1.
  uint64_t rank(uint64_t n) const;
};

// The value of percentile `p` of `f`'s values (f.n > 0): min and max
// exactly at the least and greatest rank, else the rank's bucket
// representative clamped to [min, max]. `exact` says which.
double quantile_of(const FieldMeasure& f, const Percentile& p, bool* exact = nullptr);

// The measures of one row: its line count, the lines that matched each
// --count-if predicate, and each measured field's values.
struct MeasureCell {
  uint64_t count = 0;
  std::vector<uint64_t> matched;     // indexed as Question::count_if
  std::vector<FieldMeasure> fields;  // indexed as MeasureSpec::fields

  void add(const MeasureCell& other);
  friend bool operator==(const MeasureCell&, const MeasureCell&) = default;
};

// What the measures of a run are, from its Question (made once, by Query).
struct MeasureSpec {
  struct Field {
    std::string name;  // as written in --sum / --quantiles
    bool summed = false, quantiled = false;
    std::vector<double> bounds;  // a histogram's upper bounds, ascending (Question::histograms); empty: none
    // The sum is kept for --sum, and for a histogram's _sum (not printed).
    bool keeps_sum() const { return summed || !bounds.empty(); }
  };
  std::vector<Field> fields;  // distinct, in the order first named (--sum's, then --quantiles')
  std::vector<Percentile> percentiles;
  std::vector<std::string> count_if;

  // Throws std::invalid_argument, naming the option, for a percentile that
  // is not a decimal 0..100 of at most 6 fraction digits, or no percentile.
  static MeasureSpec of(const Question& question);
  bool empty() const { return fields.empty() && count_if.empty(); }
  // A cell of no lines with a place for each --count-if and each field.
  MeasureCell empty_cell() const;
  // The columns after "count": count(EXPR) and ratio(EXPR) for each
  // --count-if, then for each field n(F), with --sum sum(F), with
  // --quantiles min(F), max(F) and pP(F) for each percentile.
  std::vector<std::string> columns() const;
  // One measure's column: "MEASURE(OF)" ("n(bytes)", "count(status>=500)").
  static std::string column(std::string_view measure, std::string_view of);
};

}  // namespace logagg
