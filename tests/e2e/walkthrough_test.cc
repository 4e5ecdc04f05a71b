// The profiling walkthrough's stages (profiling/walkthrough/stages.h) are five
// complete aggregators with the engine's rules: on every test log each stage,
// the engine's own stage 4 included, must give the counts and line accounting
// of an independent oracle, and the engine's, so its report is byte-identical
// in every format. The logs and their oracles: data/sample.log and loggen logs
// full of tricky lines, whose counts and accounting by reason loggen computes
// on its own (it regenerates the sample byte for byte), and a hand-written log
// of the corner cases where the naive libraries differ from the engine by
// default (see the readers' and date::parse's header comments), whose counts
// are pinned by hand. The one divergence left is pinned too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/report.h"
#include "stages.h"
#include "support/generated_log.h"
#include "support/report_as.h"
#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using walkthrough::kStages;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/logagg-walkthrough-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string write_file(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// Every stage's reports against the engine's, in every format.
void expect_stages_agree(const std::string& log, const Options& options) {
  const Result engine = aggregate({log}, options);
  ASSERT_TRUE(engine.errors.empty()) << log;
  ASSERT_GT(engine.summary.lines, 0u) << log;
  for (size_t n = 0; n < kStages.size(); ++n) {
    const Result stage = kStages[n].run(log, options);
    const std::string where = log + ", stage " + std::to_string(n) + " " + std::string(kStages[n].name);
    EXPECT_TRUE(stage.errors.empty()) << where;
    EXPECT_EQ(stage.counts, engine.counts) << where;
    EXPECT_EQ(stage.summary.lines, engine.summary.lines) << where;
    EXPECT_EQ(stage.summary.counted, engine.summary.counted) << where;
    EXPECT_EQ(stage.summary.blank, engine.summary.blank) << where;
    EXPECT_EQ(stage.summary.rejected, engine.summary.rejected) << where;
    for (const Format f : {Format::kTable, Format::kCsv, Format::kJson}) {
      EXPECT_EQ(format_report(stage, as(f)), format_report(engine, as(f))) << where;
    }
  }
}

// Every stage's counts and line accounting against what loggen expects for `log`.
void expect_stages_match_the_generator(const testing::GeneratedLog& log, const Options& options) {
  const std::map<std::string, uint64_t> want = log.expected_summary();
  for (size_t n = 0; n < kStages.size(); ++n) {
    const Result stage = kStages[n].run(log.path(), options);
    const std::string where = "stage " + std::to_string(n) + " " + std::string(kStages[n].name);
    EXPECT_EQ(format_report(stage, as(Format::kCsv)), log.expected_csv()) << where;
    EXPECT_EQ(stage.summary.lines, want.at("lines")) << where;
    EXPECT_EQ(stage.summary.counted, want.at("counted")) << where;
    EXPECT_EQ(stage.summary.blank, want.at("blank")) << where;
    for (size_t r = 0; r < kReasonCount; ++r) {
      const std::string key(reason_key(static_cast<Reason>(r)));
      EXPECT_EQ(stage.summary.rejected[r], want.at(key)) << key << ", " << where;
    }
  }
}

TEST(WalkthroughStages, AgreeOnTheSampleLogWithTheGenerator) {
  const Options options;
  const std::string sample = testing::source_dir() + "/data/sample.log";
  expect_stages_agree(sample, options);
  // data/README.md: the sample is loggen's, so loggen's expectations hold for it.
  const testing::GeneratedLog log({"--seed", "42", "--lines", "3500", "--dirty", "0.05", "--rate", "25"});
  ASSERT_TRUE(log.ok());
  ASSERT_EQ(log.content(), testing::slurp(sample)) << "data/sample.log is no longer loggen's";
  expect_stages_match_the_generator(log, options);
  EXPECT_EQ(log.expected_summary().at("counted"), 3361u);  // the README's figure
}

struct GeneratedLogCase {
  const char* name;
  std::vector<std::string> loggen_args;
  std::string app_field = "app_id", time_field = "timestamp";
};

void PrintTo(const GeneratedLogCase& g, std::ostream* os) { *os << g.name; }

