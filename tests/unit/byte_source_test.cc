// Tests for reading compressed logs and many files:
// - gzip (also several concatenated members) and zstd (also several frames)
//   are recognised by their magic bytes, whatever the file name, and count
//   exactly like the plain text, from files and from standard input;
// - a truncated or corrupt archive is an error naming the file and the
//   format, and the lines before the damage stay counted and accounted;
// - reads of any size, by the reader's thread or ahead of it, give the same
//   content and the same verdict (padded, cut or corrupt data, members,
//   frames, a fault in the middle of gzip or zstd data): a damaged archive
//   gives the same bytes before the damage, whatever the reads, and what the
//   decoder still holds when the data ends comes out before the error;
// - many small files, plain and compressed, spread over the workers, give the
//   same result as their concatenation, for any thread count.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "input/input.h"
#include "support/compress.h"
#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

// A log of `lines` lines over a few seconds, some blank and some rejected.
std::string make_log(size_t lines, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out;
  for (size_t i = 0; i < lines; ++i) {
    switch (rng() % 10) {
      case 0: out += "\n"; break;
      case 1: out += "{\"app_id\":\"bad id\",\"timestamp\":\"2021-03-04T05:06:07Z\"}\n"; break;
      default:
        out += "{\"app_id\":\"A" + std::to_string(rng() % 5) + "\",\"timestamp\":\"2021-03-04T05:06:0" +
               std::to_string(rng() % 10) + "Z\",\"pad\":\"" + std::string(rng() % 200, 'x') + "\"}\n";
    }
  }
  return out;
}

class CompressedInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("logagg-compressed-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, std::string_view bytes) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p.string();
  }

  static Result run(const std::vector<std::string>& paths, unsigned threads = 2) {
    Options o;
    o.threads = threads;
    o.max_reject_samples = 100;
    return aggregate(paths, o);
  }

  fs::path dir_;
};

void expect_same_counts(const Result& got, const Result& want) {
  EXPECT_EQ(got.counts, want.counts);
  EXPECT_EQ(got.summary.lines, want.summary.lines);
  EXPECT_EQ(got.summary.counted, want.summary.counted);
  EXPECT_EQ(got.summary.blank, want.summary.blank);
  EXPECT_EQ(got.summary.rejected, want.summary.rejected);
}

TEST(DetectCompression, ByMagicBytesOnly) {
  EXPECT_EQ(detect_compression("\x1F\x8B\x08\x00"), Compression::kGzip);
  EXPECT_EQ(detect_compression(std::string_view("\x28\xB5\x2F\xFD", 4)), Compression::kZstd);
  EXPECT_EQ(detect_compression("{\"a\""), Compression::kNone);
  EXPECT_EQ(detect_compression("\x1F"), Compression::kNone);  // too short to tell: plain
  EXPECT_EQ(detect_compression(std::string_view("\x28\xB5\x2F", 3)), Compression::kNone);
  EXPECT_EQ(detect_compression(""), Compression::kNone);
}

TEST_F(CompressedInput, GzipAndZstdCountLikeThePlainTextWhateverTheirNames) {
  const std::string log = make_log(5000, 1);
  const Result plain = run({write("plain.log", log)});
  ASSERT_GT(plain.summary.counted, 0u);
  const std::string half1 = log.substr(0, log.size() / 3), half2 = log.substr(log.size() / 3);
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"a.log", gzip(log)},                  // gzip named .log
           {"a.zst.gz", zstd(log)},               // zstd named .gz
           {"plain.gz", log},                     // plain text named .gz
           {"members.gz", gzip(half1) + gzip(half2)},  // concatenated gzip members
           {"frames.zst", zstd(half1) + zstd(half2)},  // several zstd frames
       }) {
    SCOPED_TRACE(name);
    const Result r = run({write(name, bytes)});
    EXPECT_TRUE(r.errors.empty()) << r.errors[0].message;
    expect_same_counts(r, plain);
    EXPECT_EQ(r.summary.bytes, bytes.size()) << "bytes read from the file";
  }
}

TEST_F(CompressedInput, CompressedStandardInputIsRecognisedToo) {
  const std::string log = make_log(3000, 2);
  const std::string want =
      testing::run_process({testing::logagg_bin(), "-q", "--format", "csv", write("p.log", log)}).out;
  for (const std::string& bytes : {gzip(log), zstd(log)}) {
    testing::RunOptions opt;
    opt.input = &bytes;
    const testing::ProcessResult r = testing::run_process({testing::logagg_bin(), "-q", "--format", "csv", "-"}, opt);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want);
  }
}

