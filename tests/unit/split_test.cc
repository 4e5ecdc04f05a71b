// Tests for `logagg split`: the cut planner against a slow line-by-line
// reference on random data, chunk names, every copy method, the policy for
// files in the way (existing chunks, stale ones of an earlier split, the
// input itself) and the removal of stale chunks, and end to end on
// the real binary: random files and sizes round-trip (every chunk within the
// limit or a lone long line, cut at line ends, concatenating to the input),
// CRLF, no final newline, empty input, the long-line error leaving nothing
// behind, --lines, --force, failures midway, usage errors.
#include "logagg/split.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "support/dependency.h"
#include "support/run_process.h"
#include "support/sanitizers.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;
using testing::ProcessResult;
using testing::slurp;

const std::string kBin = testing::logagg_bin();

// ---- planning ---------------------------------------------------------------

// The obvious planner: walk the lines one by one and fill chunks greedily.
SplitPlan reference_plan(std::string_view data, const SplitLimit& limit) {
  SplitPlan plan;
  size_t begin = 0, lines_in_chunk = 0;
  uint64_t number = 0;
  for (size_t pos = 0; pos < data.size();) {
    const size_t lf = data.find('\n', pos);
    const size_t end = lf == std::string_view::npos ? data.size() : lf + 1;
    ++number;
    if (limit.kind == SplitLimit::Kind::kLines) {
      if (lines_in_chunk == limit.max) {
        plan.chunks.push_back({begin, pos});
        begin = pos;
        lines_in_chunk = 0;
      }
      ++lines_in_chunk;
    } else if (end - pos > limit.max) {
      if (!limit.allow_long_lines) return {{}, LongLine{number, pos, end - pos}};
      if (pos > begin) plan.chunks.push_back({begin, pos});
      plan.chunks.push_back({pos, end});
      begin = end;
    } else if (end - begin > limit.max) {
      plan.chunks.push_back({begin, pos});
      begin = pos;
    }
    pos = end;
  }
  if (begin < data.size()) plan.chunks.push_back({begin, data.size()});
  return plan;
}

std::string describe(const SplitPlan& plan) {
  std::string s;
  for (const ByteSpan& c : plan.chunks) s += "[" + std::to_string(c.begin) + "," + std::to_string(c.end) + ") ";
  if (plan.too_long) {
    s += "too long: line " + std::to_string(plan.too_long->number) + " at " + std::to_string(plan.too_long->offset) +
         ", " + std::to_string(plan.too_long->bytes) + " bytes";
  }
  return s;
}

// Random lines of random length, some CRLF, some blank, maybe no final LF.
std::string random_log(std::mt19937_64& rng, size_t lines, size_t max_line) {
  std::string s;
  for (size_t i = 0; i < lines; ++i) {
    const size_t n = rng() % (rng() % 8 == 0 ? max_line * 4 + 1 : max_line + 1);
    for (size_t j = 0; j < n; ++j) s += static_cast<char>('a' + rng() % 26);
    if (rng() % 4 == 0) s += '\r';
    s += '\n';
  }
  if (rng() % 3 == 0 && !s.empty()) s.pop_back();  // no final LF
  return s;
}

TEST(SplitPlan, EmptyDataHasNoChunks) {
  EXPECT_TRUE(plan_split("", {SplitLimit::Kind::kBytes, 10, false}).chunks.empty());
  EXPECT_TRUE(plan_split("", {SplitLimit::Kind::kLines, 10, false}).chunks.empty());
}

TEST(SplitPlan, CutsJustPastTheLastLfThatFits) {
  // "aaa\n" "bb\r\n" "cccc\n" "d\n" "last"
  const std::string data = "aaa\nbb\r\ncccc\nd\nlast";
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 8, false})), "[0,8) [8,15) [15,19) ");
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 7, false})), "[0,4) [4,8) [8,15) [15,19) ");
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 100, false})), "[0,19) ");
}

TEST(SplitPlan, CrlfIsCutAfterTheLfNeverBetweenCrAndLf) {
  const std::string data = "ab\r\ncd\r\n";
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 4, false})), "[0,4) [4,8) ");
  // A line of 4 bytes with its CRLF does not fit in 3, even though "ab\r" would.
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 3, false})), "too long: line 1 at 0, 4 bytes");
}

