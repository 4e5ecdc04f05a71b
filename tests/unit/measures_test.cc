// The measures' values (issue 32): reading a measured number from its text
// at the edges (1e308, 4.9e-324, -0, 40-digit integers, 30 fraction digits,
// 1E+2, numeric strings with spaces), the exact fixed-point sum and its
// carry and overflow, the sketch's bucket keys, accuracy and merge, the
// nearest-rank rule, and the --percentiles spelling.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "logagg/measures.h"
#include "parse/measure_value.h"
#include "report/measure_text.h"

namespace logagg {
namespace {

std::string sum_text(std::string_view value) {
  const auto v = read_measure(value);
  if (!v) return "none";
  if (v->fixed.overflowed()) return "overflow";
  std::string out;
  v->fixed.append(out, v->digits);
  return out;
}

TEST(ReadMeasure, NumbersAndNumericStringsAtTheEdges) {
  EXPECT_EQ(sum_text("250"), "250");
  EXPECT_EQ(sum_text("0.004"), "0.004");
  EXPECT_EQ(sum_text("1E+2"), "100");
  EXPECT_EQ(sum_text("1.5e-3"), "0.0015");
  EXPECT_EQ(sum_text("-0"), "0");
  EXPECT_EQ(sum_text("-0.0"), "0.0");
  EXPECT_EQ(sum_text("-12.50"), "-12.50");
  // 40-digit integers are past the sum's +-1.7e20; 20-digit ones are not.
  EXPECT_EQ(sum_text("1234567890123456789012345678901234567890"), "overflow");
  EXPECT_EQ(sum_text("99999999999999999999"), "99999999999999999999");
  EXPECT_EQ(sum_text("170141183460469231731.687303715884105727"), "170141183460469231731.687303715884105727");
  EXPECT_EQ(sum_text("170141183460469231731.687303715884105728"), "overflow");
  // 30 fraction digits: rounded half to even at the 18th.
  EXPECT_EQ(sum_text("0.123456789012345678901234567890"), "0.123456789012345679");
  EXPECT_EQ(sum_text("0.0000000000000000025"), "0.000000000000000002");  // a tie, to even
  EXPECT_EQ(sum_text("0.0000000000000000035"), "0.000000000000000004");
  EXPECT_EQ(sum_text("0.00000000000000000250001"), "0.000000000000000003");
  EXPECT_EQ(sum_text("4.9e-324"), "0.000000000000000000");  // a double, below the sum's precision
  EXPECT_EQ(read_measure("4.9e-324")->real, 4.9e-324);
  EXPECT_EQ(read_measure("1e308")->real, 1e308);
  EXPECT_EQ(sum_text("1e308"), "overflow");
  // Not numbers, or past a double: no usable value.
  for (const char* text : {" 1", "1 ", "0x10", "1.", ".5", "+1", "", "-", "1e", "NaN", "1e400", "-1e400", "1e-400"}) {
    EXPECT_FALSE(read_measure(text)) << text;
  }
  EXPECT_TRUE(read_measure("0e-400"));  // zero written with any exponent is zero
}

TEST(FixedSum, CarriesExactlyAndOverflowsWithoutWrapping) {
  FixedSum a = read_measure("0.999999999999999999")->fixed;
  a.add(read_measure("0.000000000000000001")->fixed);
  std::string out;
  a.append(out, 18);
  EXPECT_EQ(out, "1.000000000000000000");
  FixedSum big = read_measure("170141183460469231731")->fixed;
  big.add(read_measure("0.687303715884105727")->fixed);
  EXPECT_FALSE(big.overflowed());
  FixedSum past = big;
  past.add(read_measure("0.000000000000000001")->fixed);
  EXPECT_TRUE(past.overflowed());
  past.add(read_measure("-100")->fixed);  // overflowed stays so
  EXPECT_TRUE(past.overflowed());
  FixedSum far = big;  // a wrapped total would be a plain negative one here
  far.add(read_measure("2.5")->fixed);
  EXPECT_TRUE(far.overflowed());
  FixedSum low = read_measure("-170141183460469231731.687303715884105727")->fixed;
  low.add(read_measure("-0.000000000000000001")->fixed);  // would be -2^127 units: not a total
  EXPECT_TRUE(low.overflowed());
}

TEST(LogSketch, KeysAscendWithValuesAndBucketsHoldTheAccuracy) {
  std::mt19937_64 rng(7);
  std::vector<double> values = {0, -0.0, 1e-300, 4.9e-324, 1e308, -1e308, 1, -1, 0.5, 2};
  for (int i = 0; i < 20000; ++i) values.push_back(std::exp(std::uniform_real_distribution<double>(-700, 700)(rng)));
  for (int i = 0; i < 2000; ++i) values.push_back(-std::exp(std::uniform_real_distribution<double>(-50, 50)(rng)));
  std::sort(values.begin(), values.end());
  for (size_t i = 0; i < values.size(); ++i) {
    const int32_t key = LogSketch::key_of(values[i]);
    if (i > 0) EXPECT_LE(LogSketch::key_of(values[i - 1]), key) << values[i - 1] << " " << values[i];
    const double rep = LogSketch::value_of(key);
    EXPECT_LE(std::fabs(rep - values[i]), kSketchAccuracy * std::fabs(values[i])) << values[i];
    EXPECT_TRUE(LogSketch::valid_key(key));
  }
}

TEST(LogSketch, AddingInAnySplitGivesTheSameSketch) {
  std::mt19937_64 rng(11);
  std::vector<int32_t> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(LogSketch::key_of(std::lognormal_distribution<double>(3, 2)(rng)));
  LogSketch whole;
  for (const int32_t k : keys) whole.add_key(k);
  for (const size_t cut : {size_t{0}, size_t{1}, size_t{2500}, keys.size()}) {
    LogSketch a, b;
    for (size_t i = 0; i < keys.size(); ++i) (i < cut ? a : b).add_key(keys[i]);
    b.add(a);
    EXPECT_EQ(b, whole) << cut;
    EXPECT_EQ(b.total(), keys.size());
  }
}

TEST(Percentile, NearestRank) {
  const auto spec = [](std::vector<std::string> p) {
    Options o;
    o.quantiles = {"x"};
    o.percentiles = std::move(p);
    return MeasureSpec::of(o).percentiles;
  };
  const std::vector<Percentile> ps = spec({"0", "50", "p90", "99.9", "100"});
  EXPECT_EQ(ps[0].rank(10), 1u);   // p0: the least value
  EXPECT_EQ(ps[1].rank(1), 1u);
  EXPECT_EQ(ps[1].rank(2), 1u);    // ceil(0.5 x 2)
  EXPECT_EQ(ps[1].rank(3), 2u);
  EXPECT_EQ(ps[2].rank(10), 9u);
  EXPECT_EQ(ps[2].rank(11), 10u);
  EXPECT_EQ(ps[3].rank(1000), 999u);
  EXPECT_EQ(ps[3].rank(1001), 1000u);
  EXPECT_EQ(ps[4].rank(7), 7u);
  EXPECT_EQ(ps[2].text, "90");
  for (const char* bad : {"101", "-1", "50.", "abc", "99.1234567", "", "1e2"}) {
    EXPECT_THROW(spec({bad}), std::invalid_argument) << bad;
  }
}

TEST(MeasureText, PlainDecimalsWithoutExponents) {
  std::string out;
  append_plain_double(out, 1e18);
  EXPECT_EQ(out, "1000000000000000000");
  out = "12.5,";  // a point before the number is not the number's
  append_plain_double(out, 2e19);
  EXPECT_EQ(out, "12.5,20000000000000000000.0");
  out.clear();
  append_plain_double(out, 0.004);
  EXPECT_EQ(out, "0.004");
  out.clear();
  append_plain_double(out, -0.0);
  EXPECT_EQ(out, "0");
  out.clear();
  append_rounded_double(out, 12.3456789, 7);
  EXPECT_EQ(out, "12.34568");
  out.clear();
  append_rounded_double(out, 0.000123, 7);
  EXPECT_EQ(out, "0.000123");
  out.clear();
  append_rounded_double(out, -2.5e9, 7);
  EXPECT_EQ(out, "-2500000000");
  out.clear();
  append_rounded_double(out, 2.5e20, 7);
  EXPECT_EQ(out, "250000000000000000000.0");
}

TEST(MeasureText, DurationsInTheUnitThatReadsBest) {
  const auto duration = [](double v, DurationUnit unit) {
    std::string out;
    append_duration(out, v, unit);
    return out;
  };
  EXPECT_EQ(duration(12.3456, DurationUnit::kMillis), "12.3 ms");
  EXPECT_EQ(duration(0.0123456, DurationUnit::kSeconds), "12.3 ms");
  EXPECT_EQ(duration(999.7, DurationUnit::kMillis), "1 s") << "rounds up into the next unit";
  EXPECT_EQ(duration(999.4, DurationUnit::kMillis), "999 ms");
  EXPECT_EQ(duration(1234.6, DurationUnit::kSeconds), "1235 s") << "whole seconds are never cut";
  EXPECT_EQ(duration(1500, DurationUnit::kNanos), "1.5 µs");
  EXPECT_EQ(duration(0.25, DurationUnit::kNanos), "0.25 ns") << "less than a nanosecond stays in ns";
  EXPECT_EQ(duration(-2.5, DurationUnit::kMicros), "-2.5 µs");
  EXPECT_EQ(duration(0, DurationUnit::kMillis), "0 ms");
  EXPECT_EQ(parse_duration_unit("us"), DurationUnit::kMicros);
  EXPECT_EQ(parse_duration_unit("µs"), DurationUnit::kMicros);
  EXPECT_THROW(parse_duration_unit("h"), std::invalid_argument);
}

TEST(MeasureText, UnitsApplyToTheirFieldOnly) {
  Options o;
  o.sum = {"latency"};
  o.quantiles = {"latency", "bytes"};
  o.percentiles = {"50"};
  const MeasureText text(MeasureSpec::of(o), {{"latency", DurationUnit::kMillis}});
  MeasureCell cell;
  cell.count = 2;
  cell.fields.resize(2);
  for (const double v : {12.5, 2500.0}) {
    FieldMeasure& f = cell.fields[0];
    ++f.n;
    f.sum.add(FixedSum::of_units(static_cast<FixedUnits>(v * 10) * 100'000'000'000'000'000));
    f.digits = 1;
    f.min = std::min(f.min, v);
    f.max = std::max(f.max, v);
    f.sketch.add_key(LogSketch::key_of(v));
    cell.fields[1] = f;
  }
  std::vector<MeasureText::Value> values;
  text.values(&cell, 2, values);
  std::vector<std::string> texts;
  for (const MeasureText::Value& v : values) texts.push_back(v.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"2", "2512.5 ms", "12.5 ms", "2.5 s", "12.5 ms", "2", "12.5", "2500",
                                             "12.5"}));
}

TEST(MeasureText, ColumnsAndAbsentValues) {
  Options o;
  o.sum = {"bytes"};
  o.quantiles = {"latency_ms", "bytes"};
  o.count_if = {"status>=500"};
  const MeasureText text(MeasureSpec::of(o));
  EXPECT_EQ(text.columns(), (std::vector<std::string>{
                                "count(status>=500)", "ratio(status>=500)", "n(bytes)", "sum(bytes)", "min(bytes)",
                                "max(bytes)", "p50(bytes)", "p90(bytes)", "p99(bytes)", "n(latency_ms)",
                                "min(latency_ms)", "max(latency_ms)", "p50(latency_ms)", "p90(latency_ms)",
                                "p99(latency_ms)"}));
  std::vector<MeasureText::Value> values;
  text.values(nullptr, 0, values);  // an empty bucket's row
  EXPECT_EQ(values[0].text, "0");
  EXPECT_FALSE(values[1].present);  // no ratio of no lines
  EXPECT_EQ(values[3].text, "0");
  EXPECT_TRUE(values[3].sum);
  EXPECT_FALSE(values[4].present);
}

}  // namespace
}  // namespace logagg
