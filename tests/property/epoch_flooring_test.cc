// Property tests of the exact flooring of epoch numbers (the unix, unix-ms,
// unix-us and unix-ns time formats, engine/src/parse/time_format.h): random
// decimal numbers whose floored second the test knows exactly, because it
// builds each number from that second (a second S, units into the next second
// and a fraction of a unit: the number is S + something in [0, 1), or its
// negation, which floors to -S or -S - 1), then spells it in the forms the
// time-format differential does not (tests/reference/time_generators.h
// write_number): exponents with leading zeros and a '+', zeros after "0."
// pushed back by the exponent, the point after every digit, exponents of ten
// digits and more on zero and on tiny or huge values. Seconds are drawn
// anywhere in the years 0000..9999 and at their limits, in and one out, and
// each number is also checked against the reference (time_reference.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parse/time_format.h"
#include "reference/time_generators.h"
#include "reference/time_reference.h"

namespace {

using reference::kFirstSecond;
using reference::kLastSecond;
using reference::uniform;

struct Epoch {
  const char* name;
  int unit_digits;
};
constexpr Epoch kEpochs[] = {{"unix", 0}, {"unix-ms", 3}, {"unix-us", 6}, {"unix-ns", 9}};

// An exponent written with a sign ('+' optional) and leading zeros.
std::string exponent(std::mt19937_64& rng, int64_t e) {
  std::string out = rng() % 2 ? "e" : "E";
  if (e < 0) out += '-';
  if (e >= 0 && rng() % 2) out += '+';
  out += std::string(rng() % 4, '0');
  return out + std::to_string(e < 0 ? -e : e);
}

// `digits` (no leading zero, or "0") times 10^scale, spelt with the point at
// a random place, zeros after "0." or at the end, and a compensating exponent.
std::string spell(std::mt19937_64& rng, const std::string& digits, int64_t scale) {
  const auto n = static_cast<int64_t>(digits.size());
  switch (digits == "0" ? 0 : rng() % 4) {  // zeros may not lead "0"
    case 0: {                               // 0.000ddd e(n + zeros + scale)
      const auto zeros = uniform(rng, 0, 12);
      return "0." + std::string(static_cast<size_t>(zeros), '0') + digits + exponent(rng, n + zeros + scale);
    }
    case 1: {  // ddd000 e(scale - zeros)
      const auto zeros = uniform(rng, 0, 12);
      return digits + std::string(static_cast<size_t>(zeros), '0') + exponent(rng, scale - zeros);
    }
    case 2: {  // the point after any digit, trailing zeros
      const auto at = uniform(rng, 1, n);
      std::string out = digits.substr(0, static_cast<size_t>(at));
      if (at < n || rng() % 2)
        out += "." + digits.substr(static_cast<size_t>(at)) + std::string(rng() % 3 + (at == n), '0');
      return out + exponent(rng, scale + n - at);
    }
    default: {  // no exponent where none is needed
      if (scale == 0) return digits;
      if (scale < 0 && -scale < n) {
        return digits.substr(0, static_cast<size_t>(n + scale)) + "." + digits.substr(static_cast<size_t>(n + scale));
      }
      return digits + exponent(rng, scale);
    }
  }
}

// A second to build a number about: anywhere, at the year limits (in and one
// out), or near 0 and 1700000000.
int64_t random_second(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0:
      return uniform(rng, 0, kLastSecond + 1);
    case 1:
      return kLastSecond + uniform(rng, -1, 1);
    case 2:
      return -kFirstSecond + uniform(rng, -1, 1);  // negated below: the first second and one before it
    case 3:
      return uniform(rng, 0, 2);
    default:
      return 1700000000 + uniform(rng, -1, 1);
  }
}

struct Case {
  std::string text;
  std::optional<int64_t> second;
};