class WalkthroughOnGeneratedLogs : public ::testing::TestWithParam<GeneratedLogCase> {};

TEST_P(WalkthroughOnGeneratedLogs, EveryStageMatchesTheGeneratorAndTheEngine) {
  const testing::GeneratedLog log(GetParam().loggen_args);
  ASSERT_TRUE(log.ok());
  Options options;
  options.app_field = GetParam().app_field;
  options.time_field = GetParam().time_field;
  expect_stages_agree(log.path(), options);
  expect_stages_match_the_generator(log, options);
}

INSTANTIATE_TEST_SUITE_P(
    Logs, WalkthroughOnGeneratedLogs,
    ::testing::Values(
        GeneratedLogCase{"dirty", {"--seed", "11", "--lines", "20000", "--dirty", "0.5", "--shuffle", "0.5"}},
        GeneratedLogCase{"crlf_slow_rate", {"--seed", "12", "--lines", "10000", "--dirty", "0.3", "--crlf", "0.5",
                                            "--rate", "0.05"}},
        GeneratedLogCase{"custom_fields",
                         {"--seed", "13", "--lines", "10000", "--dirty", "0.3", "--app-field", "svc",
                          "--time-field", "at"},
                         "svc",
                         "at"}),
    [](const auto& info) { return std::string(info.param.name); });

// Each line below is one where a naive library's default differs from the
// engine's rule; the stages must follow the engine.
std::string corner_case_log() {
  const std::string ok = R"("app_id":"App1","timestamp":"2023-11-14T22:13:20Z")";
  const std::string deep = std::string(2000, '[') + std::string(2000, ']');
  std::vector<std::string> lines = {
      "\xEF\xBB\xBF{" + ok + "}",                                  // BOM at the start of the file: skipped
      "\xEF\xBB\xBF{" + ok + "}",                                  // BOM anywhere else: invalid JSON
      "{" + ok + ",\"n\":1e999,\"m\":98765432109876543210}",       // beyond double and uint64_t: valid
      "{" + ok + ",\"n\":1.7976931348623157e309}",                 //
      "{" + ok + ",\"deep\":" + deep + "}",                        // deeper than simdjson's DOM allows
      "{" + ok + ",\"app_id\":\"App2\"}",                          // duplicate app: a DOM keeps the last
      R"({"timestamp":"2023-11-14T22:13:20Z","app_id":"A","timestamp":1})",  // duplicate time, not a string
      R"({"app\u005fid":"App1","timestamp":"2023-11-14T22:13:21Z"})",        // escaped key
      R"({"app_id":"App1","timestamp":"2023-11-14t22:13:22z"})",             // lowercase t and z
      R"({"app_id":"App1","timestamp":"2023-11-14 22:13:23+00:00"})",        // space separator
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:24.999999999999999+00:00"})",  // long fraction
      R"({"app_id":"App1","timestamp":"2016-12-31T23:59:60Z"})",             // leap second
      R"({"app_id":"App1","timestamp":"2017-01-01T00:59:60+01:00"})",        // leap second, offset
      R"({"app_id":"App1","timestamp":"2016-12-31T22:59:60Z"})",             // not a leap second
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20+23:59"})",
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20+24:00"})",        // date::parse takes these
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20-05:60"})",
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20+0200"})",
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20+02"})",
      R"({"app_id":"App1","timestamp":"2023-1-14T22:13:20Z"})",
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20Z "})",
      R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20.Z"})",
      R"({"app_id":"App1","timestamp":"0000-01-01T00:00:00+00:01"})",        // into year -1
      R"({"app_id":"App1","timestamp":"9999-12-31T23:59:59-01:00"})",        // into year 10000
      R"({"app_id":"App\n1","timestamp":"2023-11-14T22:13:20Z"})",           // regex anchors
      R"({"app_id":"App1\u0000","timestamp":"2023-11-14T22:13:20Z"})",
      R"({"app_id":"Caf\u00e9","timestamp":"2023-11-14T22:13:20Z"})",
      R"({"app_id":"","timestamp":"2023-11-14T22:13:20Z"})",
      R"({"app_id":"\ud800","timestamp":"2023-11-14T22:13:20Z"})",           // lone surrogate
      "{" + ok + "} {}",
      "[{" + ok + "}]",
      "  \t",
      "{" + ok + "}\r",                                            // CR before LF: dropped
      "{" + ok + std::string(6000, ' ') + "}",                     // too long (max_line_bytes 5000 below)
      "{" + ok + "}",                                              // last line, no LF
  };
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  text.pop_back();
  return text;
}