TEST(SplitPlan, LongLineIsAnErrorOrAChunkOfItsOwn) {
  const std::string data = "a\nb\n0123456789\nc\n";
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 4, false})), "too long: line 3 at 4, 11 bytes");
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kBytes, 4, true})), "[0,4) [4,15) [15,17) ");
  // The last line, without LF.
  EXPECT_EQ(describe(plan_split("a\nlong", {SplitLimit::Kind::kBytes, 3, false})), "too long: line 2 at 2, 4 bytes");
  EXPECT_EQ(describe(plan_split("a\nlong", {SplitLimit::Kind::kBytes, 3, true})), "[0,2) [2,6) ");
}

TEST(SplitPlan, ByLines) {
  const std::string data = "a\n\nb\r\nc";
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kLines, 1, false})), "[0,2) [2,3) [3,6) [6,7) ");
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kLines, 3, false})), "[0,6) [6,7) ");
  EXPECT_EQ(describe(plan_split(data, {SplitLimit::Kind::kLines, 4, false})), "[0,7) ");
}

TEST(SplitPlan, MatchesTheLineByLineReferenceOnRandomData) {
  std::mt19937_64 rng(9);
  for (int round = 0; round < 2000; ++round) {
    const std::string data = random_log(rng, rng() % 60, 1 + rng() % 40);
    const SplitLimit limit{rng() % 3 == 0 ? SplitLimit::Kind::kLines : SplitLimit::Kind::kBytes, 1 + rng() % 120,
                           rng() % 2 == 0};
    const SplitPlan plan = plan_split(data, limit);
    ASSERT_EQ(describe(plan), describe(reference_plan(data, limit)))
        << "round " << round << ", max " << limit.max << ", data size " << data.size();
  }
}

