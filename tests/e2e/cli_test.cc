// End-to-end tests of the real logagg binary: formats, folders, stdin, fields,
// rejected-line locations, summary, exit codes and messages, --list-inputs
// (text and json), buckets, gap filling and statistics, and, on a log big
// enough to be cut into segments, the generator's expected output for every
// thread count and segment size; --time-format auto's lines per time form.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "logagg/report.h"
#include "support/generated_log.h"
#include "support/json_numbers.h"
#include "support/run_process.h"
#include "support/sanitizers.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using testing::ProcessResult;

const std::string kBin = testing::logagg_bin();
const std::string kSample = testing::source_dir() + "/data/sample.log";

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

TEST_F(Files, AppPatternDecidesWhichIdsCountAndNamesItselfInRejects) {
  const std::string a = write("a.log", line("checkout-api", "2023-11-14T22:13:20Z") +
                                           line("api@docker", "2023-11-14T22:13:20Z") + line("Web1", "2023-11-14T22:13:21Z"));
  EXPECT_EQ(logagg({"--format", "csv", "-q", a}).out, "second,count\n2023-11-14T22:13:21Z,1\n");
  const ProcessResult r = logagg({"--format", "csv", "--app-pattern", "[a-z0-9-]+(@[a-z]+)?", "--show-rejects", "5", a});
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,2\n");
  EXPECT_NE(r.err.find(a + ":3: app id does not match [a-z0-9-]+(@[a-z]+)?\n"), std::string::npos) << r.err;
  const std::string json = logagg({"--format", "json", "--app-pattern", "[a-z0-9-]+", a}).out;
  EXPECT_NE(json.find("\"app_pattern\": \"[a-z0-9-]+\""), std::string::npos) << json;
  EXPECT_EQ(logagg({"--format", "json", a}).out.find("app_pattern"), std::string::npos) << "the default is not written";
  const ProcessResult bad = logagg({"--app-pattern", "[a-z", a});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--app-pattern: missing ]: [a-z"), std::string::npos) << bad.err;
}

TEST_F(Files, TheIssuesFiveCommandsCountRealServersLines) {
  const auto csv = [&](const std::string& log, std::vector<std::string> args) {
    args.insert(args.begin(), {"--format", "csv", "-q", write("x.log", log)});
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  EXPECT_EQ(csv(R"({"ts":1700000000.9999999,"request":{"host":"example.com"}})" "\n"
                R"({"ts":-0.5,"request":{"host":"old.example.com"}})" "\n",
                {"--time-field", "ts", "--time-format", "unix", "--app-field", "/request/host", "--app-pattern",
                 "[a-z0-9.-]+"}),
            "second,count\n1969-12-31T23:59:59Z,1\n2023-11-14T22:13:20Z,1\n");
  EXPECT_EQ(csv(R"({"time":1700000000123,"hostname":"web-1"})" "\n" R"({"time":"1700000001999","hostname":"w"})" "\n",
                {"--time-field", "time", "--time-format", "unix-ms", "--app-field", "hostname", "--app-pattern", ".+"}),
            "second,count\n2023-11-14T22:13:20Z,1\n2023-11-14T22:13:21Z,1\n");
  EXPECT_EQ(csv(R"({"time_local":"14/Nov/2023:23:13:20 +0100","host":"example.com"})" "\n"
                R"({"time_local":"[14/Nov/2023:22:13:21 +0000]","host":"example.com"})" "\n",
                {"--time-field", "time_local", "--time-format", "clf", "--app-field", "host", "--app-pattern",
                 "[A-Za-z0-9.-]+"}),
            "second,count\n2023-11-14T22:13:20Z,1\n2023-11-14T22:13:21Z,1\n");
  EXPECT_EQ(csv(R"({"asctime":"2023-11-14 23:13:20","app_id":"svc"})" "\n"
                R"({"asctime":"2023-03-26 02:30:00","app_id":"svc"})" "\n",  // in the spring gap: rejected
                {"--time-field", "asctime", "--time-format", "%Y-%m-%d %H:%M:%S", "--input-tz", "Europe/Berlin"}),
            "second,count\n2023-11-14T22:13:20Z,1\n");
  EXPECT_EQ(csv(R"({"StartUTC":"2023-11-14T22:13:20Z","RouterName":"api@docker"})" "\n",
                {"--time-field", "StartUTC", "--app-field", "RouterName", "--app-pattern", "[a-z0-9-]+@[a-z]+",
                 "--by-app"}),
            "second,app_id,count\n2023-11-14T22:13:20Z,api@docker,1\n");

  const std::string a = write("a.log", R"({"app_id":"a","timestamp":1700000000})" "\n");
  const ProcessResult r = logagg({"--time-format", "unix-ms", "--show-rejects", "1", "--time-field", "ts", a});
  EXPECT_NE(r.err.find("time field missing"), std::string::npos) << r.err;
  EXPECT_NE(logagg({"--show-rejects", "1", a}).err.find(a + ":1: time field not a string"), std::string::npos);
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--time-format", "%Y-%m-%d %H:%M:%S", a}, {"--time-format", "unix", "--input-tz", "UTC", a},
           {"--time-format", "%Q", a}, {"--time-format", "%Y-%m-%d", "--input-tz", "Mars/Olympus", a}}) {
    const ProcessResult u = logagg(bad);
    EXPECT_EQ(u.exit_code, 2) << bad[1];
    EXPECT_NE(u.err.find("--time-format: "), std::string::npos) << u.err;
  }
}

