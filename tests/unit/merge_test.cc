// Tests for result documents read back and added up (merge.h, and the reader
// in report/result_json.cc): a document read back prints the same report in
// every format; two halves of a log add up to the whole; results made with
// other settings are refused; documents whose numbers do not add up, or that
// are not logagg results, are refused with a message saying why; with
// --time-format auto, the lines per time form are carried, added and checked.
#include "logagg/merge.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "logagg/aggregate.h"
#include "support/report_as.h"

namespace logagg {
namespace {

std::string line(const char* app, const char* time) {
  return std::string("{\"app_id\":\"") + app + "\",\"timestamp\":\"" + time + "\"}\n";
}

const std::string kLog = line("web", "2023-11-14T22:13:20Z") + line("api", "2023-11-14T22:13:20.5Z") +
                         "not json\n\n" + line("web", "2023-11-14T22:14:05+01:00") +
                         line("db", "2023-11-14T22:13:21Z");

std::string json_of(std::string_view log, const Options& options = {}, ReportOptions report = {}) {
  return format_report(aggregate_buffer(log, options), as(report, Format::kJson));
}

// The message parse_partial throws for `json`, or "" if it reads it.
std::string refusal(const std::string& json) {
  try {
    parse_partial(json);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Merge, ADocumentReadBackPrintsTheSameReportInEveryFormat) {
  for (const bool by_app : {false, true}) {
    Options o;
    o.by_app = by_app;
    ReportOptions per_minute;
    per_minute.bucketing = parse_bucketing("1m");
    const std::string json = json_of(kLog, o, per_minute);
    const Partial p = parse_partial(json);
    EXPECT_EQ(p.result.query.question().by_app, by_app);
    EXPECT_EQ(p.report.bucketing, per_minute.bucketing);
    EXPECT_EQ(p.result.summary.lines, 6u);
    EXPECT_EQ(p.result.summary.blank, 1u);
    EXPECT_EQ(p.result.summary.rejected_total(), 1u);
    for (const Format f : {Format::kCsv, Format::kTable, Format::kJson}) {
      const Result direct = aggregate_buffer(kLog, o);
      EXPECT_EQ(format_report(p.result, as(p.report, f)), format_report(direct, as(per_minute, f)))
          << "by_app " << by_app;
    }
  }
}

TEST(Merge, TwoHalvesAddUpToTheWhole) {
  const size_t cut = kLog.find('\n', kLog.size() / 2) + 1;
  for (const bool by_app : {false, true}) {
    Options o;
    o.by_app = by_app;
    Partial total = parse_partial(json_of(kLog.substr(0, cut), o));
    merge_into(total, parse_partial(json_of(kLog.substr(cut), o)));
    const Result whole = aggregate_buffer(kLog, o);
    EXPECT_EQ(total.result.counts, whole.counts);
    EXPECT_EQ(total.result.apps, whole.apps);
    EXPECT_EQ(total.result.app_counts, whole.app_counts);
    EXPECT_EQ(total.result.summary.lines, whole.summary.lines);
    EXPECT_EQ(total.result.summary.rejected, whole.summary.rejected);
    EXPECT_EQ(format_report(total.result, as(Format::kCsv)), format_report(whole, as(Format::kCsv)));
  }
}

TEST(Merge, RefusesResultsMadeWithOtherSettingsAndChangesNothing) {
  Options fields;
  fields.time_field = "ts";
  Options since;
  since.since = 1700000000;
  Options by_app;
  by_app.by_app = true;
  ReportOptions minute;
  minute.bucketing = parse_bucketing("1m");
  ReportOptions zoned;
  zoned.bucketing = Bucketing{}.in_zone(find_time_zone("Europe/Madrid"));
  const std::pair<std::string, std::string> others[] = {
      {json_of(kLog, fields), "time field"}, {json_of(kLog, since), "--since"},
      {json_of(kLog, by_app), "--by-app"},   {json_of(kLog, {}, minute), "bucket"},
      {json_of(kLog, {}, zoned), "--tz"}};
  for (const auto& [json, what] : others) {
    Partial total = parse_partial(json_of(kLog));
    const std::string before = format_report(total.result, as(Format::kJson));
    try {
      merge_into(total, parse_partial(json));
      ADD_FAILURE() << "merged a result made with another " << what;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    EXPECT_EQ(format_report(total.result, as(Format::kJson)), before) << what;
  }
}

TEST(Merge, RefusesDocumentsThatDoNotAddUp) {
  const std::string good = json_of(kLog);
  ASSERT_EQ(refusal(good), "");
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string doc = good;
    const size_t at = doc.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return doc.replace(at, from.size(), to);
  };
  EXPECT_NE(refusal(with("\"rejected\": 1", "\"rejected\": 2")).find("not the sum of its reasons"), std::string::npos);
  EXPECT_NE(refusal(with("\"lines\": 6", "\"lines\": 7")).find("summary.lines"), std::string::npos);
  EXPECT_NE(refusal(with("\"count\": 2}", "\"count\": 3}")).find("do not add up"), std::string::npos);
  EXPECT_NE(refusal(with("\"logagg\": 1", "\"logagg\": 3")).find("not a logagg JSON result"), std::string::npos);
  EXPECT_NE(refusal(with("\"bucket\": \"second\"", "\"bucket\": \"7s\"")).find("bucket"), std::string::npos);
  EXPECT_NE(refusal("[1, 2]").find("not a logagg JSON result"), std::string::npos);
  EXPECT_NE(refusal("{\"logagg\": 1").find("invalid JSON"), std::string::npos);
}

TEST(Merge, TimeFormsOfAutoAreCarriedAddedAndChecked) {
  Options automatic;
  automatic.time_format = "auto";
  const std::string log = kLog + "{\"app_id\":\"web\",\"timestamp\":1700000000123}\n";
  const size_t cut = log.find('\n', log.size() / 2) + 1;
  Partial total = parse_partial(json_of(log.substr(0, cut), automatic));
  merge_into(total, parse_partial(json_of(log.substr(cut), automatic)));
  const Result whole = aggregate_buffer(log, automatic);
  ASSERT_EQ(whole.summary.time_forms.size(), kTimeFormCount);
  EXPECT_EQ(whole.summary.time_forms[static_cast<size_t>(TimeForm::kRfc3339)], 4u);
  EXPECT_EQ(whole.summary.time_forms[static_cast<size_t>(TimeForm::kUnixMs)], 1u);
  EXPECT_EQ(total.result.summary.time_forms, whole.summary.time_forms);

  const std::string good = json_of(log, automatic);
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string doc = good;
    const size_t at = doc.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return doc.replace(at, from.size(), to);
  };
  EXPECT_NE(refusal(with("\"unix-ms\": 1", "\"unix-ms\": 2")).find("time_formats do not add up"), std::string::npos);
  EXPECT_NE(refusal(with("\"time_formats\"", "\"formats\"")).find("summary.time_formats"), std::string::npos);
  EXPECT_EQ(json_of(kLog).find("time_formats"), std::string::npos) << "only with auto";
}

TEST(Merge, RefusesRowsOutOfOrder) {
  Result r;
  r.counts = {{20, 1}, {10, 1}};
  r.summary.lines = r.summary.counted = 2;
  EXPECT_NE(refusal(format_report(r, as(Format::kJson))).find("ascending"), std::string::npos);
}

}  // namespace
}  // namespace logagg

namespace logagg {
namespace {

TEST(Merge, IdsAreCheckedAgainstTheDocumentsOwnPattern) {
  Options o;
  o.by_app = true;
  o.app_pattern = "[a-z-]+@[a-z]+";
  const std::string log = line("api@docker", "2023-11-14T22:13:20Z") + line("web-1@k8s", "2023-11-14T22:13:20Z") +
                          line("checkout@docker", "2023-11-14T22:13:21Z");
  const std::string json = json_of(log, o);
  ASSERT_EQ(refusal(json), "") << json;
  const Partial p = parse_partial(json);
  EXPECT_EQ(p.result.query.question().app_pattern, o.app_pattern);
  EXPECT_EQ(p.result.apps, (std::vector<std::string>{"api@docker", "checkout@docker"}));
  std::string other = json;
  other.replace(other.find("api@docker"), 10, "api@DOCKER");
  EXPECT_NE(refusal(other).find("not an app id of its app_pattern"), std::string::npos) << refusal(other);
  Options by_app;
  by_app.by_app = true;
  Partial plain = parse_partial(json_of(kLog, by_app));
  EXPECT_THROW(merge_into(plain, p), std::runtime_error) << "made with another --app-pattern";
}

}  // namespace
}  // namespace logagg
