// Checks that the hot path allocates nothing per line: classifying lines of
// every kind and counting them, after a warm-up, makes no heap allocation;
// nor does matching app ids against an app pattern, on the byte table at all
// and on RE2 once its DFA has seen the ids.
// Counted with a replacement global operator new for this test binary.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "parse/app_pattern.h"
#include "parse/line_parser.h"
#include "support/counting_new.h"

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

TEST(Allocation, MatchingAppPatternsAllocatesNothing) {
  const std::vector<std::string> ids = {
      "FmgKIyt", "", "bad_id", "caf\u00e9", "api@docker", "checkout-api@docker", std::string(300, 'a') + "@b"};
  for (const char* regex : {"[A-Za-z0-9]+", "[^ ]+", "[a-z0-9-]+@[a-z]+"}) {
    const AppPattern pattern = AppPattern::compile(regex);
    int matched = 0;
    for (const std::string& id : ids) matched += pattern.matches(id);  // warm-up: RE2 builds its DFA states
    const long before = g_allocations.load();
    for (int i = 0; i < 1000; ++i) {
      for (const std::string& id : ids) matched += pattern.matches(id);
    }
    EXPECT_EQ(g_allocations.load() - before, 0) << "allocations while matching " << regex;
    EXPECT_GT(matched, 0) << regex;
  }
}

}  // namespace
}  // namespace logagg
