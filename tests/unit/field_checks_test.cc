// Tests for check_fields (logagg/field_checks.h): a field no valid line had
// is named with the log's fields nearest first (plain and dotted pointer
// spellings) and the field that holds statuses; a comparison no value can
// meet by its type says what would; a measure without a number is told; one
// warning at most per field; none without valid lines or tallies.
#include "logagg/field_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace logagg {
namespace {

Summary valid(uint64_t lines, std::vector<FieldTally> fields) {
  Summary s;
  s.lines = s.counted = lines;
  s.fields = std::move(fields);
  return s;
}

std::vector<std::string> messages(const std::vector<FieldWarning>& warnings) {
  std::vector<std::string> out;
  for (const FieldWarning& w : warnings) out.push_back(w.code + " " + w.field + ": " + w.message);
  return out;
}

TEST(FieldChecks, AFieldNoLineHadIsNamedWithTheLogsFieldsNearestFirst) {
  Question q;
  q.where = {"status>=500"};
  const Summary s = valid(10, {{10, 0, 0, 0}});
  const std::vector<LogField> log = {{"bytes"}, {"statsu"}, {"response", true}, {"/http/status"}};
  EXPECT_EQ(messages(check_fields(Query(q), s, log)),
            std::vector<std::string>{"no_such_field status: --where status>=500: no line has the field status; the "
                                     "lines have statsu, bytes, /http/status, response; response holds HTTP statuses"});
  q.where = {"http.status>=500"};  // a dotted name is near its pointer
  EXPECT_EQ(check_fields(Query(q), s, log)[0].message,
            "--where http.status>=500: no line has the field http.status; the lines have /http/status, statsu, bytes, "
            "response; response holds HTTP statuses");
  Question by;
  by.by = {KeyField{"hots"}};
  EXPECT_EQ(check_fields(Query(by), s, log)[0].message,
            "--by hots: no line has the field hots; the lines have bytes, statsu, response, /http/status");
  EXPECT_EQ(check_fields(Query(by), s)[0].message, "--by hots: no line has the field hots");
}

TEST(FieldChecks, NoneWithoutValidLinesOrTallies) {
  Question q;
  q.where = {"status>=500"};
  EXPECT_TRUE(check_fields(Query(q), valid(0, {{0, 0, 0, 0}})).empty());
  EXPECT_TRUE(check_fields(Query(q), valid(10, {})).empty());  // a document from before the tallies
  EXPECT_TRUE(check_fields(Query(q), valid(10, {{9, 1, 0, 0}})).empty());
  EXPECT_TRUE(check_fields(Query(), valid(10, {})).empty());
}

TEST(FieldChecks, AComparisonNoValueCanMeetByItsTypeSaysWhatWould) {
  Question q;
  q.where = {"response==\"200\""};
  EXPECT_EQ(messages(check_fields(Query(q), valid(7, {{2, 5, 0, 0}}))),
            std::vector<std::string>{
                "never_matches response: --where response==\"200\": never true: response is a number on 5 lines "
                "(every line that has it), and the comparison matches strings (a quoted value is text) only; write "
                "--where 'response==200' to compare numbers"});
  q.where = {"response==\"ok\""};  // no number to suggest
  EXPECT_EQ(check_fields(Query(q), valid(7, {{2, 5, 0, 0}}))[0].message,
            "--where response==\"ok\": never true: response is a number on 5 lines (every line that has it), and the "
            "comparison matches strings (a quoted value is text) only");
  q.where = {"response>=500"};  // strings may hold numbers: nothing to say
  EXPECT_TRUE(check_fields(Query(q), valid(7, {{0, 0, 7, 0}})).empty());
  q.where = {"cached==true"};
  EXPECT_EQ(check_fields(Query(q), valid(7, {{0, 0, 4, 3}})).size(), 0u);  // others may be literals
  EXPECT_EQ(check_fields(Query(q), valid(7, {{0, 1, 6, 0}}))[0].message,
            "--where cached==true: never true: cached is a number on 1 line and a string on 6 (every line that has "
            "it), and the comparison matches true, false or null only");
  q.where = {"exists cached", "missing cached"};
  EXPECT_TRUE(check_fields(Query(q), valid(7, {{0, 1, 6, 0}})).empty());
  Question c;
  c.count_if = {"host~^a"};
  EXPECT_EQ(check_fields(Query(c), valid(3, {{0, 0, 0, 3}}))[0].message,
            "--count-if host~^a: never true: host is an object, array, literal or a repeated key on 3 lines (every "
            "line that has it), and the comparison matches numbers and strings");
}

TEST(FieldChecks, AMeasureWithoutANumberIsToldOncePerField) {
  Question q;
  q.sum = {"host"};
  q.quantiles = {"host"};
  Summary s = valid(5, {{0, 0, 5, 0}});
  s.no_measure = {5};
  EXPECT_EQ(messages(check_fields(Query(q), s)),
            std::vector<std::string>{"no_number host: --sum host: no counted line has a number in host (it is a "
                                     "string on 5 lines), so its sum and quantiles are printed as absent (-)"});
  s.no_measure = {4};
  EXPECT_TRUE(check_fields(Query(q), s).empty());
  s.no_measure = {5};
  s.fields = {{5, 0, 0, 0}};  // in no line: told as such, once
  const std::vector<FieldWarning> w = check_fields(Query(q), s);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].code, "no_such_field");
}

}  // namespace
}  // namespace logagg
