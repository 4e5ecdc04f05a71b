// Tests of BlockParser (parse/line_parser.h): every line gets LineParser's
// verdict, whatever the block size, with or without padding after the text,
// and a line stage 1 refuses costs no other line its verdict: lines broken
// in each way stage 1 notices (an unclosed string, a raw control character,
// invalid UTF-8) among good ones, a log of nothing but broken lines, objects
// that would go on into the next line, lines longer than a block, escaped app
// ids, and fields at JSON Pointer paths. The random lines of the
// differential tests (tests/property/differential_test.cc) and the fuzzer
// add block boundaries everywhere. The LF masks the block's line search
// reads its bytes through (SSE2's and AVX2's) agree with a byte's own test.
#include "parse/line_parser.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "parse/measure_value.h"
#include "support/parser_verdicts.h"
#include "text/lf_mask.h"

namespace {

using logagg::BlockParser;
using logagg::LineRules;
using logagg::LineStatus;
using logagg::LineVerdict;
using logagg::Query;
using logagg::Reason;
using logagg::testing::blocks;
using logagg::testing::Seen;

const std::string kGood = R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","status":200})";
const std::string kGood2 = R"({"path":"/a","latency_ms":13.04,"timestamp":"2023-11-14T22:13:21.5+01:00","app_id":"api2"})";

LineRules rules_of(const std::string& app_field = "app_id", const std::string& time_field = "timestamp") {
  logagg::Options options;
  options.app_field = app_field;
  options.time_field = time_field;
  return Query(options).rules();
}

// Every line of `text` gets LineParser's verdict from BlockParser, for every
// block size in `sizes`, padded and not.
void expect_same(const std::string& text, const std::vector<size_t>& sizes, const LineRules& rules = rules_of(),
                 size_t max_line_bytes = size_t{1} << 20) {
  logagg::testing::expect_parsers_agree(text, sizes, rules, max_line_bytes);
}

std::vector<size_t> all_sizes(size_t up_to) {
  std::vector<size_t> sizes;
  for (size_t s = 1; s <= up_to; ++s) sizes.push_back(s);
  return sizes;
}

// One line of each kind the block path passes on or refuses, among good ones.
const std::string kMixed = kGood + "\n" + "\n" + "   \t\r\n" + kGood2 + "\r\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","ua":"unclosed})" + "\n" +
                           kGood + "\n" + "{\"app_id\":\"web1\",\"timestamp\":\"2023-11-14T22:13:20Z\",\"x\":\"a\x01b\"}\n" +
                           "{\"app_id\":\"w\xC3\x28\",\"timestamp\":\"2023-11-14T22:13:20Z\"}\n" + kGood2 + "\n" +
                           R"([1,2,3])" + "\n" + R"("just a string")" + "\n" + R"({"app_id":"web1"})" + "\n" +
                           R"({"app_id":"a\u0062c","timestamp":"2023-11-14T22:13:20Z","k\"q":[1,{"z":null}]})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","n":01})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","n":1.})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","n":[-0.5,0,1.e5,12345678.9]})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","n":-})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","n":-1.5e+3,"t":true})" + "\n" +
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","bad":"\x"})" + "\n" +
                           R"({"app_id":"web1","app_id":"web2","timestamp":"2023-11-14T22:13:20Z"})" + "\n" +
                           R"(  {"timestamp":"2023-11-14T22:13:20Z","app_id":7}  )" + "\n" + kGood;

TEST(BlockParserTest, EveryLineGetsLineParsersVerdictForEveryBlockSize) {
  expect_same(kMixed, all_sizes(kMixed.size() + 1));
}

TEST(BlockParserTest, LinesAtTheFieldsPointersGoThroughTheGeneralWalk) {
  const std::string text = R"({"a":{"id":"web1"},"t":[0,"2023-11-14T22:13:20Z"]})" "\n"
                           R"({"a":{"id":"web1"},"a":{"x":1},"t":[0,"2023-11-14T22:13:20Z"]})" "\n"
                           R"({"a":{"id":"web1"},"t":["2023-11-14T22:13:20Z"]})" "\n"
                           R"({"a":{"id":"web1","x":[1,2,{"y":"z"}]},"t":[0,"2023-11-14T22:13:20Z"]})" "\n"
                           R"({"a":"web1","t":[0,"2023-11-14T22:13:20Z"]})" "\n" + kMixed;
  expect_same(text, all_sizes(text.size() + 1), rules_of("/a/id", "/t/1"));
}