TEST_F(CompressedInput, TruncatedOrCorruptArchivesAreErrorsAndTheLinesBeforeStayCounted) {
  const std::string log = make_log(20000, 3);
  const Result whole = run({write("whole.log", log)});
  const std::string gz = gzip(log), zs = zstd(log);
  std::string corrupt_gz = gz, corrupt_zs = zs;
  for (size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i) corrupt_gz[i] = static_cast<char>(corrupt_gz[i] ^ 0x5A);
  for (size_t i = zs.size() / 2; i < zs.size() / 2 + 64; ++i) corrupt_zs[i] = static_cast<char>(corrupt_zs[i] ^ 0x5A);
  struct Case {
    std::string name, bytes, message;
  };
  for (const Case& c : std::vector<Case>{
           {"cut.gz", gz.substr(0, gz.size() / 2), "gzip data truncated (unexpected end of file)"},
           {"cut.zst", zs.substr(0, zs.size() / 2), "zstd data truncated (unexpected end of file)"},
           {"bad.gz", corrupt_gz, "corrupt gzip data: "},
           {"bad.zst", corrupt_zs, "corrupt zstd data: "},
       }) {
    SCOPED_TRACE(c.name);
    const std::string path = write(c.name, c.bytes);
    const Result r = run({path, write("after.log", log)});
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].path, path);
    EXPECT_EQ(r.errors[0].message.substr(0, c.message.size()), c.message);
    EXPECT_EQ(r.summary.lines, r.summary.counted + r.summary.blank + r.summary.rejected_total());
    EXPECT_GT(r.summary.counted, whole.summary.counted) << "lines before the damage are counted";
    EXPECT_LT(r.summary.counted, 2 * whole.summary.counted) << "nothing after the damage is";
    EXPECT_EQ(r.summary.files, 2u);
    EXPECT_EQ(r.summary.unreadable, 0u);
  }
}

// Reads the content of the file at `path` through open_byte_source in reads
// of 1 to `max_cap` bytes; `error` gets its error, if any.
std::string read_through_source(const std::string& path, Decompression how, size_t max_cap, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0);
  std::string out;
  {
    const std::unique_ptr<ByteSource> source = open_byte_source(fd, how);
    std::vector<char> buf(max_cap);
    std::mt19937_64 rng(max_cap);
    ptrdiff_t n;
    while ((n = source->read(buf.data(), 1 + rng() % max_cap)) > 0) out.append(buf.data(), static_cast<size_t>(n));
    error = source->error();
  }
  ::close(fd);
  return out;
}

TEST_F(CompressedInput, ReadsOfAnySizeInlineOrAheadGiveTheContentAndTheSameVerdict) {
  const std::string log = make_log(4000, 9);
  const std::string gz = gzip(log), zs = zstd(log, /*checksum=*/true);
  auto changed = [](std::string bytes, size_t at) {
    bytes[at] = static_cast<char>(bytes[at] ^ 0x55);
    return bytes;
  };
  // name, bytes, and the error (for a fault in the middle of the data, how
  // it starts: the words depend on the fault)
  std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"members.gz", gzip(log.substr(0, 1000)) + gzip("") + gzip(log.substr(1000)), ""},
      {"frames.zst", zstd(log.substr(0, 5000)) + zstd(log.substr(5000)), ""},
      {"padded.gz", gz + std::string(100, '\0'), "corrupt gzip data: incorrect header check"},
      {"cut.gz", gz.substr(0, gz.size() / 2), "gzip data truncated (unexpected end of file)"},
      {"cut.zst", zs.substr(0, zs.size() / 2), "zstd data truncated (unexpected end of file)"},
      {"bad-crc.gz", changed(gz, gz.size() - 8), "corrupt gzip data: incorrect data check"},
      {"bad-checksum.zst", changed(zs, zs.size() - 2), "corrupt zstd data: "},
  };
  // Faults in the middle of the compressed data (3/64 of this gzip is a
  // distance too far back, which ISA-L met with bytes still in its own
  // buffer; most others spoil the CRC or the checksum).
  for (const size_t at : {3, 16, 32, 48, 61}) {
    const std::string suffix = std::to_string(at) + "-64ths";
    cases.emplace_back("changed-" + suffix + ".gz", changed(gz, gz.size() * at / 64), "corrupt gzip data: ");
    cases.emplace_back("changed-" + suffix + ".zst", changed(zs, zs.size() * at / 64), "corrupt zstd data: ");
  }
  for (const auto& [name, bytes, error] : cases) {
    const std::string path = write(name, bytes);
    std::optional<std::pair<std::string, std::string>> first;  // what the first way of reading gave: every way gives the same
    for (const Decompression how : {Decompression::kInline, Decompression::kAhead}) {
      for (const size_t max_cap : {size_t{1}, size_t{7}, size_t{70000}, size_t{1} << 20}) {
        SCOPED_TRACE(name + (how == Decompression::kAhead ? " ahead" : " inline") + ", reads up to " +
                     std::to_string(max_cap));
        std::string got_error;
        const std::string got = read_through_source(path, how, max_cap, got_error);
        EXPECT_EQ(got_error.substr(0, error.size()), error);
        EXPECT_EQ(got_error.empty(), error.empty()) << got_error;
        if (error.empty()) EXPECT_TRUE(got == log) << got.size() << " bytes of " << log.size();
        if (!first) first.emplace(got, got_error);
        EXPECT_EQ(got_error, first->second);
        EXPECT_TRUE(got == first->first) << got.size() << " bytes, first " << first->first.size() << " bytes";
      }
    }
  }
}

