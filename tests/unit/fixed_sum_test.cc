// FixedSum's addition (logagg/measures.h, inline): exact to the last unit,
// overflowed past +-(2^127 - 1) units rather than wrapped, and overflowed for
// good. Linked without the engine (HEADERS_ONLY), so that a change to the
// header's arithmetic rebuilds this test alone; measures_test reads the
// values from their texts and prints the sums.
#include <gtest/gtest.h>

#include <limits>

#include "logagg/measures.h"

namespace logagg {
namespace {

constexpr FixedUnits kMost = std::numeric_limits<FixedUnits>::max();  // 170141183460469231731.687303715884105727
constexpr FixedUnits kOne = 1'000'000'000'000'000'000;                // 1.0 in units of 10^-18

FixedSum sum_of(FixedUnits a, FixedUnits b) {
  FixedSum s = FixedSum::of_units(a);
  s.add(FixedSum::of_units(b));
  return s;
}

TEST(FixedSumArithmetic, AddsExactlyToTheLastUnit) {
  EXPECT_EQ(sum_of(kOne - 1, 1), FixedSum::of_units(kOne));
  EXPECT_EQ(sum_of(-kOne, kOne - 1), FixedSum::of_units(-1));
  EXPECT_EQ(sum_of(kMost - 5, 5), FixedSum::of_units(kMost));
  EXPECT_FALSE(sum_of(kMost, 0).overflowed());
  EXPECT_EQ(sum_of(-kMost, 0), FixedSum::of_units(-kMost));
}

TEST(FixedSumArithmetic, OverflowsRatherThanWraps) {
  EXPECT_TRUE(sum_of(kMost, 1).overflowed());
  EXPECT_TRUE(sum_of(kMost, 5 * kOne / 2).overflowed());  // wrapped, a plain negative total
  EXPECT_TRUE(sum_of(-kMost, -1).overflowed());           // -2^127 units: not a total
  EXPECT_TRUE(sum_of(-kMost, -kOne).overflowed());        // wrapped, a plain positive total
  EXPECT_TRUE(sum_of(kMost, kMost).overflowed());
}

TEST(FixedSumArithmetic, AnOverflowedSumStaysSo) {
  FixedSum past = sum_of(kMost, kOne);
  past.add(FixedSum::of_units(-100 * kOne));
  EXPECT_TRUE(past.overflowed());
  FixedSum s = FixedSum::of_units(3);
  s.add(past);
  EXPECT_TRUE(s.overflowed());
  EXPECT_FALSE(FixedSum{}.overflowed());
}

}  // namespace
}  // namespace logagg
