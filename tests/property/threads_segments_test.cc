// Thread count and segment size change nothing, through the library: a log
// big enough to be cut into many segments (6 MiB of loggen lines at 1000 a
// second, so every second's lines span segments and threads) goes through
// logagg::aggregate (the file, mapped) and aggregate_buffer (its bytes) with
// 1, 2, 3 and 8 threads and segments from 1 byte up, and each result must be
// what the oracles say, not only what another run says: the counts and line
// accounting loggen computed for the log, and the per-app counts of the
// slow reference (tests/reference/).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "reference/reference.h"
#include "support/generated_log.h"

namespace logagg {
namespace {

class ThreadsAndSegments : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    log_ = new testing::GeneratedLog({"--seed", "31", "--bytes", "6M", "--dirty", "0.1", "--crlf", "0.2"});
    ASSERT_TRUE(log_->ok());
    content_ = new std::string(log_->content());
    const reference::Aggregate oracle =
        reference::aggregate_buffer(*content_, "app_id", "timestamp", Options{}.max_line_bytes);
    app_counts_ = new std::map<std::pair<int64_t, std::string>, uint64_t>(oracle.app_counts);
  }
  static void TearDownTestSuite() {
    delete app_counts_;
    delete content_;
    delete log_;
  }

  static testing::GeneratedLog* log_;
  static std::string* content_;
  static std::map<std::pair<int64_t, std::string>, uint64_t>* app_counts_;
};
testing::GeneratedLog* ThreadsAndSegments::log_ = nullptr;
std::string* ThreadsAndSegments::content_ = nullptr;
std::map<std::pair<int64_t, std::string>, uint64_t>* ThreadsAndSegments::app_counts_ = nullptr;

// The differences between `got` and the oracles, empty if none.
std::string differences(const Result& got, const testing::GeneratedLog& log,
                        const std::map<std::pair<int64_t, std::string>, uint64_t>& app_counts, bool by_app) {
  std::string diff;
  if (got.counts != log.expected_counts()) diff += " counts differ from loggen's;";
  const std::map<std::string, uint64_t> want = log.expected_summary();
  const Summary& s = got.summary;
  if (s.lines != want.at("lines")) diff += " lines " + std::to_string(s.lines) + ";";
  if (s.counted != want.at("counted")) diff += " counted " + std::to_string(s.counted) + ";";
  if (s.blank != want.at("blank")) diff += " blank " + std::to_string(s.blank) + ";";
  for (size_t r = 0; r < kReasonCount; ++r) {
    const std::string key(reason_key(static_cast<Reason>(r)));
    if (s.rejected[r] != want.at(key)) diff += " " + key + " " + std::to_string(s.rejected[r]) + ";";
  }
  if (by_app) {
    std::map<std::pair<int64_t, std::string>, uint64_t> apps;
    for (const AppCount& c : got.app_counts) apps[{c.second, got.apps.at(c.app)}] += c.count;
    if (apps != app_counts) diff += " per-app counts differ from the reference's;";
  }
  if (!got.errors.empty()) diff += " error: " + got.errors.front().message;
  return diff;
}

TEST_F(ThreadsAndSegments, EveryRunCountsWhatTheOraclesSay) {
  ASSERT_GT(content_->size(), 4u << 20);
  ASSERT_GT(log_->expected_counts().size(), 10u);
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    for (const size_t segment_bytes : {size_t{0}, size_t{1}, size_t{4096}, size_t{65536}, size_t{1} << 20}) {
      for (const bool by_app : {false, true}) {
        Options options;
        options.threads = threads;
        options.segment_bytes = segment_bytes;
        options.by_app = by_app;
        const std::string where = "threads " + std::to_string(threads) + ", segment_bytes " +
                                  std::to_string(segment_bytes) + (by_app ? ", by app" : "");
        EXPECT_EQ(differences(aggregate({log_->path()}, options), *log_, *app_counts_, by_app), "")
            << "aggregate, " << where;
        EXPECT_EQ(differences(aggregate_buffer(*content_, options), *log_, *app_counts_, by_app), "")
            << "aggregate_buffer, " << where;
      }
    }
  }
}

}  // namespace
}  // namespace logagg
