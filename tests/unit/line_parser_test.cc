// Tests of LineParser, one per clause of the line rules (see
// logagg/line_parser.h). Each pins the verdict, including the exact reason, for
// a handful of lines, and checks it three ways: through the parser's copy path
// (readable == line.size(), in an exactly-sized allocation), through its
// in-place path (hostile readable bytes after the line), and through the
// reference oracle the differential tests rely on.
#include "parse/line_parser.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "reference/reference.h"

namespace {

using namespace std::literals;
using logagg::LineParser;
using logagg::LineVerdict;
using logagg::Reason;

constexpr int64_t kSecond = 1623760496;  // 2021-06-15T12:34:56Z
constexpr size_t kNoLimit = size_t{1} << 30;

// `{"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"` + `members` + `}`.
std::string log_line(std::string_view members = "") {
  return R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z")" + std::string(members) + "}";
}

// A log line with one more field, "x", holding `value`.
std::string with_x(std::string_view value) { return log_line(R"(,"x":)" + std::string(value)); }

// A log line whose "x" field is the string with raw `contents` between quotes.
std::string with_x_string(std::string_view contents) {
  return with_x("\"" + std::string(contents) + "\"");
}

// `depth` nested arrays, or objects {"a":...}, around `inner`.
std::string nested(size_t depth, bool objects, std::string_view inner = "") {
  std::string out;
  for (size_t i = 0; i < depth; ++i) out += objects ? R"({"a":)" : "[";
  out += inner.empty() ? (objects ? "{}" : "[]") : inner;
  for (size_t i = 0; i < depth; ++i) out += objects ? '}' : ']';
  return out;
}

// Bytes that would complete or extend a truncated line if read as part of it.
std::string hostile_tail() {
  std::string tail;
  while (tail.size() < 4 * logagg::kLinePadding)
    tail += R"("}"]}"""{{{)"
            "\\u0000\x80 ";
  return tail;
}

class line_parser : public testing::Test {
 protected:
  void configure(std::string app_field, std::string time_field, size_t max_line_bytes) {
    app_field_ = std::move(app_field);
    time_field_ = std::move(time_field);
    max_line_bytes_ = max_line_bytes;
    parser_ = LineParser(app_field_, time_field_, max_line_bytes_);
  }

  // Checks that `line` gets `expected` from both parser paths and the reference.
  void expect(std::string_view line, const LineVerdict& expected) {
    SCOPED_TRACE(reference::quoted(line.size() > 300 ? line.substr(0, 300) : line));
    const auto exact = std::make_unique<char[]>(line.size());
    line.copy(exact.get(), line.size());
    const LineVerdict copied = parser_.classify({exact.get(), line.size()}, line.size());

    const std::string padded = std::string(line) + hostile_tail();
    const LineVerdict in_place = parser_.classify({padded.data(), line.size()}, padded.size());

    const LineVerdict oracle = reference::classify(line, app_field_, time_field_, max_line_bytes_);

    const std::string want = reference::describe(expected);
    EXPECT_TRUE(reference::same_verdict(copied, expected))
        << "copy path: " << reference::describe(copied) << ", expected " << want;
    EXPECT_TRUE(reference::same_verdict(in_place, expected))
        << "in-place path: " << reference::describe(in_place) << ", expected " << want;
    EXPECT_TRUE(reference::same_verdict(oracle, expected))
        << "reference: " << reference::describe(oracle) << ", expected " << want;
  }

  void expect_all(std::initializer_list<std::string> lines, const LineVerdict& expected) {
    for (const std::string& line : lines) expect(line, expected);
  }

  void expect_rejected(std::initializer_list<std::string> lines, Reason reason) {
    expect_all(lines, LineVerdict::rejected(reason));
  }

  void expect_counted(std::initializer_list<std::string> lines, int64_t second = kSecond) {
    expect_all(lines, LineVerdict::counted(second));
  }

  std::string app_field_ = "app_id";
  std::string time_field_ = "timestamp";
  size_t max_line_bytes_ = kNoLimit;
  LineParser parser_{app_field_, time_field_, max_line_bytes_};
};

TEST_F(line_parser, CountsAnAccessLogLine) {
  expect_counted({log_line(), R"({"timestamp":"2021-06-15T12:34:56Z","app_id":"web1"})"});
  expect(R"({"app_id":"Z9","timestamp":"1969-12-31T23:59:59.9Z"})", LineVerdict::counted(-1));
  expect(R"({"app_id":"Z9","timestamp":"2022-01-01T01:59:60+02:00"})",
         LineVerdict::counted(1640995199));
}

TEST_F(line_parser, WhitespaceOnlyLinesAreBlank) {
  expect_all({"", " ", "\t", "\r", " \t\r\r \t", std::string(1000, ' ')}, LineVerdict::blank());
  // Other invisible bytes are not JSON whitespace.
  expect_rejected({"\f", "\v", "\x00"s, " \x00 "s, "\xC2\xA0"}, Reason::kInvalidJson);
}

TEST_F(line_parser, ByteOrderMarkInsideALineIsInvalid) {
  expect_rejected(
      {"\xEF\xBB\xBF" + log_line(), log_line() + "\xEF\xBB\xBF", "\xEF\xBB\xBF", " \xEF\xBB\xBF "},
      Reason::kInvalidJson);
  // U+FEFF inside a string is an ordinary character.
  expect_counted({with_x_string("\xEF\xBB\xBF"), with_x_string("\\ufeff")});
}

TEST_F(line_parser, WhitespaceAroundAndBetweenTokensIsAllowed) {
  expect_counted({
      " \t\r" + log_line() + " \t\r",
      "\r\r" + log_line() + "\r",
      " {\t\"app_id\" :\r\"web1\" ,  \"timestamp\"\t:\t\"2021-06-15T12:34:56Z\"\r} ",
      with_x(" [ 1 , { \"a\" : null } , \"b\" ] "),
  });
}

TEST_F(line_parser, FieldOrderDoesNotMatter) {
  expect_counted({
      R"({"timestamp":"2021-06-15T12:34:56Z","app_id":"web1"})",
      R"({"status":200,"timestamp":"2021-06-15T12:34:56Z","path":"/","app_id":"web1","ms":1.5})",
      R"({"a":{},"b":[],"app_id":"web1","c":{"app":"x"},"timestamp":"2021-06-15T12:34:56Z"})",
  });
}

TEST_F(line_parser, KeysAreComparedAfterUnescaping) {
  expect_counted({
      R"({"app\u005fid":"web1","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"\u0061\u0070\u0070_id":"web1","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"app_id":"web1","time\u0073tamp":"2021-06-15T12:34:56Z"})",
  });
  expect_rejected({R"({"app\u005fid":"a","app_id":"b","timestamp":"2021-06-15T12:34:56Z"})"},
                  Reason::kDuplicateApp);
  // Near misses are other keys.
  expect_rejected(
      {
          R"({"APP_ID":"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id ":"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id\u0000":"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app\\u005fid":"web1","timestamp":"2021-06-15T12:34:56Z"})",
      },
      Reason::kMissingApp);
}

TEST_F(line_parser, ValuesAreComparedAfterUnescaping) {
  expect_counted({
      R"({"app_id":"\u0045sc","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"app_id":"web\u0031","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56\u005a"})",
      R"({"app_id":"web1","timestamp":"2021\u002d06-15T12:34:56Z"})",
      R"({"app_id":"web1","timestamp":"2021-06-15\u002012:34:56Z"})",
  });
  expect_rejected({R"({"app_id":"we\/b","timestamp":"2021-06-15T12:34:56Z"})"}, Reason::kBadApp);
  expect_rejected({R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56\u0000Z"})"},
                  Reason::kBadTime);
}

