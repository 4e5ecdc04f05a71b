// Tests for --by-app and --top: counts per (bucket, app) that add up to the
// totals, the same for every thread count and segment size; the bounded app
// table and its honest "(other)"; the report formats and statistics; merging
// by-app results; and the binary's flags, warning and refusals end to end.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "logagg/aggregate.h"
#include "logagg/merge.h"
#include "logagg/report.h"
#include "support/report_as.h"
#include "support/run_process.h"
#include "support/test_paths.h"
#include "time/civil_time.h"  // kSecondsPerDay

namespace logagg {
namespace {

std::string line(const std::string& app, int64_t second) {
  char ts[32];
  const time_t t = second;
  std::strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return R"({"app_id":")" + app + R"(","timestamp":")" + ts + "\"}\n";
}

// A log of `lines` lines over ~2 minutes from `apps` apps, app i about
// (apps - i) times as busy as the last, with some rejected lines.
std::string random_log(uint64_t seed, int lines, int apps) {
  std::mt19937_64 rng(seed);
  std::string log;
  for (int i = 0; i < lines; ++i) {
    int app = static_cast<int>(rng() % static_cast<uint64_t>(apps));
    app = static_cast<int>(rng() % static_cast<uint64_t>(app + 1));  // skew towards low numbers
    log += rng() % 50 == 0 ? "{\"app_id\":\"bad-id\"}\n" : line("app" + std::to_string(app), 1700000000 + rng() % 120);
  }
  return log;
}

// The result as (second, app name) -> count.
std::map<std::pair<int64_t, std::string>, uint64_t> by_name(const Result& r) {
  std::map<std::pair<int64_t, std::string>, uint64_t> out;
  for (const AppCount& c : r.app_counts) out[{c.second, r.apps.at(c.app)}] += c.count;
  return out;
}

TEST(ByApp, CountsPerAppAddUpToTheTotalsForEveryThreadCountAndSegmentSize) {
  const std::string log = random_log(1, 5000, 40);
  Options plain;
  plain.threads = 1;
  const Result totals = aggregate_buffer(log, plain);
  Options o;
  o.by_app = true;
  o.threads = 1;
  const Result one = aggregate_buffer(log, o);
  EXPECT_EQ(one.counts, totals.counts);
  EXPECT_FALSE(one.apps_capped);
  ASSERT_EQ(one.apps.size(), 40u);
  EXPECT_TRUE(std::is_sorted(one.apps.begin(), one.apps.end()));
  uint64_t sum = 0;
  for (const AppCount& c : one.app_counts) sum += c.count;
  EXPECT_EQ(sum, totals.summary.counted);
  for (const unsigned threads : {2u, 3u, 8u}) {
    for (const size_t segment : {size_t{1}, size_t{100}, size_t{4096}}) {
      o.threads = threads;
      o.segment_bytes = segment;
      const Result r = aggregate_buffer(log, o);
      EXPECT_EQ(r.apps, one.apps) << threads << " threads, segments of " << segment;
      EXPECT_EQ(r.app_counts, one.app_counts) << threads << " threads, segments of " << segment;
      EXPECT_EQ(r.counts, totals.counts);
    }
  }
}

TEST(ByApp, AppTableIsBoundedAndTheRestIsAnHonestOther) {
  const std::string log = random_log(2, 20000, 500);
  Options o;
  ReportOptions rep;
  o.by_app = true;
  o.max_apps = 7;
  for (const unsigned threads : {1u, 2u, 4u}) {
    o.threads = threads;
    o.segment_bytes = 512;
    const Result r = aggregate_buffer(log, o);
    EXPECT_TRUE(r.apps_capped);
    ASSERT_EQ(r.apps.size(), 8u) << "7 apps told apart, then (other)";
    EXPECT_EQ(r.apps.back(), kOtherApp);
    uint64_t sum = 0;
    for (const AppCount& c : r.app_counts) sum += c.count;
    EXPECT_EQ(sum, r.summary.counted) << "no line lost to the cap";
    EXPECT_EQ(r.counts, aggregate_buffer(log, Options{}).counts);
  }
  o.threads = 1;  // with one worker the first ids met are kept: app0 and app1 ... in file order
  const Result r = aggregate_buffer(line("b", 1) + line("a", 2) + line("c", 3) + line("b", 4), Options{o});
  o.max_apps = 2;
  const Result capped = aggregate_buffer(line("b", 1) + line("a", 2) + line("c", 3) + line("b", 4), o);
  EXPECT_EQ(capped.apps, (std::vector<std::string>{"a", "b", std::string(kOtherApp)}));
  EXPECT_EQ(format_report(capped, as(rep, Format::kCsv)),
            "second,app_id,count\n1970-01-01T00:00:01Z,b,1\n1970-01-01T00:00:02Z,a,1\n"
            "1970-01-01T00:00:03Z,(other),1\n1970-01-01T00:00:04Z,b,1\n");
  EXPECT_FALSE(r.apps_capped);
}

Result small_result(Options& o) {
  o.by_app = true;
  o.threads = 1;
  std::string log;
  for (int i = 0; i < 5; ++i) log += line("web", 60 + i);
  for (int i = 0; i < 3; ++i) log += line("api", 61);
  log += line("cron", 180);
  log += line("db", 65) + line("db", 66);
  return aggregate_buffer(log, o);
}

TEST(ByApp, CsvIsSortedByTimeThenAppAndTopFoldsTheRestIntoOther) {
  Options o;
  ReportOptions rep;
  rep.bucketing = Bucketing::of_seconds(60);
  const Result r = small_result(o);
  EXPECT_EQ(format_report(r, as(rep, Format::kCsv)),
            "minute,app_id,count\n"
            "1970-01-01T00:01:00Z,api,3\n1970-01-01T00:01:00Z,db,2\n1970-01-01T00:01:00Z,web,5\n"
            "1970-01-01T00:03:00Z,cron,1\n");
  rep.top = 2;  // web 5, api 3 are kept; db 2 and cron 1 become (other)
  EXPECT_EQ(format_report(r, as(rep, Format::kCsv)),
            "minute,app_id,count\n"
            "1970-01-01T00:01:00Z,api,3\n1970-01-01T00:01:00Z,web,5\n1970-01-01T00:01:00Z,(other),2\n"
            "1970-01-01T00:03:00Z,(other),1\n");
  rep.fill_gaps = true;  // every app shown gets a row in every bucket
  EXPECT_EQ(format_report(r, as(rep, Format::kCsv)),
            "minute,app_id,count\n"
            "1970-01-01T00:01:00Z,api,3\n1970-01-01T00:01:00Z,web,5\n1970-01-01T00:01:00Z,(other),2\n"
            "1970-01-01T00:02:00Z,api,0\n1970-01-01T00:02:00Z,web,0\n1970-01-01T00:02:00Z,(other),0\n"
            "1970-01-01T00:03:00Z,api,0\n1970-01-01T00:03:00Z,web,0\n1970-01-01T00:03:00Z,(other),1\n");
  rep.top = 1;
  rep.fill_gaps = false;
  rep.bucketing = Bucketing::of_seconds(kSecondsPerDay);
  EXPECT_EQ(format_report(r, as(rep, Format::kTable)),
            "day                   app_id   count\n"
            "1970-01-01T00:00:00Z  web          5\n"
            "1970-01-01T00:00:00Z  (other)      6\n"
            "total                             11\n");
}

TEST(ByApp, TopBreaksTiesByNameAndKeepsEveryAppWhenNIsLarge) {
  Options o;
  ReportOptions rep;
  const Result r = small_result(o);
  rep.top = 100;
  EXPECT_EQ(format_report(r, as(rep, Format::kCsv)).find("(other)"), std::string::npos);
  rep.top = 3;  // web 5, api 3, then db 2 beats cron 1
  const std::string csv = format_report(r, as(rep, Format::kCsv));
  EXPECT_NE(csv.find(",db,"), std::string::npos);
  EXPECT_EQ(csv.find(",cron,"), std::string::npos);
  EXPECT_NE(csv.find("1970-01-01T00:03:00Z,(other),1"), std::string::npos);
}

TEST(ByApp, StatsRankTheAppsWithTheirShare) {
  Options o;
  ReportOptions rep;
  rep.bucketing = Bucketing::of_seconds(60);
  const Result r = small_result(o);
  const std::string json = format_report(r, as(rep, Format::kJson));
  EXPECT_NE(json.find("\"by_app\": true"), std::string::npos);
  EXPECT_NE(json.find("{\"minute\": \"1970-01-01T00:01:00Z\", \"app_id\": \"api\", \"count\": 3}"), std::string::npos);
  EXPECT_NE(json.find("\"top_apps\": [\n"
                      "      {\"app_id\": \"web\", \"count\": 5, \"percent\": 45.455},\n"
                      "      {\"app_id\": \"api\", \"count\": 3, \"percent\": 27.273},\n"
                      "      {\"app_id\": \"db\", \"count\": 2, \"percent\": 18.182},\n"
                      "      {\"app_id\": \"cron\", \"count\": 1, \"percent\": 9.091}\n    ]"),
            std::string::npos)
      << json;
  const std::string text = format_stats(r, rep);
  EXPECT_NE(text.find("  top apps by lines:\n    web"), std::string::npos) << text;
  EXPECT_NE(text.find("45.455%"), std::string::npos);
}

TEST(ByApp, MergedPiecesEqualOneRunAndMergeRefusesWhatCannotBeAdded) {
  const std::string log = random_log(3, 3000, 25);
  Options o;
  ReportOptions rep;
  o.by_app = true;
  rep.bucketing = Bucketing::of_seconds(10);
  const size_t cut = log.find('\n', log.size() / 3) + 1;
  const auto json_of = [&](std::string_view part, const Options& opt, ReportOptions report) {
    return format_report(aggregate_buffer(part, opt), as(report, Format::kJson));
  };
  Partial total = parse_partial(json_of(std::string_view(log).substr(0, cut), o, rep));
  merge_into(total, parse_partial(json_of(std::string_view(log).substr(cut), o, rep)));
  for (const size_t top : {size_t{0}, size_t{3}}) {
    rep.top = top;
    total.report.top = top;
    EXPECT_EQ(format_report(total.result, as(total.report, Format::kCsv)),
              format_report(aggregate_buffer(log, o), as(rep, Format::kCsv)));
  }
  rep.top = 0;

  Options plain = o;
  plain.by_app = false;
  EXPECT_THROW(merge_into(total, parse_partial(json_of(log, plain, rep))), std::runtime_error);
  ReportOptions top = rep;
  top.top = 2;
  EXPECT_THROW(parse_partial(json_of(log, o, top)), std::runtime_error) << "(other) of --top hides apps";

  Options capped = o;  // a capped result keeps its (other) and says so after merging
  capped.max_apps = 3;
  capped.threads = 1;
  Partial with_other = parse_partial(json_of(log, capped, rep));
  EXPECT_TRUE(with_other.result.apps_capped);
  merge_into(with_other, parse_partial(json_of(log, o, rep)));
  EXPECT_TRUE(with_other.result.apps_capped);
  EXPECT_EQ(with_other.result.query.question().max_apps, 3u) << "the cap named is the one that was hit";
  EXPECT_EQ(with_other.result.apps.back(), kOtherApp);
  Partial uncapped_first = parse_partial(json_of(log, o, rep));
  merge_into(uncapped_first, parse_partial(json_of(log, capped, rep)));
  EXPECT_EQ(uncapped_first.result.query.question().max_apps, 3u);
  EXPECT_TRUE(uncapped_first.result.apps_capped);
  EXPECT_EQ(with_other.result.summary.counted, 2 * total.result.summary.counted);
}

TEST(ByAppCli, TopImpliesByAppAndACappedRunWarns) {
  const std::string sample = testing::source_dir() + "/data/sample.log";
  const auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), testing::logagg_bin());
    return testing::run_process(args);
  };
  const testing::ProcessResult top = run({sample, "--top", "2", "--per-day", "--format", "csv", "-q"});
  ASSERT_EQ(top.exit_code, 0) << top.err;
  EXPECT_EQ(top.out,
            "day,app_id,count\n2023-11-14T00:00:00Z,Xq59,70\n2023-11-14T00:00:00Z,s0vkqSxTs2,69\n"
            "2023-11-14T00:00:00Z,(other),3222\n");
  EXPECT_EQ(top.err, "");
  const testing::ProcessResult capped = run({sample, "--max-apps", "5", "--threads", "1", "-q"});
  EXPECT_EQ(capped.exit_code, 0);
  EXPECT_NE(capped.err.find("warning: a run met more than 5 distinct app ids"), std::string::npos) << capped.err;
  EXPECT_NE(capped.out.find("app_id"), std::string::npos) << "--max-apps implies --by-app";
  const testing::ProcessResult bad = run({sample, "--top", "0"});
  EXPECT_EQ(bad.exit_code, 2);
  const testing::ProcessResult both = run({sample, "--plot", "--format", "csv"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--plot or --format"), std::string::npos) << both.err;
}

TEST(ByAppCli, AMillionDistinctAppIdsStayWithinTheCapsMemory) {
  // Every line a new app id (as when the field really holds request ids), all
  // in one second: what grows is only the app table, which the cap bounds.
  std::string log;
  log.reserve(size_t{64} << 20);
  for (int i = 0; i < 1000000; ++i) log += line("u" + std::to_string(i * 7919ull), 1700000000);
  const auto run = [&](const std::string& max_apps) {
    return testing::run_process(
        {testing::logagg_bin(), "-", "--by-app", "--top", "1", "--max-apps", max_apps, "--format", "csv", "-q"}, &log);
  };
  const testing::ProcessResult capped = run("1000");
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  EXPECT_NE(capped.out.find(",(other),999999\n"), std::string::npos) << capped.out;
  const testing::ProcessResult roomy = run("100000000");
  ASSERT_EQ(roomy.exit_code, 0) << roomy.err;
  EXPECT_EQ(capped.err.find("warning") != std::string::npos, true);
  EXPECT_EQ(roomy.err, "");
  // A million ids cost tens of MB; a thousand cost next to nothing.
  EXPECT_LT(capped.max_rss_kb + 20 * 1024, roomy.max_rss_kb)
      << "capped " << capped.max_rss_kb << " KiB, uncapped " << roomy.max_rss_kb << " KiB";
}

}  // namespace
}  // namespace logagg
