// Tests for where bytes come from: path expansion (folders sorted, hidden
// entries skipped, errors named), what a listing tells about a file without
// reading it, the map-or-read policy, line ends found in memory (lines.h),
// and the block reader (lines across block boundaries, over-long lines
// skipped without buffering). Reads of a file with pread are
// file_reads_test's.
#include "input/input.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "parse/line_parser.h"
#include "text/lines.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/logagg-input-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& rel, const std::string& content = "x\n") const {
    const fs::path p = path_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << content;
    return p.string();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(ExpandPaths, FolderIsWalkedSortedAndHiddenEntriesSkipped) {
  TempDir d;
  d.file("b.log");
  d.file("a/z.log");
  d.file("a.log");
  d.file(".hidden.log");
  d.file(".git/config");
  d.file("sub/.secret/x.log");
  std::vector<InputError> errors;
  const auto inputs = expand_paths({d.path().string()}, errors);
  EXPECT_TRUE(errors.empty());
  const std::string root = d.path().string();
  EXPECT_EQ(inputs, (std::vector<std::string>{root + "/a.log", root + "/a/z.log", root + "/b.log"}));
}

TEST(ExpandPaths, HiddenPathNamedExplicitlyIsRead) {
  TempDir d;
  const std::string hidden = d.file(".hidden.log");
  std::vector<InputError> errors;
  EXPECT_EQ(expand_paths({hidden}, errors), std::vector<std::string>{hidden});
}

TEST(ExpandPaths, MissingPathAndDanglingLinkAreNamedErrors) {
  TempDir d;
  fs::create_symlink(d.path() / "nowhere", d.path() / "dangling.log");
  std::vector<InputError> errors;
  const auto inputs = expand_paths({(d.path() / "missing").string(), d.path().string(), "-"}, errors);
  EXPECT_EQ(inputs, std::vector<std::string>{"-"});
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, (d.path() / "missing").string());
  EXPECT_EQ(errors[0].message, "No such file or directory");
  EXPECT_EQ(errors[1].path, (d.path() / "dangling.log").string());
}

