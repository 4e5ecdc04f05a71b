// The measures' values (issue 32): reading a measured number from its text
// at the edges (1e308, 4.9e-324, -0, 40-digit integers, 30 fraction digits,
// 1E+2, numeric strings with spaces), the exact fixed-point sum and its
// carry and overflow, the sketch's bucket keys, accuracy and merge, the
// nearest-rank rule, the --percentiles spelling, MeasureTable's rows, and
// min and max exact for values a double does not write back.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "logagg/measure_table.h"
#include "logagg/measures.h"
#include "parse/measure_value.h"
#include "parse/short_measure.h"
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
  // Past 2^53 the double is read by from_chars, the sign once.
  EXPECT_EQ(read_measure("-12345678901234567")->real, -12345678901234567.0);
  EXPECT_EQ(read_measure("-0.1234567890123456789")->real, -0.1234567890123456789);
  EXPECT_EQ(read_measure("12345678901234567")->real, 12345678901234567.0);
}

TEST(ReadMeasure, PaddedTextReadsAsTheText) {
  // A field's value whose digits no walk counted (the line parser's, a
  // numeric string) is read eight bytes at a time (read_short_number over the
  // padding and measure_of, as FieldSeen::short_number and the measures do,
  // then the whole reading for the rest), the bytes after it included:
  // digits there must not count. Numbers of 1
  // to 24 digits, with and without a sign, point, fraction and exponent, and
  // texts that are no number, each followed by digits or by other bytes,
  // read as read_measure reads the text alone; and read in one form (a sum's
  // exact value, or the quantiles' double), that form as read_measure's.
  std::mt19937_64 rng(11);
  std::vector<std::string> texts = {"", "-", ".", "0", "00", "01", "-0", "1.", ".5", "1e5", "12345678", "123456789",
                                    "1234567812345678", "12345678123456789", "9999999999999999999",
                                    "18446744073709551615", "18446744073709551616", "0.004", "1 ", "1x", "12a45"};
  const auto digits = [&](size_t n) {
    std::string d;
    for (size_t i = 0; i < n; ++i) d += static_cast<char>('0' + rng() % 10);
    return d;
  };
  for (int i = 0; i < 20000; ++i) {
    std::string t = rng() % 4 == 0 ? "-" : "";
    t += digits(1 + rng() % 24);
    if (rng() % 2 == 0) t += "." + digits(rng() % 12);
    if (rng() % 8 == 0) t += "e" + digits(1 + rng() % 2);
    texts.push_back(t);
  }
  const auto read_padded = []<MeasureForms kForms = kAllForms>(std::string_view view, MeasureValue& out) {
    return read_short_measure<true, kForms>(view, out) || read_long_measure(view, out);
  };
  for (const std::string& text : texts) {
    for (const char* after : {"99999999", "........", "\0\0\0\0\0\0\0\0", "0e1-.5 9"}) {
      const std::string buffer = text + std::string(after, 8);
      const std::string_view view(buffer.data(), text.size());
      MeasureValue padded{}, alone{}, exact{}, real{};
      const bool read = read_padded(view, padded);
      ASSERT_EQ(read, read_measure(text, alone)) << text;
      ASSERT_EQ(read_padded.operator()<kExactForm>(view, exact), read) << text;
      ASSERT_EQ(read_padded.operator()<kRealForm>(view, real), read) << text;
      if (!read) continue;
      ASSERT_EQ(padded.fixed.units(), alone.fixed.units()) << text;
      ASSERT_EQ(padded.real, alone.real) << text;
      ASSERT_EQ(padded.digits, alone.digits) << text;
      ASSERT_EQ(padded.written.size(), alone.written.size()) << text;
      ASSERT_EQ(exact.fixed.units(), alone.fixed.units()) << text;
      ASSERT_EQ(exact.digits, alone.digits) << text;
      ASSERT_EQ(real.real, alone.real) << text;
      ASSERT_EQ(real.written.size(), alone.written.size()) << text;
    }
  }
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

// key_of (exponent and a table) gives key_by_log's key (the definition) for
// doubles of every magnitude, for values on each side of bucket edges (where
// only the definition's roundings decide), and for every sub-range of the
// table, also as values are written in logs (decimals of 3 places).
TEST(LogSketch, KeysFromTheExponentAreTheKeysOfTheDefinition) {
  std::mt19937_64 rng(11);
  std::vector<double> values = {1, 2, 0.5, 1e308, 1.7976931348623157e308, 2.2250738585072014e-308, 4.9e-324, 1e-310};
  for (int i = 0; i < 200000; ++i) values.push_back(std::exp(std::uniform_real_distribution<double>(-708, 709)(rng)));
  for (int i = 0; i < 100000; ++i) values.push_back(static_cast<double>(rng() % 100'000'000) / 1000);
  for (uint64_t bits = 0; bits < 256; ++bits) {  // the start, middle and end of each table row's mantissas
    for (const uint64_t low : {uint64_t{0}, uint64_t{1} << 43, (uint64_t{1} << 44) - 1}) {
      values.push_back(std::bit_cast<double>(uint64_t{0x3FF} << 52 | bits << 44 | low));
    }
  }
  // Around bucket edges: gamma^i, as near as a double gets, and its neighbours.
  const double gamma = (1 + (kSketchAccuracy - 1e-5)) / (1 - (kSketchAccuracy - 1e-5));
  for (int i = -35000; i < 35000; i += 7) {
    double edge = std::exp(i * std::log(gamma));
    for (int step = 0; step < 3; ++step) edge = std::nextafter(edge, 0.0);
    for (int step = 0; step < 7; ++step, edge = std::nextafter(edge, INFINITY)) values.push_back(edge);
  }
  size_t checked = 0;
  for (const double v : values) {
    for (const double x : {v, -v}) {
      ASSERT_EQ(LogSketch::key_of(x), LogSketch::key_by_log(x)) << std::hexfloat << x;
      ++checked;
    }
  }
  EXPECT_GT(checked, 700'000u);
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

// Single values are sorted into buckets a list at a time: counted in place
// when their keys lie close (a cell's latencies), sorted when they spread;
// either way each bucket holds the count of its key's values, as a map
// counts them, for lists of any length and sketches read at any time.
TEST(LogSketch, PendingValuesGoIntoTheirBucketsWhetherCountedOrSorted) {
  // Keys of opposite signs lie far apart: the signs are one per sketch, or
  // mixed (sorted then).
  std::mt19937_64 rng(12);
  for (const int signs : {1, -1, 0}) {
    for (const double sigma : {0.0, 0.05, 0.5, 2.0, 6.0}) {
      for (const size_t n : {size_t{1}, size_t{7}, size_t{73}, size_t{128}, size_t{129}, size_t{1000}}) {
        LogSketch sketch;
        std::map<int32_t, uint64_t> want;
        for (size_t i = 0; i < n; ++i) {
          const double value = std::lognormal_distribution<double>(3, sigma)(rng);
          const bool negative = signs == 0 ? rng() % 2 == 0 : signs < 0;
          const int32_t key = LogSketch::key_of(negative ? -value : value);
          sketch.add_key(key);
          ++want[key];
          if (i == n / 2 && rng() % 2 == 0) ASSERT_EQ(sketch.total(), i + 1);  // read halfway: settled, then more
        }
        std::vector<LogSketch::Bucket> buckets;
        for (const auto& [key, count] : want) buckets.push_back({key, count});
        EXPECT_EQ(sketch.buckets(), buckets) << signs << " " << sigma << " " << n;
      }
    }
  }
}

// Counts per bucket (as a result document's sketch is read back) add to the
// bucket a sketch already has, whether it came as a count, as single values
// still waiting to be sorted in, or from the window of a busy sketch.
TEST(LogSketch, CountsAddToTheBucketsASketchAlreadyHas) {
  const int32_t key = LogSketch::key_of(250.0), other = LogSketch::key_of(3.5);
  LogSketch counts;
  counts.add_key(key, 3);
  counts.add_key(other, 2);
  counts.add_key(key, 4);
  EXPECT_EQ(counts.buckets(), (std::vector<LogSketch::Bucket>{{other, 2}, {key, 7}}));
  EXPECT_EQ(counts.total(), 9u);

  LogSketch singles;  // one value pending, then a count of the same bucket
  singles.add_key(key);
  singles.add_key(key, 5);
  EXPECT_EQ(singles.buckets(), (std::vector<LogSketch::Bucket>{{key, 6}}));

  LogSketch busy;  // enough single values to open the window, then counts into it
  for (int i = 0; i < 1000; ++i) busy.add_key(i % 2 ? key : other);
  busy.add_key(key, 10);
  busy.add_key(other, 20);
  EXPECT_EQ(busy.buckets(), (std::vector<LogSketch::Bucket>{{other, 520}, {key, 510}}));
  EXPECT_EQ(busy.total(), 1030u);
}

// A busy sketch counts most values in its window: read (settled) between
// values, it holds every value once, as a sketch given the same values as
// counts per bucket does.
TEST(LogSketch, ABusySketchReadAsItFillsHoldsEveryValueOnce) {
  std::mt19937_64 rng(5);
  LogSketch busy;
  std::map<int32_t, uint64_t> want;
  for (int i = 0; i < 20000; ++i) {
    const int32_t key = LogSketch::key_of(std::lognormal_distribution<double>(3, 1.5)(rng));
    busy.add_key(key);
    ++want[key];
    if (i % 997 == 0) EXPECT_EQ(busy.total(), static_cast<uint64_t>(i) + 1);
  }
  LogSketch counted;
  for (const auto& [key, count] : want) counted.add_key(key, count);
  EXPECT_EQ(busy, counted);
}

TEST(LogSketch, ValuesAllInOneBucketOrTwoOpenAWindowAroundThem) {
  // A sketch opens its window of counters when its list of pending values
  // first fills. With every value in one bucket (a field that never
  // changes), or in two, the window spans those buckets and its room
  // around them: it once ended below its start and threw std::length_error.
  for (const std::vector<double>& values : {std::vector<double>{5}, {0}, {-3}, {5, 7}, {1e-9, 1e9}}) {
    LogSketch sketch;
    std::map<int32_t, uint64_t> want;
    for (int i = 0; i < 1000; ++i) {
      const int32_t key = LogSketch::key_of(values[static_cast<size_t>(i) % values.size()]);
      ASSERT_NO_THROW(sketch.add_key(key)) << values.front() << ", value " << i;
      ++want[key];
    }
    LogSketch counted;
    for (const auto& [key, count] : want) counted.add_key(key, count);
    EXPECT_EQ(sketch, counted) << values.front();
  }
}

// A cell made of random parts: count-if counts, a sum of either sign (also
// past 2^64 units) and a sketch of 0 to 12 buckets.
MeasureCell random_cell(std::mt19937_64& rng) {
  MeasureCell c;
  c.count = rng() % 100;
  c.matched = {rng() % 10, rng() % 10};
  c.fields.resize(2);
  for (FieldMeasure& f : c.fields) {
    const int values = static_cast<int>(rng() % 13);
    for (int v = 0; v < values; ++v) {
      const double x = std::ldexp(static_cast<double>(rng() % 1000) - 500, static_cast<int>(rng() % 40) - 20);
      ++f.n;
      f.min = std::min(f.min, x);
      f.max = std::max(f.max, x);
      f.sketch.add_key(LogSketch::key_of(x));
    }
    f.digits = static_cast<uint8_t>(rng() % 19);
    f.sum = FixedSum::of_units(static_cast<FixedUnits>(static_cast<int64_t>(rng())) *
                               static_cast<FixedUnits>(rng() % 100000));
  }
  return c;
}

// Rows of a MeasureTable read back as the cells added into them (a sketch
// of up to 3 buckets in its row, more in a list of its own), also reordered,
// copied and laid out alike; parts the spec does not measure are not kept.
TEST(MeasureTable, RowsReadBackAsTheCellsAddedIntoThem) {
  Options o;
  o.count_if = {"a>1", "b>1"};
  o.sum = {"x", "y"};
  o.quantiles = {"y", "x"};
  o.percentiles = {"50"};
  const MeasureSpec spec = MeasureSpec::of(o);
  std::mt19937_64 rng(3);
  MeasureTable table(spec);
  std::vector<MeasureCell> want;
  for (int i = 0; i < 3000; ++i) {
    const MeasureCell c = random_cell(rng);
    if (want.empty() || rng() % 3 == 0) {
      table.push_back(c);
      want.push_back(spec.empty_cell());
      want.back().add(c);
    } else {
      const size_t row = rng() % want.size();
      table.add(row, c);
      want[row].add(c);
    }
  }
  ASSERT_EQ(table.size(), want.size());
  for (size_t row = 0; row < want.size(); ++row) {
    EXPECT_EQ(table[row], want[row]) << row;
    EXPECT_EQ(table.count(row), want[row].count);
    EXPECT_EQ(table.sum(row, 1), want[row].fields[1].sum);
  }
  std::vector<uint32_t> order(want.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(order.size() - 1 - i);
  MeasureTable reversed = table;
  reversed.reorder(order);
  for (size_t row = 0; row < want.size(); ++row) EXPECT_EQ(reversed[row], want[want.size() - 1 - row]) << row;
  reversed.push_back(want[0]);
  EXPECT_EQ(reversed[want.size()], want[0]);
  EXPECT_EQ(table.empty_like().size(), 0u);
  uint64_t buckets = 0;
  for (const MeasureCell& c : want)
    buckets += c.fields[0].sketch.buckets().size() + c.fields[1].sketch.buckets().size();
  EXPECT_EQ(table.sketch_buckets(), buckets);

  // Only what is measured: a field only summed keeps no sketch, one only quantiled no sum.
  Options apart;
  apart.sum = {"x"};
  apart.quantiles = {"y"};
  apart.percentiles = {"50"};
  MeasureTable kept(MeasureSpec::of(apart));
  const MeasureCell c = random_cell(rng);
  kept.push_back(c);
  const MeasureCell back = kept[0];
  EXPECT_EQ(back.fields[0].sum, c.fields[0].sum);
  EXPECT_EQ(back.fields[0].sketch.total(), 0u);
  EXPECT_EQ(back.fields[1].sum, FixedSum{});
  EXPECT_EQ(back.fields[1].sketch, c.fields[1].sketch);
  EXPECT_THROW(MeasureTable().push_back(c), std::logic_error);
}

// A table of more rows than a block holds (16,384), its sketches in lists
// of their own: copied, moved and cleared, each reads back what was added.
TEST(MeasureTable, ATableOfManyBlocksCopiesMovesAndClears) {
  Options o;
  o.quantiles = {"x"};
  o.percentiles = {"50"};
  const MeasureSpec spec = MeasureSpec::of(o);
  const auto cell = [&](int i) {
    MeasureCell c = spec.empty_cell();
    c.count = 1;
    FieldMeasure& f = c.fields[0];
    for (int v = 0; v < 1 + i % 7; ++v) {  // 1 to 7 buckets: in the row, or in a list of its own
      const double x = 1 + i % 1000 + v * 1000;
      ++f.n;
      f.min = std::min(f.min, x);
      f.max = std::max(f.max, x);
      f.sketch.add_key(LogSketch::key_of(x));
    }
    return c;
  };
  MeasureTable table(spec);
  constexpr int kRows = 40000;
  for (int i = 0; i < kRows; ++i) table.push_back(cell(i));
  for (int i = 0; i < kRows; i += 3) table.add(static_cast<size_t>(i), cell(i + 1));
  const auto holds_all = [&](const MeasureTable& t) {
    if (t.size() != kRows) return false;
    for (int i = 0; i < kRows; ++i) {
      MeasureCell want = spec.empty_cell();
      want.add(cell(i));
      if (i % 3 == 0) want.add(cell(i + 1));
      if (!(t[static_cast<size_t>(i)] == want)) return false;
    }
    return true;
  };
  EXPECT_TRUE(holds_all(table));
  MeasureTable copy = table;
  EXPECT_TRUE(holds_all(copy));
  MeasureTable moved = std::move(table);
  EXPECT_TRUE(holds_all(moved));
  copy.clear();
  EXPECT_EQ(copy.size(), 0u);
  copy.push_back(cell(5));
  EXPECT_EQ(copy[0].fields[0].sketch, cell(5).fields[0].sketch);
  EXPECT_TRUE(holds_all(moved));  // the copy's memory is its own
}

TEST(Percentile, NearestRank) {
  const auto spec = [](std::vector<std::string> p) {
    Options o;
    o.quantiles = {"x"};
    o.percentiles = std::move(p);
    return MeasureSpec::of(o).percentiles;
  };
  const std::vector<Percentile> ps = spec({"0", "50", "p90", "99.9", "100"});
  EXPECT_EQ(ps[0].rank(10), 1u);  // p0: the least value
  EXPECT_EQ(ps[1].rank(1), 1u);
  EXPECT_EQ(ps[1].rank(2), 1u);  // ceil(0.5 x 2)
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

// The quantiles' text, against printf's %.*e read the slow way: its digits
// and exponent, the point moved, the trailing zeros dropped.
std::string rounded_by_printf(double v, int significant) {
  if (v == 0) return "0";
  char sci[64];
  std::snprintf(sci, sizeof sci, "%.*e", significant - 1, v);
  std::string s(sci);
  const size_t e = s.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int point = std::stoi(s.substr(e + 1)) + 1;
  std::string out = v < 0 ? "-" : "";
  if (point <= 0) return out + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (static_cast<size_t>(point) >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0');
    return std::fabs(v) >= 0x1p64 ? out + ".0" : out;
  }
  return out + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}

TEST(MeasureText, RoundedDoublesAsPrintfRoundsThem) {
  std::mt19937_64 rng(9);
  std::vector<double> values = {0.5, 1.5, 2.5, 0.125, 1e308, -1e308, 4.9e-324, 2.2250738585072014e-308,
                                1.7976931348623157e308, 123456.75, 0x1p64, 9.9999995, 9.99999949999};
  for (int i = 0; i < 20000; ++i) {
    const double x = std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 200) - 150);
    values.push_back(i % 2 == 0 ? x : -x);
    values.push_back(static_cast<double>(rng() % 100000000) / std::pow(10.0, static_cast<double>(rng() % 12)));
  }
  for (const int significant : {1, 3, 7, 17}) {
    for (const double v : values) {
      std::string out;
      append_rounded_double(out, v, significant);
      ASSERT_EQ(out, rounded_by_printf(v, significant)) << std::hexfloat << v << " to " << significant;
    }
  }
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
  EXPECT_EQ(texts,
            (std::vector<std::string>{"2", "2512.5 ms", "12.5 ms", "2.5 s", "12.5 ms", "2", "12.5", "2500", "12.5"}));
}

// Values of over 15 digits, some of which round to the same double: min
// and max are their exact decimals whatever the order they come in, through
// cells added up and a MeasureTable's rows, and printed as such (p0 and p100
// too); values a double writes back keep no text.
TEST(ExactExtremes, ValuesTheirDoublesDoNotWriteBack) {
  const std::vector<std::string_view> values = {"0.1000000000000000000002", "0.1", "1e-1",
                                                "0.10000000000000000001", "0.0999999999999999999999",
                                                "123456789012345678901234567890", "1.23456789012345678901234567891e29"};
  Options o;
  o.quantiles = {"x"};
  o.percentiles = {"0", "100"};
  const MeasureSpec spec = MeasureSpec::of(o);
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    MeasureCell one = spec.empty_cell(), left = spec.empty_cell(), right = spec.empty_cell();
    for (size_t k = 0; k < order.size(); ++k) {
      const std::optional<MeasureValue> v = read_measure(values[order[k]]);
      ASSERT_TRUE(v.has_value());
      for (MeasureCell* c : {&one, k % 2 == 0 ? &left : &right}) {
        c->fields[0].n++;
        c->fields[0].take_min(v->real, v->written);
        c->fields[0].take_max(v->real, v->written);
      }
    }
    EXPECT_EQ(one.fields[0].min_text, "0.0999999999999999999999");
    EXPECT_EQ(one.fields[0].max_text, "123456789012345678901234567891");
    MeasureCell added = spec.empty_cell();
    added.add(right);
    added.add(left);
    EXPECT_EQ(added.fields[0].min_text, one.fields[0].min_text);
    EXPECT_EQ(added.fields[0].max_text, one.fields[0].max_text);
    MeasureTable table(spec);
    table.push_back(spec.empty_cell());
    table.add(0, left);
    table.add(0, right);
    EXPECT_EQ(table[0].fields[0].min_text, one.fields[0].min_text);
    EXPECT_EQ(table[0].fields[0].max_text, one.fields[0].max_text);
  }
  // The text of a value of over 15 digits, on both ways of reading it.
  EXPECT_EQ(read_measure("0.100000000000000002")->written, "0.100000000000000002");
  EXPECT_EQ(read_measure("1000000000000000000.5e1")->written, "1000000000000000000.5e1");
  EXPECT_EQ(read_measure("0.125")->written, "");
  EXPECT_EQ(read_measure("1.25e-3")->written, "");
  EXPECT_EQ(extreme_text(0.1, "1.000000000000000000e-1"), "");  // the double's own digits: no text
  MeasureCell cell = spec.empty_cell();
  for (const std::string_view text : {"0.1", "0.25"}) {  // a double writes both back: no text kept
    const std::optional<MeasureValue> v = read_measure(text);
    cell.fields[0].take_min(v->real, v->written);
    cell.fields[0].take_max(v->real, v->written);
    cell.fields[0].n++;
  }
  EXPECT_EQ(cell.fields[0].min_text, "");
  EXPECT_EQ(cell.fields[0].max_text, "");
  const std::optional<MeasureValue> big = read_measure("123456789012345678901234567890");
  cell.fields[0].take_max(big->real, big->written);
  cell.fields[0].n++;
  MeasureTable table(spec);
  table.push_back(cell);
  EXPECT_EQ(table[0], cell);
  EXPECT_GT(table.bytes(), MeasureTable(spec).bytes() + 8 * 8);  // the text is counted
  std::vector<MeasureText::Value> shown;
  MeasureText(spec).values(&cell, 3, shown);
  std::vector<std::string> texts;
  for (const MeasureText::Value& v : shown) texts.push_back(v.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"3", "0.1", "123456789012345678901234567890.0", "0.1",
                                             "123456789012345678901234567890.0"}));
}