TEST_F(Files, JsonPointerFieldsReachNestedValues) {
  const std::string a = write("a.log", R"({"request":{"host":"web","tags":["x","y"]},"t":{"at":"2023-11-14T22:13:20Z"}})"
                                       "\n" R"({"request":{"host":"web","host":"api"},"t":{"at":"2023-11-14T22:13:21Z"}})"
                                       "\n");
  const ProcessResult r = logagg({"--format", "csv", "--app-field", "/request/host", "--time-field", "/t/at", a});
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,1\n");
  EXPECT_NE(r.err.find("app field duplicated"), std::string::npos) << r.err;
  EXPECT_EQ(logagg({"--format", "csv", "-q", "--app-field", "/request/tags/1", "--time-field", "/t/at", a}).out,
            "second,count\n2023-11-14T22:13:20Z,1\n");
  const ProcessResult bad = logagg({"--app-field", "/a~2b", a});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--app-field: '/a~2b' is not a JSON Pointer"), std::string::npos) << bad.err;
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

// --time-format auto: the summary (stderr) and the json summary count the
// counted lines per form of their time, the same at every thread count; a
// run without auto prints neither.
TEST_F(Files, AutoSummaryCountsTheLinesOfEachTimeForm) {
  std::string log;
  for (int i = 0; i < 2000; ++i) {
    log += line("A", "2023-11-14T22:13:20Z");
    log += R"({"app_id":"B","timestamp":1700000000123456789})" "\n";
    if (i % 2 == 0) log += line("C", "2023-11-14 22:13:21,5");
    if (i % 4 == 0) log += line("D", "14/Nov/2023:22:13:22 +0000");
  }
  const std::string a = write("a.log", log);
  std::string first;
  for (const char* threads : {"1", "2"}) {
    const ProcessResult r = logagg({a, "--time-format", "auto", "--threads", threads, "--segment-bytes", "4096"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string rows = r.err.substr(r.err.find("  counted"));
    EXPECT_TRUE(rows.starts_with("  counted                              5500\n"
                                 "    time in rfc3339                    2000\n"
                                 "    time in clf                         500\n"
                                 "    time in date-time                  1000\n"
                                 "    time in unix-ns                    2000\n"
                                 "  blank"))
        << r.err;
    if (first.empty()) first = rows;
    EXPECT_EQ(rows, first) << "threads " << threads;
  }
  const ProcessResult json = logagg({a, "--time-format", "auto", "--format", "json", "-q"});
  EXPECT_NE(json.out.find(R"("time_formats": {
      "rfc3339": 2000,
      "clf": 500,
      "date-time": 1000,
      "unix": 0,
      "unix-ms": 0,
      "unix-us": 0,
      "unix-ns": 2000
    })"),
            std::string::npos)
      << json.out;
  const ProcessResult plain = logagg({a, "--format", "json"});
  EXPECT_EQ(plain.out.find("time_formats"), std::string::npos);
  EXPECT_EQ(plain.err.find("time in"), std::string::npos);
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

// ---- --list-inputs ---------------------------------------------------------

// A folder's files sorted by their whole path (so "sub.log" before "sub/"),
// hidden entries skipped, --include/--exclude on folder files only, named
// files and "-" as given; nothing is read, so no summary. A run counts
// exactly the files listed.
TEST_F(Files, ListInputsPrintsWhatARunReadsInItsOrder) {
  const std::string logs = (dir_ / "logs").string();
  for (const char* rel : {"logs/b.log", "logs/a.log", "logs/sub/d.log", "logs/sub/c.log.gz", "logs/sub.log",
                          "logs/.hidden.log", "logs/.git/x.log"}) {
    write(rel, line("A", "2023-11-14T22:13:20Z"));
  }
  const std::string named = write("named.log", "");
  const ProcessResult all = logagg({"--list-inputs", named, logs, "-"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out, named + "\n" + logs + "/a.log\n" + logs + "/b.log\n" + logs + "/sub.log\n" + logs +
                         "/sub/c.log.gz\n" + logs + "/sub/d.log\n-\n");
  EXPECT_EQ(all.err, "");

  const std::vector<std::string> filters = {"--include", "*.log", "--exclude", "sub/*", "--exclude", "named.log"};
  std::vector<std::string> args = filters;
  args.insert(args.end(), {"--list-inputs", logs, named});
  const ProcessResult some = logagg(args);
  EXPECT_EQ(some.exit_code, 0) << some.err;
  EXPECT_EQ(some.out, logs + "/a.log\n" + logs + "/b.log\n" + logs + "/sub.log\n" + named + "\n");

  args = filters;
  args.insert(args.end(), {"--format", "json", "-q", logs, named});
  EXPECT_NE(logagg(args).out.find(R"("files": 4)"), std::string::npos) << "a run reads the 4 files listed";
}

TEST_F(Files, ListInputsNamesAMissingPathAndStillListsTheOthers) {
  const std::string a = write("logs/a.log", "");
  const std::string missing = (dir_ / "missing.log").string();
  const ProcessResult r = logagg({"--list-inputs", missing, (dir_ / "logs").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, a + "\n");
  EXPECT_EQ(r.err, "logagg: " + missing + ": No such file or directory\n");
  EXPECT_NE(logagg({"--help"}).out.find("--list-inputs"), std::string::npos);
}

// --format json: the same inputs as a document for programs, each with its
// exact path (in hex when it is not UTF-8), the name as messages show it, its
// size and compression, and with --piece-size the --range pieces of each
// larger plain file. A FIFO is described without being opened (which would
// wait for a writer); a missing path is named on stderr as in text.
TEST_F(Files, ListInputsAsJsonDescribesEachInput) {
  const std::string logs = (dir_ / "logs").string();
  const std::string plain = write("logs/a.log", std::string(1000, '\n'));
  const std::string exact = write("logs/b.log", std::string(300, '\n'));
  const std::string gzip = write("logs/c.gz", std::string("\x1f\x8b\x08", 3) + std::string(997, 'z'));
  const std::string zstd = write("logs/d", std::string("\x28\xb5\x2f\xfd", 4));
  write("logs/e \"q\" \\.log", "");
  write(std::string("logs/f\xff\x1b\n.log"), "");
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string missing = (dir_ / "missing.log").string();
  const ProcessResult r =
      logagg({"--list-inputs", "--format", "json", "--piece-size", "300", logs, fifo, missing, "-"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "logagg: " + missing + ": No such file or directory\n");
  std::string hex_logs;  // the folder's path, then "/", in hex
  for (const unsigned char c : logs + "/") hex_logs += {"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
  const auto row = [](const std::string& path_field, const std::string& shown, const std::string& rest) {
    return "    {" + path_field + R"(, "shown": ")" + shown + R"(", )" + rest + "}";
  };
  const auto path = [](const std::string& p) { return R"("path": ")" + p + "\""; };
  const std::string plain_facts = R"("bytes": 0, "compression": "plain")",
                    no_facts = R"("bytes": null, "compression": null)";
  EXPECT_EQ(r.out, "{\n  \"piece_size\": 300,\n  \"inputs\": [\n" +
                       row(path(plain), plain,
                           R"("bytes": 1000, "compression": "plain", )"
                           R"("ranges": [[0, 250], [250, 500], [500, 750], [750, null]])") +
                       ",\n" + row(path(exact), exact, R"("bytes": 300, "compression": "plain")") + ",\n" +
                       row(path(gzip), gzip, R"("bytes": 1000, "compression": "gzip")") + ",\n" +
                       row(path(zstd), zstd, R"("bytes": 4, "compression": "zstd")") + ",\n" +
                       row(path(logs + R"(/e \"q\" \\.log)"), logs + R"(/e \"q\" \\\\.log)", plain_facts) + ",\n" +
                       row(R"("path_hex": ")" + hex_logs + R"(66ff1b0a2e6c6f67")", logs + R"(/f\\xff\\x1b\\n.log)",
                           plain_facts) +
                       ",\n" + row(path(fifo), fifo, no_facts) + ",\n" + row(path("-"), "-", no_facts) + "\n  ]\n}\n");
  fs::create_directory(dir_ / "empty");
  const ProcessResult none = logagg({"--list-inputs", "--format", "json", (dir_ / "empty").string()});
  EXPECT_EQ(none.out, "{\n  \"inputs\": []\n}\n") << "no --piece-size: no piece_size, no ranges";
}

// --piece-size is read like split's --max-size, by the same parser, and only
// where it means something; --list-inputs prints text or json, nothing else.
TEST(Cli, PieceSizeIsASizeForTheJsonListOnly) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--list-inputs", "--format", "json", "--piece-size", "12Q", "x"},
       "--piece-size: 12Q is not a size (a number, optionally followed by K, M or G)"},
      {{"--list-inputs", "--format", "json", "--piece-size", "0", "x"}, "--piece-size: must be at least 1 byte"},
      {{"--list-inputs", "--format", "json", "--piece-size", "99999999999999999999", "x"},
       "--piece-size: 99999999999999999999 is too large"},
      {{"--piece-size", "1M", "x"}, "--piece-size needs --list-inputs --format json"},
      {{"--list-inputs", "--piece-size", "1M", "x"}, "--piece-size needs --list-inputs --format json"},
      {{"--list-inputs", "--format", "csv", "x"},
       "--list-inputs prints text, or JSON with --format json: not csv or html"},
      {{"split", "--max-size", "7Q", "a", "b"},
       "--max-size: 7Q is not a size (a number, optionally followed by K, M or G)"},
      {{"split", "--max-size", "0", "a", "b"}, "--max-size: must be at least 1 byte"},
      {{"split", "--max-size", "17179869184G", "a", "b"}, "--max-size: 17179869184G is too large"}};
  for (const auto& [args, message] : cases) {
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    const std::string command = args[0] == "split" ? "split " : "";
    EXPECT_EQ(r.err, "logagg: " + message + "\nTry 'logagg " + command + "--help' for more information.\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(logagg({"--list-inputs", "--format", "json", "--piece-size", "2k", "-"}).out,
            "{\n  \"piece_size\": 2048,\n  \"inputs\": [\n    {\"path\": \"-\", \"shown\": \"-\", \"bytes\": null, "
            "\"compression\": null}\n  ]\n}\n");
}

TEST(Cli, UsageErrorsExitTwoWithAHint) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {}, {"--format", "xml", "x"}, {"--threads", "0", "x"}, {"--bogus", "x"},
           {"--app-field", "t", "--time-field", "t", "x"}, {"--app-field", "/a~2b", "x"},
           {"--app-field", "/r", "--time-field", "/r/ts", "x"}}) {
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("Try 'logagg --help'"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{}, {"--follow"}, {"--state", "s"}}) {
    const ProcessResult r = logagg(args);  // the message names what is missing
    EXPECT_EQ(r.err.rfind("logagg: no PATH to read: give files, folders, or - for standard input\n", 0), 0u) << r.err;
  }
}

// What a usage error says: the choices of an option of a few names (a number
// is none of them), the option a mistyped one meant, every time format.
TEST(Cli, UsageErrorsNameWhatWasExpected) {
  const std::string caddy = testing::source_dir() + "/data/recipes/caddy.log";
  struct Row {
    std::vector<std::string> args;
    std::string message;
  };
  const Row rows[] = {
      {{"--format", "xml", kSample}, "--format: must be one of table, csv, json, html (not xml)"},
      {{"--format", "2", kSample}, "--format: must be one of table, csv, json, html (not 2)"},
      {{"merge", "--format", "xml", kSample}, "--format: must be one of table, csv, json, html (not xml)"},
      {{"detect", "--format", "1", kSample}, "--format: must be one of text, json (not 1)"},
      {{kSample, "--quantile", "latency_ms"},
       "The following argument was not expected: --quantile; did you mean --quantiles?"},
      {{kSample, "--per-hours"}, "The following argument was not expected: --per-hours; did you mean --per-hour?"},
      {{kSample, "--fill-gap=1"}, "The following argument was not expected: --fill-gap=1; did you mean --fill-gaps?"},
      {{"merge", kSample, "--fill-gap"},
       "The following argument was not expected: --fill-gap; did you mean --fill-gaps?"},
      {{kSample, "--bogus"}, "The following argument was not expected: --bogus"},
      {{kSample, "--time-format", "iso"},
       "--time-format: unknown time format 'iso': expected rfc3339, unix, unix-ms, unix-us, unix-ns, clf, auto, or a pattern such "
       "as '%Y-%m-%d %H:%M:%S'"},
      {{kSample, "--where", "status>>500"},
       "--where 'status>>500': unknown operator >>; expected one of == != < <= > >= ~ !~\n  status>>500\n        ^"},
      {{kSample, "--where", "status >= "},
       "--where 'status >= ': no value after the operator; expected a number, \"text\", true, false or null\n"
       "  status >= \n           ^"},
      {{kSample, "--count-if", "latency_ms>=5oo"},
       "--count-if 'latency_ms>=5oo': 5oo is not a number; write a JSON number (500, 0.25, 1e3), or quote text: "
       "\"5oo\"\n  latency_ms>=5oo\n              ^"},
      {{kSample, "--by", "status", "--by", "/status"},
       "--by /status: the same key as status, named twice; each key is one column"},
      {{kSample, "--by-app", "--by", "app_id"}, "--by app_id: the app field, which --by-app already shows; drop one"},
  };
  for (const Row& row : rows) {
    const ProcessResult r = logagg(row.args);
    const std::string command = row.args[0] == "merge" || row.args[0] == "detect" ? row.args[0] + " " : "";
    EXPECT_EQ(r.exit_code, 2) << row.message;
    EXPECT_EQ(r.err, "logagg: " + row.message + "\nTry 'logagg " + command + "--help' for more information.\n");
    EXPECT_EQ(r.out, "");
  }
  // A name in any case is still a name.
  EXPECT_EQ(logagg({"--format", "JSON", "-q", kSample}).exit_code, 0);
  // The time field there, in another form than the time format reads: the hint says so.
  const ProcessResult hint = logagg({"--app-field", "none", "--time-field", "ts", caddy});
  EXPECT_NE(hint.err.find("hint: 13 of 13 lines have their time field ts in a form --time-format rfc3339 does not "
                          "read; --time-format auto reads each value in its own form; `logagg detect " +
                          caddy + "` prints the options that count them\n"),
            std::string::npos)
      << hint.err;
}

TEST(Cli, HelpAndVersion) {
  const ProcessResult h = logagg({"--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* flag : {"--format", "--threads", "--app-field", "--time-field", "--show-rejects", "--quiet",
                           "--per-second", "--per-minute", "--per-hour", "--per-day", "--bucket", "--fill-gaps",
                           "--stats"}) {
    EXPECT_NE(h.out.find(flag), std::string::npos) << flag;
  }
  const ProcessResult v = logagg({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("logagg ", 0), 0u);
  EXPECT_NE(v.out.find("simdjson"), std::string::npos);
}

// A log big enough to be cut into segments: files up to 1 MiB are read whole
// by one worker, so a smaller one would prove nothing about threads. 6 MiB of
// loggen lines at 1000 a second: each second's lines span several segments
// and workers, whose counts must be added, not overwritten, when they merge.
const std::vector<std::string> kCutLog = {"--seed", "21", "--bytes", "6M", "--dirty", "0.1", "--crlf", "0.2"};

// The thread counts the README promises identical output for, and segment
// sizes from the default (chosen from the size and threads) down to 4 KiB.
const char* const kThreadCounts[] = {"1", "2", "3", "8"};
const std::vector<std::vector<std::string>> kSegmentArgs = {
    {}, {"--segment-bytes", "4096"}, {"--segment-bytes", "100000"}, {"--segment-bytes", "1000003"}};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(Cli, EveryThreadCountAndSegmentSizePrintsWhatTheGeneratorExpects) {
  const testing::GeneratedLog log(kCutLog);
  ASSERT_TRUE(log.ok());
  ASSERT_GT(fs::file_size(log.path()), 4u << 20);
  const std::string table = logagg({log.path(), "--threads", "1", "-q"}).out;
  for (const char* threads : kThreadCounts) {
    for (const std::vector<std::string>& segments : kSegmentArgs) {
      const std::vector<std::string> args = with({log.path(), "--threads", threads, "-q"}, segments);
      const std::string where = std::string("threads ") + threads + (segments.empty() ? "" : " segment " + segments[1]);
      EXPECT_EQ(logagg(with(args, {"--format", "csv"})).out, log.expected_csv()) << where;
      const std::map<std::string, uint64_t> got = testing::json_numbers(logagg(with(args, {"--format", "json"})).out);
      for (const auto& [key, value] : log.expected_summary()) EXPECT_EQ(got.at(key), value) << key << ", " << where;
      EXPECT_EQ(logagg(args).out, table) << where;
    }
  }
}

TEST(Cli, BucketedAndPerAppOutputIsByteIdenticalForEveryThreadCountAndSegmentSize) {
  const testing::GeneratedLog log(kCutLog);
  ASSERT_TRUE(log.ok());
  const std::vector<std::vector<std::string>> reports = {
      {"--format", "csv", "--bucket", "15s"},  // no --fill-gaps: the log spans years 0000 to 10000
      {"--format", "json", "--per-minute", "--stats"},
      {"--format", "csv", "--by-app"},
      {"--format", "json", "--by-app", "--top", "5"}};
  for (const std::vector<std::string>& report : reports) {
    const std::vector<std::string> args = with({log.path(), "-q"}, report);
    const std::string want = logagg(with(args, {"--threads", "1"})).out;
    ASSERT_GT(want.size(), 100u);
    for (const char* threads : kThreadCounts) {
      for (const std::vector<std::string>& segments : kSegmentArgs) {
        EXPECT_EQ(logagg(with(with(args, {"--threads", threads}), segments)).out, want)
            << report[1] << " " << report[2] << ", threads " << threads
            << (segments.empty() ? "" : " segment " + segments[1]);
      }
    }
  }
}

// ---- buckets, gaps and statistics -----------------------------------------

TEST_F(Files, BucketFlagsNameTheColumnAndSumIntoBucketStarts) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + line("A", "2023-11-14T22:13:59.9Z") +
                                           line("B", "2023-11-14T23:14:00+01:00") + line("A", "2023-11-15T01:00:00Z"));
  EXPECT_EQ(logagg({"--format", "csv", "--per-minute", a}).out,
            "minute,count\n2023-11-14T22:13:00Z,2\n2023-11-14T22:14:00Z,1\n2023-11-15T01:00:00Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "--per-hour", a}).out,
            "hour,count\n2023-11-14T22:00:00Z,3\n2023-11-15T01:00:00Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "--per-day", a}).out,
            "day,count\n2023-11-14T00:00:00Z,3\n2023-11-15T00:00:00Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "--bucket", "3h", a}).out,
            "bucket,count\n2023-11-14T21:00:00Z,3\n2023-11-15T00:00:00Z,1\n");
  const ProcessResult table = logagg({"--bucket", "30s", a, "-q"});
  EXPECT_EQ(table.out,
            "bucket                count\n2023-11-14T22:13:00Z      1\n2023-11-14T22:13:30Z      1\n"
            "2023-11-14T22:14:00Z      1\n2023-11-15T01:00:00Z      1\ntotal                     4\n");
  const ProcessResult json = logagg({"--format", "json", "--bucket", "60m", a, "-q"});
  EXPECT_NE(json.out.find("\"bucket\": \"hour\","), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("{\"hour\": \"2023-11-14T22:00:00Z\", \"count\": 3}"), std::string::npos) << json.out;
  EXPECT_NE(logagg({"--format", "json", "--bucket", "15m", a}).out.find("\"bucket\": \"15m\","), std::string::npos);
}

