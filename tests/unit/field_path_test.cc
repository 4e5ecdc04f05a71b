// Tests for field paths (parse/field_path.h) and for classifying lines by
// them (parse/line_parser.h): plain names taken as they are, RFC 6901
// pointers with their escapes and array indexes, and the verdicts for
// nested fields: found, missing (absent step, step into a scalar), duplicate
// (a key met twice at any level), overlapping fields refused.
#include "parse/field_path.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "logagg/query.h"
#include "parse/line_parser.h"

namespace logagg {
namespace {

using Steps = std::vector<std::string>;

TEST(FieldPath, PlainNamesAreOneKeyAsTheyAre) {
  EXPECT_EQ(parse_field_path("app_id").steps, Steps{"app_id"});
  EXPECT_EQ(parse_field_path("id.orig_h").steps, Steps{"id.orig_h"});
  EXPECT_EQ(parse_field_path("a~b").steps, Steps{"a~b"});
  EXPECT_EQ(parse_field_path("").steps, Steps{""});
  EXPECT_FALSE(parse_field_path("service.name").pointer);
}

TEST(FieldPath, PointersFollowRfc6901) {
  EXPECT_EQ(parse_field_path("/request/host").steps, (Steps{"request", "host"}));
  EXPECT_TRUE(parse_field_path("/request/host").pointer);
  EXPECT_EQ(parse_field_path("/a~1b/c~0d").steps, (Steps{"a/b", "c~d"}));
  EXPECT_EQ(parse_field_path("/~01").steps, Steps{"~1"}) << "~0 then 1, not ~1";
  EXPECT_EQ(parse_field_path("/").steps, Steps{""});
  EXPECT_EQ(parse_field_path("/a//b/").steps, (Steps{"a", "", "b", ""}));
  for (const char* bad : {"/a~2b", "/a~", "/~/x", "/x/~a"}) {
    EXPECT_THROW(parse_field_path(bad), std::invalid_argument) << bad;
  }
}

TEST(FieldPath, IndexesAreDigitsWithoutLeadingZeros) {
  EXPECT_EQ(FieldPath::index("0"), 0u);
  EXPECT_EQ(FieldPath::index("17"), 17u);
  for (const char* not_index : {"", "01", "-1", "1a", "-", "+1", "1e2"}) {
    EXPECT_EQ(FieldPath::index(not_index), std::nullopt) << not_index;
  }
}

TEST(FieldPath, OverlapIsAPrefix) {
  const auto overlap = [](const char* a, const char* b) {
    return paths_overlap(parse_field_path(a), parse_field_path(b));
  };
  EXPECT_TRUE(overlap("a", "a"));
  EXPECT_TRUE(overlap("a", "/a")) << "a plain name is the pointer of one step";
  EXPECT_TRUE(overlap("/request", "/request/ts"));
  EXPECT_FALSE(overlap("/request/host", "/request/ts"));
  EXPECT_FALSE(overlap("app_id", "timestamp"));
}

TEST(LineRules, RefusesBadPointersAndOverlapsNamingTheOption) {
  Options o;
  o.app_field = "/a~2";
  try {
    Query(o).rules();
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--app-field"), std::string::npos) << e.what();
  }
  o.app_field = "/request";
  o.time_field = "/request/ts";
  EXPECT_THROW(Query(o).rules(), std::invalid_argument);
  o.app_field = "timestamp";
  o.time_field = "timestamp";
  EXPECT_THROW(Query(o).rules(), std::invalid_argument);
}

class NestedFields : public testing::Test {
 protected:
  // The verdict's app id points into the line or the parser: both are kept
  // until the next call.
  LineVerdict classify(const std::string& app_field, const std::string& time_field, const std::string& line) {
    parser_ = LineParser(app_field, time_field, 1 << 20);
    padded_ = line + std::string(kLinePadding, ' ');
    return parser_.classify(std::string_view(padded_).substr(0, line.size()), padded_.size());
  }
  void expect_counted(const std::string& app, const std::string& time, const std::string& line,
                      const std::string& id, int64_t second = 1700000000) {
    const LineVerdict v = classify(app, time, line);
    ASSERT_EQ(v.status, LineStatus::kCounted) << line << ": " << reason_key(v.reason);
    EXPECT_EQ(v.app, id) << line;
    EXPECT_EQ(v.second, second) << line;
  }
  void expect_rejected(const std::string& app, const std::string& time, const std::string& line, Reason why) {
    const LineVerdict v = classify(app, time, line);
    EXPECT_EQ(v.status, LineStatus::kRejected) << line;
    EXPECT_EQ(reason_key(v.reason), reason_key(why)) << line;
  }
  static constexpr const char* kTs = "\"2023-11-14T22:13:20Z\"";

