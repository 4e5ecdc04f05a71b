// The memory of a table's lists (engine/src/model/huge_page_arena.h): what it
// hands out is aligned as asked, apart and writable; its regions grow from
// 64 KiB to huge pages, those aligned to 2 MiB, and it refuses what none could
// hold; a small request takes the rest of a region a large one left behind
// before the current region; and a std::pmr pool in front of it reuses what
// is freed.
#include "model/huge_page_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <memory_resource>
#include <random>
#include <utility>
#include <vector>

namespace logagg {
namespace {

constexpr size_t kKiB = 1024;

bool aligned(const void* p, size_t to) { return reinterpret_cast<uintptr_t>(p) % to == 0; }

// A request whose memory the test does not use.
void take(HugePageArena& arena, size_t bytes) { static_cast<void>(arena.allocate(bytes, 8)); }

bool within(const void* p, const void* base, size_t size) {
  const auto* c = static_cast<const char*>(p);
  return c >= static_cast<const char*>(base) && c < static_cast<const char*>(base) + size;
}

TEST(HugePageArena, HandsOutAlignedBlocksApartThatHoldWhatIsWritten) {
  HugePageArena arena;
  std::mt19937_64 rng(5);
  std::vector<std::pair<unsigned char*, size_t>> blocks;
  for (int i = 0; i < 2000; ++i) {
    const size_t bytes = 1 + rng() % (i % 100 == 0 ? 600 * kKiB : 3000);
    const size_t alignment = size_t{1} << (rng() % 7);
    auto* p = static_cast<unsigned char*>(arena.allocate(bytes, alignment));
    ASSERT_TRUE(aligned(p, alignment)) << bytes << " " << alignment;
    std::memset(p, i & 0xFF, bytes);
    blocks.emplace_back(p, bytes);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {  // each still holds its own byte: none overlaps a later one
    const auto [p, bytes] = blocks[i];
    EXPECT_EQ(p[0], i & 0xFF) << i;
    EXPECT_EQ(p[bytes - 1], i & 0xFF) << i;
  }
}

TEST(HugePageArena, RegionsGrowToHugePagesAlignedToThem) {
  HugePageArena arena;
  EXPECT_EQ(arena.mapped(), 0u);
  take(arena, 8);
  EXPECT_EQ(arena.mapped(), HugePageArena::kFirstRegion);
  take(arena, HugePageArena::kFirstRegion);  // a second region, twice the first
  EXPECT_EQ(arena.mapped(), 3 * HugePageArena::kFirstRegion);
  void* big = arena.allocate(3 * HugePageArena::kHugePage, 8);  // past a huge page: huge pages, aligned
  EXPECT_TRUE(aligned(big, HugePageArena::kHugePage));
  EXPECT_EQ(arena.mapped(), 3 * HugePageArena::kFirstRegion + 4 * HugePageArena::kHugePage);
  for (int i = 0; i < 12; ++i) take(arena, HugePageArena::kHugePage / 2);  // regions of one huge page now
  EXPECT_EQ(arena.mapped() % HugePageArena::kHugePage, 3 * HugePageArena::kFirstRegion);
}

TEST(HugePageArena, RefusesWhatNoRegionCouldHold) {
  HugePageArena arena;
  EXPECT_THROW(take(arena, SIZE_MAX), std::bad_alloc);
  EXPECT_THROW(take(arena, SIZE_MAX - 4096), std::bad_alloc);
  EXPECT_EQ(arena.mapped(), 0u);
}

TEST(HugePageArena, ASmallRequestTakesTheRestALargeOneLeftBehindFirst) {
  HugePageArena arena;
  void* first = arena.allocate(40 * kKiB, 8);  // the first region, 64 KiB: 24 left
  take(arena, 100 * kKiB);                     // does not fit them: a region of 128 KiB, 28 left
  ASSERT_EQ(arena.mapped(), 192 * kKiB);
  void* small = arena.allocate(20 * kKiB, 8);  // from the 24 KiB the first region left
  EXPECT_TRUE(within(small, first, HugePageArena::kFirstRegion));
  take(arena, 20 * kKiB);  // the current region's 28
  EXPECT_EQ(arena.mapped(), 192 * kKiB);
}

TEST(HugePageArena, APoolInFrontReusesWhatIsFreed) {
  HugePageArena arena;
  std::pmr::unsynchronized_pool_resource pool({32, 64 * kKiB}, &arena);
  std::vector<std::pmr::vector<uint64_t>> lists;
  for (int round = 0; round < 20; ++round) {  // lists made and dropped: the arena stops growing
    for (int i = 0; i < 1000; ++i) lists.emplace_back(static_cast<size_t>(1 + i % 60), uint64_t{7}, &pool);
    lists.clear();
    if (round == 0) ASSERT_GT(arena.mapped(), 0u);
  }
  const size_t mapped = arena.mapped();
  for (int i = 0; i < 1000; ++i) lists.emplace_back(static_cast<size_t>(1 + i % 60), uint64_t{7}, &pool);
  EXPECT_EQ(arena.mapped(), mapped);
  EXPECT_LT(mapped, 2 * HugePageArena::kHugePage);
}

}  // namespace
}  // namespace logagg
