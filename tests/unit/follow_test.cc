// Tests for --follow's parts (engine/src/follow/, logagg/follow.h):
// - BucketStream: a bucket is handed out once the newest second is `late`
//   past its end, or when asked for all; a line for a bucket handed out
//   makes a correction with the bucket's new total (per app: only the apps
//   that changed) and is tallied as late; totals keep everything;
// - FollowWriter: csv, json (NDJSON) and table rows, corrections, (other)
//   and a hostile id, pinned;
// - follow(): reads what is there, then what is appended, a renamed file to
//   its end with its last line, and stops on its stop descriptor.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "follow/bucket_stream.h"
#include "logagg/follow.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

Result round_of(std::vector<SecondCount> counts) {
  Result r;
  r.counts = std::move(counts);
  return r;
}

std::string rows_text(const std::vector<FollowRow>& rows) {
  std::string out;
  for (const FollowRow& r : rows) {
    out += std::to_string(r.start) + (r.app.empty() ? "" : "/" + r.app) + "=" + std::to_string(r.count) +
           (r.correction ? "!" : "") + " ";
  }
  return out;
}

TEST(BucketStream, BucketsCompleteLatePastTheirEnd) {
  BucketStream s(Bucketing(), 2);
  s.add(round_of({{10, 3}, {11, 1}}));
  EXPECT_EQ(rows_text(s.take(false)), "");  // newest 11: bucket 10 ends at 11, due at 13
  s.add(round_of({{13, 2}}));
  EXPECT_EQ(rows_text(s.take(false)), "10=3 ");
  s.add(round_of({{10, 1}, {14, 1}}));  // a late line for 10
  EXPECT_EQ(rows_text(s.take(false)), "10=4! 11=1 ");
  EXPECT_EQ(s.late(), 1u);
  EXPECT_EQ(rows_text(s.take(true)), "13=2 14=1 ");
  EXPECT_EQ(rows_text(s.take(true)), "");
  const Result t = s.totals();
  ASSERT_EQ(t.counts.size(), 4u);
  EXPECT_EQ(t.counts[0], (SecondCount{10, 4}));
  EXPECT_EQ(t.counts[3], (SecondCount{14, 1}));
}

TEST(BucketStream, MinutesAndAppsCorrectOnlyWhatChanged) {
  BucketStream s(Bucketing::of_seconds(60), 0);
  Result r;
  r.counts = {{60, 3}, {125, 1}};
  r.apps = {"a", "b"};
  r.app_counts = {{60, 0, 2}, {60, 1, 1}, {125, 0, 1}};
  s.add(r);
  EXPECT_EQ(rows_text(s.take(false)), "60/a=2 60/b=1 ");  // 125 >= 120 + 0
  Result late;
  late.counts = {{61, 1}};
  late.apps = {"b"};
  late.app_counts = {{61, 0, 1}};
  s.add(late);
  EXPECT_EQ(rows_text(s.take(true)), "60/b=2! 120/a=1 ");
  EXPECT_EQ(s.late(), 1u);
}

TEST(BucketStream, TopChosenWhenFirstHandedOut) {
  BucketStream s(Bucketing(), 0, 1);
  Result r;
  r.counts = {{0, 6}};
  r.apps = {"a", "b", "c"};
  r.app_counts = {{0, 0, 2}, {0, 1, 3}, {0, 2, 1}};
  s.add(r);
  EXPECT_EQ(rows_text(s.take(true)), "0/b=3 0/" + std::string(kOtherApp) + "=3 ");
  Result late;
  late.counts = {{0, 5}};
  late.apps = {"a", "b"};
  late.app_counts = {{0, 0, 4}, {0, 1, 1}};  // a is now the busiest: b stays the one shown
  s.add(late);
  EXPECT_EQ(rows_text(s.take(true)), "0/b=4! 0/" + std::string(kOtherApp) + "=7! ");
}

