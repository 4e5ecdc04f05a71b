// Tests for --follow's parts (engine/src/follow/, logagg/follow.h):
// - BucketStream: a bucket is handed out once the newest second is `late`
//   past its end, or when asked for all; a line for a bucket handed out
//   makes a correction with the bucket's new total (per app: only the apps
//   that changed) and is tallied as late, as is one for a bucket older than
//   one handed out (a correction from zero); totals keep everything;
// - FollowWriter: csv, json (NDJSON) and table rows, corrections, (other)
//   and a hostile id, pinned;
// - read_span: whole lines within a round's budget, a file rewritten since
//   its plan read as nothing (also at offset 0), a line that does not fit
//   what is left of a round left for the next, one longer than a round left
//   to the engine;
// - follow(): reads what is there, then what is appended, a renamed file to
//   its end with its last line, and stops on its stop descriptor.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "follow/bucket_stream.h"
#include "follow/span_reader.h"
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

TEST(BucketStream, ABucketOlderThanOneHandedOutComesAsACorrectionFromZero) {
  BucketStream s(Bucketing(), 0);
  s.add(round_of({{10, 3}, {12, 1}, {14, 1}}));
  EXPECT_EQ(rows_text(s.take(false)), "10=3 12=1 ");
  s.add(round_of({{9, 1}, {11, 2}, {13, 1}, {15, 1}}));  // 9 and 11: older than 12, handed out; 13: newer
  EXPECT_EQ(rows_text(s.take(false)), "9=1! 11=2! 13=1 14=1 ");
  EXPECT_EQ(rows_text(s.take(true)), "15=1 ");
  EXPECT_EQ(s.late(), 3u);
  EXPECT_EQ(s.totals().counts.size(), 7u);
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

TEST(BucketStream, AppsCappedOverTheWholeRun) {
  BucketStream s(Bucketing(), 0, 0, /*max_apps=*/2);
  Result r;
  r.counts = {{0, 3}};
  r.apps = {"a", "b"};
  r.app_counts = {{0, 0, 2}, {0, 1, 1}};
  s.add(r);
  EXPECT_FALSE(s.totals().apps_capped);
  Result next;  // another round: b again, and two apps past the cap
  next.counts = {{1, 6}};
  next.apps = {"b", "c", "d"};
  next.app_counts = {{1, 0, 1}, {1, 1, 2}, {1, 2, 3}};
  s.add(next);
  EXPECT_EQ(rows_text(s.take(true)), "0/a=2 0/b=1 1/b=1 1/" + std::string(kOtherApp) + "=5 ");
  const Result totals = s.totals();
  EXPECT_TRUE(totals.apps_capped);
  EXPECT_EQ(totals.apps, (std::vector<std::string>{"a", "b", std::string(kOtherApp)}));
  Result capped;  // a round the engine capped itself
  capped.apps_capped = true;
  BucketStream t(Bucketing(), 0);
  t.add(capped);
  EXPECT_TRUE(t.totals().apps_capped);
}

TEST(FollowWriter, FormatsPinned) {
  ReportOptions report;
  const std::vector<FollowRow> rows = {{0, "", 7, false}, {1, "", 12, true}};
  report.format = Format::kCsv;
  FollowWriter csv(Query(), report);
  EXPECT_EQ(csv.header() + csv.rows(rows) + csv.footer(19),
            "second,count\n1970-01-01T00:00:00Z,7\n1970-01-01T00:00:01Z,12\n");
  report.format = Format::kJson;
  FollowWriter json(Query(), report);
  EXPECT_EQ(json.header() + json.rows(rows) + json.footer(19),
            "{\"second\": \"1970-01-01T00:00:00Z\", \"count\": 7}\n"
            "{\"second\": \"1970-01-01T00:00:01Z\", \"count\": 12, \"correction\": true}\n");
  report.format = Format::kTable;
  FollowWriter table(Query(), report);
  EXPECT_EQ(table.header() + table.rows(rows) + table.footer(19),
            "second                     count\n"
            "1970-01-01T00:00:00Z           7\n"
            "1970-01-01T00:00:01Z          12  (correction)\n"
            "total                         19\n");
}

TEST(FollowWriter, AppsEscapedAsInBatchReports) {
  ReportOptions report;
  report.bucketing = Bucketing::of_seconds(60);
  Question per_app;
  per_app.by_app = true;
  const Query by_app(per_app);
  const std::vector<FollowRow> rows = {{0, "a,\"b\"", 1, false},
                                       {0, std::string(kOtherApp), 2, false},
                                       {60, "(other)", 3, true},
                                       {60, "\x1b[2J", 4, false}};
  report.format = Format::kCsv;
  EXPECT_EQ(FollowWriter(by_app, report).rows(rows),
            "1970-01-01T00:00:00Z,\"a,\"\"b\"\"\",1\n1970-01-01T00:00:00Z,(other),2\n"
            "1970-01-01T00:01:00Z,(other),3\n1970-01-01T00:01:00Z,\x1b[2J,4\n");
  report.format = Format::kJson;
  EXPECT_EQ(FollowWriter(by_app, report).rows(rows),
            "{\"minute\": \"1970-01-01T00:00:00Z\", \"app_id\": \"a,\\\"b\\\"\", \"count\": 1}\n"
            "{\"minute\": \"1970-01-01T00:00:00Z\", \"app_id\": \"(other)\", \"count\": 2}\n"
            "{\"minute\": \"1970-01-01T00:01:00Z\", \"app_id\": \"(other)\", \"real_app\": true, \"count\": 3, "
            "\"correction\": true}\n"
            "{\"minute\": \"1970-01-01T00:01:00Z\", \"app_id\": \"\\u001b[2J\", \"count\": 4}\n");
  report.format = Format::kTable;
  EXPECT_EQ(FollowWriter(by_app, report).rows({rows[3]}), "1970-01-01T00:01:00Z           4  \\x1b[2J\n");
}

std::string line(int second) {
  return "{\"app_id\":\"a\",\"timestamp\":\"2024-01-02T03:04:" + std::string(second < 10 ? "0" : "") +
         std::to_string(second) + "Z\"}\n";
}

// A file to plan spans in, as --follow holds it: open, tracked in memory.
class SpanReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() / ("logagg-span-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
  }
  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
    fs::remove(path_);
  }
  void write(const std::string& bytes, bool append = false) const {
    std::ofstream(path_, std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << bytes;
  }
  // The one span planned for the file as it is now.
  SpanPlan plan() {
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    std::vector<TrackedFile> files{TrackedFile{path_, fd_}};
    ::fstat(fd_, &files[0].st);
    std::vector<InputError> errors;
    std::vector<SpanPlan> plans = tracker_.plan(files, 0, errors);
    EXPECT_EQ(plans.size(), 1u);
    return plans.empty() ? SpanPlan{} : plans[0];
  }
  // The span read and counted as `lines` lines: the record moves to its end.
  void commit(SpanPlan& p, uint64_t lines) {
    std::vector<SpanPlan> plans{p};
    tracker_.commit(plans, {{lines, true}});
  }

  std::string path_;
  int fd_ = -1;
  FileTracker tracker_;
  ReadBuffer buffer_;
};

