// Memory for a table's long-lived lists (MeasureTable's rows and its
// sketches' own lists): regions mapped whole, and from kHugePage on aligned
// to it and marked for transparent huge pages (MADV_HUGEPAGE), so that a
// table of tens of megabytes takes a page fault and a TLB entry every 2 MiB
// rather than every 4 KiB. Regions grow from kFirstRegion, doubling, so a
// small table maps little and no huge page. Allocation bumps a pointer and
// nothing is freed before the arena: put a std::pmr pool in front of it to
// reuse what is freed (MeasureTable does).
#pragma once

#include <cstddef>
#include <memory_resource>
#include <vector>

namespace logagg {

class HugePageArena final : public std::pmr::memory_resource {
 public:
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kFirstRegion = size_t{64} << 10;
  // A request this large or smaller is taken from the rest of an earlier region first.
  static constexpr size_t kSmall = size_t{64} << 10;
  // Larger requests are refused (std::bad_alloc), as no region's size
  // could be computed for them.
  static constexpr size_t kMostBytes = size_t{1} << 48;

  HugePageArena() = default;
  HugePageArena(const HugePageArena&) = delete;
  HugePageArena& operator=(const HugePageArena&) = delete;
  ~HugePageArena() override;

  // The bytes of the regions mapped so far.
  size_t mapped() const {
    size_t bytes = 0;
    for (const Region& r : regions_) bytes += r.size;
    return bytes;
  }

 private:
  void* do_allocate(size_t bytes, size_t alignment) override;
  void do_deallocate(void*, size_t, size_t) override {}  // unmapped with the arena
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
  // Maps a region of at least `bytes` and makes it the one allocated from.
  void map_region(size_t bytes);

  struct Region {
    void* base;
    size_t size;
  };
  std::vector<Region> regions_;
  char* next_ = nullptr;  // the current region's free bytes
  char* end_ = nullptr;
  char* spare_next_ = nullptr;  // the free bytes of a region before, kept for requests that fit them
  char* spare_end_ = nullptr;
};

}  // namespace logagg
