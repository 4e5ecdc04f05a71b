// Tests for the live dashboard's window and events (engine/src/serve/live_page.cc):
// the new buckets sent from the last one the page has (empty ones between as
// zeros), a correction as its bucket alone, every key of a bucket (none folded
// into "(other)"), buckets past the window or its rows dropped, a document that would be
// binned sent as a reload, and the page of the window following its stream.
// That Chromium merges the events into the charts is serve_e2e's.
#include "serve/live_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace logagg {
namespace {

constexpr int64_t kT0 = 1700000000;

Query red_query() {
  Options o;
  o.by = {KeyField{"host"}};
  o.count_if = {"status>=500"};
  return Query(o);
}

FollowRow row(int64_t start, std::string host, uint64_t n, uint64_t errors, bool correction = false) {
  FollowRow r{start, std::move(host), n, correction};
  r.measures.count = n;
  r.measures.matched = {errors};
  return r;
}

// The part of `json` from "KEY": to the end of its value's first array.
std::string value_of(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "(none)";
  size_t end = at, depth = 0;
  do {
    if (json[end] == '[') ++depth;
    if (json[end] == ']') --depth;
    ++end;
  } while (end < json.size() && (depth > 0 || json[end - 1] != ']'));
  return json.substr(at + key.size() + 3, end - at - key.size() - 3);
}

TEST(LivePage, NewBucketsComeFromTheLastOneTheyFollowWithEmptyOnesAsZeros) {
  LivePage page(red_query(), ReportOptions{}, 100);
  std::vector<StreamEvent> events = page.add({row(kT0, "web", 3, 1), row(kT0, "api", 2, 0), row(kT0 + 1, "web", 1, 1)});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].start, kT0);
  EXPECT_EQ(value_of(events[0].data, "names"), R"(["api","web"])");
  EXPECT_EQ(value_of(events[0].data, "x"), "[1700000000,1700000001]");
  EXPECT_EQ(value_of(events[0].data, "y"), "[[2,0],[3,1]]");
  EXPECT_EQ(events[0].data.find('\n'), std::string::npos);  // one line: one data: line of an event

  events = page.add({row(kT0 + 4, "db", 5, 5)});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].start, kT0 + 1);  // from the last the page has, so the gap comes as zeros
  EXPECT_EQ(value_of(events[0].data, "names"), R"(["db","web"])");
  EXPECT_EQ(value_of(events[0].data, "x"), "[1700000001,1700000002,1700000003,1700000004]");
  EXPECT_EQ(value_of(events[0].data, "y"), "[[0,0,0,5],[1,0,0,0]]");
  // count(status>=500) of all keys, and the ratio: none where no line was.
  EXPECT_NE(events[0].data.find(R"("v":[1,0,0,5])"), std::string::npos) << events[0].data;
  EXPECT_NE(events[0].data.find(R"("v":[1.0000,null,null,1.0000])"), std::string::npos) << events[0].data;
}

TEST(LivePage, ACorrectionIsItsBucketAloneAndEveryKeyIsSent) {
  LivePage page(red_query(), ReportOptions{}, 100);
  std::vector<FollowRow> many;
  for (int k = 0; k < 30; ++k) many.push_back(row(kT0, "h" + std::to_string(k), 1, 0));
  many.push_back(row(kT0 + 2, "web", 1, 0));
  page.add(many);
  const std::vector<StreamEvent> events = page.add({row(kT0, "h7", 4, 2, true), row(kT0 + 3, "web", 2, 0)});
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(value_of(events[0].data, "x"), "[1700000000]");
  EXPECT_EQ(value_of(events[0].data, "names").find("(other)"), std::string::npos);  // 30 keys, all named
  EXPECT_NE(value_of(events[0].data, "names").find("\"h29\""), std::string::npos);
  EXPECT_EQ(value_of(events[1].data, "x"), "[1700000002,1700000003]");
}

