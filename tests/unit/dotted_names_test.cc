// Tests of dotted field names (parse/dotted_names.h): the nested form a
// plain name with dots has (and the names and fields that have none), and
// the verdicts of lines with the dotted key, the nested path, both (the
// dotted key wins, whatever it holds) or neither, for the app field, the
// time field and both, from LineParser and, the same, from BlockParser at
// several block sizes. JSON Pointers stay literal.
#include "parse/dotted_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logagg/options.h"
#include "parse/line_parser.h"
#include "support/parser_verdicts.h"

namespace logagg {
namespace {

using Steps = std::vector<std::string>;

TEST(NestedForm, SplitsAPlainNameAtEveryDot) {
  EXPECT_EQ(nested_form(parse_field_path("service.name"))->steps, (Steps{"service", "name"}));
  EXPECT_EQ(nested_form(parse_field_path("a.b.c"))->steps, (Steps{"a", "b", "c"}));
  EXPECT_EQ(nested_form(parse_field_path("items.0"))->steps, (Steps{"items", "0"}));
}

TEST(NestedForm, NoneForPointersUndottedNamesAndEmptyParts) {
  for (const char* name : {"/service.name", "/a/b.c", "app_id", "", "a..b", ".a", "a.", "."}) {
    EXPECT_EQ(nested_form(parse_field_path(name)), std::nullopt) << name;
  }
}

LineRules rules_of(const std::string& app, const std::string& time, const std::vector<std::string>& by = {},
                   const std::string& format = "rfc3339") {
  Options o;
  o.app_field = app;
  o.time_field = time;
  o.time_format = format;
  for (const std::string& field : by) o.by.push_back({field});
  return Query(o).rules();
}

TEST(AddNestedForms, OnlyWhereTheNestedPathOverlapsNoOtherField) {
  const LineRules both = rules_of("service.name", "event.created");
  ASSERT_TRUE(both.app_nested && both.time_nested);
  EXPECT_EQ(both.app_nested->steps, (Steps{"service", "name"}));
  EXPECT_EQ(both.time_nested->steps, (Steps{"event", "created"}));
  EXPECT_FALSE(rules_of("a.b", "a").app_nested) << "/a/b inside the time field a";
  EXPECT_EQ(rules_of("a.b", "a").app.steps, Steps{"a.b"}) << "the key itself still counts";
  EXPECT_FALSE(rules_of("a.b", "timestamp", {"a"}).app_nested) << "/a/b inside a --by field";
  EXPECT_FALSE(rules_of("a.b", "timestamp", {"/a/b"}).app_nested) << "the same path as a --by field";
  EXPECT_TRUE(rules_of("a.b", "timestamp", {"a.b"}).app_nested) << "the same field as the app: one target";
  const LineRules nested_apart = rules_of("a.b", "a.b.c");
  EXPECT_FALSE(nested_apart.app_nested) << "/a/b around /a/b/c";
  EXPECT_TRUE(nested_apart.time_nested) << "/a/b/c is apart from the key a.b";
  EXPECT_FALSE(rules_of("/service/name", "timestamp").app_nested);
  Options none;
  none.app_field = "none";
  none.time_field = "event.created";
  EXPECT_TRUE(Query(none).rules().time_nested) << "--app-field none";
}

// One line, its expected verdict (a reason key, or the app id or tuple of a
// counted line), under the given rules; checked with both parsers.
struct Case {
  std::string line;
  std::string want;  // "=ID" counted with app id (or tuple) ID, else the reason key
  int64_t second = 1700000000;
};

void expect_cases(const LineRules& rules, const std::vector<Case>& cases) {
  std::string text;
  for (const Case& c : cases) text += c.line + "\n";
  const std::vector<testing::Seen> seen = testing::line_by_line(text, rules);
  ASSERT_EQ(seen.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const LineVerdict& v = seen[i].first;
    if (cases[i].want.starts_with('=')) {
      EXPECT_EQ(v.status, LineStatus::kCounted) << cases[i].line << ": " << reason_key(v.reason);
      EXPECT_EQ(seen[i].second, cases[i].want.substr(1)) << cases[i].line;
      EXPECT_EQ(v.second, cases[i].second) << cases[i].line;
    } else {
      EXPECT_EQ(v.status, LineStatus::kRejected) << cases[i].line;
      EXPECT_EQ(reason_key(v.reason), cases[i].want) << cases[i].line;
    }
  }
  testing::expect_parsers_agree(text, {64, 200, 4096}, rules);
}

const std::string kTs = R"("timestamp":"2023-11-14T22:13:20Z")";

TEST(DottedNames, TheDottedKeyElseTheNestedPath) {
  expect_cases(rules_of("service.name", "timestamp"),
               {
                   {R"({"service.name":"a1",)" + kTs + "}", "=a1"},
                   {R"({"service":{"name":"b2"},)" + kTs + "}", "=b2"},
                   {"{" + kTs + R"(,"service":{"version":1,"name":"b2"}})", "=b2"},
                   {R"({"service":{"name":"b2"},"service.name":"a1",)" + kTs + "}", "=a1"},
                   {R"({"service.name":"a1","service":{"name":"b2"},)" + kTs + "}", "=a1"},
                   {R"({"x":1,)" + kTs + "}", "missing_app"},
                   {R"({"service":"b2",)" + kTs + "}", "missing_app"},
                   {R"({"service":{"nam":"b2"},)" + kTs + "}", "missing_app"},
                   {R"({"service":["b2"],)" + kTs + "}", "missing_app"},
                   {R"({"service.name.x":"a1",)" + kTs + "}", "missing_app"},
               });
}

TEST(DottedNames, ALineWithTheDottedKeyIsJudgedOnItAlone) {
  expect_cases(rules_of("service.name", "timestamp"),
               {
                   {R"({"service.name":7,"service":{"name":"b2"},)" + kTs + "}", "app_not_string"},
                   {R"({"service.name":"a-1","service":{"name":"b2"},)" + kTs + "}", "bad_app"},
                   {R"({"service.name":"a1","service.name":"a1","service":{"name":"b2"},)" + kTs + "}",
                    "duplicate_app"},
                   {R"({"service.name":"a1","service":{"name":"b2"},"service":{},)" + kTs + "}", "=a1"},
               });
}

TEST(DottedNames, TheNestedPathFollowsThePathRules) {
  expect_cases(rules_of("service.name", "timestamp"),
               {
                   {R"({"service":{"name":"b2","name":"b2"},)" + kTs + "}", "duplicate_app"},
                   {R"({"service":{"name":"b2"},"service":{},)" + kTs + "}", "duplicate_app"},
                   {R"({"service":{"name":null},)" + kTs + "}", "app_not_string"},
                   {R"({"service":{"name":"b-2"},)" + kTs + "}", "bad_app"},
                   {R"({"service":{"name":"b\u0032"},)" + kTs + "}", "=b2"},
                   {R"({"service":{"name":"b2"},"timestamp":"2023-11-14T22:13:2"})", "bad_time"},
                   {R"({"service":{"name":"b2"}})", "missing_time"},
                   {R"({"service":{"name":"b2"},)" + kTs + R"(,"x":tru})", "invalid_json"},
               });
  expect_cases(rules_of("a.b.c", "timestamp"),
               {
                   {R"({"a":{"b":{"c":"x1"}},)" + kTs + "}", "=x1"},
                   {R"({"a.b":{"c":"x1"},)" + kTs + "}", "missing_app"},
                   {R"({"a":{"b.c":"x1"},)" + kTs + "}", "missing_app"},
               });
}

TEST(DottedNames, BothFieldsDottedInEveryCombination) {
  const std::string created = R"("2023-11-14T22:13:21Z")";
  expect_cases(rules_of("service.name", "event.created"),
               {
                   {R"({"service.name":"a1","event.created":)" + created + "}", "=a1", 1700000001},
                   {R"({"service":{"name":"b2"},"event.created":)" + created + "}", "=b2", 1700000001},
                   {R"({"service.name":"a1","event":{"created":)" + created + "}}", "=a1", 1700000001},
                   {R"({"service":{"name":"b2"},"event":{"created":)" + created + "}}", "=b2", 1700000001},
                   {R"({"service":{"name":"b2"},"event":{}})", "missing_time"},
                   {R"({"event":{"created":)" + created + "}}", "missing_app"},
               });
}

TEST(DottedNames, NestedTimeNumbersAndLinesWithEscapes) {
  expect_cases(rules_of("service.name", "event.ts", {}, "unix"),
               {
                   {R"({"service":{"name":"b2"},"event":{"ts":1700000000.75}})", "=b2"},
                   {R"({"service":{"name":"b\u0032"},"event":{"ts":"1700000000"}})", "=b2"},
                   {R"({"service\u002ename":"a1","event.ts":1700000000})", "=a1"},
               });
}

TEST(DottedNames, PointersStayLiteral) {
  expect_cases(rules_of("/service.name", "timestamp"),
               {
                   {R"({"service.name":"a1",)" + kTs + "}", "=a1"},
                   {R"({"service":{"name":"b2"},)" + kTs + "}", "missing_app"},
               });
}

TEST(DottedNames, AByKeyOfTheAppFieldReadsWhatTheAppFieldFound) {
  expect_cases(rules_of("service.name", "timestamp", {"service.name", "status"}),
               {
                   {R"({"service.name":"a1","status":200,)" + kTs + "}", "=a1\xfe" "200"},
                   {R"({"service":{"name":"b2"},"status":200,)" + kTs + "}", "=b2\xfe" "200"},
               });
}

}  // namespace
}  // namespace logagg