TEST_F(line_parser, FieldsMustAppearExactlyOnce) {
  expect_rejected(
      {
          R"({"app_id":"web1","app_id":"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z","app_id":7})",
          R"({"app_id":[],"app_id":"-"})",
      },
      Reason::kDuplicateApp);
  expect_rejected(
      {log_line(R"(,"timestamp":"2021-06-15T12:34:56Z")"), log_line(R"(,"timestamp":null)")},
      Reason::kDuplicateTime);
  // Other keys may repeat.
  expect_counted({log_line(R"(,"x":1,"x":2)")});
}

TEST_F(line_parser, FieldsMustBeAtTheTopLevel) {
  expect_rejected(
      {
          "{}",
          R"({"timestamp":"2021-06-15T12:34:56Z"})",
          R"({"meta":{"app_id":"web1"},"timestamp":"2021-06-15T12:34:56Z"})",
          R"({"x":"app_id","timestamp":"2021-06-15T12:34:56Z"})",
      },
      Reason::kMissingApp);
  expect_rejected(
      {
          R"({"app_id":"web1"})",
          R"({"app_id":"web1","meta":{"timestamp":"2021-06-15T12:34:56Z"}})",
          R"({"app_id":"web1","x":[{"timestamp":"2021-06-15T12:34:56Z"}]})",
          R"({"app_id":"web1","x":"timestamp"})",
      },
      Reason::kMissingTime);
}

