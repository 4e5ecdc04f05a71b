// Fault tests, end to end on the real binary: files truncated or growing while
// read, inputs that cannot be read, non-regular files in folders, degenerate
// and huge lines (linear time, bounded memory), a closed or full stdout, and
// memory on adversarial time spread. Every case checks the accounting
// invariant where lines were read: lines = counted + blank + rejected.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <thread>

#include "logagg/rfc3339.h"
#include "support/json_numbers.h"
#include "support/run_process.h"
#include "support/sanitizers.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using testing::ProcessResult;
using testing::RunOptions;
using testing::json_numbers;
using testing::kSanitized;

const std::string kLine = R"({"app_id":"A1","timestamp":"2023-11-14T22:13:20Z"})" "\n";

std::string lines(size_t n) {
  std::string s;
  s.reserve(n * kLine.size());
  for (size_t i = 0; i < n; ++i) s += kLine;
  return s;
}


void expect_accounted(const std::map<std::string, uint64_t>& s) {
  EXPECT_EQ(s.at("lines"), s.at("counted") + s.at("blank") + s.at("rejected"));
}

class Faults : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/logagg-faults-XXXXXX";
    dir_ = mkdtemp(tmpl);
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  }
  void TearDown() override {
    for (const auto& e : fs::recursive_directory_iterator(dir_, fs::directory_options::skip_permission_denied)) {
      std::error_code ec;
      if (!e.is_symlink()) fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_)) fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& rel) const { return (dir_ / rel).string(); }
  std::string write(const std::string& rel, const std::string& content) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read | fs::perms::group_read);
    return p.string();
  }
  fs::path dir_;
};

ProcessResult logagg(std::vector<std::string> args, RunOptions opt = {}) {
  args.insert(args.begin(), testing::logagg_bin());
  return testing::run_process(args, opt);
}

