// Tests for the report formats: exact csv, aligned table with total, and a
// json document that carries everything needed to merge two runs.
#include "logagg/report.h"
#include "support/report_as.h"

#include <gtest/gtest.h>

namespace logagg {
namespace {

Result sample() {
  Result r;
  r.counts = {{1700000000, 2935}, {1700000001, 7}};
  r.summary.files = 1;
  r.summary.bytes = 1000;
  r.summary.lines = 2950;
  r.summary.counted = 2942;
  r.summary.blank = 3;
  r.summary.rejected[static_cast<size_t>(Reason::kInvalidJson)] = 4;
  r.summary.rejected[static_cast<size_t>(Reason::kBadTime)] = 1;
  return r;
}

TEST(Report, CsvIsExact) {
  EXPECT_EQ(format_report(sample(), as(Format::kCsv)),
            "second,count\n2023-11-14T22:13:20Z,2935\n2023-11-14T22:13:21Z,7\n");
  EXPECT_EQ(format_report(Result{}, as(Format::kCsv)), "second,count\n");
}

// The csv header names each --by key as written, a field RFC 4180-quoted
// when it holds a comma, a quote, a CR or a LF: path_prefix(FIELD,N) always
// has a comma, so the header has as many fields as each row.
TEST(Report, CsvHeaderQuotesKeyColumnsThatNeedIt) {
  Result r;
  r.apps = {std::string("/api\xfe") + "5xx\xfe" + "x"};
  r.app_counts = {{1700000000, 0, 2}};
  r.counts = {{1700000000, 2}};
  r.summary.counted = 2;
  Options o;
  o.by = {{"path", KeyField::Kind::kPathPrefix, 1}, {"status", KeyField::Kind::kStatusClass, 0},
          {"a,\"b\"", KeyField::Kind::kValue, 0}};
  r.query = Query(o);
  EXPECT_EQ(format_report(r, as(Format::kCsv)),
            "second,\"path_prefix(path,1)\",status_class(status),\"a,\"\"b\"\"\",count\n"
            "2023-11-14T22:13:20Z,/api,5xx,x,2\n");
}

// --by-app rows share their second's text (report_text.h, StartTexts): each
// row still shows its own second, in every format, where the second stays
// and where it changes.
TEST(Report, ByAppRowsEachShowTheirSecond) {
  Result r;
  r.apps = {"a", "b"};
  r.app_counts = {{1700000000, 0, 1}, {1700000000, 1, 2}, {1700000001, 0, 3}, {1700000002, 1, 4}};
  r.counts = {{1700000000, 3}, {1700000001, 3}, {1700000002, 4}};
  r.summary.counted = 10;
  Options o;
  o.by_app = true;
  r.query = Query(o);
  EXPECT_EQ(format_report(r, as(Format::kCsv)),
            "second,app_id,count\n2023-11-14T22:13:20Z,a,1\n2023-11-14T22:13:20Z,b,2\n"
            "2023-11-14T22:13:21Z,a,3\n2023-11-14T22:13:22Z,b,4\n");
  EXPECT_EQ(format_report(r, as(Format::kTable)),
            "second                app_id  count\n"
            "2023-11-14T22:13:20Z  a           1\n"
            "2023-11-14T22:13:20Z  b           2\n"
            "2023-11-14T22:13:21Z  a           3\n"
            "2023-11-14T22:13:22Z  b           4\n"
            "total                            10\n");
  const std::string json = format_report(r, as(Format::kJson));
  EXPECT_NE(json.find(R"({"second": "2023-11-14T22:13:20Z", "app_id": "b", "count": 2})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"({"second": "2023-11-14T22:13:22Z", "app_id": "b", "count": 4})"), std::string::npos) << json;
}

TEST(Report, TableIsAlignedWithTotal) {
  EXPECT_EQ(format_report(sample(), as(Format::kTable)),
            "second                count\n"
            "2023-11-14T22:13:20Z   2935\n"
            "2023-11-14T22:13:21Z      7\n"
            "total                  2942\n");
}

TEST(Report, JsonHasCountsSummaryAndMergeKeys) {
  Options o;
  o.app_field = "svc\"name";
  Result r = sample();
  r.query = Query(o);
  const std::string json = format_report(r, as(Format::kJson));
  EXPECT_NE(json.find(R"("bucket": "second")"), std::string::npos);
  EXPECT_NE(json.find(R"("app_field": "svc\"name")"), std::string::npos);
  EXPECT_NE(json.find(R"("time_field": "timestamp")"), std::string::npos);
  EXPECT_NE(json.find(R"({"second": "2023-11-14T22:13:20Z", "count": 2935},)"), std::string::npos);
  EXPECT_NE(json.find(R"("lines": 2950)"), std::string::npos);
  EXPECT_NE(json.find(R"("rejected": 5)"), std::string::npos);
  EXPECT_NE(json.find(R"("invalid_json": 4)"), std::string::npos);
  EXPECT_NE(json.find(R"("bad_time": 1)"), std::string::npos);
  EXPECT_EQ(json.find("elapsed"), std::string::npos) << "json must not depend on timing";
}

TEST(Report, SummaryNamesEveryNonZeroReason) {
  Summary s = sample().summary;
  s.elapsed_seconds = 0.5;
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("2950 lines"), std::string::npos);
  EXPECT_NE(text.find("invalid JSON"), std::string::npos);
  EXPECT_NE(text.find("timestamp not RFC 3339"), std::string::npos);
  EXPECT_EQ(text.find("line too long"), std::string::npos);
  EXPECT_NE(text.find("in 0.500 s"), std::string::npos);
  EXPECT_NE(text.find("  counted                              2942\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    invalid JSON                          4\n"), std::string::npos) << text;
}

TEST(Report, SummaryCountsTheTimeFormsOfAutoThatWereSeen) {
  Summary s = sample().summary;
  EXPECT_EQ(format_summary(s).find("time in"), std::string::npos) << "only with auto";
  s.time_forms.assign(kTimeFormCount, 0);
  s.time_forms[static_cast<size_t>(TimeForm::kRfc3339)] = 2900;
  s.time_forms[static_cast<size_t>(TimeForm::kUnixNs)] = 42;
  const std::string text = format_summary(s);
  EXPECT_NE(text.find("  counted                              2942\n"
                      "    time in rfc3339                    2900\n"
                      "    time in unix-ns                      42\n"
                      "  blank"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("time in clf"), std::string::npos) << "forms not seen are left out";
}

TEST(Report, SummaryColumnWidensForALongReason) {
  // A reason naming a non-default pattern is longer than the labels' usual
  // 30 columns: every count moves right with it, so the counts stay aligned.
  Summary s = sample().summary;
  Options options;
  options.app_pattern = "[a-z0-9.-]+([a-z0-9.-]+)*";
  s.rejected[static_cast<size_t>(Reason::kBadApp)] = 3;
  const std::string text = format_summary(s, Query(options), {{"late (corrected rows)", 17}});
  EXPECT_NE(text.find("  counted                                                   2942\n"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("  late (corrected rows)                                       17\n")) << text;  // rows after, aligned
  EXPECT_NE(text.find("    app id does not match [a-z0-9.-]+([a-z0-9.-]+)*            3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    invalid JSON                                               4\n"), std::string::npos) << text;
}

TEST(Report, RejectsArePathLineReason) {
  Result r;
  r.rejects = {{"a.log", 7, Reason::kInvalidJson}, {"<stdin>", 12, Reason::kBadApp}};
  EXPECT_EQ(format_rejects(r), "a.log:7: invalid JSON\n<stdin>:12: app id not alphanumeric\n");
}

}  // namespace
}  // namespace logagg

namespace logagg {
namespace {

TEST(Report, HumanBytesUsePowersOf1024WithOneDecimal) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1023), "1023 B");
  EXPECT_EQ(human_bytes(1024), "1.0 KiB");
  EXPECT_EQ(human_bytes(850733), "830.8 KiB");
  EXPECT_EQ(human_bytes(1.5 * (1 << 30)), "1.5 GiB");
  EXPECT_EQ(human_bytes(3.0 * (uint64_t{1} << 50)), "3072.0 TiB") << "TiB is the largest unit";
}

TEST(Report, TableWidensForLargeCountsAndZonedStarts) {
  Result r;
  r.counts = {{0, 1234567}};
  r.summary.counted = r.summary.lines = 1234567;
  EXPECT_EQ(format_report(r, as(Format::kTable)),
            "second                  count\n"
            "1970-01-01T00:00:00Z  1234567\n"
            "total                 1234567\n");
  ReportOptions zoned = as(Format::kTable);
  zoned.bucketing = Bucketing{}.in_zone(find_time_zone("Asia/Kathmandu"));
  EXPECT_EQ(format_report(r, zoned),
            "second                       count\n"
            "1970-01-01T05:30:00+05:30  1234567\n"
            "total                      1234567\n");
}

TEST(Report, HtmlIsRefusedOnlyWhenTheBuildHasNoHtml) {
  if (has_html_format()) {
    EXPECT_NE(format_report(Result{}, as(Format::kHtml)).find("<html"), std::string::npos);
  } else {
    EXPECT_THROW(format_report(Result{}, as(Format::kHtml)), std::invalid_argument);
  }
}

}  // namespace
}  // namespace logagg