TEST(SplitPlan, PlansAFileThroughAMapping) {
  char path[] = "/tmp/logagg-split-plan-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string data = "one\ntwo\nthree\n";
  ASSERT_EQ(write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  std::string error;
  const std::optional<SplitPlan> plan = plan_split_file(fd, data.size(), {SplitLimit::Kind::kBytes, 8, false}, error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(describe(*plan), "[0,8) [8,14) ");
  const std::optional<SplitPlan> empty = plan_split_file(fd, 0, {SplitLimit::Kind::kBytes, 8, false}, error);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->chunks.empty());
  close(fd);
  unlink(path);
}

// ---- naming -----------------------------------------------------------------

TEST(SplitNames, PatternsAndIndexWidth) {
  EXPECT_EQ(chunk_name(kDefaultChunkPattern, "access.log", 7, 5), "access.log.part-00007");
  EXPECT_EQ(chunk_name("{index}-{name}-{name}", "x", 123456, 5), "123456-x-x");
  EXPECT_EQ(chunk_index_width(0), 5u);
  EXPECT_EQ(chunk_index_width(100000), 5u);  // indexes 0..99999
  EXPECT_EQ(chunk_index_width(100001), 6u);
  EXPECT_EQ(check_chunk_pattern(kDefaultChunkPattern), "");
  EXPECT_EQ(check_chunk_pattern("{index}"), "");
  EXPECT_NE(check_chunk_pattern("{name}"), "");
  EXPECT_NE(check_chunk_pattern("{index}{index}"), "");
  EXPECT_NE(check_chunk_pattern("sub/{index}"), "");
  EXPECT_NE(check_chunk_pattern("{idx}{index}"), "");
}

// ---- files --------------------------------------------------------------------

class SplitFiles : public ::testing::Test {
 public:
  void SetUp() override {
    char tmpl[] = "/tmp/logagg-split-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& rel, const std::string& content) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  // The files in `rel`, sorted by name.
  std::vector<std::string> files_in(const std::string& rel) {
    std::vector<std::string> names;
    if (!fs::exists(dir_ / rel)) return names;
    for (const auto& e : fs::directory_iterator(dir_ / rel)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string concat(const std::string& rel) {
    std::string all;
    for (const std::string& n : files_in(rel)) all += slurp((dir_ / rel / n).string());
    return all;
  }
  std::string out(const std::string& rel = "out") { return (dir_ / rel).string(); }
  ProcessResult split(std::vector<std::string> args) {
    args.insert(args.begin(), {kBin, "split"});
    return testing::run_process(args);
  }

  fs::path dir_;
};

TEST_F(SplitFiles, EveryCopyMethodWritesTheChunksOnOneThreadOrMore) {
  std::mt19937_64 rng(1);
  const std::string data = random_log(rng, 3000, 80);
  const std::string input = write("in.log", data);
  const int in = open(input.c_str(), O_RDONLY);
  ASSERT_GE(in, 0);
  const SplitPlan plan = plan_split(data, {SplitLimit::Kind::kBytes, 4096, true});
  for (const CopyMethod method : {CopyMethod::kCopyFileRange, CopyMethod::kSendfile, CopyMethod::kReadWrite}) {
    for (const unsigned threads : {1u, 3u}) {
      const std::string rel = "out-" + std::string(copy_method_name(method)).substr(0, 4) + std::to_string(threads);
      fs::create_directories(dir_ / rel);
      std::vector<ChunkFile> chunks;
      for (size_t i = 0; i < plan.chunks.size(); ++i) {
        chunks.push_back({(dir_ / rel / chunk_name("{index}", "", i, 5)).string(), plan.chunks[i]});
      }
      WriteOptions options;
      options.first_method = method;
      options.threads = threads;
      const WriteResult r = write_chunks(in, chunks, options);
      ASSERT_TRUE(r.errors.empty()) << r.errors[0].path << ": " << r.errors[0].message;
      EXPECT_EQ(r.method, method) << "a local file system takes every method";
      EXPECT_EQ(std::count(r.complete.begin(), r.complete.end(), true), static_cast<ptrdiff_t>(chunks.size()));
      for (const ChunkFile& c : chunks) {
        EXPECT_EQ(slurp(c.path), data.substr(c.range.begin, c.range.end - c.range.begin)) << c.path;
      }
    }
  }
  close(in);
}

// procfs does not take part in in-kernel copies to another file system: the
// copy must fall back (to read/write on current kernels) and still be exact.
TEST_F(SplitFiles, FallsBackWhereTheKernelRefusesToCopy) {
  const std::string cmdline = slurp("/proc/self/cmdline");
  ASSERT_FALSE(cmdline.empty());
  const int in = open("/proc/self/cmdline", O_RDONLY);
  ASSERT_GE(in, 0);
  const WriteResult r = write_chunks(in, {{out("chunk"), {0, cmdline.size()}}}, WriteOptions{});
  close(in);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].path << ": " << r.errors[0].message;
  EXPECT_NE(r.method, CopyMethod::kCopyFileRange);
  EXPECT_EQ(slurp(out("chunk")), cmdline);
}

TEST_F(SplitFiles, ExistingFilesAreNotTouchedWithoutOverwriteAndAStopRemovesThePartialChunk) {
  const std::string input = write("in.log", "a\nb\n");
  const std::string existing = write("out/1", "keep me");
  const int in = open(input.c_str(), O_RDONLY);
  const std::vector<ChunkFile> chunks{{out("out/0"), {0, 2}}, {existing, {2, 4}}};
  WriteResult r = write_chunks(in, chunks, WriteOptions{});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].path, existing);
  EXPECT_EQ(r.complete, (std::vector<bool>{true, false}));
  EXPECT_EQ(slurp(existing), "keep me") << "a file we did not create is never removed";

  const std::atomic<bool> stop = true;
  WriteOptions options;
  options.stop = &stop;
  r = write_chunks(in, {{out("out/2"), {0, 2}}}, options);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "interrupted (partial chunk removed)");
  EXPECT_FALSE(fs::exists(out("out/2")));
  close(in);
}

// ---- chunk targets: what is in the way ---------------------------------------

struct stat stat_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st;
}

std::vector<std::string> paths_of(const std::vector<ChunkFile>& chunks) {
  std::vector<std::string> paths;
  for (const ChunkFile& c : chunks) paths.push_back(c.path);
  return paths;
}

const std::vector<ByteSpan> kThreeChunks = {{0, 2}, {2, 4}, {4, 6}};

