// The measures' values (logagg/measures.h): printing an exact sum, the
// sketch's buckets, adding rows up, and the measures a run asks for.
#include "logagg/measures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "input/ascii.h"

namespace logagg {

void FixedSum::append(std::string& out, int digits) const {
  const bool negative = units_ < 0;
  // The magnitude, computed unsigned so that no total's negation overflows.
  const FixedMagnitude magnitude =
      negative ? static_cast<FixedMagnitude>(0) - static_cast<FixedMagnitude>(units_)
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

}  // namespace

int32_t LogSketch::key_of(double value) {
  if (value == 0) return 0;
  const auto index = static_cast<int32_t>(std::ceil(std::log(std::fabs(value)) / kLogGamma));
  return value > 0 ? index + kIndexOffset : -(index + kIndexOffset);
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

void LogSketch::add_key(int32_t key, uint64_t count) {
  const uint64_t biased = static_cast<uint64_t>(key + kKeyBias) << kCountBits;
  const auto it = std::lower_bound(packed_.begin(), packed_.end(), biased);
  if (it != packed_.end() && (*it & ~kCountMask) == biased) {
    if ((*it & kCountMask) + count > kCountMask) throw std::overflow_error("more than 2^44 values in a quantile bucket");
    *it += count;
    return;
  }
  if (count > kCountMask) throw std::overflow_error("more than 2^44 values in a quantile bucket");
  packed_.insert(it, biased | count);
}

void LogSketch::add(const LogSketch& other) {
  if (other.packed_.empty()) return;
  std::vector<uint64_t> merged;
  merged.reserve(packed_.size() + other.packed_.size());
  size_t i = 0, j = 0;
  while (i < packed_.size() || j < other.packed_.size()) {
    const uint64_t a = i < packed_.size() ? packed_[i] & ~kCountMask : UINT64_MAX;
    const uint64_t b = j < other.packed_.size() ? other.packed_[j] & ~kCountMask : UINT64_MAX;
    if (a == b) {
      const uint64_t count = (packed_[i] & kCountMask) + (other.packed_[j] & kCountMask);
      if (count > kCountMask) throw std::overflow_error("more than 2^44 values in a quantile bucket");
      merged.push_back(a | count);
      ++i, ++j;
    } else if (a < b) {
      merged.push_back(packed_[i++]);
    } else {
      merged.push_back(other.packed_[j++]);
    }
  }
  packed_ = std::move(merged);
}

uint64_t LogSketch::total() const {
  uint64_t n = 0;
  for (const uint64_t b : packed_) n += b & kCountMask;
  return n;
}

double LogSketch::at_rank(uint64_t rank) const {
  uint64_t seen = 0;
  for (const uint64_t b : packed_) {
    seen += b & kCountMask;
    if (seen >= rank) return value_of(static_cast<int32_t>(b >> kCountBits) - kKeyBias);
  }
  return packed_.empty() ? 0 : value_of(static_cast<int32_t>(packed_.back() >> kCountBits) - kKeyBias);
}

std::vector<LogSketch::Bucket> LogSketch::buckets() const {
  std::vector<Bucket> out;
  out.reserve(packed_.size());
  for (const uint64_t b : packed_) out.push_back({static_cast<int32_t>(b >> kCountBits) - kKeyBias, b & kCountMask});
  return out;
}

void FieldMeasure::add(const FieldMeasure& other) {
  n += other.n;
  digits = std::max(digits, other.digits);
  sum.add(other.sum);
  min = std::min(min, other.min);
  max = std::max(max, other.max);
  sketch.add(other.sketch);
}

void MeasureCell::add(const MeasureCell& other) {
  count += other.count;
  if (matched.size() < other.matched.size()) matched.resize(other.matched.size());
  for (size_t i = 0; i < other.matched.size(); ++i) matched[i] += other.matched[i];
  if (fields.size() < other.fields.size()) fields.resize(other.fields.size());
  for (size_t i = 0; i < other.fields.size(); ++i) fields[i].add(other.fields[i]);
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

MeasureSpec MeasureSpec::of(const Options& options) {
  MeasureSpec spec;
  const auto field = [&](const std::string& name) -> Field& {
    for (Field& f : spec.fields) {
      if (f.name == name) return f;
    }
    return spec.fields.emplace_back(Field{name});
  };
  for (const std::string& name : options.sum) field(name).summed = true;
  for (const std::string& name : options.quantiles) field(name).quantiled = true;
  if (!options.quantiles.empty()) {
    if (options.percentiles.empty()) throw std::invalid_argument("--percentiles: name at least one");
    for (const std::string& p : options.percentiles) spec.percentiles.push_back(percentile_of(p));
  }
  spec.count_if = options.count_if;
  return spec;
}

std::vector<std::string> MeasureSpec::columns() const {
  std::vector<std::string> out;
  for (const std::string& expression : count_if) {
    out.push_back("count(" + expression + ")");
    out.push_back("ratio(" + expression + ")");
  }
  for (const Field& f : fields) {
    out.push_back("n(" + f.name + ")");
    if (f.summed) out.push_back("sum(" + f.name + ")");
    if (!f.quantiled) continue;
    out.push_back("min(" + f.name + ")");
    out.push_back("max(" + f.name + ")");
    for (const Percentile& p : percentiles) out.push_back("p" + p.text + "(" + f.name + ")");
  }
  return out;
}

}  // namespace logagg