TEST_F(line_parser, FieldsMustBeStrings) {
  for (const char* value : {"[]", R"(["web1"])", "1", "null", "true", "false", R"({"a":"web1"})"}) {
    expect_rejected(
        {R"({"app_id":)" + std::string(value) + R"(,"timestamp":"2021-06-15T12:34:56Z"})"},
        Reason::kAppNotString);
    expect_rejected({R"({"app_id":"web1","timestamp":)" + std::string(value) + "}"},
                    Reason::kTimeNotString);
  }
  expect_rejected({R"({"app_id":"web1","timestamp":1623760496})"}, Reason::kTimeNotString);
}

TEST_F(line_parser, AppIdsAreNonEmptyAsciiAlphanumerics) {
  expect_counted({
      R"({"app_id":"A","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"app_id":"0","timestamp":"2021-06-15T12:34:56Z"})",
      R"({"app_id":"azAZ09","timestamp":"2021-06-15T12:34:56Z"})",
  });
  for (const char* id : {"", "Caf\\u00e9", "Caf\xC3\xA9", "web-1", "web 1", "web_1", "web.1",
                         " web1", "web1 ", "\\u0000", "web\\n", "\\u20ac"}) {
    expect_rejected(
        {R"({"app_id":")" + std::string(id) + R"(","timestamp":"2021-06-15T12:34:56Z"})"},
        Reason::kBadApp);
  }
}

TEST_F(line_parser, TimestampsAreRfc3339) {
  for (const char* ts : {"", "2021-06-15", "2021-06-15T12:34:56", "2021-02-29T00:00:00Z",
                         " 2021-06-15T12:34:56Z", "2021-06-15T12:34:56+0200", "now"}) {
    expect_rejected({R"({"app_id":"web1","timestamp":")" + std::string(ts) + "\"}"},
                    Reason::kBadTime);
  }
}

TEST_F(line_parser, ReasonsFollowThePrecedenceOrder) {
  expect_rejected({R"({"x":01})", R"({"app_id":1,"app_id":1,"x":-})"}, Reason::kInvalidJson);
  expect_rejected({R"([{"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"}])"},
                  Reason::kNotObject);
  expect_rejected({R"({"timestamp":"bad"})", R"({"timestamp":1,"timestamp":2})"},
                  Reason::kMissingApp);
  expect_rejected({R"({"app_id":1,"app_id":"web1","timestamp":"bad"})"}, Reason::kDuplicateApp);
  expect_rejected({R"({"app_id":1,"timestamp":"bad"})"}, Reason::kAppNotString);
  expect_rejected({R"({"app_id":"-","timestamp":1,"timestamp":1})"}, Reason::kBadApp);
  expect_rejected({R"({"app_id":"web1","timestamp":1,"timestamp":"2021-06-15T12:34:56Z"})"},
                  Reason::kDuplicateTime);
}

TEST_F(line_parser, ALineHoldsExactlyOneValue) {
  expect_rejected({log_line() + log_line(), log_line() + " " + log_line(), log_line() + ",",
                   log_line() + "x", log_line() + "0", log_line() + "\"", log_line() + "}",
                   log_line() + "\x00"s, "1 " + log_line()},
                  Reason::kInvalidJson);
}

TEST_F(line_parser, StructureErrorsAreInvalid) {
  expect_rejected(
      {
          log_line(","),  // trailing comma in the object
          R"({,"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id":"web1",,"timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id" "web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id":"web1" "timestamp":"2021-06-15T12:34:56Z"})",
          R"({"app_id"::"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({app_id:"web1","timestamp":"2021-06-15T12:34:56Z"})",
          R"({'app_id':'web1','timestamp':'2021-06-15T12:34:56Z'})",
          R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z","x"})",
          R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z","x":})",
          R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z",1:2})",
          with_x("[1,]"),
          with_x("[,1]"),
          with_x("[1 2]"),
          with_x(R"({"a":1,})"),
          with_x("[}"),
          with_x("{]"),
          with_x("(1)"),
      },
      Reason::kInvalidJson);
}