TEST(MeasureText, ColumnsAndAbsentValues) {
  Options o;
  o.sum = {"bytes"};
  o.quantiles = {"latency_ms", "bytes"};
  o.count_if = {"status>=500"};
  const MeasureText text(MeasureSpec::of(o));
  EXPECT_EQ(text.columns(),
            (std::vector<std::string>{"count(status>=500)", "ratio(status>=500)", "n(bytes)", "sum(bytes)",
                                      "min(bytes)", "max(bytes)", "p50(bytes)", "p90(bytes)", "p99(bytes)",
                                      "n(latency_ms)", "min(latency_ms)", "max(latency_ms)", "p50(latency_ms)",
                                      "p90(latency_ms)", "p99(latency_ms)"}));
  std::vector<MeasureText::Value> values;
  text.values(nullptr, 0, values);  // an empty bucket's row
  EXPECT_EQ(values[0].text, "0");
  EXPECT_FALSE(values[1].present);  // no ratio of no lines
  EXPECT_EQ(values[3].text, "0");
  EXPECT_TRUE(values[3].exact);
  EXPECT_TRUE(values[4].exact);  // min: json writes it as a string too
  EXPECT_FALSE(values[6].exact);  // p50: a number
  EXPECT_FALSE(values[4].present);
}

}  // namespace
}  // namespace logagg
