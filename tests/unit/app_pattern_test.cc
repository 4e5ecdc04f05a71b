// Tests of the app-id rule (parse/app_pattern.h): which patterns take the byte
// table and which RE2, what each accepts (the whole id, never a part; never
// the empty id with a `+` pattern; UTF-8 code points as RE2 has them), the
// default against today's is_valid_app_id, compile errors with RE2's message,
// the reject texts, and copies and threads sharing one compiled pattern.
// tests/property/app_pattern_differential_test.cc compares the two paths on
// random patterns and ids.
#include "parse/app_pattern.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "parse/app_id.h"

namespace logagg {
namespace {

using namespace std::literals;

TEST(AppPattern, DefaultIsTodaysRuleOnTheByteTable) {
  const AppPattern p = AppPattern::compile();
  EXPECT_EQ(p.source(), "[A-Za-z0-9]+");
  EXPECT_TRUE(p.is_default());
  EXPECT_TRUE(p.uses_byte_table());
  for (const std::string_view id : {"FmgKIyt"sv, "abc123"sv, "Z"sv, "0"sv}) EXPECT_TRUE(p.matches(id)) << id;
  for (const std::string_view id : {""sv, "bad_id"sv, "a b"sv, "caf\u00e9"sv, "abc\n"sv, "a\0b"sv, "-"sv}) {
    EXPECT_FALSE(p.matches(id)) << id;
  }
}

TEST(AppPattern, DefaultAgreesWithIsValidAppIdOnEveryByteAndPair) {
  const AppPattern p = AppPattern::compile();
  for (int a = 0; a < 256; ++a) {
    const std::string one(1, static_cast<char>(a));
    EXPECT_EQ(p.matches(one), is_valid_app_id(one)) << "byte " << a;
    for (int b = 0; b < 256; b += 7) {
      const std::string two = one + static_cast<char>(b);
      EXPECT_EQ(p.matches(two), is_valid_app_id(two)) << "bytes " << a << " " << b;
    }
  }
}

TEST(AppPattern, OneTableClassWithPlusTakesTheByteTable) {
  for (const char* regex :
       {"[a-z0-9.-]+", "[A-Za-z0-9.-]+", "[^ ]+", ".+", "\\S+", "\\w+", "\\d+", "\\D+", "[]a]+", "[^]a]+",
        "[\\.\\-_@]+", "[-a]+", "[a-]+", "[\\d\\s]+", "[^\\W_]+", "[\\t-\\r ]+", "[a^]+", "[[]+", "[\\[\\]]+"}) {
    EXPECT_TRUE(AppPattern::compile(regex).uses_byte_table()) << regex;
  }
}

TEST(AppPattern, EverythingElseTakesRe2) {
  for (const char* regex : {"[a-z\u00e9]+", "[^\u00e9]+", "[[:alpha:]]+", "[a-z]*", "[a-z]+?", "(?i)[a-z]+",
                            "[a-z0-9-]+@[a-z]+", "[\\x41-\\x5a]+", "[\\101]+", "a+", "[a-z]", "[a-z]{1,8}", "\\pL+",
                            "[\\p{Greek}]+", "(?s).+", "([a-z]+)", "[a-z]+$", "^[a-z]+"}) {
    EXPECT_FALSE(AppPattern::compile(regex).uses_byte_table()) << regex;
  }
}

TEST(AppPattern, ForcedRe2NeverTakesTheTable) {
  EXPECT_FALSE(AppPattern::compile_with_re2(AppPattern::kDefault).uses_byte_table());
  EXPECT_TRUE(AppPattern::compile_with_re2(AppPattern::kDefault).is_default());
}

// Each case on the path compile() picks and on RE2 forced.
struct Case {
  const char* regex;
  std::string_view id;
  bool matches;
};

void expect_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const AppPattern chosen = AppPattern::compile(c.regex);
    const AppPattern re2 = AppPattern::compile_with_re2(c.regex);
    EXPECT_EQ(chosen.matches(c.id), c.matches) << c.regex << " on \"" << c.id << "\"";
    EXPECT_EQ(re2.matches(c.id), c.matches) << c.regex << " (RE2 forced) on \"" << c.id << "\"";
  }
}

TEST(AppPattern, MatchesTheWholeIdNeverAPart) {
  expect_cases({
      {"[a-z]+", "abc", true},
      {"[a-z]+", "abc1", false},
      {"[a-z]+", "1abc", false},
      {"[a-z]+", "ab1c", false},
      {"[a-z0-9.-]+", "artifacts.example.org", true},
      {"[a-z0-9.-]+", "Artifacts.example.org", false},
      {"[a-z0-9-]+@[a-z]+", "api@docker", true},
      {"[a-z0-9-]+@[a-z]+", "checkout-api@docker", true},
      {"[a-z0-9-]+@[a-z]+", "xapi@docker1", false},
      {"[a-z0-9-]+@[a-z]+", "api@", false},
      {"foo|bar", "foo", true},
      {"foo|bar", "foobar", false},
      {"a|ab", "ab", true},
      {"^[a-z]+$", "abc", true},
  });
}

