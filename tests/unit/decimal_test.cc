// Tests of Decimal (text/decimal.h), the exact comparison of JSON numbers
// that --where uses: equal values in any spelling compare equal (1e3 and
// 1000, -0 and 0, 2e2 and 200.0), close values are never rounded together
// (0.1 and 0.10000000000000001), huge and tiny exponents stay exact, and
// the order is the order of the real numbers, negatives included. The
// ordering is checked against a sorted table pairwise, both ways round.
// And the plain decimal written back (min and max of --quantiles): every
// spelling of a value gives the same digits, which read back as it.
#include "text/decimal.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using logagg::Decimal;

int order(std::string_view a, std::string_view b) {
  const auto x = Decimal::parse(a);
  const auto y = Decimal::parse(b);
  EXPECT_TRUE(x.has_value()) << a;
  EXPECT_TRUE(y.has_value()) << b;
  if (!x || !y) return 99;
  const int c = compare(*x, *y);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

TEST(DecimalTest, EqualValuesInAnySpellingCompareEqual) {
  const std::vector<std::pair<std::string_view, std::string_view>> equal = {
      {"1e3", "1000"},        {"1E3", "1000.000"},   {"1e+3", "10e2"},      {"-0", "0"},
      {"-0.0", "0e5"},        {"0", "0.000e-99"},    {"2e2", "200.0"},      {"200", "200.00"},
      {"0.5", "5e-1"},        {"-1.5e+3", "-1500"},  {"123.456", "123456e-3"}, {"1e400", "10e399"},
      {"1e-400", "0.1e-399"}, {"0.001e3", "1"},      {"100e-2", "1.0"},     {"-0e-0", "0E+0"}};
  for (const auto& [a, b] : equal) {
    EXPECT_EQ(order(a, b), 0) << a << " vs " << b;
    EXPECT_EQ(order(b, a), 0) << b << " vs " << a;
  }
}

// Ascending: every entry is below each later one, and above each earlier one.
TEST(DecimalTest, OrderIsTheOrderOfTheRealNumbers) {
  const std::vector<std::string_view> ascending = {
      "-1e400", "-1e18",  "-1000", "-999.9999999999999999999", "-200", "-199.5", "-2", "-1.5",
      "-1",     "-0.10000000000000001", "-0.1", "-1e-400", "0", "1e-400", "0.09999999999999999999",
      "0.1",    "0.10000000000000001", "0.2", "0.30000000000000004", "1", "1.0000000000000000000001",
      "2",      "199.999", "2e2",   "200.0000000000001", "499", "5e2", "500.5", "1e18",
      "1e400",  "1e4000000000000000000"};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      const int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(order(ascending[i], ascending[j]), want) << ascending[i] << " vs " << ascending[j];
    }
  }
}

TEST(DecimalTest, TenthIsNotRoundedTogetherWithItsNeighbourAsADoubleWouldBe) {
  EXPECT_EQ(order("0.1", "0.10000000000000001"), -1);
  EXPECT_EQ(order("9007199254740993", "9007199254740992"), 1);  // 2^53 + 1 and 2^53
  EXPECT_EQ(order("1e23", "99999999999999991611392"), 1);
}

TEST(DecimalTest, HugeExponentsStayExactUpToTheirLimit) {
  EXPECT_EQ(order("1e999999999", "1e1000000000"), -1);
  EXPECT_EQ(order("1e-999999999", "1e-1000000000"), 1);
  EXPECT_EQ(order("0.0000001e1000000007", "1e1000000000"), 0);
  EXPECT_EQ(order("-1e999999999", "-1e1000000000"), 1);
  // Over 18-digit exponents saturate (decimal.h): still above any smaller written one.
  EXPECT_EQ(order("1e99999999999999999999", "1e400"), 1);
  EXPECT_EQ(order("1e-99999999999999999999", "0"), 1);
  EXPECT_EQ(order("-1e-99999999999999999999", "0"), -1);
}

TEST(DecimalTest, OnlyJsonNumbersAreRead) {
  for (const std::string_view not_number :
       {"", "-", "+1", "01", "1.", ".5", "1e", "1e+", "0x10", "1_000", " 1", "1 ", "NaN", "Infinity", "-Infinity",
        "1,5", "--1", "1e5.5", "true", "\"1\""}) {
    EXPECT_FALSE(Decimal::parse(not_number).has_value()) << '"' << not_number << '"';
  }
  for (const std::string_view number : {"0", "-0", "1", "-1.25e-7", "1E+400", "12345678901234567890123"}) {
    EXPECT_TRUE(Decimal::parse(number).has_value()) << number;
  }
}

TEST(DecimalTest, PlainDecimalIsTheValueWithoutExponentOrNeedlessZeros) {
  const std::vector<std::pair<std::string_view, std::string_view>> plain = {
      {"0", "0"},
      {"-0", "0"},
      {"-0.000e5", "0"},
      {"150", "150"},
      {"1.50e2", "150"},
      {"-1.5e-3", "-0.0015"},
      {"12.3400", "12.34"},
      {"0.5", "0.5"},
      {"1e21", "1000000000000000000000"},
      {"123456789012345678901234567890", "123456789012345678901234567890"},
      {"0.10000000000000000001", "0.10000000000000000001"},
      {"1234567890.12345678901E-5", "12345.6789012345678901"},
      {"-98765432109876543210.5e+2", "-9876543210987654321050"},
  };
  for (const auto& [text, want] : plain) {
    const auto d = Decimal::parse(text);
    ASSERT_TRUE(d.has_value()) << text;
    std::string out = "[";
    d->append_plain(out);
    EXPECT_EQ(out, "[" + std::string(want)) << text;
    EXPECT_EQ(order(out.substr(1), text), 0) << text;
  }
}

}  // namespace
