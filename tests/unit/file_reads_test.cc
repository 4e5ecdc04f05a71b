// Tests for the reads of a file with pread (input/input.h): a range read
// whole, the next line end (the same answer as the in-memory search of
// lines.h, whatever the size of the preads; none and a file shorter than
// measured told apart), and the compression its first bytes announce (not
// known where they cannot be read).
#include "input/input.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "text/lines.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;

// A file holding `content`, open for reading while the test runs.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char tmpl[] = "/tmp/logagg-file-reads-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    path_ = tmpl;
    ::close(fd);
    std::ofstream(path_, std::ios::binary) << content;
    fd_ = ::open(path_.c_str(), O_RDONLY);
  }
  ~TempFile() {
    ::close(fd_);
    fs::remove(path_);
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
};

TEST(PreadAll, ReadsTheRangeAndFewerOnlyAtTheEnd) {
  const std::string data = "0123456789abcdef";
  TempFile file(data);
  char buf[32];
  ASSERT_EQ(pread_all(file.fd(), buf, 4, 3), 4);
  EXPECT_EQ(std::string(buf, 4), "3456");
  ASSERT_EQ(pread_all(file.fd(), buf, sizeof buf, 10), 6);  // the file ends after 6
  EXPECT_EQ(std::string(buf, 6), "abcdef");
  EXPECT_EQ(pread_all(file.fd(), buf, 4, 100), 0);
  EXPECT_EQ(pread_all(-1, buf, 4, 0), -1);
}

// past_next_lf_in_file finds what the in-memory search finds in the same
// bytes, within [from, end) only: LFs at a pread's first and last byte, a
// line longer than one pread, no LF, a start at or past the end; with preads
// of 4096 bytes from every start, and of 7 (many preads for one line) from
// every start next to an LF, a 4096-byte edge or the end, and every 61st.
TEST(PastNextLfInFile, AgreesWithTheBufferSearch) {
  const std::string data =
      "\nab\n" + std::string(4090, 'x') + "\n" + std::string(9000, 'y') + "\nz\n" + std::string(100, 'w');
  TempFile file(data);
  for (const size_t pread_bytes : {size_t{4096}, size_t{7}}) {
    std::vector<char> buffer(pread_bytes);
    for (const size_t size : {data.size(), data.size() - 100, size_t{4096}, size_t{3}}) {
      const std::string_view bytes(data.data(), size);
      const auto near_an_edge = [&](size_t from) {
        for (const size_t at : {from - 1, from, from + 1}) {
          if (at >= size || data[at] == '\n' || at % 4096 == 0) return true;
        }
        return false;
      };
      for (size_t from = 0; from <= size + 1; ++from) {
        if (pread_bytes == 7 && from % 61 != 0 && !near_an_edge(from)) continue;
        bool short_read = false;
        const std::optional<uint64_t> got = past_next_lf_in_file(file.fd(), from, size, buffer, &short_read);
        const size_t lf = next_lf(bytes, from);
        ASSERT_EQ(got, lf == std::string_view::npos ? std::nullopt : std::optional<uint64_t>(lf + 1))
            << "size " << size << " from " << from << " preads of " << pread_bytes;
        ASSERT_EQ(got.value_or(size), past_next_lf(bytes, from));
        ASSERT_FALSE(short_read);
      }
    }
  }
}

// A file shorter than the caller measured it (truncated since): no answer,
// and short_read says why, where the search reaches the file's end; the LF
// where it does not.
TEST(PastNextLfInFile, FileShorterThanMeasuredIsAShortRead) {
  const std::string data = "\nab\n" + std::string(5000, 'x');
  TempFile file(data);
  char buffer[4096];
  const uint64_t measured = data.size() + 10;
  for (const uint64_t from : {uint64_t{5}, data.size() - 50, data.size() + 5}) {
    bool short_read = false;
    EXPECT_EQ(past_next_lf_in_file(file.fd(), from, measured, buffer, &short_read), std::nullopt) << from;
    EXPECT_TRUE(short_read) << from;
  }
  bool short_read = false;
  EXPECT_EQ(past_next_lf_in_file(file.fd(), 1, measured, buffer, &short_read), std::optional<uint64_t>(4));
  EXPECT_FALSE(short_read);
  EXPECT_EQ(past_next_lf_in_file(file.fd(), 5, measured, buffer), std::nullopt);  // short_read is optional
}

TEST(FileCompression, TheFirstBytesUpToTheMeasuredSize) {
  EXPECT_EQ(file_compression(TempFile(std::string("\x1F\x8B\x08\x00", 4)).fd()), Compression::kGzip);
  EXPECT_EQ(file_compression(TempFile(std::string("\x28\xB5\x2F\xFD\x00", 5)).fd()), Compression::kZstd);
  EXPECT_EQ(file_compression(TempFile("{\"app_id\":\"a\"}\n").fd()), Compression::kNone);
  EXPECT_EQ(file_compression(TempFile("").fd()), Compression::kNone);
  EXPECT_EQ(file_compression(-1), std::nullopt);  // cannot be read: not known
  // Only the bytes within the measured size count: a magic completed by
  // bytes written after the file was measured does not.
  const TempFile zstd(std::string("\x28\xB5\x2F\xFD", 4));
  EXPECT_EQ(file_compression(zstd.fd(), 4), Compression::kZstd);
  EXPECT_EQ(file_compression(zstd.fd(), 3), Compression::kNone);
  EXPECT_EQ(file_compression(TempFile("\x1F\x8B").fd(), 2), Compression::kGzip);
}

}  // namespace
}  // namespace logagg