TEST_F(Files, BucketsAlignToTheUtcEpochBefore1970) {
  const std::string a = write("a.log", line("A", "1969-12-31T23:59:59Z") + line("A", "1970-01-01T00:00:00Z") +
                                           line("A", "0001-01-01T00:00:01-00:01"));
  EXPECT_EQ(logagg({"--format", "csv", "--per-day", a}).out,
            "day,count\n0001-01-01T00:00:00Z,1\n1969-12-31T00:00:00Z,1\n1970-01-01T00:00:00Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "--bucket", "5s", a}).out,
            "bucket,count\n0001-01-01T00:01:00Z,1\n1969-12-31T23:59:55Z,1\n1970-01-01T00:00:00Z,1\n");
}

TEST_F(Files, TheDefaultIsPerSecondWhicheverWayItIsAsked) {
  for (const char* format : {"csv", "table", "json"}) {
    const std::string plain = logagg({kSample, "--format", format, "-q"}).out;
    EXPECT_EQ(logagg({kSample, "--format", format, "-q", "--per-second"}).out, plain) << format;
    EXPECT_EQ(logagg({kSample, "--format", format, "-q", "--bucket", "1s"}).out, plain) << format;
    EXPECT_EQ(logagg({kSample, "--format", format, "-q", "--per-hour"}).out,
              logagg({kSample, "--format", format, "-q", "--bucket", "60m"}).out)
        << format;
  }
}

