// The measures' values (logagg/measures.h): printing an exact sum, the
// sketch's buckets, adding rows up, and the measures a run asks for.
#include "logagg/measures.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "text/ascii.h"
#include "text/decimal.h"

namespace logagg {

void FixedSum::append(std::string& out, int digits) const {
  const bool negative = units_ < 0;
  // The magnitude, computed unsigned so that no total's negation overflows.
  const FixedMagnitude magnitude = negative ? static_cast<FixedMagnitude>(0) - static_cast<FixedMagnitude>(units_)
                                            : static_cast<FixedMagnitude>(units_);
  constexpr uint64_t kUnit = 1'000'000'000'000'000'000;  // 10^18
  FixedMagnitude whole = magnitude / kUnit;
  const auto fraction = static_cast<uint64_t>(magnitude % kUnit);
  char buf[64];
  char* p = buf + sizeof buf;
  do {
    *--p = static_cast<char>('0' + static_cast<int>(whole % 10));
    whole /= 10;
  } while (whole != 0);
  const bool zero = magnitude == 0;
  if (negative && !zero) out.push_back('-');
  out.append(p, buf + sizeof buf);
  if (digits <= 0) return;
  char frac[kFractionDigits];
  uint64_t f = fraction;
  for (int i = kFractionDigits - 1; i >= 0; --i) {
    frac[i] = static_cast<char>('0' + f % 10);
    f /= 10;
  }
  out.push_back('.');
  out.append(frac, static_cast<size_t>(std::min(digits, kFractionDigits)));
}

namespace {

// The accuracy buckets are built for, a little finer than kSketchAccuracy,
// so that a representative printed to 7 significant digits (and a value
// whose logarithm rounds across a bucket's edge) stays within it.
constexpr double kBuiltAccuracy = kSketchAccuracy - 1e-5;
const double kGamma = (1 + kBuiltAccuracy) / (1 - kBuiltAccuracy);
const double kLogGamma = std::log(kGamma);
const double kLogHalfSpan = std::log(2 / (kGamma + 1));
// Bucket indexes of doubles run from about -37300 (4.9e-324) to 35500
// (1.8e308); a key is the index plus this, negated for negative values.
constexpr int32_t kIndexOffset = 40000;

// For key_of: the middle c of each 1/256 of [1, 2) (the mantissas that
// share their leading 8 bits), ln c and 1 / c.
struct MantissaLogs {
  std::array<double, 256> middle, log, inverse;
  MantissaLogs() {
    for (size_t i = 0; i < 256; ++i) {
      middle[i] = 1 + (static_cast<double>(i) + 0.5) / 256;
      log[i] = std::log(middle[i]);
      inverse[i] = 1 / middle[i];
    }
  }
};
const MantissaLogs kMantissaLogs;
const double kInverseLogGamma = 1 / kLogGamma;
constexpr double kLn2 = 0.6931471805599453;
// How near a whole number the fast index may lie and still be trusted: its
// error is below 1e-9 (the series' terms past r^3, at most r^4 / 4 with
// |r| <= 1/512, over ln gamma; and the roundings of a sum of magnitude below
// 36000).
constexpr double kIndexMargin = 1e-7;

}  // namespace

int32_t LogSketch::key_by_log(double value) {
  if (value == 0) return 0;
  const auto index = static_cast<int32_t>(std::ceil(std::log(std::fabs(value)) / kLogGamma));
  return value > 0 ? index + kIndexOffset : -(index + kIndexOffset);
}

int32_t LogSketch::key_of(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value) & ~(uint64_t{1} << 63);
  const auto exponent = static_cast<int>(bits >> 52);
  if (exponent == 0 || exponent == 0x7FF) return key_by_log(value);  // zero, subnormal, not finite
  // |value| = 2^(exponent - 1023) m, m in [1, 2); ln m = ln c + ln(1 + r), r = (m - c) / c.
  const double m = std::bit_cast<double>((bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{0x3FF} << 52));
  const auto top = static_cast<size_t>(bits >> 44) & 0xFF;
  const double r = (m - kMantissaLogs.middle[top]) * kMantissaLogs.inverse[top];
  // r - r^2/2 + r^3/3, as two products side by side rather than one after
  // another: this chain, from a line's value to its sketch, is the latency
  // of every quantile (micro_bench's BM_SketchKeyOf).
  const double log1p_r = r + (r * r) * (r * (1.0 / 3) - 0.5);
  // The index plus kIndexOffset, which is positive: truncation is floor.
  const double t = ((exponent - 1023) * kLn2 + kMantissaLogs.log[top] + log1p_r) * kInverseLogGamma + kIndexOffset;
  const auto below = static_cast<int32_t>(t);
  const double fraction = t - below;
  if (fraction < kIndexMargin || fraction > 1 - kIndexMargin) return key_by_log(value);
  return value > 0 ? below + 1 : -(below + 1);
}

