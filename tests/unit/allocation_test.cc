// Checks that the hot path allocates nothing per line: classifying lines of
// every kind and counting them, after a warm-up, makes no heap allocation.
// Counted with a replacement global operator new for this test binary.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "parse/line_parser.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// Every form of new and delete is replaced, so that memory from one form is
// never released by another (sanitizers check that).
namespace {
void* counted_malloc(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace

void* operator new(std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace logagg {
namespace {

TEST(Allocation, ClassifyingLinesAllocatesNothingPerLine) {
  const std::vector<std::string> lines = {
      R"({"ip": "10.1.2.3", "method": "GET", "path": "/api/v1/users", "status": 200, "bytes": 1234, )"
      R"("latency_ms": 12.5, "app_id": "FmgKIyt", "timestamp": "2023-11-14T22:13:20.392354-00:00", "ua": "curl/8.4.0"})",
      R"({"app_id":"\u0041pp","timestamp":"2023-11-14T22:13:20Z","nested":{"a":[1,2,{"b":null}]},"s":"caf\u00e9"})",
      R"({"app_id":"bad_id","timestamp":"2023-11-14T22:13:20Z"})",
      R"({"app_id":"A","timestamp":"2023-11-14T22:13:60Z"})",
      R"({"app_id":"A","timestamp":"2023-11-14T22:13:20Z",})",
      R"(["not", "an", "object"])",
      "   ",
      R"({"app_id":"A","app_id":"B","timestamp":"2023-11-14T22:13:20Z","d":)" + std::string(100, '[') +
          std::string(100, ']') + "}",
  };
  LineParser parser("app_id", "timestamp", size_t{1} << 20);
  auto classify_all = [&] {
    for (const std::string& line : lines) parser.classify(line, line.size());  // the padded-copy path
  };
  classify_all();  // warm-up: buffers grow to the longest line and deepest nesting
  const long before = g_allocations.load();
  ASSERT_GT(before, 0) << "the counting operator new must be in use (the parser allocated at construction)";
  for (int i = 0; i < 1000; ++i) classify_all();
  EXPECT_EQ(g_allocations.load() - before, 0) << "allocations while classifying " << 1000 * lines.size() << " lines";
}

}  // namespace
}  // namespace logagg