TEST_F(Files, FillGapsAddsZeroRowsOnlyBetweenFirstAndLast) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + line("A", "2023-11-14T22:16:01Z"));
  EXPECT_EQ(logagg({"--format", "csv", "--per-minute", "--fill-gaps", a}).out,
            "minute,count\n2023-11-14T22:13:00Z,1\n2023-11-14T22:14:00Z,0\n2023-11-14T22:15:00Z,0\n"
            "2023-11-14T22:16:00Z,1\n");
  EXPECT_EQ(logagg({"--format", "csv", "--per-minute", a}).out,
            "minute,count\n2023-11-14T22:13:00Z,1\n2023-11-14T22:16:00Z,1\n");
  const std::string csv = logagg({"--format", "csv", "--fill-gaps", a}).out;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 162) << "22:13:20 to 22:16:01 is 162 seconds";
  EXPECT_NE(csv.find("\n2023-11-14T22:13:21Z,0\n"), std::string::npos);
  EXPECT_EQ(logagg({"--format", "csv", "--fill-gaps", "-"}).out, "second,count\n");
}

TEST_F(Files, PlotDrawsTheSeriesAsWideAsColumnsSay) {
  std::string log;
  for (int minute = 0; minute < 120; ++minute) {  // two hours, busier each minute
    for (int i = 0; i <= minute / 10; ++i) {
      char ts[32];
      std::snprintf(ts, sizeof ts, "2023-11-14T%02d:%02d:00Z", 10 + minute / 60, minute % 60);
      log += line("A", ts);
    }
  }
  const std::string a = write("a.log", log);
  const auto plot = [&](const std::string& columns) {
    return testing::run_process({"/usr/bin/env", "COLUMNS=" + columns, kBin, "--plot", "--per-minute", "-q", a});
  };
  const ProcessResult narrow = plot("60");
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  EXPECT_EQ(narrow.out.rfind("requests per minute, from 2023-11-14T10:00:00Z\n", 0), 0) << narrow.out;
  // 120 minutes in 60 columns, less the count axis: 2m bins would need 60 columns, so 5m.
  EXPECT_NE(narrow.out.find("1 column = 5m (5 buckets of 1m)"), std::string::npos) << narrow.out;
  EXPECT_NE(narrow.out.find("█"), std::string::npos);
  EXPECT_EQ(narrow.err, "");
  for (size_t at = 0; at < narrow.out.size();) {
    const size_t end = narrow.out.find('\n', at);
    size_t chars = 0;  // UTF-8 code points
    for (size_t i = at; i < end; ++i) chars += (static_cast<unsigned char>(narrow.out[i]) & 0xC0) != 0x80;
    EXPECT_LE(chars, 60u) << narrow.out.substr(at, end - at);
    at = end + 1;
  }
  const ProcessResult wide = plot("200");
  EXPECT_NE(wide.out.find("1 column = 1 bucket"), std::string::npos) << wide.out;
}