// Permission checks mean nothing to root: run logagg as nobody then.
ProcessResult logagg_unprivileged(std::vector<std::string> args) {
  args.insert(args.begin(), testing::logagg_bin());
  if (geteuid() == 0) args.insert(args.begin(), {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
  return testing::run_process(args, RunOptions{});
}

// A FIFO named after a file lets the test act while logagg runs: logagg opens
// (and maps) every input before it scans any segment, and our write into the
// FIFO blocks until logagg reads it, so when the write returns the file is
// mapped; while every worker is reading a FIFO, no segment is read yet.
void feed_fifo_then(const std::string& fifo, const std::string& data, const std::function<void()>& act) {
  const int fd = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  act();
  ::close(fd);
}

// A named file's segments are read with pread (a short read tells the
// truncation); a file on standard input is read through its mapping, where
// the truncation is a SIGBUS that the fault guard turns into the same report.
TEST_F(Faults, FileTruncatedWhileMappedIsReportedAndWhatWasReadIsKept) {
  const size_t file_lines = 400000;  // 20 MB, many segments
  const size_t fifo_lines = 40000;   // 2 MB each: more than a pipe holds
  const off_t keep = static_cast<off_t>(file_lines / 4 * kLine.size());
  for (const bool on_stdin : {false, true}) {
    SCOPED_TRACE(on_stdin ? "the file on standard input, mapped" : "the file named, read with pread");
    const std::string file = write("rotating.log", lines(file_lines));
    // Two FIFOs keep both workers busy after the file is mapped: segments are
    // scanned once every input is open, so when both writes have returned the
    // file is mapped and none of its segments is read yet.
    const std::string fifo_a = path("feed_a"), fifo_b = path("feed_b");
    fs::remove(fifo_a);
    fs::remove(fifo_b);
    ASSERT_EQ(mkfifo(fifo_a.c_str(), 0600), 0);
    ASSERT_EQ(mkfifo(fifo_b.c_str(), 0600), 0);

    RunOptions opt;
    if (on_stdin) opt.input_path = file;
    opt.while_running = [&] {
      std::promise<void> b_written, truncated;
      std::thread feed_b([&] {
        feed_fifo_then(fifo_b, lines(fifo_lines), [&] {
          b_written.set_value();
          truncated.get_future().wait();
        });
      });
      feed_fifo_then(fifo_a, lines(fifo_lines), [&] {
        b_written.get_future().wait();
        ASSERT_EQ(::truncate(file.c_str(), keep), 0);
      });
      truncated.set_value();
      feed_b.join();
    };
    const std::string named = on_stdin ? "-" : file;
    const ProcessResult r = logagg({named, fifo_a, fifo_b, "--format", "json", "--threads", "2", "-q"}, opt);
    EXPECT_EQ(r.signal, 0) << "must not die of SIGBUS";
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find((on_stdin ? "" : file) + ": file changed while being read"), std::string::npos) << r.err;
    const auto s = json_numbers(r.out);
    expect_accounted(s);
    EXPECT_GE(s.at("counted"), 2 * fifo_lines);
    EXPECT_LE(s.at("counted"), 2 * fifo_lines + file_lines / 4);
  }
}

TEST_F(Faults, FileGrowingWhileReadIsCountedUpToItsSizeAtOpen) {
  const size_t file_lines = 100000;
  const std::string file = write("growing.log", lines(file_lines));
  const std::string fifo = path("feed");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const size_t fifo_lines = 40000;

  RunOptions opt;
  opt.while_running = [&] {
    feed_fifo_then(fifo, lines(fifo_lines), [&] { std::ofstream(file, std::ios::app) << lines(5000); });
  };
  const ProcessResult r = logagg({file, fifo, "--format", "json", "-q"}, opt);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto s = json_numbers(r.out);
  EXPECT_EQ(s.at("lines"), file_lines + fifo_lines);
  EXPECT_EQ(s.at("counted"), file_lines + fifo_lines);
}

TEST_F(Faults, UnreadableInputsAreNamedWithTheReasonAndTheRestIsCounted) {
  write("logs/good.log", kLine);
  write("logs/sub/good2.log", kLine);
  const std::string locked = write("logs/locked.log", kLine);
  fs::permissions(locked, fs::perms::none);
  write("logs/closed/inside.log", kLine);
  fs::permissions(path("logs/closed"), fs::perms::none);
  fs::create_symlink(path("logs/nowhere"), path("logs/dangling.log"));
  fs::create_symlink(path("logs/loop.log"), path("logs/loop.log"));
  fs::create_symlink(path("logs"), path("logs/sub/up"));  // folder symlink: not followed, no loop
  ASSERT_EQ(mkfifo(path("logs/pipe.log").c_str(), 0644), 0);
  fs::create_symlink("/dev/null", path("logs/device.log"));

  const ProcessResult r = logagg_unprivileged({"--format", "csv", path("logs"), path("missing.log")});
  ASSERT_FALSE(r.timed_out) << "a FIFO inside a folder must not be opened";
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,2\n");
  for (const std::string& expected : {
           path("missing.log") + ": No such file or directory",
           locked + ": Permission denied",
           path("logs/closed") + ": Permission denied",
           path("logs/dangling.log") + ": symbolic link cannot be followed: No such file or directory",
           path("logs/loop.log") + ": symbolic link cannot be followed: Too many levels of symbolic links",
           path("logs/pipe.log") + ": not a regular file (skipped inside a folder)",
           path("logs/device.log") + ": not a regular file (skipped inside a folder)"}) {
    EXPECT_NE(r.err.find("logagg: " + expected + "\n"), std::string::npos) << expected << "\nin:\n" << r.err;
  }
}

TEST_F(Faults, FifoAndDeviceNamedExplicitlyAreRead) {
  const std::string fifo = path("feed");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  RunOptions opt;
  opt.timeout_seconds = 30;
  opt.while_running = [&] { feed_fifo_then(fifo, lines(3), [] {}); };
  const ProcessResult r = logagg({fifo, "/dev/null", "--format", "csv", "-q"}, opt);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "second,count\n2023-11-14T22:13:20Z,3\n");
}

// Linear time, and memory bounded by the 64 MiB line limit, not by the line:
// a line with no newline beyond the limit is rejected as line_too_long
// without being held whole. Mapped, only the file's own pages are resident
// (the 100 MiB line, plus 32 MiB for the program; a copy of the line would
// double it). Streamed through a pipe, the reader keeps at most a window of
// the limit, in a buffer that doubles up to 128 MiB (about 200 MiB at the
// peak, while it grows from 64), however long the line: a 320 MiB line held
// whole would need more than 320 MiB. Peak RSS is checked only without
// sanitizers, which inflate it.
constexpr long kMiB = 1024;  // in the KiB of max_rss_kb