TEST_F(line_parser, TruncatedLinesAreInvalid) {
  const std::string full = log_line();
  expect_rejected({"{", "}", "]", "\"", R"({"app_id)", R"({"app_id":"web1")",
                   R"({"app_id":"web1",)", full.substr(0, full.size() - 1),
                   full.substr(0, full.size() - 2), with_x("[1,2"), with_x(R"({"a":[)")},
                  Reason::kInvalidJson);
}

TEST_F(line_parser, NumbersOfAnySizeAreValid) {
  const std::string numbers[] = {"0",
                                 "-0",
                                 "0.0",
                                 "-0.0e-0",
                                 "1e+0",
                                 "123456789012345678901234567890",
                                 "1e999",
                                 "-1e999",
                                 "-1.5e+300",
                                 "1E-999",
                                 "4.9e-324",
                                 "2.5e-400",
                                 "1.7976931348623157e309",
                                 "18446744073709551616",
                                 "-9223372036854775809",
                                 "1e00000000000000000000000000001",
                                 "1" + std::string(500, '0'),
                                 "0." + std::string(500, '7')};
  for (const std::string& number : numbers) {
    expect_counted({with_x(number), with_x("[" + number + "]")});
  }
}

TEST_F(line_parser, MalformedNumbersAreInvalid) {
  for (const char* number :
       {".5",    "01",   "1.",   "-",   "1e",  "+1",  "NaN", "Infinity", "-Infinity",
        "0x10",  "1.e5", "-01",  "1e+", "1e-", "00",  "--1", "1.5.5",    "1e5.5",
        "1_000", "- 1",  "1ee5", "-.5", "1 2", "nan", "inf", "0e",       "1E+-2"}) {
    expect_rejected({with_x(number), with_x("[" + std::string(number) + "]")},
                    Reason::kInvalidJson);
  }
}

TEST_F(line_parser, LiteralsAreExact) {
  expect_counted({with_x("true"), with_x("false"), with_x("null"), with_x("[true,false,null]")});
  for (const char* literal :
       {"True", "TRUE", "nul", "truee", "fals", "nulll", "undefined", "t", "true1", "nil"}) {
    expect_rejected({with_x(literal)}, Reason::kInvalidJson);
  }
}

TEST_F(line_parser, ValidUtf8IsAccepted) {
  expect_counted({
      with_x_string("\xE2\x82\xAC"),      // €
      with_x_string("\xF0\x9F\x98\x80"),  // U+1F600
      with_x_string("\xF4\x8F\xBF\xBF"),  // U+10FFFF
      with_x_string("\xEF\xBF\xBF"),      // U+FFFF
      with_x_string("\xC2\x80\xDF\xBF"),  // U+0080, U+07FF
      with_x_string("\x7F"),              // DEL is not a control character in JSON
      log_line(",\"\xE2\x82\xAC\":\"\xE2\x82\xAC\""),
  });
}

TEST_F(line_parser, InvalidUtf8IsRejected) {
  for (const char* bytes : {
           "\x80",              // lone continuation byte
           "\xBF",              //
           "\xC0\xAF",          // overlong '/'
           "\xC1\xBF",          // overlong
           "\xE0\x80\xAF",      // overlong
           "\xF0\x80\x80\xAF",  // overlong
           "\xED\xA0\x80",      // UTF-16 surrogate D800 encoded directly
           "\xED\xBF\xBF",      // surrogate DFFF
           "\xF4\x90\x80\x80",  // above U+10FFFF
           "\xF5\x80\x80\x80",  //
           "\xFE",              //
           "\xFF",              //
           "\xE2\x82",          // truncated sequence
           "\xC3",              //
           "\xC3 ",             //
           "\xF0\x9F\x98",      //
       }) {
    expect_rejected(
        {with_x_string(bytes), log_line(",\"" + std::string(bytes) + "\":1"),
         R"({"app_id":")" + std::string(bytes) + R"(","timestamp":"2021-06-15T12:34:56Z"})",
         log_line() + " " + bytes},
        Reason::kInvalidJson);
  }
}

TEST_F(line_parser, ControlCharactersInStringsMustBeEscaped) {
  for (const std::string& raw : {"\x01"s, "\x1F"s, "\t"s, "\r"s, "\x00"s, "a\x08"s}) {
    expect_rejected({with_x_string(raw), log_line(",\"" + raw + "\":1")}, Reason::kInvalidJson);
  }
  expect_counted({with_x_string("\\u0001\\u001F\\t\\r\\u0000\\b")});
}