// A number of S seconds, R units and a fraction F of a unit (R and F each
// zero, at an end of their range or random), negated at random, spelt by
// spell(); its second is S, or -S, or -S - 1 when R or F is not zero.
Case random_case(std::mt19937_64& rng, int unit_digits) {
  const int64_t s = random_second(rng);
  std::string units;  // exactly unit_digits digits
  for (int i = 0; i < unit_digits; ++i)
    units += static_cast<char>('0' + (rng() % 3 == 0 ? 0 : rng() % 3 == 0 ? 9 : rng() % 10));
  std::string fraction = rng() % 3 == 0 ? "" : reference::random_digits(rng, 1 + rng() % 40);
  if (rng() % 4 == 0) fraction = std::string(1 + rng() % 30, '0') + (rng() % 2 ? "1" : "");
  const bool negative = rng() % 2 == 0;
  // The number is (s || units || fraction) * 10^-(unit_digits + |fraction|) units.
  std::string digits = std::to_string(s) + units + fraction;
  int64_t scale = -static_cast<int64_t>(fraction.size());
  const size_t lead = digits.find_first_not_of('0');
  const bool whole = (units + fraction).find_first_not_of('0') == std::string::npos;
  digits = lead == std::string::npos ? "0" : digits.substr(lead);
  const int64_t second = negative ? -s - (whole ? 0 : 1) : s;
  Case c{(negative ? "-" : "") + spell(rng, digits, scale), second};
  if (second < kFirstSecond || second > kLastSecond) c.second = std::nullopt;
  return c;
}

TEST(EpochFlooring, RandomDecimalsFloorExactly) {
  std::mt19937_64 rng(1414);
  for (const Epoch& e : kEpochs) {
    const logagg::TimeFormat format = logagg::TimeFormat::compile(e.name);
    int wrong = 0, in_range = 0;
    for (int i = 0; i < 50000 && wrong < 10; ++i) {
      const Case c = random_case(rng, e.unit_digits);
      in_range += c.second.has_value();
      const std::optional<int64_t> got = format.second(c.text);
      const std::optional<int64_t> oracle = reference::epoch_second(c.text, e.unit_digits);
      if (got != c.second || oracle != c.second) {
        ++wrong;
        ADD_FAILURE() << e.name << " " << c.text << ": engine " << (got ? std::to_string(*got) : "none")
                      << ", reference " << (oracle ? std::to_string(*oracle) : "none") << ", expected "
                      << (c.second ? std::to_string(*c.second) : "none");
      }
    }
    EXPECT_GT(in_range, 30000) << e.name << ": the generator lost its valid cases";
  }
}

// Exponents of ten digits and more: zero is zero whatever its exponent; a
// nonzero value scaled down that far is under one second (0, or -1 when
// negative), scaled up it is past the year 9999.
TEST(EpochFlooring, HugeExponents) {
  std::mt19937_64 rng(1415);
  for (const Epoch& e : kEpochs) {
    const logagg::TimeFormat format = logagg::TimeFormat::compile(e.name);
    for (int i = 0; i < 2000; ++i) {
      const int64_t magnitude = uniform(rng, 1000000000, 4000000000000000000);
      std::string mantissa = std::to_string(uniform(rng, 1, 1999999999));
      if (mantissa.size() > 1 && rng() % 2)
        mantissa.insert(static_cast<size_t>(uniform(rng, 1, static_cast<int64_t>(mantissa.size()) - 1)), ".");
      const bool negative = rng() % 2 == 0;
      const std::string sign = negative ? "-" : "";
      const Case cases[] = {
          {sign + "0" + (rng() % 2 ? ".000" : "") + exponent(rng, rng() % 2 ? magnitude : -magnitude), 0},
          {sign + mantissa + exponent(rng, -magnitude), negative ? -1 : 0},
          {sign + mantissa + exponent(rng, magnitude), std::nullopt},
      };
      for (const Case& c : cases) {
        EXPECT_EQ(format.second(c.text), c.second) << e.name << " " << c.text;
        EXPECT_EQ(reference::epoch_second(c.text, e.unit_digits), c.second) << "reference, " << e.name << " " << c.text;
      }
    }
  }
}

}  // namespace