 private:
  LineParser parser_{"app_id", "timestamp", 1};
  std::string padded_;
};

TEST_F(NestedFields, PointersSelectNestedKeysAndArrayElements) {
  const std::string ts = kTs;
  expect_counted("/request/host", "ts", "{\"request\":{\"host\":\"web\",\"uri\":\"/\"},\"ts\":" + ts + "}", "web");
  expect_counted("/request/host", "/request/ts", "{\"request\":{\"ts\":" + ts + ",\"host\":\"api\"}}", "api");
  expect_counted("/tags/1", "/t/0/at", "{\"tags\":[\"x\",\"web2\",{}],\"t\":[{\"at\":" + ts + "}]}", "web2");
  expect_counted("/a~1b/c~0d", "ts", "{\"a/b\":{\"c~d\":\"svc\"},\"ts\":" + ts + "}", "svc");
  {
    SCOPED_TRACE("a line with escapes takes the unescaping path");
    expect_counted("/r/h", "ts", "{\"r\":{\"h\":\"esc\",\"x\":\"\\u00e9\\n\"},\"ts\":" + ts + "}", "esc");
  }
  {
    SCOPED_TRACE("keys are compared after unescaping");
    expect_counted("/r\\u0020x/h", "ts", "{\"r\\\\u0020x\":{\"h\":\"k\"},\"ts\":" + ts + "}", "k");
  }
  {
    SCOPED_TRACE("plain names keep their dots");
    expect_counted("service.name", "@timestamp", "{\"service.name\":\"checkout\",\"@timestamp\":" + ts + "}",
                 "checkout");
  }
}

TEST_F(NestedFields, MissingStepsAndStepsIntoScalarsAreMissing) {
  const std::string ts = kTs;
  expect_rejected("/request/host", "ts", "{\"request\":{\"uri\":\"/\"},\"ts\":" + ts + "}", Reason::kMissingApp);
  expect_rejected("/request/host", "ts", "{\"request\":\"web\",\"ts\":" + ts + "}", Reason::kMissingApp);
  expect_rejected("/tags/2", "ts", "{\"tags\":[\"a\",\"b\"],\"ts\":" + ts + "}", Reason::kMissingApp);
  expect_rejected("/tags/x", "ts", "{\"tags\":[\"a\"],\"ts\":" + ts + "}", Reason::kMissingApp);
  expect_rejected("app", "/t/at", "{\"app\":\"a\",\"t\":[" + ts + "]}", Reason::kMissingTime);
  expect_rejected("/request/host", "ts", "{\"request\":{\"host\":{\"name\":\"web\"}},\"ts\":" + ts + "}",
                  Reason::kAppNotString);
}

TEST_F(NestedFields, AKeyTwiceAnywhereOnThePathIsADuplicate) {
  const std::string ts = kTs;
  expect_rejected("/r/h", "ts", "{\"r\":{\"h\":\"a\",\"h\":\"b\"},\"ts\":" + ts + "}", Reason::kDuplicateApp);
  {
    SCOPED_TRACE("the step key twice, even if the second has no field");
    expect_rejected("/r/h", "ts", "{\"r\":{\"h\":\"a\"},\"r\":{\"x\":1},\"ts\":" + ts + "}", Reason::kDuplicateApp);
  }
  expect_rejected("app", "/r/t", "{\"app\":\"a\",\"r\":{\"t\":" + ts + "},\"r\":{\"t\":" + ts + "}}",
                  Reason::kDuplicateTime);
  {
    SCOPED_TRACE("the same key elsewhere in the document is not on the path");
    expect_counted("/r/h", "ts", "{\"r\":{\"h\":\"a\"},\"x\":{\"r\":{\"h\":\"b\"}},\"ts\":" + ts + "}", "a");
  }
}

TEST_F(NestedFields, TheWholeLineIsStillValidated) {
  const std::string ts = kTs;
  expect_rejected("/r/h", "ts", "{\"r\":{\"h\":\"a\",\"bad\":01},\"ts\":" + ts + "}", Reason::kInvalidJson);
  expect_rejected("/r/h", "ts", "{\"r\":{\"h\":\"a\"},\"ts\":" + ts + ",\"x\":[1,]}", Reason::kInvalidJson);
  expect_rejected("/r/0", "ts", "{\"r\":[\"a\",tru],\"ts\":" + ts + "}", Reason::kInvalidJson);
  expect_rejected("/r/h", "ts", "{\"r\":{\"h\":\"a\\q\"},\"ts\":" + ts + "}", Reason::kInvalidJson);
}

}  // namespace
}  // namespace logagg