TEST(BlockParserTest, FieldsNamedByTheEmptyKeyAreFoundBesideOthers) {
  // A field may be the empty key (--time-field ""). With other fields asked
  // for, a key is matched by its shape (length and first byte) first: an
  // empty key's must be its name's, or its lines are rejected as missing
  // the time or counted without the key while LineParser finds them.
  const std::string text = R"({"app_id":"web1","":"2023-11-14T22:13:20Z","status":200,"x":"1"})" "\n"
                           R"({"":"2023-11-14T22:13:21Z","app_id":"web2","x":"","status":404})" "\n"
                           R"({"app_id":"web3","x":"2023-11-14T22:13:22Z","status":500,"":"a"})" "\n";
  for (const auto& [time_field, by] : {std::pair<std::string, std::string>{"", "status"}, {"x", ""}, {"", "x"}}) {
    logagg::Options options;
    options.time_field = time_field;
    options.by = {logagg::KeyField{by}};
    const LineRules rules = Query(options).rules();
    expect_same(text, all_sizes(text.size() + 1), rules);
    logagg::BlockParser parser(rules, size_t{1} << 20, 64);
    const std::string padded = text + std::string(logagg::kLinePadding, ' ');
    size_t counted = 0;
    parser.classify_lines(std::string_view(padded.data(), text.size()), padded.size(),
                          [&](const LineVerdict& v) { counted += v.status == LineStatus::kCounted; });
    EXPECT_EQ(counted, time_field.empty() ? 2u : 1u) << "--time-field '" << time_field << "' --by '" << by << "'";
  }
}

TEST(BlockParserTest, NothingTheWalkRecordedForALineShowsThroughInTheNext) {
  // The walk forgets each field's record before every line: a time read as
  // a number (its second kept) followed by one written as a string, a key
  // that was a scalar followed by a string or by nothing, must each be read
  // as the line has them, not as the line before had them.
  const std::string text = R"({"app_id":"a","t":1700000000,"k":true})" "\n"
                           R"({"app_id":"a","t":"2023-11-14T22:13:21Z","k":"x1"})" "\n"
                           R"({"app_id":"a","t":1700000002.5,"k":7})" "\n"
                           R"({"app_id":"a","t":"1700000003","k":"true"})" "\n"
                           R"({"app_id":"a","t":"2023-11-14T22:13:24+01:00"})" "\n"
                           R"({"app_id":"a","t":1700000005000,"k":null})" "\n"
                           R"({"app_id":"a","t":"2023-11-14T22:13:26Z","k":"xyz"})" "\n";
  for (const char* where : {"k~x", "k!~x", "k==true", "exists k"}) {
    logagg::Options options;
    options.time_field = "t";
    options.time_format = "auto";
    options.where = {where};
    options.by = {logagg::KeyField{"k"}};
    expect_same(text, all_sizes(text.size() + 1), Query(options).rules());
  }
}

