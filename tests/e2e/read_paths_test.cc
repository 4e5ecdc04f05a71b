// Every way logagg reads a file gives the plain file's output, byte for byte,
// on 1, 2 and 3 threads: a large gzip file (decompressed by a thread of its
// own ahead of the parser when there are threads to spare), a multi-member
// gzip, a zstd file, a folder of compressed parts, and a plain file evicted
// from the page cache (posix_fadvise DONTNEED) before it is read. A damaged
// archive over 1 MiB (a byte changed in the middle of its compressed data,
// cut short, a wrong CRC, a bad second member, a zstd frame changed in the
// middle or with a wrong checksum) gives the same output, summary, message
// and exit status on 1, 2, 3 and 8 threads. The result is checked, never the
// time.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/compress.h"
#include "support/generated_log.h"
#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;
using testing::GeneratedLog;
using testing::logagg_bin;
using testing::run_process;

void write_file(const fs::path& p, std::string_view bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// logagg's stdout (csv, or csv per app) for `path`, which must succeed.
std::string csv_of(const std::string& path, unsigned threads, bool by_app = false) {
  std::vector<std::string> argv = {logagg_bin(), "-q", "--format", "csv", "--threads", std::to_string(threads), path};
  if (by_app) argv.push_back("--by-app");
  const testing::ProcessResult r = run_process(argv);
  EXPECT_EQ(r.exit_code, 0) << path << ": " << r.err;
  return r.out;
}

// logagg's stdout (json: counts, summary and stats), stderr without the
// timing of its summary line, and exit status, for `path` on `threads`.
std::string report_of(const std::string& path, unsigned threads) {
  const testing::ProcessResult r =
      run_process({logagg_bin(), "--format", "json", "--threads", std::to_string(threads), path});
  std::string err = r.err;
  const size_t timing = err.find(" lines in ");  // "... N lines in 0.057 s (82.7 MiB/s, ...)"
  if (timing != std::string::npos) err.erase(timing + 6, err.find('\n', timing) - timing - 6);
  return r.out + err + "exit status " + std::to_string(r.exit_code) + "\n";
}

class ReadPaths : public ::testing::Test {
 protected:
  // 12 MiB of loggen lines: its gzip is over 1 MiB, which is decompressed
  // ahead of the parser; some dirt and CRLFs, so rejects and blanks count too.
  static void SetUpTestSuite() {
    log_ = new GeneratedLog({"--seed", "34", "--bytes", "12M", "--dirty", "0.05", "--crlf", "0.1"});
    ASSERT_TRUE(log_->ok());
  }
  static void TearDownTestSuite() { delete log_; }
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("logagg-read-paths-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static GeneratedLog* log_;
  fs::path dir_;
};
GeneratedLog* ReadPaths::log_ = nullptr;

TEST_F(ReadPaths, CompressedFilesAndFoldersOfPartsGiveThePlainFilesOutputOnAnyThreads) {
  const std::string text = log_->content();
  // Four parts cut at line ends, of unequal sizes.
  std::vector<std::string> parts;
  size_t begin = 0;
  for (const size_t cut : {text.size() / 7, text.size() / 3, text.size() * 3 / 4, text.size()}) {
    const size_t end = cut == text.size() ? cut : text.find('\n', cut) + 1;
    parts.push_back(text.substr(begin, end - begin));
    begin = end;
  }
  write_file(dir_ / "one.gz", gzip(text));
  ASSERT_GT(fs::file_size(dir_ / "one.gz"), size_t{1} << 20) << "large enough to be decompressed ahead";
  write_file(dir_ / "one.zst", zstd(text));
  write_file(dir_ / "members.gz", gzip(parts[0]) + gzip("") + gzip(parts[1] + parts[2]) + gzip(parts[3]));
  for (size_t i = 0; i < parts.size(); ++i) {
    write_file(dir_ / "gz-parts" / ("part-" + std::to_string(i) + ".gz"), gzip(parts[i]));
    write_file(dir_ / "mixed-parts" / ("part-" + std::to_string(i)), i % 2 == 0 ? zstd(parts[i]) : gzip(parts[i]));
  }
  const std::string want = log_->expected_csv();
  const std::string want_by_app = csv_of(log_->path(), 1, true);
  for (unsigned threads : {1u, 2u, 3u}) {
    for (const char* input : {"one.gz", "one.zst", "members.gz", "gz-parts", "mixed-parts"}) {
      SCOPED_TRACE(std::string(input) + ", threads " + std::to_string(threads));
      EXPECT_EQ(csv_of((dir_ / input).string(), threads), want);
      EXPECT_EQ(csv_of((dir_ / input).string(), threads, true), want_by_app);
    }
  }
}

TEST_F(ReadPaths, AFileEvictedFromThePageCacheGivesTheWarmFilesOutput) {
  const fs::path cold = dir_ / "cold.log";
  fs::copy_file(log_->path(), cold);
  const std::string want = log_->expected_csv();
  for (unsigned threads : {1u, 2u, 3u}) {
    SCOPED_TRACE(threads);
    const int fd = ::open(cold.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::fdatasync(fd), 0);  // dirty pages cannot be evicted
    ASSERT_EQ(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    ::close(fd);
    EXPECT_EQ(csv_of(cold.string(), threads), want);
  }
}

// What a decoder hands out before a fault must not depend on the room it is
// given to write into: one thread reads the file with the stream reader's
// large reads, more threads through the read-ahead thread's 256 KiB buffers.
TEST_F(ReadPaths, DamagedArchivesGiveTheSameOutputMessageAndStatusOnAnyThreads) {
  const std::string text = log_->content();
  const std::string gz = gzip(text), zs = zstd(text, /*checksum=*/true);
  auto changed = [](std::string bytes, size_t at) {
    bytes[at] = static_cast<char>(bytes[at] ^ 0x55);
    return bytes;
  };
  const std::string first_member = gzip(text.substr(0, text.size() / 8));
  const std::string second_member = gzip(text.substr(text.size() / 8));
  std::vector<std::pair<std::string, std::string>> archives = {
      {"cut.gz", gz.substr(0, gz.size() / 2)},
      {"bad-crc.gz", changed(gz, gz.size() - 8)},
      {"bad-length.gz", changed(gz, gz.size() - 2)},
      {"bad-second-member.gz", first_member + changed(second_member, second_member.size() / 2)},
      {"cut.zst", zs.substr(0, zs.size() / 2)},
      {"bad-checksum.zst", changed(zs, zs.size() - 2)},
  };
  for (const size_t eighths : {1, 3, 4, 5, 7}) {
    archives.emplace_back("changed-" + std::to_string(eighths) + ".gz", changed(gz, gz.size() * eighths / 8));
    archives.emplace_back("changed-" + std::to_string(eighths) + ".zst", changed(zs, zs.size() * eighths / 8));
  }
  for (const auto& [name, bytes] : archives) {
    write_file(dir_ / name, bytes);
    ASSERT_GT(fs::file_size(dir_ / name), size_t{1} << 20) << name << ": large enough to be decompressed ahead";
    const std::string one = report_of((dir_ / name).string(), 1);
    EXPECT_NE(one.find("exit status 1\n"), std::string::npos) << name << ": " << one;
    for (const unsigned threads : {2u, 3u, 8u}) {
      SCOPED_TRACE(name + ", threads " + std::to_string(threads));
      const std::string more = report_of((dir_ / name).string(), threads);
      EXPECT_TRUE(more == one) << "1 thread:\n" << one.substr(one.find("logagg: ")) << threads << " threads:\n"
                               << more.substr(more.find("logagg: "));
    }
  }
}

}  // namespace
}  // namespace logagg