TEST_F(SplitFiles, ChunkTargetsNameEachPlannedChunkInOutdirAndCreateNothing) {
  const struct stat input = stat_of(write("in.log", "a\nb\nc\n"));
  const ChunkTargets t = chunk_targets(kThreeChunks, out(), kDefaultChunkPattern, "in.log", input, false);
  EXPECT_EQ(paths_of(t.chunks), (std::vector<std::string>{out("out/in.log.part-00000"), out("out/in.log.part-00001"),
                                                           out("out/in.log.part-00002")}));
  EXPECT_EQ(t.chunks[1].range.begin, 2u);
  EXPECT_EQ(t.chunks[1].range.end, 4u);
  EXPECT_TRUE(t.stale.empty());
  EXPECT_FALSE(t.conflict);
  EXPECT_FALSE(fs::exists(out())) << "only looks";
  EXPECT_TRUE(chunk_targets({}, out(), kDefaultChunkPattern, "in.log", input, false).chunks.empty());
}

TEST_F(SplitFiles, ChunkTargetsAnExistingChunkIsAConflictUnlessOverwritten) {
  const struct stat input = stat_of(write("in.log", "a\nb\nc\n"));
  write("out/in.log.part-00001", "old");
  const ChunkTargets kept = chunk_targets(kThreeChunks, out(), kDefaultChunkPattern, "in.log", input, false);
  ASSERT_TRUE(kept.conflict);
  EXPECT_EQ(kept.conflict->path, out("out/in.log.part-00001"));
  EXPECT_FALSE(kept.conflict->is_input);
  EXPECT_FALSE(chunk_targets(kThreeChunks, out(), kDefaultChunkPattern, "in.log", input, true).conflict);
}

// Chunks 3, 4 and 5 (a dangling symlink: lstat sees it) of an earlier split
// follow the new last chunk; 7 is after a gap, so it is not theirs.
TEST_F(SplitFiles, ChunkTargetsStaleChunksFollowTheLastUpToTheFirstGap) {
  const struct stat input = stat_of(write("in.log", "a\nb\nc\n"));
  write("out/in.log.part-00003", "old");
  write("out/in.log.part-00004", "old");
  fs::create_symlink(dir_ / "nowhere", out("out/in.log.part-00005"));
  write("out/in.log.part-00007", "other");
  const ChunkTargets forced = chunk_targets(kThreeChunks, out(), kDefaultChunkPattern, "in.log", input, true);
  EXPECT_FALSE(forced.conflict);
  EXPECT_EQ(forced.stale, (std::vector<std::string>{out("out/in.log.part-00003"), out("out/in.log.part-00004"),
                                                    out("out/in.log.part-00005")}));
  const ChunkTargets kept = chunk_targets(kThreeChunks, out(), kDefaultChunkPattern, "in.log", input, false);
  ASSERT_TRUE(kept.conflict);
  EXPECT_EQ(kept.conflict->path, out("out/in.log.part-00003"));
  EXPECT_FALSE(kept.conflict->is_input);
}

TEST_F(SplitFiles, ChunkTargetsTheInputIsAConflictEvenOverwrittenAndChunksComeFirst) {
  const std::string as_chunk = write("out/00001", "a\nb\nc\n");
  const ChunkTargets chunk = chunk_targets(kThreeChunks, out(), "{index}", "in.log", stat_of(as_chunk), true);
  ASSERT_TRUE(chunk.conflict);
  EXPECT_EQ(chunk.conflict->path, as_chunk);
  EXPECT_TRUE(chunk.conflict->is_input);

  const std::string as_stale = write("stale/00003", "a\nb\nc\n");
  const ChunkTargets stale = chunk_targets(kThreeChunks, out("stale"), "{index}", "in.log", stat_of(as_stale), true);
  ASSERT_TRUE(stale.conflict);
  EXPECT_EQ(stale.conflict->path, as_stale);
  EXPECT_TRUE(stale.conflict->is_input);

  write("stale/00002", "old");  // a chunk in the way is named before the stale input
  const ChunkTargets first = chunk_targets(kThreeChunks, out("stale"), "{index}", "in.log", stat_of(as_stale), false);
  ASSERT_TRUE(first.conflict);
  EXPECT_EQ(first.conflict->path, out("stale/00002"));
  EXPECT_FALSE(first.conflict->is_input);
}