TEST(FollowWriter, FormatsPinned) {
  ReportOptions report;
  const std::vector<FollowRow> rows = {{0, "", 7, false}, {1, "", 12, true}};
  report.format = Format::kCsv;
  FollowWriter csv(false, report);
  EXPECT_EQ(csv.header() + csv.rows(rows) + csv.footer(19),
            "second,count\n1970-01-01T00:00:00Z,7\n1970-01-01T00:00:01Z,12\n");
  report.format = Format::kJson;
  FollowWriter json(false, report);
  EXPECT_EQ(json.header() + json.rows(rows) + json.footer(19),
            "{\"second\": \"1970-01-01T00:00:00Z\", \"count\": 7}\n"
            "{\"second\": \"1970-01-01T00:00:01Z\", \"count\": 12, \"correction\": true}\n");
  report.format = Format::kTable;
  FollowWriter table(false, report);
  EXPECT_EQ(table.header() + table.rows(rows) + table.footer(19),
            "second                     count\n"
            "1970-01-01T00:00:00Z           7\n"
            "1970-01-01T00:00:01Z          12  (correction)\n"
            "total                         19\n");
}

TEST(FollowWriter, AppsEscapedAsInBatchReports) {
  ReportOptions report;
  report.bucketing = Bucketing::of_seconds(60);
  const std::vector<FollowRow> rows = {{0, "a,\"b\"", 1, false},
                                       {0, std::string(kOtherApp), 2, false},
                                       {60, "(other)", 3, true},
                                       {60, "\x1b[2J", 4, false}};
  report.format = Format::kCsv;
  EXPECT_EQ(FollowWriter(true, report).rows(rows),
            "1970-01-01T00:00:00Z,\"a,\"\"b\"\"\",1\n1970-01-01T00:00:00Z,(other),2\n"
            "1970-01-01T00:01:00Z,(other),3\n1970-01-01T00:01:00Z,\x1b[2J,4\n");
  report.format = Format::kJson;
  EXPECT_EQ(FollowWriter(true, report).rows(rows),
            "{\"minute\": \"1970-01-01T00:00:00Z\", \"app_id\": \"a,\\\"b\\\"\", \"count\": 1}\n"
            "{\"minute\": \"1970-01-01T00:00:00Z\", \"app_id\": \"(other)\", \"count\": 2}\n"
            "{\"minute\": \"1970-01-01T00:01:00Z\", \"app_id\": \"(other)\", \"real_app\": true, \"count\": 3, "
            "\"correction\": true}\n"
            "{\"minute\": \"1970-01-01T00:01:00Z\", \"app_id\": \"\\u001b[2J\", \"count\": 4}\n");
  report.format = Format::kTable;
  EXPECT_EQ(FollowWriter(true, report).rows({rows[3]}), "1970-01-01T00:01:00Z           4  \\x1b[2J\n");
}

std::string line(int second) {
  return "{\"app_id\":\"a\",\"timestamp\":\"2024-01-02T03:04:" + std::string(second < 10 ? "0" : "") +
         std::to_string(second) + "Z\"}\n";
}

TEST(Follow, ReadsAppendsAndRotationsUntilStopped) {
  const fs::path dir = fs::temp_directory_path() / ("logagg-follow-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string log = (dir / "access.log").string();
  std::ofstream(log) << line(0) << line(1);
  int stop[2];
  ASSERT_EQ(::pipe(stop), 0);
  FollowOptions fo;
  fo.late = std::chrono::milliseconds(1000);
  fo.rescan = std::chrono::milliseconds(50);
  fo.min_pause = std::chrono::milliseconds(10);
  fo.stop_fd = stop[0];
  std::vector<FollowRow> rows;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ofstream(log, std::ios::app) << line(2) << line(5);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ofstream(log, std::ios::app) << "{\"app_id\":\"a\",\"timestamp\":\"2024-01-02T03:04:06Z\"}";  // no LF
    fs::rename(log, dir / "access.log.1");
    std::ofstream(log) << line(7);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the renamed file goes quiet
    ASSERT_EQ(::write(stop[1], "x", 1), 1);
  });
  const FollowResult r = follow({log}, Options(), fo, [&](const std::vector<FollowRow>& round) {
    rows.insert(rows.end(), round.begin(), round.end());
    return true;
  });
  writer.join();
  ::close(stop[0]);
  ::close(stop[1]);
  fs::remove_all(dir);
  EXPECT_EQ(r.result.summary.counted, 6u);
  EXPECT_EQ(r.result.summary.files, 2u);
  EXPECT_TRUE(r.unfinished.empty());
  // When each bucket is handed out depends on timing; which rows, not.
  std::sort(rows.begin(), rows.end(), [](const FollowRow& a, const FollowRow& b) { return a.start < b.start; });
  EXPECT_EQ(rows_text(rows), "1704164640=1 1704164641=1 1704164642=1 1704164645=1 1704164646=1 1704164647=1 ");
}

}  // namespace
}  // namespace logagg