double LogSketch::value_of(int32_t key) {
  if (key == 0) return 0;
  const int32_t index = std::abs(key) - kIndexOffset;
  // 2 gamma^i / (gamma + 1) in one exp, so it overflows only for the
  // buckets of the largest doubles, whose representative is then the largest.
  const double v = std::min(std::exp(index * kLogGamma + kLogHalfSpan), std::numeric_limits<double>::max());
  return key > 0 ? v : -v;
}

bool LogSketch::valid_key(int64_t key) {
  // A double's index lies within +-kIndexOffset, so its key's magnitude within (0, 2 kIndexOffset).
  const int64_t magnitude = key < 0 ? -key : key;
  return magnitude < 2 * int64_t{kIndexOffset};
}

void LogSketch::add_bucket(int32_t key, uint64_t count) const {
  const uint64_t biased = bucket_word(key, 0);
  const auto it = std::lower_bound(packed_.begin(), packed_.end(), biased);
  if (it != packed_.end() && (*it & ~kCountMask) == biased) {
    if ((*it & kCountMask) + count > kCountMask)
      throw std::overflow_error("more than 2^44 values in a quantile bucket");
    *it += count;
    return;
  }
  if (count > kCountMask) throw std::overflow_error("more than 2^44 values in a quantile bucket");
  packed_.insert(it, biased | count);
}

namespace {

// LogSketch::add_packed, for a list on the heap or in a table's memory.
template <typename Words>
void add_packed_into(Words& x, std::span<const uint64_t> y) {
  constexpr uint64_t kCountMask = LogSketch::kCountMask;
  if (x.empty()) {  // a cell's first buckets: most cells settle once
    x.assign(y.begin(), y.end());
    return;
  }
  size_t common = 0;  // keys in both, which take one place
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    const uint64_t a = x[i] & ~kCountMask, b = y[j] & ~kCountMask;
    common += a == b;
    i += a <= b;
    j += b <= a;
  }
  size_t i = x.size(), j = y.size();
  x.resize(x.size() + y.size() - common);
  size_t out = x.size();
  while (j > 0) {
    const uint64_t b = y[j - 1] & ~kCountMask;
    const uint64_t a = i > 0 ? x[i - 1] & ~kCountMask : 0;
    if (i > 0 && a == b) {
      const uint64_t count = (x[i - 1] & kCountMask) + (y[j - 1] & kCountMask);
      if (count > kCountMask) throw std::overflow_error("more than 2^44 values in a quantile bucket");
      x[--out] = a | count;
      --i, --j;
    } else if (i > 0 && a > b) {
      x[--out] = x[--i];
    } else {
      x[--out] = y[--j];
    }
  }
}

}  // namespace

void LogSketch::add_packed(std::vector<uint64_t>& x, std::span<const uint64_t> y) { add_packed_into(x, y); }
void LogSketch::add_packed(std::pmr::vector<uint64_t>& x, std::span<const uint64_t> y) { add_packed_into(x, y); }

void LogSketch::make_room() {
  if (pending_.size() >= kPendingMax) {
    list_full();
    return;
  }
  constexpr size_t kFirstRoom = 16;
  pending_.reserve(std::min(kPendingMax, std::max(kFirstRoom, 4 * pending_.size())));
}

void LogSketch::list_full() {
  if (window_.empty()) open_window();
  sort_pending();
}

