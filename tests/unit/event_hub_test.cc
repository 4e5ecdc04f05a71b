// Tests for /events' rows (engine/src/serve/event_hub.cc): each row an event
// with its id and the --follow --format json line, the last buckets kept for
// a client that connects, a gap told to one that fell behind, and a stop that
// wakes every waiting client at once and still hands out what was published
// before it.
#include "serve/event_hub.h"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace logagg {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kT0 = 1700000000;

// The text with each id's run ("id: RUN.N") left out: "id: N".
std::string numbered(const std::string& text) { return std::regex_replace(text, std::regex("id: [0-9]+\\."), "id: "); }

// The run part of the ids in `text`.
std::string run_of(const std::string& text) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("id: ([0-9]+)\\.")) ? m[1].str() : "";
}

std::vector<FollowRow> rows(int64_t start, int n, bool correction = false) {
  std::vector<FollowRow> out;
  for (int i = 0; i < n; ++i) out.push_back({start, "", static_cast<uint64_t>(i + 1), correction});
  return out;
}

// The rows as /events publishes them (row_events).
void publish(EventHub& hub, const std::vector<FollowRow>& rows) {
  ReportOptions json;
  json.format = Format::kJson;
  hub.publish(row_events(FollowWriter(Query(Options{}), json), rows));
}

TEST(EventHub, RowsAreEventsWithIdsAndTheirJsonLine) {
  EventHub hub(10);
  EXPECT_EQ(hub.start_after(""), 0u);
  EXPECT_EQ(hub.last_event_id(), "");
  uint64_t after = hub.start_after("");
  EXPECT_EQ(hub.take_after(after, 0ms), "");  // nothing yet: returns after the wait
  publish(hub, rows(kT0, 1));
  publish(hub, {{kT0, "", 5, true}});
  EXPECT_EQ(numbered(hub.take_after(after, 0ms)),
            "id: 1\ndata: {\"second\": \"2023-11-14T22:13:20Z\", \"count\": 1}\n\n"
            "id: 2\ndata: {\"second\": \"2023-11-14T22:13:20Z\", \"count\": 5, \"correction\": true}\n\n");
  EXPECT_EQ(after, 2u);
  EXPECT_EQ(hub.take_after(after, 0ms), "");
  // A client that starts after the last id gets only what comes next.
  uint64_t next = hub.start_after(hub.last_event_id());
  EXPECT_EQ(next, 2u);
  publish(hub, rows(kT0 + 1, 1));
  EXPECT_EQ(numbered(hub.take_after(next, 0ms)),
            "id: 3\ndata: {\"second\": \"2023-11-14T22:13:21Z\", \"count\": 1}\n\n");
}

TEST(EventHub, TheLastBucketsAreKeptAndAClientBehindIsToldTheGap) {
  EventHub hub(2);
  uint64_t behind = 0;
  for (int64_t s = 0; s < 4; ++s) publish(hub, rows(kT0 + s, 2));  // 8 rows, of 4 buckets
  // Kept: the rows of the last two buckets (ids 5..8).
  EXPECT_EQ(hub.start_after(""), 4u);
  uint64_t fresh = hub.start_after("");
  const std::string text = hub.take_after(fresh, 0ms);
  const std::string all = numbered(text);
  EXPECT_EQ(all.find("id: 5\n"), 0u) << all;
  EXPECT_NE(all.find("id: 8\n"), std::string::npos);
  EXPECT_EQ(fresh, 8u);
  const std::string late = numbered(hub.take_after(behind, 0ms));
  EXPECT_EQ(late.find("event: gap\ndata: {\"missed\":4}\n\nid: 5\n"), 0u) << late;
  EXPECT_EQ(behind, 8u);
  // A client coming back: after the id it last got, if of this run and
  // not past the last; else from what is kept.
  const std::string run = run_of(text);
  ASSERT_FALSE(run.empty());
  EXPECT_EQ(hub.start_after(run + ".6"), 6u);
  EXPECT_EQ(hub.start_after(run + ".2"), 2u);  // behind: take_after tells the gap
  EXPECT_EQ(hub.start_after(run + ".9"), 4u);  // past the last: not this run's
  EXPECT_EQ(hub.start_after("1.6"), 4u);       // another run's
  EXPECT_EQ(hub.start_after(run + ".x"), 4u);
}

TEST(EventHub, AClientFarBehindGetsTheRowsInPieces) {
  EventHub hub(100000);
  for (int64_t s = 0; s < 20000; ++s) publish(hub, rows(kT0 + s, 1));
  uint64_t after = hub.start_after("");
  size_t pieces = 0, events = 0;
  for (std::string text; !(text = hub.take_after(after, 0ms)).empty(); ++pieces) {
    EXPECT_LE(text.size(), EventHub::kMaxTake + 200);
    for (size_t at = text.find("id: "); at != std::string::npos; at = text.find("id: ", at + 1)) ++events;
  }
  EXPECT_EQ(events, 20000u);
  EXPECT_GT(pieces, 1u);
  EXPECT_EQ(after, 20000u);
}

TEST(EventHub, AStopWakesAWaitingClientAtOnce) {
  EventHub hub(10);
  std::string got = "unset";
  const auto start = std::chrono::steady_clock::now();
  std::thread client([&] {
    uint64_t after = 0;
    got = hub.take_after(after, 60s);
  });
  std::this_thread::sleep_for(50ms);
  hub.stop();
  client.join();
  EXPECT_EQ(got, "");
  EXPECT_TRUE(hub.stopped());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  uint64_t after = 0;
  EXPECT_EQ(hub.take_after(after, 60s), "");  // at once from then on
}

TEST(EventHub, AfterAStopAClientStillGetsWhatWasPublishedBefore) {
  EventHub hub(10);
  publish(hub, rows(kT0, 2));  // the last rows of a run, published just before the server stops
  hub.stop();
  uint64_t after = 0;
  EXPECT_EQ(numbered(hub.take_after(after, 60s)).find("id: 1\n"), 0u);
  EXPECT_EQ(after, 2u);
  EXPECT_EQ(hub.take_after(after, 60s), "");  // then nothing, at once
}

TEST(EventHub, AWaitingClientGetsARowAsItIsPublished) {
  EventHub hub(10);
  std::string got;
  std::thread client([&] {
    uint64_t after = 0;
    got = hub.take_after(after, 60s);
  });
  std::this_thread::sleep_for(20ms);
  publish(hub, rows(kT0, 1));
  client.join();
  EXPECT_EQ(numbered(got).find("id: 1\n"), 0u) << got;
}

}  // namespace
}  // namespace logagg
