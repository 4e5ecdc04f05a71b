// Google Benchmark micro-benchmarks of the engine's per-line stages: RFC 3339
// parsing (ours against date::parse), every other time format's second(),
// the app id check (is_valid_app_id, and the app pattern on its byte table,
// a byte or 16 at a time, and on RE2), classifying one line (JSON validation and field extraction),
// classifying 8 MiB of sample lines line by line and a block at a time (and
// so for `--sum bytes`),
// the LF masks of the line search (SSE2 and AVX2),
// counting into the per-thread map, a key's number (AppCache: few distinct
// keys, as a status, a pair of them, and many), counting measured lines by
// key (a RED report's count path), a measure's value (read_measure), a
// --where filter on a status, and segment cutting.
#include <benchmark/benchmark.h>
#include <date/date.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "count/app_table.h"
#include "count/counter.h"
#include "input/input.h"
#include "logagg/measures.h"
#include "logagg/query.h"
#include "logagg/rfc3339.h"
#include "parse/app_id.h"
#include "parse/app_pattern.h"
#include "parse/line_parser.h"
#include "parse/measure_value.h"
#include "parse/time_format.h"
#include "parse/where.h"
#include "parse/where_holds.h"
#include "text/lf_mask.h"
#include "time/civil_time.h"

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
// 1024 times in one format, in ascending order as in a log: `write` prints
// a UTC second of 2023 into the buffer (and returns its length).
template <typename Write>
std::vector<std::string> times(Write write) {
  std::mt19937_64 rng(3);
  std::vector<int64_t> seconds(1024);
  for (int64_t& s : seconds) s = 1672531200 + static_cast<int64_t>(rng() % (365 * 86400));
  std::sort(seconds.begin(), seconds.end());
  std::vector<std::string> out;
  for (const int64_t second : seconds) {
    char buf[96];
    out.emplace_back(buf, static_cast<size_t>(write(buf, sizeof buf, second, rng)));
  }
  return out;
}

struct Civil {
  int year, month, day, hour, minute, second;
};
Civil civil(int64_t second) {
  const logagg::CivilDate d = logagg::civil_from_days(second / 86400);
  const auto sod = static_cast<int>(second % 86400);
  return {static_cast<int>(d.year),
          static_cast<int>(d.month),
          static_cast<int>(d.day),
          sod / 3600,
          sod / 60 % 60,
          sod % 60};
}

// TimeFormat::second over `texts`, parsed with `format`.
void run_time_format(benchmark::State& state, const logagg::TimeFormat& format, const std::vector<std::string>& texts) {
  size_t i = 0, matched = 0;
  for (auto _ : state) {
    const auto second = format.second(texts[i++ & 1023]);
    matched += second.has_value();
    benchmark::DoNotOptimize(second);
  }
  if (matched != static_cast<size_t>(state.iterations())) state.SkipWithError("a time did not match its format");
  state.SetItemsProcessed(state.iterations());
}

void BM_TimeFormat_Rfc3339(benchmark::State& state) { run_time_format(state, logagg::TimeFormat(), timestamps()); }
BENCHMARK(BM_TimeFormat_Rfc3339);

// Caddy's and zap's float seconds, 0 to 9 fraction digits.
void BM_TimeFormat_Unix(benchmark::State& state) {
  run_time_format(state, logagg::TimeFormat::compile("unix"), times([](char* b, size_t n, int64_t s, auto& rng) {
                    const int digits = static_cast<int>(rng() % 10);
                    return std::snprintf(b, n, "%lld%s%.*s", static_cast<long long>(s), digits ? "." : "", digits,
                                         "123456789");
                  }));
}
BENCHMARK(BM_TimeFormat_Unix);

// Pino's integer milliseconds.
void BM_TimeFormat_UnixMs(benchmark::State& state) {
  run_time_format(state, logagg::TimeFormat::compile("unix-ms"), times([](char* b, size_t n, int64_t s, auto& rng) {
                    return std::snprintf(b, n, "%lld%03d", static_cast<long long>(s), static_cast<int>(rng() % 1000));
                  }));
}
BENCHMARK(BM_TimeFormat_UnixMs);

// Cloudflare's integer nanoseconds.
void BM_TimeFormat_UnixNs(benchmark::State& state) {
  run_time_format(state, logagg::TimeFormat::compile("unix-ns"), times([](char* b, size_t n, int64_t s, auto& rng) {
                    return std::snprintf(b, n, "%lld%09d", static_cast<long long>(s),
                                         static_cast<int>(rng() % 1000000000));
                  }));
}
BENCHMARK(BM_TimeFormat_UnixNs);