TEST(LivePage, AnEventNamesTheBusiestKeysAndAddsUpTheRest) {
  LivePage page(red_query(), ReportOptions{}, 100);
  std::vector<FollowRow> many;
  for (size_t k = 0; k < LivePage::kEventKeys + 5; ++k) {
    many.push_back(row(kT0, "h" + std::to_string(k), k < 10 ? 100 : 1, 0));
  }
  const std::vector<StreamEvent> events = page.add(many);
  ASSERT_EQ(events.size(), 1u);
  const std::string names = value_of(events[0].data, "names");
  EXPECT_NE(names.find(R"("h9")"), std::string::npos);
  EXPECT_NE(names.find(R"x("(other)"])x"), std::string::npos) << names;  // the 5 left out, last
  EXPECT_EQ(std::count(names.begin(), names.end(), ','), static_cast<long>(LivePage::kEventKeys));
}

TEST(LivePage, TheWindowKeepsTheLastBucketsAndDropsOlderCorrections) {
  LivePage page(red_query(), ReportOptions{}, 2);
  page.add({row(kT0, "web", 1, 0), row(kT0 + 1, "web", 2, 0), row(kT0 + 2, "web", 3, 0)});
  EXPECT_TRUE(page.add({row(kT0, "web", 9, 0, true)}).empty());  // older than the window
  const LivePage::Snapshot window = page.snapshot();
  ASSERT_EQ(window.size(), 2u);
  EXPECT_EQ(window.begin()->first, kT0 + 1);
  EXPECT_EQ(window.rbegin()->second->at("web").count, 3u);
}

TEST(LivePage, PastItsRowsTheOldestBucketsGo) {
  LivePage page(red_query(), ReportOptions{}, 100, /*max_rows=*/25);
  for (int64_t s = 0; s < 5; ++s) {
    std::vector<FollowRow> rows;
    for (int k = 0; k < 10; ++k) rows.push_back(row(kT0 + s, "h" + std::to_string(k), 1, 0));
    page.add(rows);
  }
  const LivePage::Snapshot window = page.snapshot();  // 20 rows: the last three buckets would be 30
  ASSERT_EQ(window.size(), 2u);
  EXPECT_EQ(window.begin()->first, kT0 + 3);
  EXPECT_EQ(window.begin()->second->size(), 10u);
}

TEST(LivePage, ASnapshotStaysAsItWasWhileTheWindowChanges) {
  LivePage page(red_query(), ReportOptions{}, 100);
  page.add({row(kT0, "web", 1, 0)});
  const LivePage::Snapshot before = page.snapshot();
  page.add({row(kT0, "web", 5, 1, true), row(kT0, "api", 2, 0, true)});
  EXPECT_EQ(before.at(kT0)->size(), 1u);
  EXPECT_EQ(before.at(kT0)->at("web").count, 1u);
  EXPECT_EQ(page.snapshot().at(kT0)->at("web").count, 5u);
}

TEST(LivePage, NewBucketsAfterAGapLongerThanTheWindowAreAReload) {
  LivePage page(red_query(), ReportOptions{}, 10);
  page.add({row(kT0, "web", 1, 0)});
  const std::vector<StreamEvent> events = page.add({row(kT0 + 11, "web", 1, 0)});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, R"({"reload":true})");
  EXPECT_EQ(page.add({row(kT0 + 12, "web", 1, 0)})[0].data.find("reload"), std::string::npos);
}

TEST(LivePage, ADocumentThatWouldBeBinnedIsAReload) {
  LivePage page(red_query(), ReportOptions{}, 300000);
  page.add({row(kT0, "web", 1, 0)});
  const std::vector<StreamEvent> events = page.add({row(kT0 + 250000, "web", 1, 0)});  // past kMaxHtmlPoints
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, R"({"reload":true})");
}

TEST(LivePage, ThePageFollowsItsStreamAndSaysWhatItShows) {
  LivePage page(red_query(), ReportOptions{}, 50);
  page.add({row(kT0, "web", 3, 1)});
  Summary summary;
  summary.counted = 3;
  const std::string html = page.page(page.snapshot(), summary, "/page-events?after=1.1");
  EXPECT_NE(html.find(R"("live":{"events":"/page-events?after=1.1","points":50})"), std::string::npos);
  EXPECT_NE(html.find("connect-src 'self'"), std::string::npos);
  EXPECT_NE(html.find("the last 50 buckets kept"), std::string::npos);
  EXPECT_NE(html.find("Every key over the last 50 buckets kept"), std::string::npos);
  EXPECT_NE(html.find("logagg: requests per second by host, live"), std::string::npos);
}

}  // namespace
}  // namespace logagg