TEST_F(Faults, HundredMegabyteLineWithoutNewline) {
  const std::string file = write("huge.log", std::string(100u << 20, 'x'));
  RunOptions opt;
  opt.timeout_seconds = 60;
  const ProcessResult mapped = logagg({file, "--format", "json", "-q"}, opt);
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  const auto s = json_numbers(mapped.out);
  EXPECT_EQ(s.at("lines"), 1u);
  EXPECT_EQ(s.at("line_too_long"), 1u);
  if (!kSanitized) EXPECT_LT(mapped.max_rss_kb, (100 + 32) * kMiB) << "mapped";

  opt.write_stdin = [](int fd) {
    const std::string block(1u << 20, 'x');
    for (int i = 0; i < 320; ++i) {
      if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) return;
    }
  };
  const ProcessResult piped = logagg({"-", "--format", "json", "-q"}, opt);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  const auto p = json_numbers(piped.out);
  EXPECT_EQ(p.at("lines"), 1u);
  EXPECT_EQ(p.at("line_too_long"), 1u);
  EXPECT_EQ(p.at("bytes"), 320u << 20);
  if (!kSanitized) EXPECT_LT(piped.max_rss_kb, 256 * kMiB) << "streamed through a pipe";
  std::printf("peak RSS for a line of 100 MiB mapped: %ld MiB, of 320 MiB through a pipe: %ld MiB\n",
              mapped.max_rss_kb / kMiB, piped.max_rss_kb / kMiB);
}

// Resident memory does not grow with the file: the pages of each mapped
// segment are released once it is scanned. A file named is read with pread
// into a buffer a worker; a file on standard input (`< big.log`) is read
// through its mapping. 256 MiB in 16 MiB segments on 2 threads peaks at about
// 60 MiB (the program, the pages of the segments being scanned, and those the
// cuts touched when the segments were planned); without the release every
// page stays resident, the whole 256 MiB.
TEST_F(Faults, MappedPagesAreReleasedBehindEachSegment) {
  if (kSanitized) GTEST_SKIP() << "sanitizers change memory use; measured in the release build";
  const std::string file = path("big.log");
  {
    std::ofstream out(file, std::ios::binary);
    const std::string block = lines((1u << 20) / kLine.size());
    for (size_t written = 0; written < (256u << 20); written += block.size()) out << block;
  }
  RunOptions opt;
  opt.stdout_path = "/dev/null";
  opt.timeout_seconds = 120;
  opt.input_path = file;
  const ProcessResult r = logagg({"-", "--threads", "2", "--segment-bytes", "16777216", "--format", "csv"}, opt);
  opt.input_path.clear();
  const ProcessResult named = logagg({file, "--threads", "2", "--segment-bytes", "16777216", "--format", "csv"}, opt);
  fs::remove(file);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_LT(named.max_rss_kb, 128 * kMiB) << "peak RSS " << named.max_rss_kb / kMiB << " MiB, the file named";
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.max_rss_kb, 128 * kMiB) << "peak RSS " << r.max_rss_kb / kMiB << " MiB for a 256 MiB file";
  std::printf("peak RSS for 256 MiB in 16 MiB segments: %ld MiB mapped (standard input), %ld MiB read\n",
              r.max_rss_kb / kMiB, named.max_rss_kb / kMiB);
}

TEST_F(Faults, DegenerateFilesAreHandledLine_by_line) {
  const std::string nesting_ok = R"({"app_id":"A1","timestamp":"2023-11-14T22:13:20Z","d":)" +
                                 std::string(10000, '[') + std::string(10000, ']') + "}\n";
  const std::string nesting_bad = R"({"app_id":"A1","timestamp":"2023-11-14T22:13:20Z","d":)" +
                                  std::string(10000, '{') + "}\n";
  struct Case {
    std::string name, content;
    uint64_t lines, counted, blank, invalid_json;
  };
  const std::vector<Case> cases = {
      {"no_newline", kLine.substr(0, kLine.size() - 1), 1, 1, 0, 0},
      {"only_newlines", std::string(1000000, '\n'), 1000000, 0, 1000000, 0},
      {"nul_bytes", std::string(5000, '\0') + "\n" + kLine + "{\"app_id\":\"A\0\"}\n", 3, 1, 0, 2},
      {"invalid_utf8", "\xff\xfe\n{\"app_id\":\"A1\",\"x\":\"\xc0\xaf\",\"timestamp\":\"2023-11-14T22:13:20Z\"}\n" + kLine, 3, 1, 0, 2},
      {"deep_nesting", nesting_ok + nesting_bad, 2, 1, 0, 1},
  };
  for (const Case& c : cases) {
    RunOptions opt;
    opt.timeout_seconds = 60;
    const ProcessResult r = logagg({write(c.name + ".log", c.content), "--format", "json", "-q"}, opt);
    ASSERT_EQ(r.exit_code, 0) << c.name << ": " << r.err;
    const auto s = json_numbers(r.out);
    expect_accounted(s);
    EXPECT_EQ(s.at("lines"), c.lines) << c.name;
    EXPECT_EQ(s.at("counted"), c.counted) << c.name;
    EXPECT_EQ(s.at("blank"), c.blank) << c.name;
    EXPECT_EQ(s.at("invalid_json"), c.invalid_json) << c.name;
  }
}