// A regular file's size and compression by its first bytes (a name says
// nothing); nothing for what is not a regular file, a FIFO included, which
// would block the call if it were opened.
TEST(RegularFileFacts, SizeAndCompressionOfRegularFilesOnly) {
  TempDir d;
  const auto facts = [](const std::string& path) {
    const std::optional<FileFacts> f = regular_file_facts(path);
    if (!f) return std::string("none");
    const std::string compression = f->compression ? std::string(compression_name(*f->compression)) : "unknown";
    return std::to_string(f->bytes) + " " + compression;
  };
  EXPECT_EQ(facts(d.file("plain.gz", "{}\n")), "3 plain");
  EXPECT_EQ(facts(d.file("gzip.log", std::string("\x1f\x8b\x08\x00", 4) + "rest")), "8 gzip");
  EXPECT_EQ(facts(d.file("zstd", std::string("\x28\xb5\x2f\xfd", 4))), "4 zstd");
  EXPECT_EQ(facts(d.file("short", "\x1f")), "1 plain");
  EXPECT_EQ(facts(d.file("empty", "")), "0 plain");
  const std::string fifo = (d.path() / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(facts(fifo), "none");
  EXPECT_EQ(facts("-"), "none");
  EXPECT_EQ(facts(d.path().string()), "none");
  EXPECT_EQ(facts((d.path() / "missing").string()), "none");
  if (::geteuid() != 0) {  // root opens it anyway
    const std::string locked = d.file("locked", "12345");
    fs::permissions(locked, fs::perms::none);
    EXPECT_EQ(facts(locked), "5 unknown") << "its size, but no look inside";
  }
}

TEST(ReadPolicy, RegularFilesWithDataAreMappedEverythingElseRead) {
  struct stat st {};
  st.st_mode = S_IFREG;
  st.st_size = 10;
  EXPECT_EQ(choose_read_mode(st), ReadMode::kMap);
  st.st_size = 0;
  EXPECT_EQ(choose_read_mode(st), ReadMode::kStream);
  st.st_mode = S_IFIFO;
  st.st_size = 10;
  EXPECT_EQ(choose_read_mode(st), ReadMode::kStream);
}

// The in-memory line-end search: the first LF at or after `from` (the LF
// itself, or just past it), none past the end or where there is no LF.
TEST(Lines, NextLfAndPastIt) {
  const std::string_view data = "ab\n\ncd";
  EXPECT_EQ(next_lf(data, 0), 2u);
  EXPECT_EQ(next_lf(data, 3), 3u);
  EXPECT_EQ(next_lf(data, 4), std::string_view::npos);
  EXPECT_EQ(next_lf(data, 9), std::string_view::npos);
  EXPECT_EQ(past_next_lf(data, 0), 3u);
  EXPECT_EQ(past_next_lf(data, 3), 4u);
  EXPECT_EQ(past_next_lf(data, 4), data.size());
  EXPECT_EQ(past_next_lf(data, 9), data.size());
  EXPECT_EQ(past_next_lf("ab\n", 0), 3u);  // an LF at the last byte
}

// What one chunk held; chunk views are only valid until the next read.
struct ChunkInfo {
  bool ends_with_lf;
  size_t lines;
  bool skipped_long_line;
};

// Feeds `data` through a pipe and records what the reader hands out.
std::vector<ChunkInfo> read_all(const std::string& data, size_t max_line, std::string& text) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t off = 0;
    while (off < data.size()) {
      const ssize_t n = write(fds[1], data.data() + off, std::min<size_t>(data.size() - off, 4096));
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
  });
  const std::unique_ptr<ByteSource> source = open_byte_source(fds[0]);
  std::vector<char> buffer;
  StreamReader reader(*source, max_line, buffer);
  std::vector<ChunkInfo> chunks;
  StreamReader::Chunk c;
  while (reader.next(c)) {
    if (!c.skipped_long_line) EXPECT_GE(c.readable, c.text.size() + kLinePadding);
    text.append(c.text);
    size_t lines = 0;
    for (size_t i = 0; i < c.text.size(); ++i) lines += c.text[i] == '\n' || i + 1 == c.text.size();
    chunks.push_back({!c.text.empty() && c.text.back() == '\n', lines, c.skipped_long_line});
  }
  writer.join();
  close(fds[0]);
  EXPECT_EQ(reader.bytes_read(), data.size());
  return chunks;
}

TEST(StreamReader, HandsOutWholeLinesAcrossBlocks) {
  std::string data;
  for (int i = 0; i < 200000; ++i) data += "line " + std::to_string(i) + "\n";
  data += "last without lf";
  std::string text;
  const auto chunks = read_all(data, 1 << 20, text);
  EXPECT_EQ(text, data);
  for (size_t i = 0; i + 1 < chunks.size(); ++i) EXPECT_TRUE(chunks[i].ends_with_lf);
}

TEST(StreamReader, OverLongLinesAreAccountedAsLinesWhetherSkippedOrHandedOut) {
  // Long lines that fit in the buffer are handed out (the parser rejects them
  // as too long); ones that would need more buffering are skipped and flagged.
  const std::string data = "short\n" + std::string(5000, 'x') + "\nafter\n" + std::string(3000, 'y');
  std::string text;
  const auto chunks = read_all(data, 100, text);
  size_t lines = 0, skipped = 0;
  for (const ChunkInfo& c : chunks) {
    skipped += c.skipped_long_line;
    lines += c.lines;
  }
  EXPECT_EQ(lines + skipped, 4u);
  EXPECT_GE(skipped, 1u) << "the unterminated 3000-byte tail never fits in the 100-byte limit window";
  EXPECT_EQ(text.find('y'), std::string::npos);
}

TEST(StreamReader, LineLongerThanTheBlockIsSkippedWithoutBuffering) {
  const std::string data = "a\n" + std::string(3 << 20, 'z') + "\nb\n";
  std::string text;
  read_all(data, 1000, text);
  EXPECT_EQ(text, "a\nb\n");
}

}  // namespace
}  // namespace logagg