TEST_F(line_parser, EscapesAreChecked) {
  expect_counted({
      with_x_string(R"(\" \\ \/ \b \f \n \r \t)"),
      with_x_string(R"(\u0000\uFFFF\uffff\u00e9\u20AC)"),
      with_x_string(R"(\ud83d\ude00\uD83D\uDE00\udbff\udfff)"),
  });
  for (const char* escape :
       {R"(\x41)", R"(\u12)", R"(\u12G4)", R"(\U0041)", R"(\')", R"(\a)", R"(\0)", R"(\ )", R"(\)",
        R"(\u)", R"(\ud800)", R"(\udbff)", R"(\udc00)", R"(\ud800\u0041)", R"(\udc00\ud800)",
        R"(\ud800\ud800)", R"(\ud800\)", R"(\ud800x)", R"(\ud800\n)"}) {
    expect_rejected({with_x_string(escape), log_line(",\"" + std::string(escape) + "\":1")},
                    Reason::kInvalidJson);
  }
}

TEST_F(line_parser, TopLevelValuesOtherThanObjectsAreNotObjects) {
  expect_rejected({"[]", "[1]", R"("str")", "null", "1", "-5e3", "true", "false", " 1 ",
                   "[" + log_line() + "]", R"("{\"app_id\":\"web1\"}")"},
                  Reason::kNotObject);
}

TEST_F(line_parser, DeepNestingIsValid) {
  for (bool objects : {false, true}) {
    expect_counted({with_x(nested(5000, objects))});
    expect_rejected({nested(5000, objects)}, objects ? Reason::kMissingApp : Reason::kNotObject);
    std::string unbalanced = with_x(nested(5000, objects));
    unbalanced.erase(unbalanced.size() - 2, 1);  // one closing bracket short
    expect_rejected({unbalanced, with_x(nested(5000, objects) + (objects ? "}" : "]"))},
                    Reason::kInvalidJson);
  }
  expect_counted({with_x(nested(2000, false, nested(2000, true, "-1e999")))});
}

TEST_F(line_parser, VeryDeepNestingIsValid) {
  expect_counted({with_x(nested(200000, false)), with_x(nested(100000, true))});
}

TEST_F(line_parser, LongLinesAreRejectedWithoutParsing) {
  const std::string line = log_line();  // 49 bytes
  configure("app_id", "timestamp", 64);
  const std::string exactly = std::string(64 - line.size(), ' ') + line;
  expect_counted({exactly});
  expect_rejected({" " + exactly, exactly + "x", std::string(65, '{'), std::string(65, '\x80')},
                  Reason::kLineTooLong);
  // Blank lines are blank at any length.
  expect_all({std::string(65, ' '), std::string(1000, '\r')}, LineVerdict::blank());
  configure("app_id", "timestamp", 0);
  expect_all({"", " "}, LineVerdict::blank());
  expect_rejected({"{}", "x"}, Reason::kLineTooLong);
}

TEST_F(line_parser, LongLinesWithinTheLimitAreParsed) {
  expect_counted({with_x_string(std::string(1 << 20, 'a')), with_x(std::string(100000, '1'))});
  // The scratch space grown for the long line is reused for short ones.
  expect_counted({log_line()});
  expect_rejected({log_line().substr(1)}, Reason::kInvalidJson);
}

TEST_F(line_parser, FieldNamesAreConfigurable) {
  configure("service", "t\xC3\xA9", kNoLimit);
  expect_counted({
      R"({"service":"api","t\u00e9":"2021-06-15T12:34:56Z"})",
      "{\"service\":\"api\",\"t\xC3\xA9\":\"2021-06-15T12:34:56Z\"}",
  });
  expect_rejected({log_line()}, Reason::kMissingApp);
  expect_rejected({R"({"service":"api","timestamp":"2021-06-15T12:34:56Z"})"},
                  Reason::kMissingTime);
}

// Field paths (parse/field_path.h): the verdicts of nested fields, pinned for
// the parser and, above all, for the reference the differential tests trust.
TEST_F(line_parser, PointersWalkNestedObjectsAndArrays) {
  const std::string ts = R"("2021-06-15T12:34:56Z")";
  configure("/request/host", "/ts", kNoLimit);
  expect_counted({
      R"({"request":{"host":"web1"},"ts":)" + ts + "}",
      R"({"ts":)" + ts + R"(,"request":{"uri":"/","host":"web1"},"x":{"request":{"host":1}}})",
      R"({"re\u0071uest":{"\u0068ost":"web1"},"\u0074s":)" + ts + "}",
  });
  expect_rejected({R"({"request":{"uri":"/"},"ts":)" + ts + "}", R"({"request":"web1","ts":)" + ts + "}",
                   R"({"request":[{"host":"web1"}],"ts":)" + ts + "}", R"({"host":"web1","ts":)" + ts + "}",
                   R"({"request/host":"web1","ts":)" + ts + "}", R"({"request":{},"ts":1})"},
                  Reason::kMissingApp);
  expect_rejected({R"({"request":{"host":"web1"},"request":{},"ts":)" + ts + "}",
                   R"({"request":1,"request":{"host":"web1"},"ts":)" + ts + "}",
                   R"({"request":{"host":"web1","host":"web1"},"ts":)" + ts + "}",
                   R"({"request":{"host":"a"},"re\u0071uest":{"host":"b"},"ts":)" + ts + "}",
                   R"({"request":1,"request":2,"ts":)" + ts + "}"},
                  Reason::kDuplicateApp);
  expect_rejected({R"({"request":{"host":["web1"]},"ts":)" + ts + "}"}, Reason::kAppNotString);
  expect_rejected({R"({"request":{"host":"web1"}})", R"({"request":{"host":"web1"},"x":{"ts":)" + ts + "}}"},
                  Reason::kMissingTime);
  expect_rejected({R"({"request":{"host":"web1"},"ts":)" + ts + R"(,"ts":1})"}, Reason::kDuplicateTime);
  expect_rejected({R"({"request":{"host":"web1"},"ts":1})"}, Reason::kTimeNotString);
  expect_rejected({R"({"request":{"host":"web1","x":01},"ts":)" + ts + "}"}, Reason::kInvalidJson);

  configure("/a~1b/~0x", "/a~1b/t~01", kNoLimit);  // keys "a/b", "~x" and "t~1"
  expect_counted({R"({"a/b":{"~x":"web1","t~1":)" + ts + "}}"});
  expect_rejected({R"({"a~1b":{"~0x":"web1","t~1":)" + ts + "}}"}, Reason::kMissingApp);
  expect_rejected({R"({"a/b":{"~x":"web1","t/":)" + ts + "}}"}, Reason::kMissingTime);
  expect_rejected({R"({"a/b":{"~x":"web1","t~1":)" + ts + R"(},"a/b":{}})"}, Reason::kDuplicateApp);

  configure("/logs/1/app", "/logs/0", kNoLimit);
  expect_counted({"{\"logs\":[" + ts + R"(,{"app":"web1"},{"app":"x"}]})",
                  R"({"logs":{"0":)" + ts + R"(,"1":{"app":"web1"}}})"});
  expect_rejected({"{\"logs\":[" + ts + "]}", "{\"logs\":[" + ts + R"(,"web1"]})",
                   R"({"logs":{"0":)" + ts + R"(,"01":{"app":"web1"}}})"},
                  Reason::kMissingApp);
  configure("/logs/01", "t", kNoLimit);  // "01" is no index: a key only
  expect_counted({R"({"logs":{"01":"web1"},"t":)" + ts + "}"});
  expect_rejected({R"({"logs":["x","web1"],"t":)" + ts + "}"}, Reason::kMissingApp);

  configure("~1a.b", "/", kNoLimit);  // a plain name as it is; the pointer "/" is the key ""
  expect_counted({R"({"~1a.b":"web1","":)" + ts + "}"});
  expect_rejected({R"({"/a.b":"web1","":)" + ts + "}"}, Reason::kMissingApp);

  // A malformed pointer is refused before any line is read.
  EXPECT_THROW(LineParser("/a~2", "t", kNoLimit), std::invalid_argument);
  EXPECT_THROW(reference::classify("{}", "/a~2", "t", kNoLimit), std::invalid_argument);
  EXPECT_THROW(reference::classify("{}", "a", "/t~", kNoLimit), std::invalid_argument);
}

TEST_F(line_parser, ParserIsMovable) {
  const std::string line = log_line();
  LineParser moved = std::move(parser_);
  EXPECT_TRUE(
      reference::same_verdict(moved.classify(line, line.size()), LineVerdict::counted(kSecond)));
  parser_ = std::move(moved);
  expect_counted({log_line()});
}

}  // namespace