void LogSketch::open_window() {
  // The keys of the pending values, with room around them; around their
  // median when wider. Each value in the window is counted there at once.
  const auto [least, most] = std::minmax_element(pending_.begin(), pending_.end());
  constexpr int32_t kRoom = 32;
  int32_t low = *least - kRoom, high = *most + kRoom;
  if (high - low + 1 > kWindowKeys) {
    const auto middle = pending_.begin() + static_cast<std::ptrdiff_t>(pending_.size() / 2);
    std::nth_element(pending_.begin(), middle, pending_.end());
    low = *middle - kWindowKeys / 2;
    high = low + kWindowKeys - 1;
  }
  window_start_ = low;
  window_.assign(static_cast<size_t>(high - low + 1), 0);
  size_t outside = 0;  // values left pending, moved to the front
  for (const int32_t key : pending_) {
    const auto slot = static_cast<uint32_t>(key - window_start_);
    if (slot < window_.size()) {
      ++window_[slot];
    } else {
      pending_[outside++] = key;
    }
  }
  pending_.resize(outside);
}

void LogSketch::settle() const {
  sort_pending();
  if (window_.empty()) return;
  if (*std::max_element(window_.begin(), window_.end()) > kCountMask) {
    throw std::overflow_error("more than 2^44 values in a quantile bucket");
  }
  thread_local std::vector<uint64_t> runs;  // the window's counts as buckets, ascending by key
  runs_of_counts(window_start_, window_, runs);
  std::fill(window_.begin(), window_.end(), 0);
  add_packed(packed_, runs);
}

void LogSketch::runs_of_counts(int32_t low, std::span<const uint64_t> counts, std::vector<uint64_t>& runs) {
  runs.resize(counts.size());
  size_t n = 0;
  for (size_t i = 0; i < counts.size(); ++i) {  // without a branch on each key: most are empty or not at random
    runs[n] = bucket_word(low + static_cast<int32_t>(i), counts[i]);
    n += counts[i] != 0;
  }
  runs.resize(n);
}

// A cell's values mostly lie within a few hundred keys of each other (a
// quantile's field varies by a few factors of two in a second): their keys
// are counted in place then, in one array a key, rather than sorted: the
// sort's mispredicted compares were 3.4 % of a RED report's samples, the
// counting is 2.0 % (docs/bench-notes/2026-12-06-fields-and-cells.md). The
// keys counted are marked in a bitmap too, read back a word of 64 keys at a
// time, so the counts are read in key order at the cost of the keys present
// and a step per 64 keys of their span, not a step per key of it: a cell of
// a hundred values spans a few hundred keys
// (docs/bench-notes/2026-12-07-segments-read-and-cells-settled.md).
constexpr size_t kCountedKeysPerValue = 64;  // keys spanning at most this many a pending value: counted

void LogSketch::sort_pending() const {
  if (pending_.empty()) return;
  thread_local std::vector<uint64_t> runs;  // the pending values as buckets, ascending by key
  runs.resize(pending_.size());
  size_t n = 0;  // buckets
  const auto [least, most] = std::minmax_element(pending_.begin(), pending_.end());
  const int32_t low = *least;
  const size_t span = static_cast<size_t>(static_cast<int64_t>(*most) - low) + 1;
  if (span <= kCountedKeysPerValue * pending_.size()) {
    // Of key low + i, all zero between calls: each entry is cleared as it is read.
    thread_local std::vector<uint32_t> counts;
    thread_local std::vector<uint64_t> counted;  // bit i % 64 of word i / 64: key low + i has a count
    const size_t words = (span + 63) / 64;
    if (counts.size() < span) counts.resize(span);
    if (counted.size() < words) counted.resize(words);
    for (const int32_t key : pending_) {
      const auto i = static_cast<size_t>(key - low);
      ++counts[i];
      counted[i / 64] |= uint64_t{1} << (i % 64);
    }
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t bits = counted[w]; bits != 0; bits &= bits - 1) {
        const size_t i = w * 64 + static_cast<size_t>(std::countr_zero(bits));
        runs[n++] = bucket_word(low + static_cast<int32_t>(i), counts[i]);
        counts[i] = 0;
      }
      counted[w] = 0;
    }
  } else {
    std::sort(pending_.begin(), pending_.end());
    for (size_t i = 0; i < pending_.size();) {
      size_t j = i + 1;
      while (j < pending_.size() && pending_[j] == pending_[i]) ++j;
      runs[n++] = bucket_word(pending_[i], j - i);
      i = j;
    }
  }
  runs.resize(n);
  pending_.clear();
  add_packed(packed_, runs);
}