// A zstd frame cut just before its checksum, whose last block (zstd blocks
// are 128 KiB) holds a chunk boundary: that block is decoded from the last
// bytes read, and what did not fit before the boundary is still in the
// decoder when the raw data ends. It comes out, all of the content, before
// the error.
TEST_F(CompressedInput, WhatTheDecoderHoldsWhenTheDataEndsComesOutBeforeTheError) {
  const std::string log = make_log(4000, 9);
  const size_t last_block = 2 * kDecodedChunkBytes - 20000, zstd_block = size_t{128} << 10;
  ASSERT_GT(log.size(), 2 * kDecodedChunkBytes);
  ASSERT_LT(log.size(), last_block + zstd_block);
  const size_t split = last_block % zstd_block;  // the second frame's blocks start there, 128 KiB apart
  const std::string frames = zstd(log.substr(0, split)) + zstd(log.substr(split), /*checksum=*/true);
  const std::string path = write("no-checksum.zst", frames.substr(0, frames.size() - 4));
  for (const Decompression how : {Decompression::kInline, Decompression::kAhead}) {
    for (const size_t max_cap : {size_t{7}, size_t{1} << 20}) {
      SCOPED_TRACE(std::string(how == Decompression::kAhead ? "ahead" : "inline") + ", reads up to " +
                   std::to_string(max_cap));
      std::string error;
      const std::string got = read_through_source(path, how, max_cap, error);
      EXPECT_EQ(error, "zstd data truncated (unexpected end of file)");
      EXPECT_TRUE(got == log) << got.size() << " bytes of " << log.size();
    }
  }
}

TEST_F(CompressedInput, ManySmallFilesCountLikeTheirConcatenationForAnyThreadCount) {
  std::string all;
  for (int i = 0; i < 300; ++i) {
    const std::string log = make_log(1 + i % 17, 100 + static_cast<uint64_t>(i));
    all += log;
    const std::string bytes = i % 3 == 0 ? gzip(log) : i % 3 == 1 ? zstd(log) : log;
    write("many/" + std::to_string(1000 + i) + ".log", bytes);
  }
  const Result whole = run({write("all.log", all)}, 1);
  for (unsigned threads : {1u, 2u, 5u}) {
    SCOPED_TRACE(threads);
    const Result r = run({(dir_ / "many").string()}, threads);
    EXPECT_TRUE(r.errors.empty());
    expect_same_counts(r, whole);
    EXPECT_EQ(r.summary.files, 300u);
    // Rejected lines are numbered within their own file, in input order.
    ASSERT_FALSE(r.rejects.empty());
    for (const RejectSample& reject : r.rejects) EXPECT_EQ(fs::path(reject.path).parent_path(), dir_ / "many");
    EXPECT_TRUE(std::is_sorted(r.rejects.begin(), r.rejects.end(),
                               [](const RejectSample& a, const RejectSample& b) { return a.path < b.path; }));
  }
}

}  // namespace
}  // namespace logagg
