// Tests for the whole engine on in-memory buffers: line splitting (LF, one CR
// dropped, last line without LF, BOM only at the start), the accounting
// invariant, reject positions, and the property that the result does not
// depend on thread count or segment size; and that a mapped file, whose cuts
// are found with preads, gives what its bytes give as a buffer, warm or
// evicted from the page cache; the lines per
// time form of --time-format auto, exact at any thread count.
#include "logagg/aggregate.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <random>
#include <string>

namespace logagg {
namespace {

const std::string kGood = R"({"app_id":"A1","timestamp":"2021-03-04T05:06:07Z"})";
const std::string kGood2 = R"({"app_id":"B2","timestamp":"2021-03-04T05:06:08.9+00:00"})";
constexpr int64_t kSecond = 1614834367;  // 2021-03-04T05:06:07Z

Result run(std::string_view data, unsigned threads = 1, size_t segment_bytes = 0, size_t samples = 0) {
  Options o;
  o.threads = threads;
  o.segment_bytes = segment_bytes;
  o.max_reject_samples = samples;
  return aggregate_buffer(data, o, "buf");
}

void expect_accounted(const Summary& s) { EXPECT_EQ(s.lines, s.counted + s.blank + s.rejected_total()); }

TEST(Aggregate, EmptyInputHasNoLines) {
  const Result r = run("");
  EXPECT_EQ(r.summary.lines, 0u);
  EXPECT_TRUE(r.counts.empty());
}

TEST(Aggregate, LastLineNeedsNoLf) {
  const Result r = run(kGood + "\n" + kGood2);
  EXPECT_EQ(r.summary.lines, 2u);
  EXPECT_EQ(r.summary.counted, 2u);
  EXPECT_EQ(r.counts, (std::vector<SecondCount>{{kSecond, 1}, {kSecond + 1, 1}}));
}

TEST(Aggregate, CrLfLinesCount) {
  const Result r = run(kGood + "\r\n" + kGood + "\r\n\r\n");
  EXPECT_EQ(r.summary.counted, 2u);
  EXPECT_EQ(r.summary.blank, 1u);
}

TEST(Aggregate, BomSkippedOnlyAtStart) {
  const std::string bom = "\xEF\xBB\xBF";
  const Result r = run(bom + kGood + "\n" + bom + kGood + "\n");
  EXPECT_EQ(r.summary.counted, 1u);
  EXPECT_EQ(r.summary.rejected[static_cast<size_t>(Reason::kInvalidJson)], 1u);
}

TEST(Aggregate, WhitespaceOnlyLinesAreBlank) {
  const Result r = run("\n \t \n\r\n" + kGood + "\n");
  EXPECT_EQ(r.summary.blank, 3u);
  EXPECT_EQ(r.summary.counted, 1u);
  EXPECT_EQ(r.summary.rejected_total(), 0u);
}

TEST(Aggregate, TrailingLfMakesNoExtraLine) {
  EXPECT_EQ(run(kGood + "\n").summary.lines, 1u);
  EXPECT_EQ(run(kGood + "\n\n").summary.lines, 2u);
}

TEST(Aggregate, RejectSamplesHaveAbsoluteLineNumbersInOrder) {
  std::string data;
  for (int i = 1; i <= 50; ++i) data += (i % 7 == 0 ? std::string("not json") : kGood) + "\n";
  for (unsigned threads : {1u, 3u}) {
    const Result r = run(data, threads, 16, 3);
    ASSERT_EQ(r.rejects.size(), 3u);
    EXPECT_EQ(r.rejects[0].line, 7u);
    EXPECT_EQ(r.rejects[1].line, 14u);
    EXPECT_EQ(r.rejects[2].line, 21u);
    EXPECT_EQ(r.rejects[0].path, "buf");
    EXPECT_EQ(r.rejects[0].reason, Reason::kInvalidJson);
  }
}

TEST(Aggregate, LinesLongerThanTheLimitAreRejected) {
  Options o;
  o.max_line_bytes = 40;
  const Result r = aggregate_buffer(kGood + "\n" + R"({"app_id":"A","timestamp":"2021-03-04T05:06:07Z"})" + "\n", o);
  EXPECT_EQ(r.summary.rejected[static_cast<size_t>(Reason::kLineTooLong)], 2u);
}

// Lines of every kind, in random order, with random line endings.
std::string random_log(std::mt19937_64& rng, size_t lines) {
  const std::vector<std::string> kinds = {kGood,
                                          kGood2,
                                          "",
                                          "  ",
                                          R"({"app_id":"x_y","timestamp":"2021-03-04T05:06:07Z"})",
                                          R"({"app_id":"A","timestamp":"2021-03-04T05:06:60Z"})",
                                          "{broken",
                                          R"({"app_id":"Z9","timestamp":"1999-12-31T23:59:60Z"})",
                                          "[1,2]",
                                          R"({"timestamp":"2021-03-04T05:06:07Z","app_id":"Q","n":1e999})",
                                          std::string(300, ' ') + kGood};
  std::string out;
  for (size_t i = 0; i < lines; ++i) {
    out += kinds[rng() % kinds.size()];
    if (i + 1 < lines || rng() % 2) out += rng() % 4 == 0 ? "\r\n" : "\n";
  }
  return out;
}

TEST(AggregateProperty, SameResultForAnyThreadCountAndSegmentSize) {
  std::mt19937_64 rng(2024);
  for (int round = 0; round < 20; ++round) {
    const std::string data = random_log(rng, 1 + rng() % 400);
    const Result base = run(data, 1, 0, 1000);
    expect_accounted(base.summary);
    for (unsigned threads : {1u, 2u, 8u}) {
      for (size_t seg : {1, 7, 64, 4096}) {
        const Result r = run(data, threads, seg, 1000);
        ASSERT_EQ(r.counts, base.counts) << "threads " << threads << " segment " << seg;
        ASSERT_EQ(r.summary.lines, base.summary.lines);
        ASSERT_EQ(r.summary.blank, base.summary.blank);
        ASSERT_EQ(r.summary.rejected, base.summary.rejected);
        ASSERT_EQ(r.rejects.size(), base.rejects.size());
        for (size_t i = 0; i < r.rejects.size(); ++i) {
          ASSERT_EQ(r.rejects[i].line, base.rejects[i].line);
          ASSERT_EQ(r.rejects[i].reason, base.rejects[i].reason);
        }
      }
    }
  }
}

// --time-format auto: the counted lines per form of their time, exact for
// any thread count and segment size, adding up to counted (lines outside
// --since/--until and rejected ones are in no form); none without auto.
TEST(AggregateProperty, AutoCountsTheLinesOfEachTimeFormExactly) {
  const std::pair<TimeForm, std::string> forms[] = {
      {TimeForm::kRfc3339, R"("2021-03-04T05:06:07.5+01:00")"},
      {TimeForm::kClf, R"("04/Mar/2021:05:06:07 +0000")"},
      {TimeForm::kCommon, R"("2021-03-04 05:06:07,118")"},
      {TimeForm::kUnix, "1614834367.25"},
      {TimeForm::kUnixMs, R"("1614834367123")"},
      {TimeForm::kUnixUs, "1614834367123456"},
      {TimeForm::kUnixNs, "1614834367123456789"},
  };
  std::mt19937_64 rng(33);
  std::vector<uint64_t> want(kTimeFormCount);
  std::string data;
  uint64_t outside = 0;
  for (int i = 0; i < 3000; ++i) {
    const size_t k = rng() % (std::size(forms) + 2);
    if (k == std::size(forms)) {
      data += R"({"app_id":"A","timestamp":"yesterday"})";  // rejected: no form
    } else if (k == std::size(forms) + 1) {
      data += R"({"app_id":"A","timestamp":"1990-01-01T00:00:00Z"})";  // before --since
      ++outside;
    } else {
      data += R"({"app_id":"A","timestamp":)" + forms[k].second + "}";
      ++want[static_cast<size_t>(forms[k].first)];
    }
    data += '\n';
  }
  for (unsigned threads : {1u, 2u, 8u}) {
    for (size_t seg : {0, 7, 4096}) {
      Options o;
      o.time_format = "auto";
      o.since = 946684800;  // 2000-01-01
      o.threads = threads;
      o.segment_bytes = seg;
      const Result r = aggregate_buffer(data, o, "buf");
      ASSERT_EQ(r.summary.time_forms, want) << "threads " << threads << " segment " << seg;
      ASSERT_EQ(r.summary.outside_range, outside);
      uint64_t total = 0;
      for (const uint64_t n : r.summary.time_forms) total += n;
      ASSERT_EQ(total, r.summary.counted);
      o.time_format = "rfc3339";
      EXPECT_TRUE(aggregate_buffer(data, o, "buf").summary.time_forms.empty());
    }
  }
}

// A file over 1 MiB is mapped, and its segments are cut where preads of the
// file find its line ends (run/open_input.cc, plan_segments): with a BOM or not,
// with a range or not, warm (read through the mapping) or evicted from the
// page cache (segments read with pread, until the kernel's read-ahead has
// brought the next ones in), it must give what its bytes give as a buffer.
TEST(AggregateProperty, MappedFileGivesWhatItsBytesGive) {
  std::mt19937_64 rng(7);
  const std::string body = random_log(rng, 20000);  // about 1.25 MB
  ASSERT_GT(body.size(), size_t{1} << 20);
  char tmpl[] = "/tmp/logagg-aggregate-XXXXXX";
  const int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  ::close(fd);
  struct Removed {
    const char* path;
    ~Removed() { ::unlink(path); }
  } removed{tmpl};  // also when an assertion returns early
  for (const std::string bom : {"", "\xEF\xBB\xBF"}) {
    const std::string data = bom + body;
    std::ofstream(tmpl, std::ios::binary) << data;
    for (const std::optional<Options::ByteRange> range :
         {std::optional<Options::ByteRange>{}, std::optional<Options::ByteRange>{{1, 1000003}}}) {
      for (unsigned threads : {1u, 2u}) {
        for (size_t seg : {0, 1, 4096}) {
          Options o;
          o.threads = threads;
          o.segment_bytes = seg;
          o.max_reject_samples = 100;
          o.range = range;
          const Result want = aggregate_buffer(data, o, tmpl);
          const Result got = aggregate({tmpl}, o);
          // Evicted from the page cache: its segments read with pread.
          const int evict = ::open(tmpl, O_RDONLY);
          ASSERT_GE(evict, 0);
          ASSERT_EQ(::fdatasync(evict), 0);  // dirty pages cannot be evicted
          ASSERT_EQ(::posix_fadvise(evict, 0, 0, POSIX_FADV_DONTNEED), 0);
          ::close(evict);
          const Result cold = aggregate({tmpl}, o);
          const std::string where = "bom " + std::to_string(bom.size()) + " range " +
                                    std::to_string(range.has_value()) + " threads " + std::to_string(threads) +
                                    " segment " + std::to_string(seg);
          ASSERT_TRUE(got.errors.empty()) << where;
          ASSERT_EQ(got.counts, want.counts) << where;
          ASSERT_EQ(got.summary.lines, want.summary.lines) << where;
          ASSERT_EQ(got.summary.rejected, want.summary.rejected) << where;
          ASSERT_EQ(got.rejects.size(), want.rejects.size()) << where;
          for (size_t i = 0; i < got.rejects.size(); ++i) ASSERT_EQ(got.rejects[i].line, want.rejects[i].line) << where;
          ASSERT_TRUE(cold.errors.empty()) << where << " cold";
          ASSERT_EQ(cold.counts, want.counts) << where << " cold";
          ASSERT_EQ(cold.summary.lines, want.summary.lines) << where << " cold";
          ASSERT_EQ(cold.summary.rejected, want.summary.rejected) << where << " cold";
          ASSERT_EQ(cold.rejects.size(), want.rejects.size()) << where << " cold";
          for (size_t i = 0; i < cold.rejects.size(); ++i)
            ASSERT_EQ(cold.rejects[i].line, want.rejects[i].line) << where;
        }
      }
    }
  }
}

}  // namespace
}  // namespace logagg