std::string padded(int n, size_t length) {  // a line of `length` bytes with its LF
  std::string text = "{\"app_id\":\"a\",\"timestamp\":\"2024-01-02T03:04:05Z\",\"n\":" + std::to_string(n) + ",\"p\":\"";
  text += std::string(length - text.size() - 3, 'x');
  return text + "\"}\n";
}

TEST_F(SpanReaderTest, WholeLinesWithinTheBudget) {
  write(padded(0, 100) + padded(1, 100) + padded(2, 100));
  SpanPlan p = plan();
  uint64_t budget = 250;
  EXPECT_TRUE(read_span(fd_, p, buffer_, budget, 250));  // bytes left
  EXPECT_EQ(p.span.end, 200u);
  EXPECT_EQ(p.span.text, padded(0, 100) + padded(1, 100));
  EXPECT_TRUE(p.span.path.empty());  // counted from memory
  EXPECT_EQ(budget, 50u);
  EXPECT_EQ(p.next.offset, 200u);
  EXPECT_EQ(p.next.mtime_ns, -1);  // planned again next round
  commit(p, 2);
  SpanPlan rest = plan();
  EXPECT_EQ(rest.span.begin, 200u);
  budget = 250;
  EXPECT_FALSE(read_span(fd_, rest, buffer_, budget, 250));
  EXPECT_EQ(rest.span.text, padded(2, 100));
}

TEST_F(SpanReaderTest, AFileRewrittenSinceItsPlanReadsAsNothing) {
  write(padded(0, 100) + padded(1, 100));
  SpanPlan p = plan();
  write(padded(5, 100) + padded(6, 100) + padded(7, 100));  // truncated and written again: longer, other bytes
  uint64_t budget = 1000;
  EXPECT_FALSE(read_span(fd_, p, buffer_, budget, 1000));
  EXPECT_EQ(p.span.end, 0u);
  EXPECT_TRUE(p.span.text.empty());
  EXPECT_EQ(p.next.offset, 0u);  // the record stays where it was
  EXPECT_EQ(budget, 1000u);
  commit(p, 0);  // as --follow does after each round: a new file's record left at 0 goes
  EXPECT_EQ(plan().span.end, 300u);  // the file as it is now, from its start
  // Past the first bytes: the bytes before the span tell it.
  write(padded(0, 100) + padded(1, 100));
  p = plan();
  commit(p, 2);
  write(padded(2, 100), /*append=*/true);
  SpanPlan next = plan();
  write(padded(0, 100) + padded(9, 100) + padded(2, 100));
  EXPECT_FALSE(read_span(fd_, next, buffer_, budget, 1000));
  EXPECT_EQ(next.span.end, next.span.begin);
  EXPECT_EQ(next.next.offset, 200u);
}

TEST_F(SpanReaderTest, LongLinesWaitForARoundOrGoToTheEngine) {
  write(padded(0, 100) + padded(1, 150) + padded(2, 400) + padded(3, 100));
  SpanPlan p = plan();
  uint64_t budget = 120;  // what is left of a round of 300: the first line only
  EXPECT_TRUE(read_span(fd_, p, buffer_, budget, 300));
  EXPECT_EQ(p.span.text, padded(0, 100));
  commit(p, 1);
  p = plan();
  EXPECT_TRUE(read_span(fd_, p, buffer_, budget, 300));  // 20 bytes left: the 150-byte line waits
  EXPECT_EQ(p.span.end, p.span.begin);
  EXPECT_EQ(p.next.offset, 100u);
  budget = 300;
  EXPECT_TRUE(read_span(fd_, p = plan(), buffer_, budget, 300));
  EXPECT_EQ(p.span.text, padded(1, 150));
  commit(p, 1);
  // The 400-byte line is longer than a round: even with a part of a round
  // left, the span is that line, read by the engine from the file.
  budget = 50;
  p = plan();
  EXPECT_TRUE(read_span(fd_, p, buffer_, budget, 300));
  EXPECT_EQ(p.span.begin, 250u);
  EXPECT_EQ(p.span.end, 650u);
  EXPECT_EQ(p.span.path, "/proc/self/fd/" + std::to_string(fd_));
  EXPECT_EQ(budget, 0u);
  EXPECT_EQ(p.next.offset, 650u);
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
