// End-to-end tests of the real logagg binary: formats, folders, stdin, fields,
// rejected-line locations, summary, exit codes and messages, and byte-identical
// output for every thread count.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run_process.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using testing::ProcessResult;

const std::string kBin = LOGAGG_BIN;
const std::string kSample = std::string(LOGAGG_SOURCE_DIR) + "/data/sample.log";

ProcessResult logagg(std::vector<std::string> args, const std::string* input = nullptr) {
  args.insert(args.begin(), kBin);
  return testing::run_process(args, input);
}

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/logagg-cli-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(dir_);
  }
  std::string write(const std::string& rel, const std::string& content) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  fs::path dir_;
};

std::string line(const std::string& app, const std::string& ts) {
  return R"({"app_id":")" + app + R"(","timestamp":")" + ts + "\"}\n";
}

TEST_F(Files, CsvIsExactAndAddsUpAcrossInputs) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + line("B", "2023-11-14T22:13:20.99Z"));
  const std::string b = write("b.log", line("A", "2023-11-14T23:13:20+01:00") + line("A", "2023-11-14T22:13:21Z"));
  const ProcessResult r = logagg({"--format", "csv", a, b});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,3\n2023-11-14T22:13:21Z,1\n");
}

TEST_F(Files, TableIsTheDefaultWithHeaderAndTotal) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z"));
  const ProcessResult r = logagg({a, "--per-second", "-q"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "second                count\n2023-11-14T22:13:20Z      1\ntotal                     1\n");
  EXPECT_EQ(r.err, "") << "--quiet prints no summary";
}

TEST_F(Files, JsonCarriesCountsAndSummary) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + "oops\n\n");
  const ProcessResult r = logagg({"--format", "json", a, "-q"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find(R"({"second": "2023-11-14T22:13:20Z", "count": 1})"), std::string::npos);
  EXPECT_NE(r.out.find(R"("lines": 3)"), std::string::npos);
  EXPECT_NE(r.out.find(R"("blank": 1)"), std::string::npos);
  EXPECT_NE(r.out.find(R"("invalid_json": 1)"), std::string::npos);
}

TEST_F(Files, FolderIsReadRecursivelySkippingHiddenButExplicitHiddenIsRead) {
  write("logs/a.log", line("A", "2023-11-14T22:13:20Z"));
  write("logs/sub/b.log", line("A", "2023-11-14T22:13:21Z"));
  write("logs/.hidden.log", line("A", "2023-11-14T22:13:22Z"));
  write("logs/.git/x.log", line("A", "2023-11-14T22:13:23Z"));
  const ProcessResult r = logagg({"--format", "csv", (dir_ / "logs").string(), "-q"});
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,1\n2023-11-14T22:13:21Z,1\n");
  const ProcessResult h = logagg({"--format", "csv", (dir_ / "logs/.hidden.log").string(), "-q"});
  EXPECT_EQ(h.out, "second,count\n2023-11-14T22:13:22Z,1\n");
}

TEST_F(Files, StdinIsReadFromDash) {
  const std::string input = "\xEF\xBB\xBF" + line("A", "2023-11-14T22:13:20Z") + "bad\r\n" + line("B", "2023-11-14T22:13:20Z");
  const ProcessResult r = logagg({"-", "--format", "csv", "--show-rejects", "5"}, &input);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,2\n");
  EXPECT_NE(r.err.find("<stdin>:2: invalid JSON\n"), std::string::npos) << r.err;
}

TEST_F(Files, CustomFieldNames) {
  const std::string a = write("a.log", R"({"svc":"Web","time":"2023-11-14T22:13:20Z","app_id":"x_x"})" "\n");
  EXPECT_EQ(logagg({"--format", "csv", "--app-field", "svc", "--time-field", "time", a}).out,
            "second,count\n2023-11-14T22:13:20Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", a}).out, "second,count\n");
}

TEST_F(Files, ShowRejectsPrintsFirstNLocations) {
  const std::string a = write("a.log", "x\n" + line("A", "2023-11-14T22:13:20Z") + line("A_", "2023-11-14T22:13:20Z") +
                                           line("A", "2023-11-14T22:13:20") + "[]\n");
  const ProcessResult r = logagg({a, "--show-rejects", "2", "-q"});
  EXPECT_EQ(r.err, a + ":1: invalid JSON\n" + a + ":3: app id not alphanumeric\n");
}

TEST_F(Files, SummaryGoesToStderr) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + "x\n");
  const ProcessResult r = logagg({a, "--format", "csv"});
  for (const char* word : {"1 file", "2 lines in", "counted", "blank", "rejected", "invalid JSON", "lines/s"}) {
    EXPECT_NE(r.err.find(word), std::string::npos) << word << " missing from:\n" << r.err;
  }
  EXPECT_EQ(r.out.find("lines/s"), std::string::npos);
}

TEST_F(Files, MissingAndUnreadableInputsExitOneButOthersAreCounted) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z"));
  const std::string locked = write("locked/b.log", line("A", "2023-11-14T22:13:21Z"));
  const bool root = geteuid() == 0;
  fs::permissions(dir_ / "locked", fs::perms::none);
  const ProcessResult r = logagg({"--format", "csv", (dir_ / "missing.log").string(), a, (dir_ / "locked").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("logagg: " + (dir_ / "missing.log").string() + ": No such file or directory"), std::string::npos);
  if (!root) EXPECT_NE(r.err.find((dir_ / "locked").string() + ": Permission denied"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("2023-11-14T22:13:20Z,1"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwoWithAHint) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {}, {"--format", "xml", "x"}, {"--threads", "0", "x"}, {"--bogus", "x"},
           {"--app-field", "t", "--time-field", "t", "x"}}) {
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("Try 'logagg --help'"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(Cli, HelpAndVersion) {
  const ProcessResult h = logagg({"--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* flag : {"--format", "--threads", "--app-field", "--time-field", "--show-rejects", "--quiet", "--per-second"}) {
    EXPECT_NE(h.out.find(flag), std::string::npos) << flag;
  }
  const ProcessResult v = logagg({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("logagg ", 0), 0u);
  EXPECT_NE(v.out.find("simdjson"), std::string::npos);
}

TEST(Cli, OutputIsByteIdenticalForEveryThreadCount) {
  for (const char* format : {"csv", "table", "json"}) {
    const ProcessResult one = logagg({kSample, "--format", format, "--threads", "1", "-q"});
    ASSERT_EQ(one.exit_code, 0);
    ASSERT_GT(one.out.size(), 100u);
    for (const char* threads : {"2", "3", "8"}) {
      for (const char* seg : {"1", "100", "65536"}) {
        const ProcessResult r = logagg({kSample, "--format", format, "--threads", threads, "--segment-bytes", seg, "-q"});
        EXPECT_EQ(r.out, one.out) << format << " threads " << threads << " segment " << seg;
      }
    }
  }
}

}  // namespace
}  // namespace logagg