// nginx's $time_local, in various offsets.
void BM_TimeFormat_Clf(benchmark::State& state) {
  run_time_format(state, logagg::TimeFormat::compile("clf"), times([](char* b, size_t n, int64_t s, auto& rng) {
                    const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
                    const char* offsets[] = {"+0000", "-0500", "+0530", "+0100"};
                    const Civil c = civil(s);
                    return std::snprintf(b, n, "%02d/%s/%04d:%02d:%02d:%02d %s", c.day, months[c.month - 1], c.year,
                                         c.hour, c.minute, c.second, offsets[rng() % 4]);
                  }));
}
BENCHMARK(BM_TimeFormat_Clf);

// Local times in a pattern without %z: in UTC, and in a zone with DST (a
// year of times, so both offsets and the changes between them).
void pattern_in_zone(benchmark::State& state, const char* zone) {
  run_time_format(
      state, logagg::TimeFormat::compile("%Y-%m-%d %H:%M:%S", zone), times([](char* b, size_t n, int64_t s, auto&) {
        const Civil c = civil(s);
        return std::snprintf(b, n, "%04d-%02d-%02d %02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second);
      }));
}
void BM_TimeFormat_PatternUtc(benchmark::State& state) { pattern_in_zone(state, "UTC"); }
BENCHMARK(BM_TimeFormat_PatternUtc);
void BM_TimeFormat_PatternBerlin(benchmark::State& state) { pattern_in_zone(state, "Europe/Berlin"); }
BENCHMARK(BM_TimeFormat_PatternBerlin);

// The same with a fraction and an offset, as ISO 8601 writers without RFC 3339's colon do.
void BM_TimeFormat_PatternOffset(benchmark::State& state) {
  run_time_format(state, logagg::TimeFormat::compile("%Y-%m-%dT%H:%M:%S.%f%z"),
                  times([](char* b, size_t n, int64_t s, auto& rng) {
                    const Civil c = civil(s);
                    return std::snprintf(b, n, "%04d-%02d-%02dT%02d:%02d:%02d.%06d+0000", c.year, c.month, c.day,
                                         c.hour, c.minute, c.second, static_cast<int>(rng() % 1000000));
                  }));
}
BENCHMARK(BM_TimeFormat_PatternOffset);

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

// The same table 16 bytes at a time, as the block parser runs it (the ids
// followed by the padding it reads past them).
void BM_AppPattern_DefaultTablePadded(benchmark::State& state) {
  const logagg::AppPattern pattern = logagg::AppPattern::compile();
  std::vector<std::string> padded;
  for (const std::string& id : kAppIds) padded.push_back(id + std::string(logagg::AppPattern::kMatchPadding, ' '));
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ & 3;
    benchmark::DoNotOptimize(pattern.matches_padded(std::string_view(padded[k].data(), kAppIds[k].size())));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppPattern_DefaultTablePadded);

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

// data/sample.log (3,500 generated lines, 5% of them tricky) repeated to 8 MiB
// and padded, as a mapped segment holds it.
const std::string& sample_lines() {
  static const std::string text = [] {
    std::ifstream in(LOGAGG_SOURCE_DIR "/data/sample.log", std::ios::binary);
    const std::string sample((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string out;
    while (!sample.empty() && out.size() < (size_t{8} << 20)) out += sample;
    return out;
  }();
  return text;
}

// Every line of sample_lines() through LineParser, one at a time.
void BM_ClassifySampleLineByLine(benchmark::State& state) {
  const std::string buffer = sample_lines() + std::string(logagg::kLinePadding, ' ');
  const std::string_view text(buffer.data(), sample_lines().size());
  logagg::LineParser parser("app_id", "timestamp", size_t{1} << 26);
  for (auto _ : state) {
    for (size_t at = 0; at < text.size();) {
      const size_t lf = text.find('\n', at);
      benchmark::DoNotOptimize(parser.classify(text.substr(at, lf - at), buffer.size() - at));
      at = lf + 1;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ClassifySampleLineByLine);

// The same lines through a BlockParser with `rules`, in blocks of `block_bytes`.
void classify_sample_in_blocks(benchmark::State& state, const logagg::LineRules& rules, size_t block_bytes) {
  const std::string buffer = sample_lines() + std::string(logagg::kLinePadding, ' ');
  const std::string_view text(buffer.data(), sample_lines().size());
  logagg::BlockParser parser(rules, size_t{1} << 26, block_bytes);
  for (auto _ : state) {
    parser.classify_lines(text, buffer.size(), [](const logagg::LineVerdict& v) { benchmark::DoNotOptimize(v); });
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

// The plain question, blocks of state.range(0) KiB.
void BM_ClassifySampleInBlocks(benchmark::State& state) {
  classify_sample_in_blocks(state, logagg::LineRules{}, static_cast<size_t>(state.range(0)) << 10);
}
BENCHMARK(BM_ClassifySampleInBlocks)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Arg(128)->Arg(256);

// The LF masks of the sample's 64-byte chunks, as the block parser's line
// search reads every byte first: SSE2's four compares (0) against AVX2's two
// (1), each inlined into a loop built for its instructions.
template <uint64_t (*kLfMask)(const char*) noexcept>
[[gnu::always_inline]] inline uint64_t lf_masks(std::string_view text) {
  uint64_t all = 0;
  for (size_t i = 0; i + 64 <= text.size(); i += 64) all ^= kLfMask(text.data() + i);
  return all;
}
uint64_t lf_masks_sse2(std::string_view text) { return lf_masks<logagg::lf_mask64>(text); }
LOGAGG_TARGET_AVX2 uint64_t lf_masks_avx2(std::string_view text) { return lf_masks<logagg::lf_mask64_avx2>(text); }

void BM_LfMask(benchmark::State& state) {
  const bool avx2 = state.range(0) == 1;
  if (avx2 && !logagg::cpu_has_avx2()) {
    state.SkipWithError("this CPU has no AVX2");
    return;
  }
  const std::string& text = sample_lines();
  for (auto _ : state) benchmark::DoNotOptimize(avx2 ? lf_masks_avx2(text) : lf_masks_sse2(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_LfMask)->Arg(0)->Arg(1);

// `--sum bytes` in blocks of 64 KiB: the walk records the field, and the
// verdict reads its value (one measured field alone).
void BM_ClassifySampleSumBytes(benchmark::State& state) {
  logagg::Options options;
  options.sum = {"bytes"};
  classify_sample_in_blocks(state, logagg::Query(options).rules(), size_t{64} << 10);
}
BENCHMARK(BM_ClassifySampleSumBytes);

// `--quantiles latency_ms` the same way: a decimal's digits read by the walk
// and made into the double its sketch keys.
void BM_ClassifySampleQuantiles(benchmark::State& state) {
  logagg::Options options;
  options.quantiles = {"latency_ms"};
  classify_sample_in_blocks(state, logagg::Query(options).rules(), size_t{64} << 10);
}
BENCHMARK(BM_ClassifySampleQuantiles);

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

// Counting measured lines by key, as `--by status` with the measures `spec`
// does: statuses weighted as the generator writes them, 700 lines a second in
// time order (about 70 lines a cell, as in the bench corpus), each line's
// values read (bytes 165950, latency_ms 128.347, in spec's order).
void count_measured_by_key(benchmark::State& state, const logagg::MeasureSpec& spec) {
  logagg::SharedCounts shared;
  logagg::SharedMeasures measures(spec);
  logagg::AppTable table(100'000);
  logagg::Counter counter(shared, INT64_MIN, INT64_MAX, &table, logagg::Counter::kDefaultMaxSeconds, &measures, &spec);
  const std::string_view statuses[] = {"200", "200", "200", "200", "200", "200", "201", "304", "404", "500"};
  std::mt19937_64 rng(4);
  std::vector<std::string_view> keys(4096);
  for (auto& k : keys) k = statuses[rng() % 10];
  logagg::LineMeasures line;
  line.values.resize(spec.fields.size());
  line.usable = (uint64_t{1} << spec.fields.size()) - 1;
  for (size_t f = 0; f < spec.fields.size(); ++f) {
    logagg::read_measure(spec.fields[f].name == "bytes" ? "165950" : "128.347", line.values[f]);
  }
  size_t i = 0;
  for (auto _ : state) {
    logagg::LineVerdict v = logagg::LineVerdict::counted(1'700'000'000 + static_cast<int64_t>(i / 700), keys[i & 4095]);
    v.measures = &line;
    counter.record(v);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

// A RED report's (`--by status --sum bytes --quantiles latency_ms`).
void BM_CountMeasuredByKey(benchmark::State& state) {
  logagg::MeasureSpec spec;
  spec.fields = {{"bytes", true, false, {}}, {"latency_ms", false, true, {}}};
  spec.percentiles = {{"50", 50, 0}, {"99", 99, 0}};
  count_measured_by_key(state, spec);
}
BENCHMARK(BM_CountMeasuredByKey);

// One summed field (`--by status --sum bytes`): the cells' own path for it.
void BM_CountSummedByKey(benchmark::State& state) {
  logagg::MeasureSpec spec;
  spec.fields = {{"bytes", true, false, {}}};
  count_measured_by_key(state, spec);
}
BENCHMARK(BM_CountSummedByKey);

// A key's number from a worker's AppCache, for state.range(0) distinct keys
// met in turn: 5 as `--by status` meets them, 50 as a pair (`--by method
// --by status`), 1,000 as app ids.
void BM_AppCacheId(benchmark::State& state) {
  const auto distinct = static_cast<size_t>(state.range(0));
  std::vector<std::string> keys;
  std::mt19937_64 rng(3);
  for (size_t i = 0; i < distinct; ++i) {
    keys.push_back(distinct <= 5    ? std::to_string(200 + 100 * i)
                   : distinct <= 50 ? "GET\x1f" + std::to_string(200 + i)
                                    : "app" + std::to_string(rng() % 100'000'000));
  }
  std::vector<size_t> order(4096);
  for (size_t& k : order) k = rng() % distinct;
  logagg::AppTable table(100'000);
  logagg::AppCache cache(table);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(cache.id(keys[order[i++ & 4095]]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AppCacheId)->Arg(5)->Arg(50)->Arg(1000);

// A measure's value from its JSON text: integers (`bytes`) and decimals
// (`latency_ms`), as the corpus has them.
void BM_ReadMeasure(benchmark::State& state) {
  const std::string_view texts[] = {"165950", "128.347", "304", "0.512"};
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(logagg::read_measure(texts[i++ & 3]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadMeasure);

// A --where filter on a line's field: `status>=500` over statuses weighted
// as the generator writes them, each text padded as the walk leaves it; with
// Arg(1) each number's digits counted as the block parser's walk leaves
// them (FieldSeen::short_number), with Arg(0) not (the line parser's).
void BM_FilterHolds(benchmark::State& state) {
  const logagg::Filter filter = logagg::Filter::parse("status>=500");
  std::vector<std::string> statuses;
  for (const char* s : {"200", "200", "200", "200", "200", "200", "201", "304", "404", "503"}) {
    statuses.push_back(std::string(s) + std::string(8, ' '));
  }
  std::mt19937_64 rng(6);
  std::vector<logagg::FieldSeen> seen(4096);
  for (logagg::FieldSeen& s : seen) {
    s.count = 1;
    s.is_scalar = true;
    s.text = std::string_view(statuses[rng() % statuses.size()]).substr(0, 3);
    s.is_short = state.range(0) == 1;  // its digits' count, as the walk's check leaves it
    s.int_digits = static_cast<uint8_t>(s.text.size());
  }
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(filter.holds(seen[i++ & 4095]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FilterHolds)->Arg(0)->Arg(1);

// A quantile's bucket key from its value, each value chosen by the key
// before it, so that the time is key_of's latency, as on a line's path from
// its value to its sketch: latencies drawn log-normal, as the corpus's.
void BM_SketchKeyOf(benchmark::State& state) {
  std::mt19937_64 rng(5);
  std::vector<double> values(4096);
  for (double& v : values) v = std::lognormal_distribution<double>(3, 2)(rng);
  int32_t key = 0;
  size_t i = 0;
  for (auto _ : state) {
    key = logagg::LogSketch::key_of(values[(i++ + static_cast<uint32_t>(key & 1)) & 4095]);
    benchmark::DoNotOptimize(key);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SketchKeyOf);

// A cell's sketch from its first value to its read (settled, as a report
// reads it): Arg values, log-normal as the corpus's latencies, added by key
// then counted into buckets. A RED report by status has about 72 values a
// cell, fewer than a list (128), so most of its cells' values are placed
// when the cell is read.
void BM_SketchCellSettled(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<int32_t> keys(4096);
  for (int32_t& k : keys) k = logagg::LogSketch::key_of(std::lognormal_distribution<double>(3, 2)(rng));
  const auto n = static_cast<size_t>(state.range(0));
  size_t at = 0;
  for (auto _ : state) {
    logagg::LogSketch sketch;
    for (size_t i = 0; i < n; ++i) sketch.add_key(keys[(at + i) & 4095]);
    at += n;
    benchmark::DoNotOptimize(sketch.total());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_SketchCellSettled)->Arg(8)->Arg(72)->Arg(1000);

void BM_CutSegments(benchmark::State& state) {
  std::string data;
  while (data.size() < (size_t{64} << 20)) data += std::string(239, 'x') + "\n";
  for (auto _ : state) benchmark::DoNotOptimize(logagg::cut_segments(data, size_t{1} << 20));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_CutSegments);

}  // namespace

BENCHMARK_MAIN();