TEST(BlockParserTest, ANumberTheWalkReadsHasTheValueItsTextHas) {
  // The walk keeps the digits it counted in a field's number, before and
  // after a '.', when there are at most 7 of each and no exponent
  // (FieldSeen::short_number), and measures and filters read them. Numbers
  // at and past those bounds, signed, with leading zeros and exponents, and
  // tokens that are no number, in a top-level field (the walk of the line's
  // object) and a nested one (the walk of a container): each measured value
  // must be what read_measure reads from the value's text alone, for one
  // measured field and for two beside a key (the general rules), and each
  // filter's verdict LineParser's.
  std::vector<std::string> tokens = {"0",        "-0",        "0.0",      "-0.5",      "7",        "-7",
                                     "1234567",  "12345678",  "0.1234567", "0.12345678", "-1234567.7654321",
                                     "1234567.12345678", "12345678.1", "99999999999999999999", "00", "01", "-01",
                                     "1e3",      "-1.5E-2",   "true",     "null",      "\"12\"",  "1.",
                                     "-",        ".5"};
  std::mt19937_64 rng(43);
  const auto digits = [&](size_t n) {
    std::string d;
    for (size_t i = 0; i < n; ++i) d += static_cast<char>('0' + rng() % 10);
    return d;
  };
  for (int i = 0; i < 500; ++i) {
    std::string t = rng() % 3 == 0 ? "-" : "";
    t += digits(1 + rng() % 9);
    if (rng() % 2 == 0) t += "." + digits(1 + rng() % 9);
    if (rng() % 10 == 0) t += "e" + digits(1);
    tokens.push_back(t);
  }
  std::string text;
  for (const std::string& token : tokens) {
    text += R"({"app_id":"a","timestamp":"2023-11-14T22:13:20Z","n":)" + token + R"(,"k":"x","o":{"m":)" + token +
            "}}\n";
  }
  for (const char* where : {"n>=100", "n<0", "n==1234567", "/o/m>=100"}) {
    logagg::Options options;
    options.where = {where};
    options.sum = {"n"};
    expect_same(text, {64, 4096}, Query(options).rules());
  }
  // What read_measure reads from the token's value alone (a string's text is read as a number too).
  const auto expected = [](const std::string& token) {
    const bool quoted = token.front() == '"';
    return logagg::read_measure(std::string_view(token).substr(quoted, token.size() - 2 * quoted));
  };
  std::vector<logagg::Options> questions(3);
  questions[0].sum = {"n"};
  questions[0].quantiles = {"n"};
  questions[1].sum = {"/o/m"};
  questions[2].by = {logagg::KeyField{"k"}};
  questions[2].sum = {"n"};
  questions[2].quantiles = {"/o/m"};
  for (const logagg::Options& options : questions) {
    const Query query(options);
    const size_t fields = query.measures().fields.size();
    logagg::BlockParser parser(query.rules(), size_t{1} << 20, 4096);
    const std::string padded = text + std::string(logagg::kLinePadding, ' ');
    size_t line = 0, counted = 0;
    parser.classify_lines(std::string_view(padded.data(), text.size()), padded.size(), [&](const LineVerdict& v) {
      const std::string& token = tokens[line++];
      if (v.status != LineStatus::kCounted) return;
      ++counted;
      const std::optional<logagg::MeasureValue> want = expected(token);
      ASSERT_NE(v.measures, nullptr) << token;
      for (size_t f = 0; f < fields; ++f) {
        const logagg::MeasureSpec::Field& field = query.measures().fields[f];
        ASSERT_EQ((v.measures->usable >> f & 1) != 0, want.has_value()) << field.name << " " << token;
        if (!want) continue;
        const logagg::MeasureValue& got = v.measures->values[f];  // in the forms its measures use
        if (field.keeps_sum()) {
          EXPECT_EQ(got.fixed.units(), want->fixed.units()) << field.name << " " << token;
          EXPECT_EQ(got.digits, want->digits) << field.name << " " << token;
        }
        if (field.quantiled) {
          EXPECT_EQ(got.real, want->real) << field.name << " " << token;
          EXPECT_EQ(got.written, want->written) << field.name << " " << token;
        }
      }
    });
    EXPECT_EQ(line, tokens.size());
    EXPECT_GT(counted, 450u);
  }
}

// A LF mask sets bit i exactly where byte i is a LF: at every position, in
// both 32-byte halves, beside bytes that differ from '\n' by one bit (0x0B,
// 0x8A, 0x0E, 0x2A) and among random bytes.
void expect_lf_masks(uint64_t (*lf_mask)(const char*) noexcept) {
  std::mt19937_64 rng(11);
  const char near[] = {'\x0B', '\x8A', '\x0E', '\x2A', '\x0A'};
  for (int round = 0; round < 2000; ++round) {
    char bytes[64];
    for (char& c : bytes) {
      c = round % 2 == 0 ? near[rng() % 5] : static_cast<char>(rng());
    }
    if (round < 64) bytes[round] = '\n';  // one LF at each position, once
    uint64_t want = 0;
    for (int i = 0; i < 64; ++i) want |= uint64_t{bytes[i] == '\n'} << i;
    ASSERT_EQ(lf_mask(bytes), want) << round;
  }
}

TEST(BlockParserTest, TheSse2LfMaskSetsTheBitsOfTheLfsAlone) { expect_lf_masks(logagg::lf_mask64); }

// AVX2's, which the block parser uses where the CPU has it.
TEST(BlockParserTest, TheAvx2LfMaskSetsTheBitsOfTheLfsAlone) {
  if (!logagg::cpu_has_avx2()) GTEST_SKIP() << "this CPU has no AVX2";
  expect_lf_masks(logagg::lf_mask64_avx2);
}