void LogSketch::add(const LogSketch& other) {
  other.settle();
  if (other.packed_.empty()) return;
  settle();
  add_packed(packed_, other.packed_);
}

uint64_t LogSketch::total() const {
  settle();
  uint64_t n = 0;
  for (const uint64_t b : packed_) n += b & kCountMask;
  return n;
}

double LogSketch::at_rank(uint64_t rank) const {
  settle();
  uint64_t seen = 0;
  for (const uint64_t b : packed_) {
    seen += b & kCountMask;
    if (seen >= rank) return value_of(key_in(b));
  }
  return packed_.empty() ? 0 : value_of(key_in(packed_.back()));
}

std::vector<LogSketch::Bucket> LogSketch::buckets() const {
  settle();
  std::vector<Bucket> out;
  out.reserve(packed_.size());
  for (const uint64_t b : packed_) out.push_back({key_in(b), b & kCountMask});
  return out;
}

namespace {

// The shortest digits that read back as `v`, in fixed notation (0 for -0).
using DoubleText = std::array<char, 400>;  // the longest fixed-notation double fits (measure_text.cc)
std::string_view shortest_text(double v, DoubleText& buf) {
  if (v == 0) return "0";
  return std::string_view(buf.data(), std::to_chars(buf.begin(), buf.end(), v, std::chars_format::fixed).ptr);
}

}  // namespace

bool exactly_below(double a, std::string_view a_text, double b, std::string_view b_text) {
  // Rounding to the nearest double never reverses an order, so doubles that
  // differ are ordered as the decimals they round.
  if (a != b || (a_text.empty() && b_text.empty())) return a < b;
  DoubleText a_buf, b_buf;
  const std::optional<Decimal> x = Decimal::parse(a_text.empty() ? shortest_text(a, a_buf) : a_text);
  const std::optional<Decimal> y = Decimal::parse(b_text.empty() ? shortest_text(b, b_buf) : b_text);
  return x && y && compare(*x, *y) < 0;
}

std::string extreme_text(double v, std::string_view written) {
  std::string plain;
  const std::optional<Decimal> d = written.empty() ? std::nullopt : Decimal::parse(written);
  if (!d) return plain;
  d->append_plain(plain);
  DoubleText buf;
  if (plain == shortest_text(v, buf)) plain.clear();  // one text for one value: none when the double writes it
  return plain;
}

void FieldMeasure::take_exactly(double v, std::string_view text, bool is_min) {
  double& extreme = is_min ? min : max;
  std::string& kept = is_min ? min_text : max_text;
  if (is_min ? !exactly_below(v, text, extreme, kept) : !exactly_below(extreme, kept, v, text)) return;
  extreme = v;
  kept = extreme_text(v, text);  // made before the assignment: `text` may view `kept`
}

void FieldMeasure::add(const FieldMeasure& other) {
  n += other.n;
  digits = std::max(digits, other.digits);
  sum.add(other.sum);
  take_min(other.min, other.min_text);
  take_max(other.max, other.max_text);
  sketch.add(other.sketch);
  if (histogram.size() < other.histogram.size()) histogram.resize(other.histogram.size());
  for (size_t i = 0; i < other.histogram.size(); ++i) histogram[i] += other.histogram[i];
}

void MeasureCell::add(const MeasureCell& other) {
  count += other.count;
  if (matched.size() < other.matched.size()) matched.resize(other.matched.size());
  for (size_t i = 0; i < other.matched.size(); ++i) matched[i] += other.matched[i];
  if (fields.size() < other.fields.size()) fields.resize(other.fields.size());
  for (size_t i = 0; i < other.fields.size(); ++i) fields[i].add(other.fields[i]);
}

double quantile_of(const FieldMeasure& f, const Percentile& p, bool* exact) {
  const uint64_t rank = p.rank(f.n);
  const bool extreme = rank == 1 || rank == f.n;
  if (exact != nullptr) *exact = extreme;
  if (extreme) return rank == 1 ? f.min : f.max;
  return std::clamp(f.sketch.at_rank(rank), f.min, f.max);
}

