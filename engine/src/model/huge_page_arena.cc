// Regions mapped for a table's lists, huge pages asked for from 2 MiB on
// (huge_page_arena.h).
#include "model/huge_page_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace logagg {

namespace {

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// The first `bytes` of [next, end) aligned to `alignment`, taken: null if they do not fit.
char* take(char*& next, char* end, size_t bytes, size_t alignment) {
  if (next == nullptr) return nullptr;
  char* at = reinterpret_cast<char*>(round_up(reinterpret_cast<uintptr_t>(next), alignment));
  if (at > end || static_cast<size_t>(end - at) < bytes) return nullptr;
  next = at + bytes;
  return at;
}

}  // namespace

HugePageArena::~HugePageArena() {
  for (const Region& r : regions_) ::munmap(r.base, r.size);
}

void* HugePageArena::do_allocate(size_t bytes, size_t alignment) {
  // A small request is taken from what a region before left first, so that
  // it is used up before the current region (a table asks for blocks of rows
  // of about a megabyte between lists of a few kilobytes, and each block that
  // does not fit the current region would otherwise leave its rest unused).
  if (bytes <= kSmall) {
    if (char* at = take(spare_next_, spare_end_, bytes, alignment)) return at;
  }
  if (char* at = take(next_, end_, bytes, alignment)) return at;
  if (bytes > kMostBytes || alignment > kHugePage) throw std::bad_alloc();
  char* const rest = next_;
  char* const rest_end = end_;
  map_region(bytes + alignment);  // the current region's rest kept only once a new one is mapped
  if (rest_end - rest > spare_end_ - spare_next_) {
    spare_next_ = rest;
    spare_end_ = rest_end;
  }
  char* at = take(next_, end_, bytes, alignment);
  if (at == nullptr) throw std::bad_alloc();  // not after a region of bytes + alignment
  return at;
}

void HugePageArena::map_region(size_t bytes) {
  // Doubling from kFirstRegion up to a huge page, then huge pages.
  size_t size = std::max(bytes, regions_.empty() ? kFirstRegion : std::min(2 * regions_.back().size, kHugePage));
  const bool huge = size >= kHugePage;
  if (huge) size = round_up(size, kHugePage);
  // A huge region is mapped a huge page longer, then cut to its aligned part.
  const size_t span = huge ? size + kHugePage : size;
  regions_.reserve(regions_.size() + 1);  // before the mapping, which nothing would unmap if this threw
  void* p = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  char* base = static_cast<char*>(p);
  if (huge) {
    char* aligned = reinterpret_cast<char*>(round_up(reinterpret_cast<uintptr_t>(base), kHugePage));
    if (aligned > base) ::munmap(base, static_cast<size_t>(aligned - base));
    const size_t tail = static_cast<size_t>(base + span - (aligned + size));
    if (tail > 0) ::munmap(aligned + size, tail);
    base = aligned;
#ifdef MADV_HUGEPAGE
    ::madvise(base, size, MADV_HUGEPAGE);  // advice: without it (or THP off) the pages are 4 KiB
#endif
  }
  regions_.push_back({base, size});
  next_ = base;
  end_ = base + size;
}

}  // namespace logagg
