// End-to-end tests of the batch features of the logagg binary:
// - --range: random tilings of a file (cuts anywhere, mid-line too) add up,
//   through `logagg merge`, to the whole-file result byte for byte;
// - logagg merge: results of separate files add up to a run over all of them,
//   in every format, and results made with other settings are refused;
// - --since / --until: only lines in [since, until) count, the others are
//   accounted as outside the range;
// - --include / --exclude: which files of a folder are read.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using testing::ProcessResult;

const std::string kSample = testing::source_dir() + "/data/sample.log";

ProcessResult logagg(std::vector<std::string> args, const std::string* input = nullptr) {
  args.insert(args.begin(), testing::logagg_bin());
  return testing::run_process(args, input);
}

class Batch : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/logagg-batch-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& rel, const std::string& content) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  // Runs logagg with `args` and keeps its stdout in a file; expects exit 0.
  std::string result_file(const std::string& name, std::vector<std::string> args) {
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return write(name, r.out);
  }
  fs::path dir_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST_F(Batch, RandomRangeTilingsAddUpToTheWholeFile) {
  const std::string whole = logagg({"--format", "json", "-q", kSample}).out;
  const uint64_t size = fs::file_size(kSample);
  std::mt19937_64 rng(11);
  for (int round = 0; round < 12; ++round) {
    std::vector<uint64_t> cuts{0, size};
    for (int i = 0, n = 1 + static_cast<int>(rng() % 5); i < n; ++i) cuts.push_back(rng() % (size + 1));
    if (round == 0) cuts.push_back(size / 2);  // twice the same cut: an empty piece
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::string> merge{"merge", "--format", "json"};
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const std::string range = std::to_string(cuts[i]) + ":" + std::to_string(cuts[i + 1]);
      merge.push_back(result_file("piece" + std::to_string(i) + ".json", {"--format", "json", "-q", "--range", range, kSample}));
    }
    const ProcessResult merged = logagg(merge);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    ASSERT_EQ(merged.out, whole) << "round " << round;
  }
}

TEST_F(Batch, RangeStartsAtLineStartsAndToleratesAnOpenEnd) {
  const std::string f = write("x.log", "{\"app_id\":\"A\",\"timestamp\":\"2023-11-14T22:13:20Z\"}\n"
                                       "{\"app_id\":\"B\",\"timestamp\":\"2023-11-14T22:13:21Z\"}\n");
  // Byte 1 is inside line 1: the range owns only line 2.
  EXPECT_EQ(logagg({"--format", "csv", "-q", "--range", "1:", f}).out, "second,count\n2023-11-14T22:13:21Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "-q", "--range", "0:1", f}).out, "second,count\n2023-11-14T22:13:20Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "-q", "--range", "0:100000", f}).out,
            "second,count\n2023-11-14T22:13:20Z,1\n2023-11-14T22:13:21Z,1\n");
}

TEST_F(Batch, RangeRefusesWhatItCannotCut) {
  const std::string gz = write("x.log.gz", std::string("\x1F\x8B\x08\x00", 4) + "rest");
  ProcessResult r = logagg({"--range", "0:10", gz});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(gz + ": a byte range (--range) cannot be taken of compressed data"), std::string::npos) << r.err;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--range", "0:10", "-"}, {"--range", "0:10", kSample, kSample}, {"--range", "0:10", dir_.string()},
           {"--range", "10:5", kSample}, {"--range", "abc", kSample}, {"--range", "5", kSample}}) {
    r = logagg(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2];
    EXPECT_NE(r.err.find("--range"), std::string::npos) << r.err;
  }
}