TEST_F(SplitFiles, RemoveStaleChunksRemovesInOrderAndStopsAtTheFirstFailure) {
  const std::string a = write("out/a", "old"), b = write("out/b", "old");
  const std::optional<SplitError> e = remove_stale_chunks({a, out("out/missing"), b});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->path, out("out/missing"));
  EXPECT_EQ(e->message, "cannot remove this chunk of an earlier split: No such file or directory");
  EXPECT_FALSE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  EXPECT_FALSE(remove_stale_chunks({b}));
  EXPECT_FALSE(fs::exists(b));
}

// ---- end to end -------------------------------------------------------------

// Checks a successful split of `data` into OUT: the files are exactly the
// planned chunks, in name order, and each is within the limit (or one line).
void expect_round_trip(SplitFiles& t, const std::string& data, const SplitLimit& limit, const std::string& rel) {
  const std::vector<std::string> names = t.files_in(rel);
  EXPECT_EQ(t.concat(rel), data) << "chunks must concatenate to the input";
  const SplitPlan plan = reference_plan(data, limit);
  ASSERT_EQ(names.size(), plan.chunks.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string chunk = slurp(t.out(rel + "/" + names[i]));
    EXPECT_EQ(chunk, data.substr(plan.chunks[i].begin, plan.chunks[i].end - plan.chunks[i].begin)) << names[i];
    const bool last = i + 1 == names.size();
    if (!last) {
      EXPECT_EQ(chunk.back(), '\n') << names[i] << " must end at a line end";
    }
    const size_t lfs = static_cast<size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
    if (limit.kind == SplitLimit::Kind::kLines) {
      EXPECT_LE(lfs, limit.max) << names[i];
    } else if (chunk.size() > limit.max) {
      EXPECT_TRUE(limit.allow_long_lines) << names[i] << " is " << chunk.size() << " bytes";
      EXPECT_LE(lfs, 1u) << names[i] << " is oversized, so it must hold one line only";
    }
  }
}

TEST_F(SplitFiles, RandomFilesAndSizesRoundTrip) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 24; ++round) {
    const std::string data = random_log(rng, rng() % 400, 1 + rng() % 300);
    const std::string input = write("in" + std::to_string(round) + ".log", data);
    const bool kib = rng() % 3 == 0;
    const uint64_t max = kib ? 1024 * (1 + rng() % 2) : 1 + rng() % 3000;
    const std::string size = kib ? std::to_string(max / 1024) + (rng() % 2 ? "K" : "k") : std::to_string(max);
    for (const bool allow : {false, true}) {
      const std::string rel = "out" + std::to_string(round) + (allow ? "a" : "");
      std::vector<std::string> args{"--max-size", size, input, out(rel), "-q"};
      if (allow) args.push_back("--allow-long-lines");
      const ProcessResult r = split(args);
      const SplitLimit limit{SplitLimit::Kind::kBytes, max, allow};
      if (reference_plan(data, limit).too_long) {
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_FALSE(fs::exists(out(rel))) << "a long line must leave nothing behind";
      } else {
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.err, "");
        expect_round_trip(*this, data, limit, rel);
      }
    }
    const uint64_t lines = 1 + rng() % 50;
    const ProcessResult r = split({"--lines", std::to_string(lines), input, out("lines" + std::to_string(round)), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_round_trip(*this, data, {SplitLimit::Kind::kLines, lines, false}, "lines" + std::to_string(round));
  }
}