TEST_F(Files, HtmlOfASpanOfMillenniaIsBinnedInTime) {
  // 3e11 seconds between two lines: the page bins them into at most 200,000
  // points and says so, walking points and lines, not every empty second.
  if (!logagg::has_html_format()) GTEST_SKIP() << "built without --format html (LOGAGG_WITH_HTML=OFF)";
  const std::string a = write("a.log", line("A", "0001-01-01T00:00:00Z") + line("B", "9999-01-01T00:00:00Z"));
  for (const std::vector<std::string> extra : {std::vector<std::string>{}, {"--tz", "Europe/Madrid", "--by-app"}}) {
    std::vector<std::string> args = {kBin, "--format", "html", "-q", a};
    args.insert(args.end(), extra.begin(), extra.end());
    testing::RunOptions options;
    options.timeout_seconds = 20;
    const ProcessResult p = testing::run_process(args, options);
    ASSERT_FALSE(p.timed_out);
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_NE(p.out.find("each point of the chart sums"), std::string::npos);
  }
}

TEST_F(Files, FillGapsOverMillenniaStreamsAndStopsWhenTheReaderGoes) {
  // ~3.2e11 rows per second: never finishes, so the closed pipe and the full
  // disk must stop it at once; 90 days of rows (7.8 M, 170 MB of csv) keep
  // memory small.
  const std::string far = write("far.log", line("A", "0001-01-01T00:00:00Z") + line("A", "9999-12-31T23:59:59Z"));
  testing::RunOptions closed;
  closed.stdout_to_closed_pipe = true;
  closed.timeout_seconds = 30;
  const ProcessResult p = testing::run_process({kBin, "--format", "csv", "--fill-gaps", "-q", far}, closed);
  EXPECT_FALSE(p.timed_out);
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_EQ(p.err, "");
  testing::RunOptions full;
  full.stdout_path = "/dev/full";
  full.timeout_seconds = 30;
  const ProcessResult f = testing::run_process({kBin, "--format", "csv", "--fill-gaps", "-q", far}, full);
  EXPECT_FALSE(f.timed_out);
  EXPECT_EQ(f.exit_code, 1);
  EXPECT_EQ(f.err, "logagg: cannot write the report: No space left on device\n");

  const std::string days = write("days.log", line("A", "2023-01-01T00:00:00Z") + line("A", "2023-04-01T00:00:00Z"));
  testing::RunOptions to_null;
  to_null.stdout_path = "/dev/null";
  const ProcessResult y = testing::run_process({kBin, "--format", "csv", "--fill-gaps", "-q", days}, to_null);
  EXPECT_EQ(y.exit_code, 0);
  if (!testing::kSanitized) {
    EXPECT_LT(y.max_rss_kb, 32 * 1024) << "7.8 M filled rows must not be held in memory";
  }
}