TEST_F(Batch, MergedResultsOfSeparateFilesEqualOneRunOverThemInEveryFormat) {
  const std::string sample = slurp(kSample);
  const size_t third = sample.find('\n', sample.size() / 3) + 1, two_thirds = sample.find('\n', 2 * sample.size() / 3) + 1;
  write("logs/1.log", sample.substr(0, third));
  write("logs/2.log", sample.substr(third, two_thirds - third));
  write("logs/3.log", sample.substr(two_thirds));
  for (const std::string bucket : {"--per-second", "--per-minute", "--overall"}) {
    std::vector<std::string> parts;
    for (const char* name : {"1", "2", "3"}) {
      parts.push_back(result_file(std::string(name) + ".json",
                                  {"--format", "json", "-q", bucket, (dir_ / "logs" / (std::string(name) + ".log")).string()}));
    }
    for (const std::string format : {"json", "csv", "table"}) {
      for (const bool gaps : {false, true}) {
        std::vector<std::string> whole{"--format", format, "-q", bucket, (dir_ / "logs").string()};
        std::vector<std::string> merge{"merge", "--format", format};
        if (gaps) {
          whole.push_back("--fill-gaps");
          merge.push_back("--fill-gaps");
        }
        merge.insert(merge.end(), parts.begin(), parts.end());
        const ProcessResult m = logagg(merge);
        EXPECT_EQ(m.exit_code, 0) << m.err;
        EXPECT_EQ(m.out, logagg(whole).out) << bucket << " " << format << (gaps ? " --fill-gaps" : "");
      }
    }
    // merge --overall adds the results' buckets up into one; --plot cannot draw it.
    const std::vector<std::string> keyed{"--by", "app_id", "--sum", "latency_ms", "--quantiles", "latency_ms"};
    std::vector<std::string> whole{"--format", "csv", "-q", "--overall", (dir_ / "logs").string()};
    std::vector<std::string> merge{"merge", "--overall", "--format", "csv"};
    std::vector<std::string> keyed_parts;
    for (const char* name : {"1", "2", "3"}) {
      std::vector<std::string> args{"--format", "json", "-q", bucket,
                                    (dir_ / "logs" / (std::string(name) + ".log")).string()};
      args.insert(args.end(), keyed.begin(), keyed.end());
      keyed_parts.push_back(result_file(std::string(name) + ".keyed.json", args));
    }
    whole.insert(whole.end(), keyed.begin(), keyed.end());
    merge.insert(merge.end(), keyed_parts.begin(), keyed_parts.end());
    const ProcessResult m = logagg(merge);
    EXPECT_EQ(m.exit_code, 0) << m.err;
    EXPECT_EQ(m.out, logagg(whole).out) << "merge --overall of " << bucket << " results";
    const ProcessResult plot = logagg({"merge", "--overall", "--plot", keyed_parts[0]});
    EXPECT_EQ(plot.exit_code, 2);
    EXPECT_NE(plot.err.find("--plot draws the counts over time"), std::string::npos) << plot.err;
  }
}

TEST_F(Batch, MergeReadsBackSecondsOutsideYears0000To9999) {
  // Offsets move these valid timestamps into UTC years -1 and 10000.
  const std::string log = write("edge.log", "{\"app_id\":\"A\",\"timestamp\":\"0000-01-01T00:00:00+00:01\"}\n"
                                            "{\"app_id\":\"A\",\"timestamp\":\"9999-12-31T23:59:59-01:00\"}\n"
                                            "{\"app_id\":\"A\",\"timestamp\":\"2023-11-14T22:13:20Z\"}\n");
  for (const std::string bucket : {"--per-second", "--per-day"}) {
    const std::string json = result_file("edge.json", {"--format", "json", "-q", bucket, log});
    EXPECT_NE(slurp(json).find("\"-0001-12-31T"), std::string::npos) << slurp(json);
    const ProcessResult merged = logagg({"merge", "--format", "json", json, json});
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    EXPECT_NE(merged.out.find("\"count\": 2"), std::string::npos);
    EXPECT_NE(merged.out.find("10000-01-01T"), std::string::npos) << merged.out;
    EXPECT_EQ(logagg({"merge", "--format", "csv", json}).out, logagg({"--format", "csv", "-q", bucket, log}).out);
  }
}

