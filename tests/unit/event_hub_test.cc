// Tests for /events' rows (engine/src/serve/event_hub.cc): each row an event
// with its id and the --follow --format json line, the last buckets kept for
// a client that connects, a gap told to one that fell behind, and a stop that
// wakes every waiting client at once.
#include "serve/event_hub.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace logagg {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kT0 = 1700000000;

std::vector<FollowRow> rows(int64_t start, int n, bool correction = false) {
  std::vector<FollowRow> out;
  for (int i = 0; i < n; ++i) out.push_back({start, "", static_cast<uint64_t>(i + 1), correction});
  return out;
}

TEST(EventHub, RowsAreEventsWithIdsAndTheirJsonLine) {
  EventHub hub(Query(Options{}), ReportOptions{}, 10);
  EXPECT_EQ(hub.before_kept(), 0u);
  uint64_t after = hub.before_kept();
  EXPECT_EQ(hub.take_after(after, 0ms), "");  // nothing yet: returns after the wait
  hub.publish(rows(kT0, 1));
  hub.publish({{kT0, "", 5, true}});
  EXPECT_EQ(hub.take_after(after, 0ms),
            "id: 1\ndata: {\"second\": \"2023-11-14T22:13:20Z\", \"count\": 1}\n\n"
            "id: 2\ndata: {\"second\": \"2023-11-14T22:13:20Z\", \"count\": 5, \"correction\": true}\n\n");
  EXPECT_EQ(after, 2u);
  EXPECT_EQ(hub.take_after(after, 0ms), "");
}

TEST(EventHub, TheLastBucketsAreKeptAndAClientBehindIsToldTheGap) {
  EventHub hub(Query(Options{}), ReportOptions{}, 2);
  uint64_t behind = 0;
  for (int64_t s = 0; s < 4; ++s) hub.publish(rows(kT0 + s, 2));  // 8 rows, of 4 buckets
  // Kept: the rows of the last two buckets (ids 5..8).
  EXPECT_EQ(hub.before_kept(), 4u);
  uint64_t fresh = hub.before_kept();
  const std::string all = hub.take_after(fresh, 0ms);
  EXPECT_EQ(all.find("id: 5\n"), 0u) << all;
  EXPECT_NE(all.find("id: 8\n"), std::string::npos);
  EXPECT_EQ(fresh, 8u);
  const std::string late = hub.take_after(behind, 0ms);
  EXPECT_EQ(late.find("event: gap\ndata: {\"missed\":4}\n\nid: 5\n"), 0u) << late;
  EXPECT_EQ(behind, 8u);
}

TEST(EventHub, AStopWakesAWaitingClientAtOnce) {
  EventHub hub(Query(Options{}), ReportOptions{}, 10);
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

TEST(EventHub, AWaitingClientGetsARowAsItIsPublished) {
  EventHub hub(Query(Options{}), ReportOptions{}, 10);
  std::string got;
  std::thread client([&] {
    uint64_t after = 0;
    got = hub.take_after(after, 60s);
  });
  std::this_thread::sleep_for(20ms);
  hub.publish(rows(kT0, 1));
  client.join();
  EXPECT_EQ(got.find("id: 1\n"), 0u) << got;
}

}  // namespace
}  // namespace logagg
