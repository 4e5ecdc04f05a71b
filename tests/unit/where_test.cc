// Tests of Filter (parse/where.h), the --where filters: how each expression
// is read (every operator, spaces, quoted fields and values, exists and
// missing, and a clear message for each kind of mistake), and when one
// holds for what a line's walk found for its field (numbers compared as
// exact decimals, numeric strings, text bytewise, literals, RE2 whole-text
// matches on strings and on numbers as written, and false for every type
// mismatch, a field missing, repeated or a container, != and !~ included).
#include "parse/where.h"
#include "parse/where_holds.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "text/decimal.h"

namespace {

using logagg::FieldSeen;
using logagg::Filter;
using Op = logagg::Filter::Op;

// `text` as the walk leaves a field's text: followed by 8 readable bytes.
// Digits, so that a reading past the text's end shows in its value.
std::string_view padded(std::string_view text) {
  static std::deque<std::string> texts;
  texts.push_back(std::string(text) + "99999999");
  return std::string_view(texts.back()).substr(0, text.size());
}

FieldSeen string_value(std::string_view text) {
  FieldSeen seen;
  seen.count = 1;
  seen.is_string = true;
  seen.text = padded(text);
  return seen;
}

// A number or a literal, as written.
FieldSeen scalar(std::string_view token) {
  FieldSeen seen;
  seen.count = 1;
  seen.is_scalar = true;
  seen.text = padded(token);
  return seen;
}

FieldSeen container() {
  FieldSeen seen;
  seen.count = 1;
  return seen;
}

// An object or array whose record still holds an earlier line's number text
// (the walk sets text only with is_string or is_scalar).
FieldSeen container_over(std::string_view stale) {
  FieldSeen seen = container();
  seen.text = padded(stale);
  return seen;
}

FieldSeen missing() { return FieldSeen{}; }

FieldSeen twice(std::string_view text) {
  FieldSeen seen = string_value(text);
  seen.count = 2;
  return seen;
}

FieldSeen step_twice() {
  FieldSeen seen;
  seen.step_twice = true;
  return seen;
}

bool holds(std::string_view expression, const FieldSeen& seen) { return Filter::parse(expression).holds(seen); }

// The message of the std::invalid_argument that reading `expression` throws ("" if none).
std::string error_of(std::string_view expression) {
  try {
    Filter::parse(expression);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(FilterParseTest, EveryOperatorWithAndWithoutSpaces) {
  struct Row {
    std::string_view op;
    bool below, equal, above;  // holds for 499, 500, 501
  };
  const Row rows[] = {{"==", false, true, false}, {"!=", true, false, true}, {"<", true, false, false},
                      {"<=", true, true, false},  {">", false, false, true}, {">=", false, true, true}};
  for (const Row& row : rows) {
    for (const std::string& spelling :
         {"status" + std::string(row.op) + "500", "status " + std::string(row.op) + " 500",
          "  status\t" + std::string(row.op) + "   500 ", "\"status\"" + std::string(row.op) + "500"}) {
      const Filter f = Filter::parse(spelling);
      EXPECT_EQ(f.field(), "status") << spelling;
      EXPECT_EQ(f.holds(scalar("499")), row.below) << spelling;
      EXPECT_EQ(f.holds(scalar("500")), row.equal) << spelling;
      EXPECT_EQ(f.holds(scalar("501")), row.above) << spelling;
    }
  }
  EXPECT_TRUE(holds("path~/api/.*", string_value("/api/v1")));
  EXPECT_TRUE(holds("path ~ /api/.*", string_value("/api/v1")));
  EXPECT_FALSE(holds("path!~/api/.*", string_value("/api/v1")));
  EXPECT_TRUE(holds("path !~ /api/.*", string_value("/web")));
}

TEST(FilterParseTest, TheFirstOperatorEndsTheFieldUnlessTheFieldIsQuoted) {
  EXPECT_EQ(Filter::parse("a==b==c").field(), "a");
  EXPECT_TRUE(holds("a==b==c", string_value("b==c")));
  EXPECT_EQ(Filter::parse(R"("a==b" == c)").field(), "a==b");
  EXPECT_EQ(Filter::parse(R"("x\"y<z">=1)").field(), "x\"y<z");
  EXPECT_EQ(Filter::parse(R"("\u00e9t\u00e9" == 1)").field(), "\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(Filter::parse(":authority==example.com").field(), ":authority");
  EXPECT_EQ(Filter::parse("http.response.status_code>=500").field(), "http.response.status_code");
  EXPECT_EQ(Filter::parse("/request/host == a").field(), "/request/host");
  EXPECT_EQ(Filter::parse("a<=b").field(), "a");  // <= before <
  EXPECT_FALSE(holds("a<=b", string_value("c")));
  EXPECT_TRUE(holds("a<=b", string_value("b")));
  EXPECT_TRUE(holds("a!~b", string_value("c")));  // !~, not != then "~b"
}

TEST(FilterParseTest, QuotedValuesAreTextAndUnquotedOnesAreReadByTheirLooks) {
  // Quoted: the decoded text, compared with strings only, even if it looks like a number or a literal.
  EXPECT_TRUE(holds(R"(status == "200")", string_value("200")));
  EXPECT_FALSE(holds(R"(status == "200")", scalar("200")));
  EXPECT_TRUE(holds(R"(ok == "true")", string_value("true")));
  EXPECT_FALSE(holds(R"(ok == "true")", scalar("true")));
  EXPECT_TRUE(holds(R"(m == "a b\"c\n")", string_value("a b\"c\n")));
  EXPECT_TRUE(holds(R"(m == "")", string_value("")));
  EXPECT_TRUE(holds(R"(m == " padded ")", string_value(" padded ")));
  EXPECT_TRUE(holds(R"(m=="\u0000")", string_value(std::string_view("\0", 1))));
  // Unquoted: the text as written, trimmed.
  EXPECT_TRUE(holds("method == GET", string_value("GET")));
  EXPECT_TRUE(holds("ua == curl/8.0 (x)", string_value("curl/8.0 (x)")));
  EXPECT_FALSE(holds("method == GET", string_value("GET ")));
  // A number unquoted is a number, so 2e2 equals 200 and the string "200".
  EXPECT_TRUE(holds("status == 2e2", scalar("200")));
  EXPECT_TRUE(holds("status == 2e2", string_value("200.0")));
  // Text that looks like a number but is not a JSON number is text only
  // quoted (unquoted, it is refused: MistakesAreRefused... below).
  EXPECT_TRUE(holds(R"(n == "+5")", string_value("+5")));
  EXPECT_FALSE(holds(R"(n == "+5")", scalar("5")));
  EXPECT_TRUE(holds(R"(v == "1.2.3")", string_value("1.2.3")));
  // A pattern may start with an operator's byte.
  EXPECT_TRUE(holds("path~=x", string_value("=x")));
}

TEST(FilterParseTest, ExistsAndMissing) {
  for (const std::string_view e : {"exists status", "  exists   status ", "exists \"status\""}) {
    const Filter f = Filter::parse(e);
    EXPECT_EQ(f.field(), "status") << e;
    EXPECT_TRUE(f.holds(scalar("200"))) << e;
    EXPECT_TRUE(f.holds(scalar("null"))) << e;
    EXPECT_TRUE(f.holds(container())) << e;
    EXPECT_TRUE(f.holds(twice("a"))) << e;
    EXPECT_TRUE(f.holds(step_twice())) << e;
    EXPECT_FALSE(f.holds(missing())) << e;
  }
  const Filter m = Filter::parse("missing /a/b");
  EXPECT_EQ(m.field(), "/a/b");
  EXPECT_TRUE(m.holds(missing()));
  EXPECT_FALSE(m.holds(scalar("null")));
  EXPECT_FALSE(m.holds(container()));
  EXPECT_FALSE(m.holds(twice("a")));
  EXPECT_FALSE(m.holds(step_twice()));
  EXPECT_EQ(Filter::parse(R"(exists "a b")").field(), "a b");
  // "existsX==1", "exists==1" and "missing == 1" are comparisons on fields
  // of those names: the keyword form takes a field without an operator's
  // bytes (or a quoted one).
  EXPECT_EQ(Filter::parse("existsX==1").field(), "existsX");
  EXPECT_EQ(Filter::parse("exists==1").field(), "exists");
  EXPECT_EQ(Filter::parse("missing == 1").field(), "missing");
  EXPECT_TRUE(holds("missing == 1", scalar("1")));
  EXPECT_EQ(Filter::parse(R"("missing" == 1)").field(), "missing");
  EXPECT_TRUE(holds(R"("missing" == 1)", scalar("1")));
  EXPECT_EQ(Filter::parse(R"(exists "a==b")").field(), "a==b");
}

// Every mistake is a usage error whose message names the expression and
// what was expected, then shows the expression again with a caret under the
// problem.
TEST(FilterParseTest, MistakesAreRefusedWithTheExpressionAndACaretUnderTheProblem) {
  struct Row {
    std::string_view expression, says;
    size_t caret;
  };
  const Row rows[] = {
      {"status", "no operator; expected one of == != < <= > >= ~ !~", 6},
      {"", "no operator", 0},
      {"exists", "no operator", 6},
      {"==500", "no field before the operator", 0},
      {"  >= 1", "no field before the operator", 2},
      {R"(""==1)", "no field before the operator", 0},
      {"status = 500", "= is written ==", 7},
      {R"(m == "abc)", "not a JSON string", 5},
      {R"("status" 500)", "no operator after the field", 9},
      {R"(m == "GET" x)", "text after the quoted value", 11},
      {R"(m == "a""b")", "text after the quoted value", 8},
      {"path ~ (", "pattern does not compile", 7},
      {"path !~ [a-", "pattern does not compile", 8},
      {"ok < true", "only be compared with == or !=", 3},
      {"ok >= null", "only be compared with == or !=", 3},
      {"ok > false", "only be compared with == or !=", 3},
      // An operator's bytes that spell no operator.
      {"status>>500", "unknown operator >>; expected one of == != < <= > >= ~ !~", 6},
      {"status => 500", "unknown operator =>", 7},
      {"status=<5", "unknown operator =<", 6},
      {"status <> 5", "unknown operator <>", 7},
      {"status!==5", "unknown operator !==", 6},
      {"status >= >500", "the value starts with an operator's byte; quote text that does: \">500\"", 10},
      // No value, or one that looks like a number and is not one.
      {"response >= ", "no value after the operator; expected a number, \"text\", true, false or null", 11},
      {"path ~ ", "no pattern after ~", 6},
      {"response>=5oo", "5oo is not a number; write a JSON number (500, 0.25, 1e3), or quote text: \"5oo\"", 10},
      {"v == 1.2.3", "1.2.3 is not a number", 5},
      {"n == +5", "+5 is not a number", 5},
      {"n == 05", "05 is not a number", 5},
      {"n < -.5", "-.5 is not a number", 4},
  };
  for (const Row& row : rows) {
    const std::string message = error_of(row.expression);
    const std::string first = message.substr(0, message.find('\n'));
    EXPECT_EQ(first.rfind("--where '" + std::string(row.expression) + "': ", 0), 0u) << message;
    EXPECT_NE(first.find(row.says), std::string::npos) << "'" << row.expression << "': " << message;
    EXPECT_EQ(message.substr(first.size()),
              "\n  " + std::string(row.expression) + "\n  " + std::string(row.caret, ' ') + "^")
        << message;
  }
}

TEST(FilterHoldsTest, NumbersCompareAsExactDecimals) {
  EXPECT_TRUE(holds("n == 1000", scalar("1e3")));
  EXPECT_TRUE(holds("n == 1e3", scalar("1000.0")));
  EXPECT_TRUE(holds("n == 0", scalar("-0")));
  EXPECT_TRUE(holds("n == -0", scalar("0.0")));
  EXPECT_FALSE(holds("n != -0", scalar("0")));
  EXPECT_TRUE(holds("n == 200.0", scalar("2e2")));
  EXPECT_TRUE(holds("n < 0.10000000000000001", scalar("0.1")));
  EXPECT_FALSE(holds("n == 0.10000000000000001", scalar("0.1")));
  EXPECT_TRUE(holds("n > 1e399", scalar("1e400")));
  EXPECT_TRUE(holds("n == 1e400", scalar("10e399")));
  EXPECT_FALSE(holds("n == 1e400", scalar("1e401")));
  EXPECT_TRUE(holds("n < -1e400", scalar("-1e401")));
  EXPECT_TRUE(holds("n >= -5", scalar("-4.999")));
  EXPECT_FALSE(holds("n >= -5", scalar("-5.001")));
  EXPECT_TRUE(holds("latency > 0.3", scalar("0.30000000000000004")));
}

TEST(FilterHoldsTest, AStringWholeOfANumberComparesAsThatNumber) {
  EXPECT_TRUE(holds("status >= 500", string_value("503")));
  EXPECT_TRUE(holds("t > 0.003", string_value("0.004")));
  EXPECT_TRUE(holds("status == 200", string_value("2e2")));
  // Anything else in the string: not a number, so false for every operator.
  for (const std::string_view op : {"==", "!=", "<", "<=", ">", ">="}) {
    for (const std::string_view text : {" 503", "503 ", "503ms", "", "+503", "0503", "five", "1e", "NaN"}) {
      EXPECT_FALSE(holds("status " + std::string(op) + " 500", string_value(text))) << op << " '" << text << "'";
    }
  }
}

TEST(FilterHoldsTest, ATypeMismatchIsFalseForEveryOperator) {
  const std::vector<FieldSeen> not_numbers = {string_value("abc"), scalar("true"), scalar("false"),
                                              scalar("null"),      container(),    container_over("5"),
                                              missing(),           twice("5"),     step_twice()};
  for (const std::string_view op : {"==", "!=", "<", "<=", ">", ">="}) {
    const Filter number = Filter::parse("f " + std::string(op) + " 5");
    for (const FieldSeen& seen : not_numbers) EXPECT_FALSE(number.holds(seen)) << op << " '" << seen.text << "'";
  }
  for (const std::string_view op : {"==", "!=", "<", "<=", ">", ">="}) {
    const Filter text = Filter::parse("f " + std::string(op) + " abc");
    for (const FieldSeen& seen : {scalar("5"), scalar("true"), scalar("null"), container(), missing(),
                                  twice("abc"), step_twice()}) {
      EXPECT_FALSE(text.holds(seen)) << op << " '" << seen.text << "'";
    }
  }
  for (const std::string_view op : {"==", "!="}) {
    const Filter literal = Filter::parse("f " + std::string(op) + " true");
    for (const FieldSeen& seen : {string_value("true"), string_value("false"), scalar("1"), container(), missing()}) {
      EXPECT_FALSE(literal.holds(seen)) << op << " '" << seen.text << "'";
    }
  }
  for (const std::string_view op : {"~", "!~"}) {
    const Filter pattern = Filter::parse("f " + std::string(op) + " zzz");
    for (const FieldSeen& seen : {scalar("true"), scalar("null"), container(), missing(), twice("a"), step_twice()}) {
      EXPECT_FALSE(pattern.holds(seen)) << op << " '" << seen.text << "'";
    }
  }
}

TEST(FilterHoldsTest, TextComparesByItsBytes) {
  EXPECT_TRUE(holds("m == GET", string_value("GET")));
  EXPECT_FALSE(holds("m == GET", string_value("get")));
  EXPECT_TRUE(holds("m != GET", string_value("get")));
  EXPECT_TRUE(holds("m < b", string_value("a")));
  EXPECT_TRUE(holds("m < b", string_value("B")));           // 'B' 0x42 < 'b' 0x62
  EXPECT_TRUE(holds("m > z", string_value("\xc3\xa9")));    // bytes above ASCII sort after it (unsigned)
  EXPECT_TRUE(holds("m < abc", string_value("ab")));        // a prefix sorts first
  EXPECT_TRUE(holds("m >= abc", string_value("abc")));
  EXPECT_FALSE(holds("m == ab", string_value(std::string_view("ab\0", 3))));
}

TEST(FilterHoldsTest, LiteralsEqualOnlyTheSameLiteral) {
  EXPECT_TRUE(holds("ok == true", scalar("true")));
  EXPECT_FALSE(holds("ok == true", scalar("false")));
  EXPECT_TRUE(holds("ok != true", scalar("false")));
  EXPECT_TRUE(holds("ok != true", scalar("null")));
  EXPECT_TRUE(holds("x == null", scalar("null")));
  EXPECT_FALSE(holds("x == null", missing()));
  EXPECT_FALSE(holds("x != null", scalar("0")));
  EXPECT_FALSE(holds("x == false", scalar("0")));
}

TEST(FilterHoldsTest, PatternsMatchTheWholeTextOfStringsAndNumbersAsWritten) {
  EXPECT_TRUE(holds("path ~ /api/v1/.*", string_value("/api/v1/orders")));
  EXPECT_FALSE(holds("path ~ /api/v1", string_value("/api/v1/orders")));  // whole text, not a search
  EXPECT_FALSE(holds("path ~ v1", string_value("/api/v1")));
  EXPECT_TRUE(holds("path !~ v1", string_value("/api/v1")));
  EXPECT_TRUE(holds("status ~ 5..", scalar("503")));
  EXPECT_FALSE(holds("status ~ 5..", scalar("5.03e2")));  // as written, not as valued
  EXPECT_TRUE(holds("status !~ 5..", scalar("200")));
  EXPECT_TRUE(holds("status ~ 5..", string_value("503")));
  EXPECT_TRUE(holds("n ~ -0", scalar("-0")));
  EXPECT_TRUE(holds("n ~ \"a b\"", string_value("a b")));
  EXPECT_TRUE(holds("n ~ .*", string_value("")));
  EXPECT_TRUE(holds("n ~ (?s).*", string_value("a\nb")));
  EXPECT_TRUE(holds("n ~ \\x{e9}", string_value("\xc3\xa9")));  // UTF-8: one character
}

// The inline integer path against the exact decimal comparison, on every
// operator and integers of 1 to 20 digits around each bound (the range's
// ends, int64's, 8 and 18 digits), as numbers and as strings, beside
// texts the path must leave to the decimals.
TEST(FilterHoldsTest, IntegersCompareAsTheirExactDecimals) {
  const std::vector<std::string> bounds = {"0",        "-0",        "1",       "-1",      "500",
                                           "99999999", "100000000", "-99999999", "999999999999999999",
                                           "-999999999999999999", "1000000000000000000", "9223372036854775807",
                                           "-9223372036854775808"};
  std::vector<std::string> texts = {"0",    "-0",   "00",  "-00",  "007",    "1.0",   "5e2", "499.9", "500.0",
                                    "-",    "",     "1x",  "5 ",   "+5",     "true",  "null", "12345678",
                                    "123456789", "99999999999999999999", "-99999999999999999999"};
  for (const std::string& b : bounds) {
    for (int d = -2; d <= 2; ++d) {
      const long double near = std::stold(b) + d;
      char text[64];
      std::snprintf(text, sizeof text, "%.0Lf", near);
      texts.emplace_back(text);
    }
  }
  for (const std::string& b : bounds) {
    for (const std::string_view op : {"==", "!=", "<", "<=", ">", ">="}) {
      const Filter f = Filter::parse("n " + std::string(op) + " " + b);
      const logagg::Decimal bound = *logagg::Decimal::parse(b);
      for (const std::string& text : texts) {
        const std::optional<logagg::Decimal> n = logagg::Decimal::parse(text);
        const int order = n ? compare(*n, bound) : 0;
        const bool expected = n && (op == "==" ? order == 0 : op == "!=" ? order != 0 : op == "<" ? order < 0
                                    : op == "<=" ? order <= 0 : op == ">" ? order > 0 : order >= 0);
        EXPECT_EQ(f.holds(string_value(text)), expected) << "\"" << text << "\" " << op << " " << b;
        EXPECT_EQ(f.holds(scalar(text)), expected) << text << " " << op << " " << b;
      }
    }
  }
}

}  // namespace