TEST_F(Faults, ClosedPipeEndsQuietlyAndFullDiskIsAnError) {
  const std::string file = write("a.log", lines(1000));
  RunOptions closed;
  closed.stdout_to_closed_pipe = true;
  const ProcessResult p = logagg({file, "--format", "csv", "-q"}, closed);
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_EQ(p.signal, 0);
  EXPECT_EQ(p.err, "");

  RunOptions full;
  full.stdout_path = "/dev/full";
  const ProcessResult f = logagg({file, "--format", "csv", "-q"}, full);
  EXPECT_EQ(f.exit_code, 1);
  EXPECT_EQ(f.err, "logagg: cannot write the report: No space left on device\n");
}

// The table's app column is as wide as the widest id shown: 20,000 apps and
// one id of 5000 bytes make every row 5000 columns wide, written in chunks.
// What the writer keeps per app must be the id's own text, not a cell
// padded to the widest (which took 187 MB here, against 13 MB).
TEST_F(Faults, AWideIdDoesNotWidenWhatTheTableKeepsPerApp) {
  if (kSanitized) GTEST_SKIP() << "sanitizers change memory use; measured in the release build";
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += R"({"app_id":"app)" + std::to_string(i) + R"(","timestamp":"2024-01-01T00:00:)" +
            std::to_string(10 + i % 50) + "Z\"}\n";
  }
  text += R"({"app_id":")" + std::string(5000, 'x') + R"(","timestamp":"2024-01-01T00:00:00Z"})" + "\n";
  RunOptions opt;
  opt.stdout_path = "/dev/null";
  opt.timeout_seconds = 60;
  const ProcessResult r = logagg({write("wide.log", text), "--by-app", "--app-pattern", ".+", "-q"}, opt);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.max_rss_kb, 64 * kMiB) << "peak RSS " << r.max_rss_kb / kMiB << " MiB";
}

// 20 million distinct seconds, each on two lines far apart, so that both
// threads see nearly every second: memory must grow with distinct seconds, not
// threads x distinct seconds. Bound (README, Reliability): about 50 bytes per
// distinct second plus ~40 MB per thread.
TEST_F(Faults, MemoryIsBoundedOnAdversarialTimeSpread) {
  if (kSanitized) GTEST_SKIP() << "sanitizers change memory use; measured in the release build";
  constexpr uint64_t kDistinct = 20'000'000;
  constexpr int64_t kStart = 1'600'000'000;
  const std::string file = path("spread.log");
  {
    std::FILE* f = std::fopen(file.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::string buf;
    char ts[kUtcSecondMaxChars];
    for (int pass = 0; pass < 2; ++pass) {
      for (uint64_t i = 0; i < kDistinct; ++i) {
        const int64_t t = kStart + static_cast<int64_t>((i * 7'654'321) % kDistinct);  // a permutation
        const auto n = static_cast<size_t>(format_utc_second(t, ts));
        buf.append(R"({"app_id":"a","timestamp":")").append(ts, n).append("\"}\n");
        if (buf.size() > (1u << 20)) {
          std::fwrite(buf.data(), 1, buf.size(), f);
          buf.clear();
        }
      }
    }
    std::fwrite(buf.data(), 1, buf.size(), f);
    std::fclose(f);
  }
  RunOptions opt;
  opt.stdout_path = "/dev/null";
  opt.timeout_seconds = 300;
  const ProcessResult r = logagg({file, "--threads", "2", "--format", "csv"}, opt);
  fs::remove(file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("counted                          40000000\n"), std::string::npos) << r.err;
  const long bound_kb = static_cast<long>(kDistinct * 50 / 1024 + 2 * 40 * 1024);
  EXPECT_LT(r.max_rss_kb, bound_kb) << "peak RSS " << r.max_rss_kb / 1024 << " MB";
  std::printf("peak RSS for %llu distinct seconds on 2 threads: %ld MB (bound %ld MB)\n",
              static_cast<unsigned long long>(kDistinct), r.max_rss_kb / 1024, bound_kb / 1024);
}

}  // namespace
}  // namespace logagg