TEST_F(Batch, MergeRefusesResultsThatDoNotAddUp) {
  const std::string base = result_file("base.json", {"--format", "json", "-q", kSample});
  const std::string minute = result_file("minute.json", {"--format", "json", "-q", "--per-minute", kSample});
  const std::string field = result_file("field.json", {"--format", "json", "-q", "--app-field", "app", kSample});
  const std::string since =
      result_file("since.json", {"--format", "json", "-q", "--since", "2023-11-14T22:14:00Z", kSample});
  std::string edited = slurp(base);
  edited.replace(edited.find("\"counted\": 3361"), 15, "\"counted\": 3360");
  const std::string bad_sum = write("bad-sum.json", edited);
  const std::string csv = write("report.csv", logagg({"--format", "csv", "-q", kSample}).out);
  struct Case {
    std::string other, message;
  };
  for (const Case& c : std::vector<Case>{
           {minute, "made with a different bucket (minute, not second)"},
           {field, "made with a different app field (app, not app_id)"},
           {since, "made with a different --since (2023-11-14T22:14:00Z, not none)"},
           {bad_sum, "does not add up"},  // the checks on the sums name what is off
           {csv, "not a logagg JSON result"},
           {(dir_ / "missing.json").string(), "No such file or directory"},
       }) {
    const ProcessResult r = logagg({"merge", base, c.other});
    EXPECT_EQ(r.exit_code, 1) << c.other;
    EXPECT_EQ(r.out, "") << "nothing is printed when a result does not fit";
    EXPECT_NE(r.err.find("logagg: " + c.other + ": "), std::string::npos) << r.err;
    if (c.message != "does not add up") EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  EXPECT_EQ(logagg({"merge"}).exit_code, 2);
}

TEST_F(Batch, SinceAndUntilCountOnlyLinesInTheRangeAndAccountForTheRest) {
  // The expected rows: those of the full report in [22:14:00Z, 22:15:00Z),
  // --until given with an offset.
  std::istringstream rows(logagg({"--format", "csv", "-q", kSample}).out);
  std::string want, row;
  std::getline(rows, want);
  want += "\n";
  while (std::getline(rows, row)) {
    const std::string second = row.substr(0, 20);
    if (second >= "2023-11-14T22:14:00Z" && second < "2023-11-14T22:15:00Z") want += row + "\n";
  }
  const ProcessResult r =
      logagg({"--format", "csv", "--since", "2023-11-14T22:14:00Z", "--until", "2023-11-14T23:15:00+01:00", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, want);
  EXPECT_NE(r.err.find("outside --since/--until"), std::string::npos) << r.err;

  const ProcessResult json = logagg({"--format", "json", "-q", "--since", "2023-11-14T22:14:00Z", "--until",
                                     "2023-11-14T22:15:00Z", kSample});
  EXPECT_NE(json.out.find("\"since\": \"2023-11-14T22:14:00Z\",\n  \"until\": \"2023-11-14T22:15:00Z\""),
            std::string::npos);
  EXPECT_NE(json.out.find("\"counted\": 1432,\n    \"outside_range\": 1929,"), std::string::npos) << json.out;
  EXPECT_EQ(logagg({"--since", "2023-11-14T22:14:00Z", "--until", "2023-11-14T22:14:00Z", kSample}).exit_code, 2);
  EXPECT_EQ(logagg({"--until", "yesterday", kSample}).exit_code, 2);
}

TEST_F(Batch, IncludeAndExcludeChooseTheFilesOfAFolder) {
  const auto one = [](const std::string& ts) { return "{\"app_id\":\"A\",\"timestamp\":\"" + ts + "\"}\n"; };
  write("logs/a.log", one("2023-11-14T22:00:01Z"));
  write("logs/b.txt", one("2023-11-14T22:00:02Z"));
  write("logs/sub/c.log", one("2023-11-14T22:00:03Z"));
  write("logs/sub/d.log.1", one("2023-11-14T22:00:04Z"));
  const std::string dir = (dir_ / "logs").string();
  const auto seconds = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--format", "csv", "-q"});
    args.push_back(dir);
    std::string out = logagg(args).out, digits;
    for (size_t at = out.find(":00:0"); at != std::string::npos; at = out.find(":00:0", at + 1)) digits += out[at + 5];
    return digits;
  };
  EXPECT_EQ(seconds({}), "1234");
  EXPECT_EQ(seconds({"--include", "*.log"}), "13");                      // file names, at any depth
  EXPECT_EQ(seconds({"--include", "*.log", "--include", "*.log.*"}), "134");
  EXPECT_EQ(seconds({"--exclude", "sub/*"}), "12");                      // with '/', the relative path
  EXPECT_EQ(seconds({"--include", "sub/*.log"}), "3");
  EXPECT_EQ(seconds({"--include", "*.log*", "--exclude", "c.*"}), "14");
  // A file named directly is read whatever the globs.
  EXPECT_EQ(logagg({"--format", "csv", "-q", "--include", "*.log", (dir_ / "logs/b.txt").string()}).out,
            "second,count\n2023-11-14T22:00:02Z,1\n");
}

}  // namespace
}  // namespace logagg