TEST_F(SplitFiles, CrlfAndNoFinalNewline) {
  const std::string data = "first\r\nsecond\r\nthird\r\nno final end";
  const std::string input = write("crlf.log", data);
  const ProcessResult r = split({"--max-size", "15", input, out()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_in("out"), (std::vector<std::string>{"crlf.log.part-00000", "crlf.log.part-00001", "crlf.log.part-00002"}));
  EXPECT_EQ(slurp(out("out/crlf.log.part-00000")), "first\r\nsecond\r\n");
  EXPECT_EQ(slurp(out("out/crlf.log.part-00001")), "third\r\n");
  EXPECT_EQ(slurp(out("out/crlf.log.part-00002")), "no final end");
  const std::string summary = "logagg: " + input + ": 34 bytes in 3 chunks, " + out("out/crlf.log.part-00000") + " to " +
                              out("out/crlf.log.part-00002") + " (";
  EXPECT_TRUE(r.err.starts_with(summary) && r.err.ends_with(" s)\n")) << r.err;
}

TEST_F(SplitFiles, EmptyFileMakesNoChunksAndOutdirIsCreated) {
  const std::string input = write("empty.log", "");
  const ProcessResult r = split({"--max-size", "1K", input, out("a/b/c")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_directory(out("a/b/c")));
  EXPECT_TRUE(files_in("a/b/c").empty());
  EXPECT_NE(r.err.find("empty, no chunks written"), std::string::npos) << r.err;
}

TEST_F(SplitFiles, LongLineIsAnErrorThatLeavesNothingBehind) {
  const std::string input = write("in.log", "short\nshort\n" + std::string(30, 'x') + "\r\nshort\n");
  fs::create_directories(out());
  const ProcessResult r = split({"--max-size", "16", input, out()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "logagg: " + input + ": line 3 is 32 bytes long, more than --max-size (16 bytes); nothing written "
                   "(--allow-long-lines puts such a line in a chunk of its own)\n");
  EXPECT_TRUE(files_in("out").empty());

  const ProcessResult allowed = split({"--max-size", "16", "--allow-long-lines", input, out()});
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_EQ(files_in("out").size(), 3u);
  EXPECT_EQ(slurp(out("out/in.log.part-00001")), std::string(30, 'x') + "\r\n");
  EXPECT_NE(allowed.err.find("; 1 holding a line longer than --max-size"), std::string::npos) << allowed.err;
}

TEST_F(SplitFiles, ByLines) {
  const std::string input = write("in.log", "1\n2\n3\n4\n5\n6\n7");
  const ProcessResult r = split({"--lines", "3", input, out(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_in("out").size(), 3u);
  EXPECT_EQ(slurp(out("out/in.log.part-00000")), "1\n2\n3\n");
  EXPECT_EQ(slurp(out("out/in.log.part-00002")), "7");
}

TEST_F(SplitFiles, SizeSuffixesArePowersOf1024) {
  std::string data;
  for (int i = 0; i < 300; ++i) data += "0123456789\n";  // 11 bytes a line, 3300 bytes
  const std::string input = write("in.log", data);
  ASSERT_EQ(split({"--max-size", "1K", input, out("k"), "-q"}).exit_code, 0);
  EXPECT_EQ(slurp(out("k/in.log.part-00000")).size(), 1023u) << "93 lines of 11 bytes fit in 1024, 94 do not";
  for (const char* size : {"1M", "1m", "1G", "1g"}) {
    const std::string rel = std::string("big-") + size;
    ASSERT_EQ(split({"--max-size", size, input, out(rel), "-q"}).exit_code, 0) << size;
    EXPECT_EQ(files_in(rel).size(), 1u) << size;
  }
}

TEST_F(SplitFiles, RefusesToOverwriteWithoutForceAndForceRemovesStaleChunks) {
  const std::string input = write("in.log", "a\nb\nc\nd\n");
  ASSERT_EQ(split({"--lines", "1", input, out(), "-q"}).exit_code, 0);
  ASSERT_EQ(files_in("out").size(), 4u);
  write("out/in.log.part-00000", "changed");

  const ProcessResult again = split({"--lines", "2", input, out(), "-q"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "logagg: " + out("out/in.log.part-00000") + ": chunk file exists (--force replaces it)\n");
  EXPECT_EQ(slurp(out("out/in.log.part-00000")), "changed") << "nothing is written when any chunk exists";

  // The chunks of the earlier, longer split that would follow are stale too.
  fs::remove(out("out/in.log.part-00000"));
  fs::remove(out("out/in.log.part-00001"));
  const ProcessResult stale = split({"--lines", "2", input, out(), "-q"});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(stale.err, "logagg: " + out("out/in.log.part-00002") + ": chunk file exists (--force replaces it)\n");

  const ProcessResult forced = split({"--lines", "2", "--force", input, out(), "-q"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(files_in("out"), (std::vector<std::string>{"in.log.part-00000", "in.log.part-00001"}));
  EXPECT_EQ(concat("out"), "a\nb\nc\nd\n");
}

TEST_F(SplitFiles, NeverOverwritesTheInputEvenWithForce) {
  const std::string input = write("out/00000", "a\nb\n");
  const ProcessResult r = split({"--lines", "1", "--force", "--pattern", "{index}", input, out()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "logagg: " + input + ": is the input file\n");
  EXPECT_EQ(slurp(input), "a\nb\n");
}

TEST_F(SplitFiles, CustomPattern) {
  const std::string input = write("in.log", "a\nb\n");
  ASSERT_EQ(split({"--lines", "1", "--pattern", "chunk-{index}-of-{name}", input, out(), "-q"}).exit_code, 0);
  EXPECT_EQ(files_in("out"), (std::vector<std::string>{"chunk-00000-of-in.log", "chunk-00001-of-in.log"}));
}

// A file size limit (RLIMIT_FSIZE, which binds root too) fails the write of
// the one oversized chunk midway: it is removed, the chunks before it stay.
TEST_F(SplitFiles, FailureMidwayRemovesThePartialChunkAndNamesTheCompleteOnes) {
  LOGAGG_REQUIRE_DEPENDENCY(access("/usr/bin/prlimit", X_OK) == 0, "prlimit (util-linux)");
  std::string data;
  for (int i = 0; i < 30; ++i) data += "123456789\n";
  data += std::string(999, 'x') + "\n";
  for (int i = 0; i < 30; ++i) data += "123456789\n";
  const std::string input = write("in.log", data);
  for (const char* method : {"copy_file_range", "sendfile", "read_write"}) {
    const std::string rel = std::string("out-") + method;
    const ProcessResult r =
        testing::run_process({"/usr/bin/prlimit", "--fsize=500", kBin, "split", "--max-size", "100", "--allow-long-lines",
                              "--threads", "1", "--copy-method", method, input, out(rel)});
    EXPECT_EQ(r.exit_code, 1) << method;
    EXPECT_EQ(r.err, "logagg: " + out(rel + "/in.log.part-00003") + ": File too large (partial chunk removed)\n" +
                         "logagg: 3 of 7 chunks complete: " + out(rel + "/in.log.part-00000") + " to " +
                         out(rel + "/in.log.part-00002") + "\n")
        << method;
    EXPECT_EQ(files_in(rel), (std::vector<std::string>{"in.log.part-00000", "in.log.part-00001", "in.log.part-00002"}));
    EXPECT_EQ(concat(rel), data.substr(0, 300)) << method;
  }
  // With several threads, chunks after the failed one may be complete too:
  // whatever is left must be whole chunks, and exactly the ones named.
  const ProcessResult r = testing::run_process({"/usr/bin/prlimit", "--fsize=500", kBin, "split", "--max-size", "100",
                                                "--allow-long-lines", "--threads", "4", input, out("parallel")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(out("parallel/in.log.part-00003") + ": File too large (partial chunk removed)\n"), std::string::npos)
      << r.err;
  // "K of 7 chunks complete: A to B, C, ..." -> the indexes of the chunks named.
  const std::string prefix = " of 7 chunks complete: ";
  const size_t list = r.err.find(prefix);
  ASSERT_NE(list, std::string::npos) << r.err;
  std::vector<std::string> named;
  const std::regex run(out("parallel/") + "in\\.log\\.part-(\\d{5})(?: to " + out("parallel/") + "in\\.log\\.part-(\\d{5}))?");
  const std::string runs = r.err.substr(list + prefix.size());
  for (std::sregex_iterator it(runs.begin(), runs.end(), run), end; it != end; ++it) {
    const size_t from = std::stoul((*it)[1]), to = (*it)[2].matched ? std::stoul((*it)[2]) : from;
    for (size_t i = from; i <= to; ++i) named.push_back(chunk_name(kDefaultChunkPattern, "in.log", i, 5));
  }
  const std::vector<std::string> left = files_in("parallel");
  EXPECT_EQ(left, named) << r.err;
  EXPECT_TRUE(r.err.find(std::to_string(left.size()) + prefix) != std::string::npos) << r.err;
  for (const std::string& name : left) {
    const size_t index = std::stoul(name.substr(name.size() - 5));
    ASSERT_NE(index, 3u);
    const size_t begin = index < 3 ? index * 100 : 1300 + (index - 4) * 100;
    EXPECT_EQ(slurp(out("parallel/" + name)), data.substr(begin, 100)) << name;
  }
}

// A folder in the way of a later chunk (root or not): the open fails.
TEST_F(SplitFiles, FailureToCreateALaterChunkKeepsTheEarlierOnes) {
  const std::string input = write("in.log", "a\nb\nc\nd\n");
  fs::create_directories(out("out/in.log.part-00002"));
  const ProcessResult r = split({"--lines", "1", "--force", "--threads", "1", input, out()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "logagg: " + out("out/in.log.part-00002") + ": Is a directory\n" + "logagg: 2 of 4 chunks complete: " +
                       out("out/in.log.part-00000") + " to " + out("out/in.log.part-00001") + "\n");
  EXPECT_EQ(slurp(out("out/in.log.part-00001")), "b\n");
  EXPECT_FALSE(fs::exists(out("out/in.log.part-00003")));
}

// The mapped input's pages are released behind each cut: resident memory
// stays far below the file's size, even by lines, which reads every byte.
TEST_F(SplitFiles, MemoryDoesNotGrowWithTheInput) {
  if (testing::kSanitized) GTEST_SKIP() << "sanitizers inflate resident memory";
  const std::string input = out("big.log");
  {  // 64 MiB, written as it is made: the child's peak counts what it inherits
    std::ofstream file(input, std::ios::binary);
    for (int i = 0; file.tellp() < (std::streamoff{64} << 20); ++i) file << "This is line number " << i << "\n";
  }
  for (const std::vector<std::string>& limit : {std::vector<std::string>{"--max-size", "1M"}, {"--lines", "100000"}}) {
    const std::string rel = "out" + limit[0];
    const ProcessResult r = testing::run_process({kBin, "split", "-q", limit[0], limit[1], input, out(rel)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(r.max_rss_kb, 24 * 1024) << limit[0];
    EXPECT_TRUE(concat(rel) == slurp(input)) << limit[0];
  }
}

TEST_F(SplitFiles, InputMustBeAReadableRegularFile) {
  const ProcessResult missing = split({"--max-size", "1K", out("missing.log"), out()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "logagg: " + out("missing.log") + ": No such file or directory\n");
  fs::create_directories(out("folder"));
  const ProcessResult folder = split({"--max-size", "1K", out("folder"), out()});
  EXPECT_EQ(folder.exit_code, 1);
  EXPECT_EQ(folder.err, "logagg: " + out("folder") + ": not a regular file (logagg split reads files, not streams)\n");
  EXPECT_FALSE(fs::exists(out()));
}

TEST(SplitCli, UsageErrorsExitTwoWithAHint) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"in", "out"},
           {"--max-size", "0", "in", "out"},
           {"--max-size", "1T", "in", "out"},
           {"--max-size", "K", "in", "out"},
           {"--max-size", "99999999999999999999", "in", "out"},
           {"--max-size", "20000000000G", "in", "out"},
           {"--lines", "0", "in", "out"},
           {"--lines", "2", "--max-size", "1K", "in", "out"},
           {"--lines", "2", "--allow-long-lines", "in", "out"},
           {"--max-size", "1K", "--pattern", "part", "in", "out"},
           {"--max-size", "1K", "--pattern", "a/{index}", "in", "out"},
           {"--max-size", "1K", "-", "out"},
           {"--max-size", "1K", "in"},
           {"--bogus", "in", "out"}}) {
    std::vector<std::string> argv{kBin, "split"};
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessResult r = testing::run_process(argv);
    std::string joined;
    for (const std::string& a : args) joined += a + " ";
    EXPECT_EQ(r.exit_code, 2) << joined;
    EXPECT_TRUE(r.err.starts_with("logagg: ")) << joined << r.err;
    EXPECT_TRUE(r.err.ends_with("\nTry 'logagg split --help' for more information.\n")) << joined << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(SplitCli, HelpNamesEveryOptionAndTheMainHelpNamesSplit) {
  const ProcessResult h = testing::run_process({kBin, "split", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* flag : {"--max-size", "--lines", "--allow-long-lines", "--pattern", "--force", "--quiet", "{index}"}) {
    EXPECT_NE(h.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_EQ(h.out.find("--copy-method"), std::string::npos) << "test-only flags stay hidden";
  EXPECT_NE(testing::run_process({kBin, "--help"}).out.find("split"), std::string::npos);
}

}  // namespace
}  // namespace logagg
