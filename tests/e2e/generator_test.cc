// End-to-end differential test against the generator: loggen writes a log and,
// independently, exactly what logagg must report for it (the CSV and the line
// accounting by reason). The real binary must match both, for several seeds,
// dirt levels, CRLF mixes, field names and thread counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "support/json_numbers.h"
#include "support/run_process.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;

using testing::json_numbers;

struct Case {
  const char* name;
  std::vector<std::string> loggen_args;
  std::vector<std::string> logagg_args;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class GeneratorTest : public ::testing::TestWithParam<Case> {};

TEST_P(GeneratorTest, LogaggReportsExactlyWhatTheGeneratorExpects) {
  char tmpl[] = "/tmp/logagg-gen-XXXXXX";
  const fs::path dir = mkdtemp(tmpl);
  const std::string log = (dir / "access.log").string();
  const std::string csv = (dir / "expected.csv").string();
  const std::string summary = (dir / "expected.json").string();

  std::vector<std::string> gen = {LOGGEN_BIN, "-o", log, "--expected", csv, "--expected-summary", summary};
  gen.insert(gen.end(), GetParam().loggen_args.begin(), GetParam().loggen_args.end());
  ASSERT_EQ(testing::run_process(gen).exit_code, 0);
  const std::map<std::string, uint64_t> want = json_numbers(testing::slurp(summary));
  ASSERT_GT(want.at("lines"), 0u);

  // Every run mode: mapped with 1 and 2 threads and tiny segments, and standard input.
  const std::string content = testing::slurp(log);
  for (const std::string mode : {"threads=1", "threads=2", "stdin"}) {
    const bool from_stdin = mode == "stdin";
    std::vector<std::string> run = {LOGAGG_BIN, from_stdin ? "-" : log, "-q"};
    if (!from_stdin) run.insert(run.end(), {"--threads", mode.substr(8), "--segment-bytes", "4096"});
    run.insert(run.end(), GetParam().logagg_args.begin(), GetParam().logagg_args.end());
    std::vector<std::string> as_csv = run, as_json = run;
    as_csv.insert(as_csv.end(), {"--format", "csv"});
    as_json.insert(as_json.end(), {"--format", "json"});

    const testing::ProcessResult c = testing::run_process(as_csv, from_stdin ? &content : nullptr);
    ASSERT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(c.out, testing::slurp(csv)) << mode;

    const std::map<std::string, uint64_t> got =
        json_numbers(testing::run_process(as_json, from_stdin ? &content : nullptr).out);
    for (const auto& [key, value] : want) EXPECT_EQ(got.at(key), value) << key << ", " << mode;
    EXPECT_EQ(got.at("lines"), got.at("counted") + got.at("blank") + got.at("rejected")) << mode;
  }
  fs::remove_all(dir);
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
