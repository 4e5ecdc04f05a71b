// A number's short form read into its digits (engine/src/parse/short_number.h,
// inline): the grammar it accepts and refuses, digits read eight at a time
// with and without padding, a number read from the digit counts the walk
// kept, and an integer's value with its sign. Linked without the engine
// (HEADERS_ONLY), so that a change to the header rebuilds this test alone;
// block_parser_test, where_test and measures_test check the readings the
// walk, the filters and the measures make of it.
#include "parse/short_number.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>

namespace logagg {
namespace {

// `text` followed by 8 readable bytes that are no digits, as the parsers pad.
struct Padded {
  explicit Padded(std::string_view text) : bytes(std::string(text) + "        ") {}
  std::string_view view() const { return std::string_view(bytes).substr(0, bytes.size() - 8); }
  std::string bytes;
};

// The reading of `text`, padded and unpadded, which must agree.
std::optional<ShortNumber> read(std::string_view text) {
  const Padded p(text);
  ShortNumber padded{}, plain{};
  const bool ok = read_short_number<true>(p.view(), padded);
  EXPECT_EQ(ok, read_short_number<false>(text, plain)) << text;
  if (!ok) return std::nullopt;
  EXPECT_EQ(padded.digits, plain.digits) << text;
  EXPECT_EQ(padded.int_digits, plain.int_digits) << text;
  EXPECT_EQ(padded.frac_digits, plain.frac_digits) << text;
  EXPECT_EQ(padded.negative, plain.negative) << text;
  return padded;
}

void expect_reads(std::string_view text, uint64_t digits, int int_digits, int frac_digits, bool negative) {
  const std::optional<ShortNumber> n = read(text);
  ASSERT_TRUE(n.has_value()) << text;
  EXPECT_EQ(n->digits, digits) << text;
  EXPECT_EQ(n->int_digits, int_digits) << text;
  EXPECT_EQ(n->frac_digits, frac_digits) << text;
  EXPECT_EQ(n->negative, negative) << text;
}

TEST(ShortNumber, ReadsTheShortFormIntoItsDigits) {
  expect_reads("200", 200, 3, 0, false);
  expect_reads("0", 0, 1, 0, false);
  expect_reads("-0", 0, 1, 0, true);
  expect_reads("-12.5", 125, 2, 1, true);
  expect_reads("0.004", 4, 1, 3, false);
  expect_reads("1436.219", 1436219, 4, 3, false);
  expect_reads("98765432", 98765432, 8, 0, false);  // eight digits: one word, every byte of it
  expect_reads("12345678.87654321", 1234567887654321, 8, 8, false);
  expect_reads("1234567890.123456789", 1234567890123456789u, 10, 9, false);  // 19 digits, the most
}

TEST(ShortNumber, RefusesEveryOtherText) {
  for (const std::string_view text : {"", "-", "+1", "012", "00", "-01", "1.", ".5", "1.2.3", "1e3", "1E3", "2.5e-1",
                                      "12345678901234567890", "1234567890.1234567890", "0x1", " 1", "1 ", "--1", "true"}) {
    EXPECT_FALSE(read(text).has_value()) << text;
  }
}

TEST(ShortNumber, ReadsFromTheDigitCountsTheWalkKept) {
  for (const auto& [text, int_digits, frac_digits] :
       {std::tuple<std::string_view, uint8_t, uint8_t>{"7", 1, 0}, {"12.5", 2, 1}, {"-98765432.1234567", 8, 7},
        {"0.0000001", 1, 7}, {"-3", 1, 0}, {"99999999.99999999", 8, 8}}) {
    const Padded p(text);
    const ShortNumber n = short_number_of(p.view(), int_digits, frac_digits);
    const std::optional<ShortNumber> want = read(text);
    ASSERT_TRUE(want.has_value()) << text;
    EXPECT_EQ(n.digits, want->digits) << text;
    EXPECT_EQ(n.int_digits, want->int_digits) << text;
    EXPECT_EQ(n.frac_digits, want->frac_digits) << text;
    EXPECT_EQ(n.negative, want->negative) << text;
  }
}

TEST(ShortNumber, AnIntegerHasItsValueAndSign) {
  const auto integer = [](std::string_view text) -> std::optional<int64_t> {
    const Padded p(text);
    int64_t v = 0;
    if (!read_short_integer(p.view(), v)) return std::nullopt;
    return v;
  };
  EXPECT_EQ(integer("200"), 200);
  EXPECT_EQ(integer("-3"), -3);
  EXPECT_EQ(integer("-0"), 0);
  EXPECT_EQ(integer("999999999999999999"), 999999999999999999);  // 18 digits
  EXPECT_EQ(integer("2.0"), std::nullopt);                      // a point: no integer
  EXPECT_EQ(integer("1000000000000000000"), std::nullopt);      // 19 digits
  EXPECT_EQ(integer("012"), std::nullopt);
}

// Random numbers of up to 19 digits against their digits read one by one.
TEST(ShortNumber, RandomNumbersReadAsTheirDigits) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const int int_digits = 1 + static_cast<int>(rng() % 10);
    const int frac_digits = static_cast<int>(rng() % (20 - int_digits));
    std::string digits;
    digits += static_cast<char>(int_digits == 1 ? '0' + rng() % 10 : '1' + rng() % 9);
    for (int d = 1; d < int_digits + frac_digits; ++d) digits += static_cast<char>('0' + rng() % 10);
    const bool negative = rng() % 2 == 0;
    std::string text = (negative ? "-" : "") + digits.substr(0, static_cast<size_t>(int_digits));
    if (frac_digits > 0) text += "." + digits.substr(static_cast<size_t>(int_digits));
    expect_reads(text, std::stoull(digits), int_digits, frac_digits, negative);
  }
}

}  // namespace
}  // namespace logagg