TEST_F(Files, StatsGoToStderrForCsvAndTableAndIntoJsonAlways) {
  const std::string a = write("a.log", line("A", "2023-11-14T22:13:20Z") + line("A", "2023-11-14T22:13:30Z") +
                                           line("A", "2023-11-14T22:15:00Z"));
  const std::string block =
      "logagg: stats per minute: 3 buckets, 2023-11-14T22:13:00Z to 2023-11-14T22:15:00Z (1 empty)\n"
      "  total                                   3\n"
      "  peak at 2023-11-14T22:13:00Z            2\n"
      "  mean                                1.000\n"
      "  median                                  1\n"
      "  p95                                     2\n"
      "  p99                                     2\n"
      "  max                                     2\n";
  const ProcessResult csv = logagg({"--format", "csv", "--per-minute", "--stats", "-q", a});
  EXPECT_EQ(csv.exit_code, 0);
  EXPECT_EQ(csv.out, logagg({"--format", "csv", "--per-minute", a}).out) << "stdout stays pure csv";
  EXPECT_EQ(csv.err, block) << "--stats prints even with --quiet";
  const ProcessResult table = logagg({"--per-minute", "--stats", a});
  EXPECT_EQ(table.out, logagg({"--per-minute", a}).out);
  EXPECT_NE(table.err.find("counted"), std::string::npos) << "the summary comes first";
  EXPECT_EQ(table.err.substr(table.err.size() - block.size()), block);
  EXPECT_EQ(logagg({"--format", "csv", a, "-q"}).err, "") << "no stats without --stats";
  const ProcessResult json = logagg({"--format", "json", "--per-minute", "-q", a});
  EXPECT_EQ(json.err, "");
  EXPECT_NE(json.out.find("\"peak\": {\"bucket\": \"2023-11-14T22:13:00Z\", \"count\": 2},\n"
                          "    \"mean\": 1.000,\n    \"median\": 1,\n"),
            std::string::npos)
      << json.out;
  EXPECT_EQ(logagg({"--format", "json", "--per-minute", "-q", "--stats", a}).out, json.out);
  EXPECT_EQ(logagg({"--format", "csv", "--stats", "-q", "-"}).err, "logagg: stats per second: no counted lines\n");
}

TEST(Cli, BucketUsageErrorsNameTheValueOrTheFlags) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--bucket", "7s", "x"}, "'7s' does not divide a day"},
      {{"--bucket", "2d", "x"}, "'2d' is longer than a day"},
      {{"--bucket", "0m", "x"}, "'0m' is zero"},
      {{"--bucket", "5", "x"}, "'5' is not a duration"},
      {{"--bucket", "1.5h", "x"}, "'1.5h' is not a duration"},
      {{"--bucket", "x"}, "--bucket"},
      {{"--per-minute", "--per-hour", "x"}, "--per-minute and --per-hour both set the bucket size"},
      {{"--per-second", "--bucket", "5s", "x"}, "--per-second and --bucket both set the bucket size"},
      {{"--per-minute", "--overall", "x"}, "--per-minute and --overall both set the bucket size"},
      {{"--overall", "--plot", "x"}, "--plot draws the counts over time: not with --overall"},
      {{"--overall", "--follow", "x"}, "--follow prints each bucket when it is complete: --overall's one bucket"},
  };
  for (const auto& [args, message] : cases) {
    const ProcessResult r = logagg(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Try 'logagg --help'"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace logagg