TEST(BlockParserTest, AnObjectCannotGoOnIntoTheNextLine) {
  // Each first line starts with '{' and ends with '}', and its walk would
  // read on into the next line's tokens to make one valid object of both.
  const std::string text = R"({"x":{"y":1})" "\n"
                           R"(,"app_id":"web1","timestamp":"2023-11-14T22:13:20Z"})" "\n"
                           R"({"x":[{}])" "\n"
                           R"(],"app_id":"web1","timestamp":"2023-11-14T22:13:20Z"})" "\n"
                           R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z"} {})" "\n" + kGood + "\n";
  const std::vector<Seen> got = blocks(text, 1 << 15, true, rules_of());
  ASSERT_EQ(got.size(), 6u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(got[i].first.reason, Reason::kInvalidJson) << i;
  EXPECT_EQ(got[5].first.status, LineStatus::kCounted);
  expect_same(text, {1, 7, 64, 1 << 15});
  expect_same(text, {1, 7, 64, 1 << 15}, rules_of("/app_id", "/timestamp/0"));
}

TEST(BlockParserTest, ALogOfNothingButBrokenLinesIsAllRejected) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    switch (i % 3) {
      case 0:
        text += R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","ua":"cut off)";
        break;
      case 1:
        text += "{\"app_id\":\"web1\",\"timestamp\":\"2023-11-14T22:13:20Z\",\"ua\":\"\x1F\"}";
        break;
      default:
        text += "{\"app_id\":\"\xFF\",\"timestamp\":\"2023-11-14T22:13:20Z\"}";
        break;
    }
    text += '\n';
  }
  const std::vector<Seen> got = blocks(text, BlockParser::kDefaultBlockBytes, false, rules_of());
  ASSERT_EQ(got.size(), 3000u);
  for (const Seen& s : got) ASSERT_EQ(s.first.reason, Reason::kInvalidJson);
}

TEST(BlockParserTest, OneBrokenLineAmongManyCostsNoOtherLineItsVerdict) {
  for (const std::string broken : {std::string(R"({"app_id":"web1","ua":"cut off)"), std::string("{\"x\":\"\x07\"}"),
                                   std::string("{\"x\":\"\xE2\x82\"}")}) {
    for (const size_t at : {0, 1, 517, 999}) {
      std::string text;
      for (int i = 0; i < 1000; ++i) text += (i == static_cast<int>(at) ? broken : kGood) + "\n";
      const std::vector<Seen> got = blocks(text, 4096, false, rules_of());
      ASSERT_EQ(got.size(), 1000u);
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].first.status, i == at ? LineStatus::kRejected : LineStatus::kCounted) << at << " " << i;
      }
      EXPECT_EQ(got[at].first.reason, Reason::kInvalidJson);
    }
  }
}

// A string that ends in a backslash at a line's end: simdjson's fallback
// kernel lets it reach into the next line (block_parser.cc, block_path), the
// SIMD kernels do not. Whatever the kernel (the `fallback` test runs this
// suite with SIMDJSON_FORCE_IMPLEMENTATION=fallback), every line gets
// LineParser's verdict, and no walk reads past its line.
TEST(BlockParserTest, AStringEndingInABackslashDoesNotReachIntoTheNextLine) {
  const std::string next_counted = "{\"x\":\"\\\n" + kGood + "\n";
  const std::string next_broken = "{\"x\":\"\\\n{\"  " + kGood + "\n";
  const std::string runaway = std::string("\"\\\n{\"}\n\"k\":[[\n") + std::string(80, '[') + "\n";
  for (const std::string& text : {next_counted, next_broken, runaway}) {
    expect_same(text, all_sizes(text.size() + 1));
    expect_same(text, all_sizes(text.size() + 1), rules_of("/a/b", "/t/0"));
  }
  const std::string long_runaway = std::string("\"\\\n{\"}\n\"k\":[[\n") + std::string(40000, '[') + "\n";
  expect_same(long_runaway, {14, BlockParser::kDefaultBlockBytes});
}

TEST(BlockParserTest, LinesLongerThanABlockOrTheLimit) {
  const std::string long_good =
      R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","pad":")" + std::string(5000, 'x') + R"("})";
  const std::string text = kGood + "\n" + long_good + "\n" + kGood2 + "\n" + long_good;
  expect_same(text, {1, 100, 4096, 8192});
  expect_same(text, {1, 100, 4096, 8192}, rules_of(), kGood.size());  // the long ones too long
  const std::vector<Seen> got = blocks(text, 100, false, rules_of(), 1000);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[1].first.reason, Reason::kLineTooLong);
}

TEST(BlockParserTest, EscapedAppIdsAreUnescapedAndKeptUntilTheNextLine) {
  const std::string text = R"({"app_id":"w\u0065b1","timestamp":"2023-11-14T22:13:20Z","x":"\n"})" "\n"
                           R"({"timestamp":"2023-11-14T22:13:20Z","app_id":"a\u0070i2","x":"\t"})" "\n";
  const std::vector<Seen> got = blocks(text, 1 << 15, true, rules_of());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].second, "web1");
  EXPECT_EQ(got[1].second, "api2");
}

}  // namespace