TEST(AppPattern, EmptyIdNeverMatchesAPlusPattern) {
  expect_cases({
      {"[A-Za-z0-9]+", "", false},
      {".+", "", false},
      {"[^ ]+", "", false},
      {"\\S+", "", false},
      {"[^\\s\\S]+", "", false},
      {"[a-z0-9-]+@[a-z]+", "", false},
      // Only a pattern that accepts the empty string accepts the empty id.
      {"[a-z]*", "", true},
  });
}

TEST(AppPattern, ClassesAsRe2ReadsThem) {
  expect_cases({
      {"[]a]+", "]a]", true},
      {"[^]a]+", "b", true},
      {"[^]a]+", "]", false},
      {"[-a]+", "-a-", true},
      {"[a-]+", "a-", true},
      {"[a-c-e]+", "-", true},
      {"[a-c-e]+", "d", false},
      {"[\\.\\-]+", ".-", true},
      {"[\\.\\-]+", "a", false},
      {"[\\d_]+", "1_2", true},
      {"[^\\W_]+", "a1", true},
      {"[^\\W_]+", "_", false},
      {"\\s+", " \t\n\f\r", true},
      {"\\s+", "\v", false},
      {"\\w+", "a_1", true},
      {"\\W+", "_", false},
      {"[\\v]+", "\v", true},
      {"[\\v]+", "\t", false},
      {"[\\n\\r\\t\\a\\f]+", "\n\r\t\a\f", true},
      {"[\\t-\\r]+", "\v", true},
      {"[[]+", "[", true},
      {"[a^]+", "^", true},
      {"[\\\\]+", "\\", true},
  });
}

TEST(AppPattern, CodePointsAsRe2MatchesThem) {
  expect_cases({
      // A class with every non-ASCII code point: negated classes, `.`, \S \W \D.
      {"[^ ]+", "caf\u00e9", true},
      {"[^ ]+", "\u65e5\u672c", true},
      {"[^ ]+", "\U0001F600", true},
      {"[^ ]+", "\u2028", true},
      {"[^ ]+", "a b", false},
      {"[^a]+", "\u00e1", true},
      {".+", "caf\u00e9 \U0001F600", true},
      {"\\W+", "\u00e9", true},
      {"\\D+", "\U0010FFFF", true},
      // Negated classes hold \n and NUL, `.` holds NUL but not \n (RE2's defaults).
      {"[^ ]+", "a\nb", true},
      {"[^ ]+", "a\0b"sv, true},
      {".+", "a\nb", false},
      {".+", "a\0b"sv, true},
      {"\\S+", "\n", false},
      // A class with no non-ASCII code point.
      {"[a-z]+", "caf\u00e9", false},
      {"\\w+", "\u00e9", false},
      // Classes with some non-ASCII code points run on RE2.
      {"[a-z\u00e9]+", "caf\u00e9", true},
      {"[a-z\u00e9]+", "caf\u00e8", false},
      {"[^\u00e9]+", "caf\u00e8", true},
      {"[^\u00e9]+", "caf\u00e9", false},
  });
}

TEST(AppPattern, CompileErrorsCarryRe2sMessage) {
  for (const char* regex : {"[a-z", "(", "a**", "[z-a]+", "\\q+", "[a-\\d]+", "x{2,1}", "(?z)a+", "\\", "\xff+"}) {
    const std::string expected = RE2(regex, RE2::Quiet).error();
    ASSERT_FALSE(expected.empty()) << regex;
    for (const bool forced : {false, true}) {
      try {
        forced ? AppPattern::compile_with_re2(regex) : AppPattern::compile(regex);
        ADD_FAILURE() << regex << " compiled";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(e.what(), expected) << regex;
      }
    }
  }
  EXPECT_THROW(AppPattern::compile("[a-z"), std::invalid_argument);
  try {
    AppPattern::compile("[a-z");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "missing ]: [a-z");
  }
}

TEST(AppPattern, CopiesAndThreadsShareOneCompiledPattern) {
  const AppPattern original = AppPattern::compile("[a-z0-9-]+@[a-z]+");
  const AppPattern table = AppPattern::compile("[a-z0-9.-]+");
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (size_t t = 0; t < wrong.size(); ++t) {
    threads.emplace_back([&, t, re2 = original, bytes = table] {
      for (int i = 0; i < 2000; ++i) {
        const std::string id = "svc" + std::to_string(i) + (i % 2 ? "@docker" : "");
        if (re2.matches(id) != (i % 2 == 1)) ++wrong[t];
        if (bytes.matches(id) != (i % 2 == 0)) ++wrong[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t t = 0; t < wrong.size(); ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
  EXPECT_EQ(original.source(), "[a-z0-9-]+@[a-z]+");
}

}  // namespace
}  // namespace logagg