TEST(WalkthroughStages, AgreeOnEveryCornerWhereTheNaiveLibrariesDiffer) {
  const TempDir dir;
  Options options;
  options.max_line_bytes = 5000;
  const std::string log = write_file(dir.file("corners.log"), corner_case_log());
  expect_stages_agree(log, options);
  // Pinned by hand from the comments above, so stage 4 is held to more than itself.
  ReasonCounts rejected{};
  rejected[static_cast<size_t>(Reason::kLineTooLong)] = 1;
  rejected[static_cast<size_t>(Reason::kInvalidJson)] = 3;
  rejected[static_cast<size_t>(Reason::kNotObject)] = 1;
  rejected[static_cast<size_t>(Reason::kDuplicateApp)] = 1;
  rejected[static_cast<size_t>(Reason::kBadApp)] = 4;
  rejected[static_cast<size_t>(Reason::kDuplicateTime)] = 1;
  rejected[static_cast<size_t>(Reason::kBadTime)] = 8;
  for (size_t n = 0; n < kStages.size(); ++n) {
    const Result stage = kStages[n].run(log, options);
    EXPECT_EQ(stage.summary.lines, 35u) << "stage " << n;
    EXPECT_EQ(stage.summary.counted, 15u) << "stage " << n;
    EXPECT_EQ(stage.summary.blank, 1u) << "stage " << n;
    EXPECT_EQ(stage.summary.rejected, rejected) << "stage " << n;
  }
}

TEST(WalkthroughStages, AgreeOnFilesOfOnlyABomOrNothing) {
  const TempDir dir;
  const Options options;
  for (const std::string content : {"\xEF\xBB\xBF", "\xEF\xBB\xBF\n", "", "\n", "\r\n", "x\r"}) {
    const std::string log = write_file(dir.file("tiny.log"), content);
    const Result engine = aggregate({log}, options);
    for (size_t n = 0; n < kStages.size(); ++n) {
      EXPECT_EQ(format_report(kStages[n].run(log, options), as(Format::kJson)),
                format_report(engine, as(Format::kJson)))
          << "stage " << n << ", content " << ::testing::PrintToString(content);
    }
  }
}

TEST(WalkthroughStages, ReportAMissingFileAsTheEngineDoes) {
  for (size_t n = 0; n < kStages.size(); ++n) {
    const Result r = kStages[n].run("/nonexistent/access.log", Options{});
    ASSERT_EQ(r.errors.size(), 1u) << "stage " << n;
    EXPECT_EQ(r.errors[0].message, "No such file or directory") << "stage " << n;
    EXPECT_EQ(r.summary.unreadable, 1u) << "stage " << n;
  }
}

// The divergence the naive stages keep (json_nlohmann.cc): a number beyond
// long double's range. RFC 8259 allows it and the engine counts the line;
// nlohmann/json, and simdjson's DOM that falls back on it, refuse it.
TEST(WalkthroughStages, DivergeOnlyOnNumbersBeyondLongDouble) {
  const TempDir dir;
  const Options options;
  const std::string log =
      write_file(dir.file("huge.log"), R"({"app_id":"App1","timestamp":"2023-11-14T22:13:20Z","n":1e5000})" "\n");
  EXPECT_EQ(aggregate({log}, options).summary.counted, 1u);
  for (size_t n = 0; n + 1 < kStages.size(); ++n) {
    EXPECT_EQ(kStages[n].run(log, options).summary.rejected[static_cast<size_t>(Reason::kInvalidJson)], 1u)
        << "stage " << n;
  }
}

}  // namespace
}  // namespace logagg
