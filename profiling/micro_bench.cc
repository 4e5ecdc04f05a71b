// Google Benchmark micro-benchmarks of the engine's per-line stages: RFC 3339
// parsing (ours against date::parse), the app id check (is_valid_app_id, and
// the app pattern on its byte table and on RE2), classifying one line (JSON
// validation and field extraction), counting into the per-thread map, and
// segment cutting.
#include <benchmark/benchmark.h>
#include <date/date.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "count/counter.h"
#include "parse/app_id.h"
#include "parse/app_pattern.h"
#include "parse/line_parser.h"
#include "parse/rfc3339.h"
#include "input/segmenter.h"

namespace {

// Timestamps as the generator writes them: varied fractions and offsets.
std::vector<std::string> timestamps() {
  const char* zones[] = {"Z", "+00:00", "-05:00", "+05:30", "z", "-00:00"};
  std::mt19937_64 rng(1);
  std::vector<std::string> out;
  for (int i = 0; i < 1024; ++i) {
    char buf[64];
    const int digits = static_cast<int>(rng() % 10);
    std::snprintf(buf, sizeof buf, "2023-%02d-%02dT%02d:%02d:%02d%s%.*s%s", 1 + static_cast<int>(rng() % 12),
                  1 + static_cast<int>(rng() % 28), static_cast<int>(rng() % 24), static_cast<int>(rng() % 60),
                  static_cast<int>(rng() % 60), digits ? "." : "", digits, "123456789", zones[rng() % 6]);
    out.push_back(buf);
  }
  return out;
}

void BM_Rfc3339_Logagg(benchmark::State& state) {
  const auto ts = timestamps();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(logagg::parse_rfc3339(ts[i++ & 1023]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Rfc3339_Logagg);

void BM_Rfc3339_DateParse(benchmark::State& state) {
  const auto ts = timestamps();
  size_t i = 0;
  for (auto _ : state) {
    std::istringstream in(ts[i++ & 1023]);
    date::sys_time<std::chrono::nanoseconds> tp;
    in >> date::parse("%FT%T%Ez", tp);
    benchmark::DoNotOptimize(tp);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Rfc3339_DateParse);

// App ids as the generator writes them, and one that is rejected.
const std::string kAppIds[] = {"FmgKIyt", "jPdUGB7WqoFbM", "Tou1khdhNU", "bad_id"};

void BM_AppId(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(logagg::is_valid_app_id(kAppIds[i++ & 3]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppId);

// The default app pattern on the same ids: its byte table, then the same rule
// on RE2, to be compared with BM_AppId.
void BM_AppPattern_DefaultTable(benchmark::State& state) {
  const logagg::AppPattern pattern = logagg::AppPattern::compile();
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(pattern.matches(kAppIds[i++ & 3]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppPattern_DefaultTable);

void BM_AppPattern_DefaultOnRe2(benchmark::State& state) {
  const logagg::AppPattern pattern = logagg::AppPattern::compile_with_re2(logagg::AppPattern::kDefault);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(pattern.matches(kAppIds[i++ & 3]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppPattern_DefaultOnRe2);

// A pattern that is not one class (Traefik's router names), on RE2.
void BM_AppPattern_GeneralRe2(benchmark::State& state) {
  const logagg::AppPattern pattern = logagg::AppPattern::compile("[a-z0-9-]+@[a-z]+");
  const std::string ids[] = {"checkout-api@docker", "web@file", "api-gateway-7@kubernetes", "bad_id"};
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(pattern.matches(ids[i++ & 3]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppPattern_GeneralRe2);

// One realistic ~240-byte line, validated completely and its fields extracted.
void BM_ClassifyLine(benchmark::State& state) {
  const std::string line =
      R"({"ip": "10.81.99.52", "method": "POST", "path": "/api/v1/orders/95239", "status": 304, "bytes": 165950, )"
      R"("latency_ms": 128.347, "app_id": "FmgKIyt", "timestamp": "2023-11-14T22:13:20.392354-00:00", )"
      R"("ua": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"})";
  const std::string buffer = line + std::string(logagg::kLinePadding, ' ');
  logagg::LineParser parser("app_id", "timestamp", size_t{1} << 26);
  for (auto _ : state) benchmark::DoNotOptimize(parser.classify({buffer.data(), line.size()}, buffer.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * (line.size() + 1)));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClassifyLine);

// Counting lines of one day of traffic into a worker's map.
void BM_CountIntoMap(benchmark::State& state) {
  logagg::SharedCounts shared;
  logagg::Counter counter(shared);
  std::mt19937_64 rng(2);
  std::vector<int64_t> seconds(4096);
  for (auto& s : seconds) s = 1'700'000'000 + static_cast<int64_t>(rng() % 86400);
  size_t i = 0;
  for (auto _ : state) counter.record(logagg::LineVerdict::counted(seconds[i++ & 4095]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CountIntoMap);

void BM_CutSegments(benchmark::State& state) {
  std::string data;
  while (data.size() < (size_t{64} << 20)) data += std::string(239, 'x') + "\n";
  for (auto _ : state) benchmark::DoNotOptimize(logagg::cut_segments(data, size_t{1} << 20));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_CutSegments);

}  // namespace

BENCHMARK_MAIN();