uint64_t Percentile::rank(uint64_t n) const {
  FixedMagnitude denominator = 100;
  for (int i = 0; i < scale; ++i) denominator *= 10;
  const FixedMagnitude product = static_cast<FixedMagnitude>(numerator) * n;
  const auto rank = static_cast<uint64_t>((product + denominator - 1) / denominator);
  return std::max<uint64_t>(rank, 1);
}

namespace {

constexpr int kMaxPercentileDigits = 6;

Percentile percentile_of(std::string_view text) {
  const std::string written(text);
  if (!text.empty() && text[0] == 'p') text.remove_prefix(1);
  Percentile p;
  p.text = std::string(text);
  bool point = false, any = false;
  for (const char c : text) {
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!is_digit(c) || (point && p.scale == kMaxPercentileDigits)) {
      throw std::invalid_argument("--percentiles " + written +
                                  ": want a percentile 0 to 100 with at most 6 fraction digits (50, 99.9, p99)");
    }
    p.numerator = p.numerator * 10 + static_cast<uint64_t>(c - '0');
    p.scale += point;
    any = true;
    if (p.numerator > 100'000'000'000) break;  // past 100 whatever follows
  }
  uint64_t hundred = 100;
  for (int i = 0; i < p.scale; ++i) hundred *= 10;
  if (!any || text.back() == '.' || p.numerator > hundred) {
    throw std::invalid_argument("--percentiles " + written +
                                ": want a percentile 0 to 100 with at most 6 fraction digits (50, 99.9, p99)");
  }
  return p;
}

}  // namespace

MeasureSpec MeasureSpec::of(const Question& question) {
  MeasureSpec spec;
  const auto field = [&](const std::string& name) -> Field& {
    for (Field& f : spec.fields) {
      if (f.name == name) return f;
    }
    return spec.fields.emplace_back(Field{name, false, false, {}});
  };
  for (const std::string& name : question.sum) field(name).summed = true;
  for (const std::string& name : question.quantiles) field(name).quantiled = true;
  if (!question.quantiles.empty()) {
    if (question.percentiles.empty()) throw std::invalid_argument("--percentiles: name at least one");
    for (const std::string& p : question.percentiles) spec.percentiles.push_back(percentile_of(p));
  }
  for (const auto& histogram : question.histograms) {
    const std::string& name = histogram.first;
    const std::vector<double>& bounds = histogram.second;
    const auto it = std::find_if(spec.fields.begin(), spec.fields.end(), [&](const Field& f) { return f.name == name; });
    if (it == spec.fields.end() || !it->quantiled) {
      throw std::invalid_argument("a histogram of " + name + ", which --quantiles does not name");
    }
    if (bounds.empty() || !std::is_sorted(bounds.begin(), bounds.end()) ||
        std::adjacent_find(bounds.begin(), bounds.end()) != bounds.end()) {
      throw std::invalid_argument("a histogram of " + name + ": its bounds must be given in ascending order, once each");
    }
    it->bounds = bounds;
  }
  spec.count_if = question.count_if;
  return spec;
}

MeasureCell MeasureSpec::empty_cell() const {
  MeasureCell cell;
  cell.matched.resize(count_if.size());
  cell.fields.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) cell.fields[i].histogram.resize(fields[i].bounds.size());
  return cell;
}

std::string MeasureSpec::column(std::string_view measure, std::string_view of) {
  return std::string(measure).append("(").append(of).append(")");
}

std::vector<std::string> MeasureSpec::columns() const {
  std::vector<std::string> out;
  for (const std::string& expression : count_if) {
    out.push_back(column("count", expression));
    out.push_back(column("ratio", expression));
  }
  for (const Field& f : fields) {
    out.push_back(column("n", f.name));
    if (f.summed) out.push_back(column("sum", f.name));
    if (!f.quantiled) continue;
    out.push_back(column("min", f.name));
    out.push_back(column("max", f.name));
    for (const Percentile& p : percentiles) out.push_back(column("p" + p.text, f.name));
  }
  return out;
}

}  // namespace logagg
