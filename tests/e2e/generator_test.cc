// End-to-end differential test against the generator: loggen writes a log and,
// independently, exactly what logagg must report for it (the CSV and the line
// accounting by reason). The real binary must match both, for several seeds,
// dirt levels, CRLF mixes, field names and thread counts, mapped and streamed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>

#include "support/generated_log.h"
#include "support/json_numbers.h"
#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
using testing::json_numbers;

struct Case {
  const char* name;
  std::vector<std::string> loggen_args;
  std::vector<std::string> logagg_args;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class GeneratorTest : public ::testing::TestWithParam<Case> {};

TEST_P(GeneratorTest, LogaggReportsExactlyWhatTheGeneratorExpects) {
  const testing::GeneratedLog generated(GetParam().loggen_args);
  ASSERT_TRUE(generated.ok());
  const std::string log = generated.path();
  const std::map<std::string, uint64_t> want = generated.expected_summary();
  ASSERT_GT(want.at("lines"), 0u);

  // Every run mode: mapped with 1 and 2 threads and tiny segments, and
  // standard input through a pipe (streamed, not mapped).
  const std::string content = generated.content();
  testing::RunOptions piped;
  piped.write_stdin = [&content](int fd) {
    for (size_t at = 0; at < content.size();) {
      const ssize_t n = ::write(fd, content.data() + at, content.size() - at);
      if (n <= 0) return;
      at += static_cast<size_t>(n);
    }
  };
  const testing::RunOptions mapped;
  for (const std::string mode : {"threads=1", "threads=2", "stdin"}) {
    const bool from_stdin = mode == "stdin";
    std::vector<std::string> run = {testing::logagg_bin(), from_stdin ? "-" : log, "-q"};
    if (!from_stdin) run.insert(run.end(), {"--threads", mode.substr(8), "--segment-bytes", "4096"});
    run.insert(run.end(), GetParam().logagg_args.begin(), GetParam().logagg_args.end());
    std::vector<std::string> as_csv = run, as_json = run;
    as_csv.insert(as_csv.end(), {"--format", "csv"});
    as_json.insert(as_json.end(), {"--format", "json"});

    const testing::ProcessResult c = testing::run_process(as_csv, from_stdin ? piped : mapped);
    ASSERT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(c.out, generated.expected_csv()) << mode;

    const std::map<std::string, uint64_t> got =
        json_numbers(testing::run_process(as_json, from_stdin ? piped : mapped).out);
    for (const auto& [key, value] : want) EXPECT_EQ(got.at(key), value) << key << ", " << mode;
    EXPECT_EQ(got.at("lines"), got.at("counted") + got.at("blank") + got.at("rejected")) << mode;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Logs, GeneratorTest,
    ::testing::Values(
        Case{"clean", {"--seed", "1", "--lines", "20000", "--dirty", "0"}, {}},
        Case{"dirty", {"--seed", "2", "--lines", "20000", "--dirty", "0.3", "--shuffle", "0.5"}, {}},
        Case{"crlf", {"--seed", "3", "--lines", "20000", "--dirty", "0.1", "--crlf", "0.5"}, {}},
        Case{"slow_rate_crosses_days", {"--seed", "4", "--lines", "5000", "--dirty", "0.5", "--rate", "0.01"}, {}},
        Case{"custom_fields",
             {"--seed", "5", "--lines", "10000", "--dirty", "0.2", "--app-field", "svc", "--time-field", "at"},
             {"--app-field", "svc", "--time-field", "at"}}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace logagg
