// Tests for line-aligned segment cutting: segments tile the buffer, each ends
// just past a LF or at the end, and every line starts in exactly one segment.
#include "input/input.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace logagg {
namespace {

void expect_line_aligned(const std::string& data, size_t nominal) {
  const std::vector<Segment> segs = cut_segments(data, nominal);
  size_t pos = 0;
  for (const Segment& s : segs) {
    ASSERT_EQ(s.begin, pos) << "segments must tile the buffer (nominal " << nominal << ")";
    ASSERT_LT(s.begin, s.end) << "no empty segments";
    ASSERT_TRUE(s.end == data.size() || data[s.end - 1] == '\n')
        << "segment must end just past a LF or at the end (nominal " << nominal << ")";
    // The cut is just past the first LF at or after the nominal end's last byte.
    if (s.end - s.begin > nominal) {
      const size_t lf = data.find('\n', s.begin + nominal - 1);
      ASSERT_EQ(lf == std::string::npos ? data.size() : lf + 1, s.end);
    }
    pos = s.end;
  }
  EXPECT_EQ(pos, data.size());
}

TEST(Segmenter, EmptyBufferHasNoSegments) { EXPECT_TRUE(cut_segments("", 10).empty()); }

TEST(Segmenter, SmallBufferIsOneSegment) {
  const auto segs = cut_segments("a\nb\n", 100);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0].end, 4u);
}

TEST(Segmenter, CutMovesForwardPastNextLf) {
  // Nominal 3: the cut after "ab" moves to just past the LF at index 4.
  const auto segs = cut_segments("abcd\nef\ng", 3);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_EQ(segs[0].end, 5u);
  EXPECT_EQ(segs[1].end, 8u);
  EXPECT_EQ(segs[2].end, 9u);
}

TEST(Segmenter, CutExactlyAtLineStartKeepsTheLine) {
  // "ab\n" is exactly 3 bytes: the next segment starts at "cd".
  const auto segs = cut_segments("ab\ncd\n", 3);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].end, 3u);
  EXPECT_EQ(segs[1].begin, 3u);
}

TEST(Segmenter, LongLineStaysInOneSegment) {
  const std::string data = std::string(1000, 'x') + "\nshort\n";
  const auto segs = cut_segments(data, 10);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].end, 1001u);
}

TEST(Segmenter, RandomBuffersAreTiledForEveryNominalSize) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string data;
    const size_t n = rng() % 300;
    for (size_t i = 0; i < n; ++i) data.push_back(rng() % 5 == 0 ? '\n' : 'x');
    for (size_t nominal : {1, 2, 3, 7, 16, 64, 1000}) expect_line_aligned(data, nominal);
  }
}

TEST(Segmenter, ChosenSizeGivesManySegmentsPerThreadWithinBounds) {
  EXPECT_EQ(choose_segment_bytes(0, 2), size_t{64} << 10);
  EXPECT_EQ(choose_segment_bytes(size_t{1} << 40, 2), size_t{4} << 20);
  const size_t mid = choose_segment_bytes(size_t{256} << 20, 2);
  EXPECT_GE((size_t{256} << 20) / mid, 2u * 16);
}

}  // namespace
}  // namespace logagg
