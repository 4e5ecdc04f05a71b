// Tests for count/count.h: scan_lines splits text at LF, drops one CR
// before each LF (and no other CR), reads a last line without LF, records one
// verdict per line, keeps the first `limit` rejects with their 0-based line
// index from the start of the segment or stream (across calls on one ScanLog),
// and reads no byte past `readable`; record_skipped_line records one line.
#include "count/count.h"

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "count/counter.h"  // the Counter scan_lines records into
#include "parse/line_parser.h"
#include "support/print_counts.h"

namespace logagg {
namespace {

const std::string kGood = R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"})";
constexpr int64_t kSecond = 1623760496;
const std::string kBad = R"({"app_id":"web1"})";  // missing_time

// One segment's scanning: a parser, a counter and a log, as a worker has them.
struct Scan {
  explicit Scan(size_t reject_limit = 0, size_t max_line_bytes = size_t{1} << 20)
      : parser(LineRules{}, max_line_bytes), counter(shared), log(reject_limit) {}

  Summary run(std::string_view text) {
    scan_lines(text, text.size(), parser, counter, log);
    return counter.tally();
  }
  uint64_t rejected(Reason r) const { return counter.tally().rejected[static_cast<size_t>(r)]; }

  BlockParser parser;
  SharedCounts shared;
  Counter counter;
  ScanLog log;
};

TEST(LineScanner, SplitsAtLf) {
  Scan scan;
  const Summary s = scan.run(kGood + "\n" + kBad + "\n\n" + kGood + "\n");
  EXPECT_EQ(s.lines, 4u);
  EXPECT_EQ(s.counted, 2u);
  EXPECT_EQ(s.blank, 1u);
  EXPECT_EQ(scan.rejected(Reason::kMissingTime), 1u);
  EXPECT_EQ(scan.log.lines, 4u);
  scan.counter.spill();
  EXPECT_EQ(scan.shared.take_sorted(), (std::vector<SecondCount>{{kSecond, 2}}));
}

TEST(LineScanner, NoTextNoLinesAndEachLfEndsOne) {
  Scan none;
  EXPECT_EQ(none.run("").lines, 0u);
  Scan lfs;
  EXPECT_EQ(lfs.run("\n\n\n").lines, 3u);
  EXPECT_EQ(lfs.counter.tally().blank, 3u);
}

TEST(LineScanner, ALastLineWithoutLfIsALine) {
  Scan scan;
  const Summary s = scan.run(kGood + "\n" + kGood);
  EXPECT_EQ(s.lines, 2u);
  EXPECT_EQ(s.counted, 2u);
  Scan bad;
  EXPECT_EQ(bad.run(kGood + "\n" + kBad).lines, 2u);
  EXPECT_EQ(bad.rejected(Reason::kMissingTime), 1u);
}

TEST(LineScanner, DropsOneCrBeforeLfAndNoOther) {
  // A CR is JSON whitespace, so whether it was dropped shows in the length the
  // parser sees: with max_line_bytes = kGood.size(), one more byte is too long.
  const auto too_long = [](const std::string& text) {
    Scan scan(0, kGood.size());
    scan.run(text);
    EXPECT_EQ(scan.counter.tally().lines, 1u) << text;
    return scan.rejected(Reason::kLineTooLong) == 1;
  };
  EXPECT_FALSE(too_long(kGood + "\n"));
  EXPECT_FALSE(too_long(kGood + "\r\n")) << "the CR before the LF is dropped";
  EXPECT_TRUE(too_long(kGood + "\r\r\n")) << "only one CR is dropped";
  EXPECT_TRUE(too_long(kGood + "\r")) << "a CR not followed by a LF stays";
  EXPECT_TRUE(too_long(kGood + " \n"));
  EXPECT_TRUE(too_long("\r" + kGood + "\n")) << "a CR at the start stays";
  Scan blank;
  blank.run("\r\n\r\n");
  EXPECT_EQ(blank.counter.tally().blank, 2u);
}

TEST(LineScanner, KeepsTheFirstRejectsUpToTheLimitWithTheirLineIndex) {
  Scan scan(/*reject_limit=*/2);
  scan.run(kGood + "\n\n" + kBad + "\n" + kGood + "\n{\n" + kBad + "\n");
  EXPECT_EQ(scan.log.lines, 6u);
  EXPECT_EQ(scan.counter.tally().rejected_total(), 3u);
  ASSERT_EQ(scan.log.rejects.size(), 2u);
  EXPECT_EQ(scan.log.rejects[0].line, 2u);  // 0-based: the good line and the blank one come first
  EXPECT_EQ(scan.log.rejects[0].reason, Reason::kMissingTime);
  EXPECT_EQ(scan.log.rejects[1].line, 4u);
  EXPECT_EQ(scan.log.rejects[1].reason, Reason::kInvalidJson);
}

TEST(LineScanner, ALimitOfZeroKeepsNoRejects) {
  Scan scan(0);
  scan.run(kBad + "\n" + kBad + "\n");
  EXPECT_EQ(scan.counter.tally().rejected_total(), 2u);
  EXPECT_TRUE(scan.log.rejects.empty());
}

TEST(LineScanner, LineIndexesRunOnAcrossCallsOnOneLog) {
  // A stream is scanned chunk by chunk into one ScanLog.
  Scan scan(10);
  scan.run(kGood + "\n" + kBad + "\n");
  scan.run("\n" + kBad + "\n");
  record_skipped_line(/*blank=*/true, scan.counter, scan.log);
  record_skipped_line(/*blank=*/false, scan.counter, scan.log);
  scan.run(kBad);
  EXPECT_EQ(scan.log.lines, 7u);
  ASSERT_EQ(scan.log.rejects.size(), 4u);
  EXPECT_EQ(scan.log.rejects[0].line, 1u);
  EXPECT_EQ(scan.log.rejects[1].line, 3u);
  EXPECT_EQ(scan.log.rejects[2].line, 5u);
  EXPECT_EQ(scan.log.rejects[2].reason, Reason::kLineTooLong);
  EXPECT_EQ(scan.log.rejects[3].line, 6u);
}

TEST(LineScanner, ASkippedLineIsBlankOrTooLong) {
  Scan scan(10);
  record_skipped_line(true, scan.counter, scan.log);
  EXPECT_EQ(scan.counter.tally().lines, 1u);
  EXPECT_EQ(scan.counter.tally().blank, 1u);
  EXPECT_TRUE(scan.log.rejects.empty());
  record_skipped_line(false, scan.counter, scan.log);
  EXPECT_EQ(scan.counter.tally().lines, 2u);
  EXPECT_EQ(scan.rejected(Reason::kLineTooLong), 1u);
  ASSERT_EQ(scan.log.rejects.size(), 1u);
  EXPECT_EQ(scan.log.rejects[0].line, 1u);
  EXPECT_EQ(scan.log.lines, 2u);
}

TEST(LineScanner, ReadsNothingPastReadable) {
  // The text ends right before an inaccessible page, and `readable` says so:
  // every line must be read within it (the last ones copied to the parser's
  // padded buffer), whatever their offset in the text.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(map) + page, page, PROT_NONE), 0);
  std::string text;
  while (text.size() + kGood.size() + 1 < page) text += kGood + "\n";
  text.pop_back();  // the last line without LF, its '}' the page's last byte
  char* begin = static_cast<char*>(map) + page - text.size();
  std::memcpy(begin, text.data(), text.size());
  Scan scan;
  scan_lines(std::string_view(begin, text.size()), text.size(), scan.parser, scan.counter, scan.log);
  EXPECT_EQ(scan.counter.tally().counted, scan.log.lines);
  EXPECT_GT(scan.log.lines, 1u);
  munmap(map, 2 * page);
}

}  // namespace
}  // namespace logagg
