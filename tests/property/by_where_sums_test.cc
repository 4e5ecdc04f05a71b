// Properties of --by and --where (issue 30) that hold for any input, checked
// on a loggen log (2 MiB, dirty, CRLF) and on a hostile corpus
// (support/hostile_lines.h):
// - the rows of any --by run add up, per second, to the plain run's counts,
//   and its summary is the plain run's (also when --max-apps caps the keys);
// - a filter and its complements add up to the plain run, per second and in
//   the summary: `exists F` + `missing F`; `F < v` + `F >= v` + `F !~ NUM`
//   (NUM the JSON number grammar) = `F ~ (?s).*`; `F == v` + `F != v` =
//   `F < v` + `F >= v`; and on loggen's log, whose statuses are numbers,
//   `status < 500` + `status >= 500` + `missing status` = the plain run;
// - a keyed, filtered run gives the same csv, json and accounting for every
//   thread count (1, 2, 3, 8) and segment size (from 1 byte up), through
//   aggregate (the file) and aggregate_buffer, and that csv is the slow
//   reference's (tests/reference/);
// - with --overall (one bucket for the whole input), each key's row is its
//   rows of every second added up (counts, --count-if, sums exactly,
//   sketches merged), busiest first, read back (merge) as written, and the
//   same for every thread count and segment size.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/report.h"
#include "logagg/result_document.h"
#include "reference/reference.h"
#include "support/generated_log.h"
#include "support/hostile_lines.h"
#include "support/report_as.h"

namespace logagg {
namespace {

using Kind = KeyField::Kind;

// Lines counted per second.
using PerSecond = std::map<int64_t, uint64_t>;

PerSecond per_second(const Result& r) {
  PerSecond out;
  for (const SecondCount& c : r.counts) out[c.second] += c.count;
  return out;
}

PerSecond per_second_of_keys(const Result& r) {
  PerSecond out;
  for (const AppCount& c : r.app_counts) out[c.second] += c.count;
  return out;
}

PerSecond operator+(PerSecond a, const PerSecond& b) {
  for (const auto& [second, count] : b) a[second] += count;
  return a;
}

class Corpora : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    log_ = new testing::GeneratedLog({"--seed", "30", "--bytes", "2M", "--dirty", "0.1", "--crlf", "0.2"});
    ASSERT_TRUE(log_->ok());
    loggen_ = new std::string(log_->content());
    hostile_ = new std::string;
    testing::HostileLines lines(30);
    for (int i = 0; i < 3000; ++i) *hostile_ += lines.line() + "\n";
  }
  static void TearDownTestSuite() {
    delete hostile_;
    delete loggen_;
    delete log_;
  }
  static Result run(const std::string& data, const std::vector<std::string>& where, std::vector<KeyField> by = {},
                    size_t max_apps = Options{}.max_apps) {
    Options o;
    o.where = where;
    o.by = std::move(by);
    o.max_apps = max_apps;
    o.threads = 2;
    o.segment_bytes = 64 * 1024;
    return aggregate_buffer(data, o);
  }
  static std::vector<const std::string*> corpora() { return {loggen_, hostile_}; }

  static testing::GeneratedLog* log_;
  static std::string* loggen_;
  static std::string* hostile_;
};
testing::GeneratedLog* Corpora::log_ = nullptr;
std::string* Corpora::loggen_ = nullptr;
std::string* Corpora::hostile_ = nullptr;

TEST_F(Corpora, TheRowsOfAnyByRunAddUpToThePlainRun) {
  const std::vector<std::vector<KeyField>> key_sets = {
      {{"status", Kind::kValue, 0}},
      {{"status", Kind::kValue, 0}, {"method", Kind::kValue, 0}},
      {{"status", Kind::kStatusClass, 0}, {"path", Kind::kPathPrefix, 2}},
      {{"/req/host", Kind::kValue, 0}, {"/req/tags/0", Kind::kValue, 0}, {"ua", Kind::kValue, 0},
       {"path", Kind::kPathPrefix, 1}},
      {{"nothing", Kind::kValue, 0}},
  };
  for (const std::string* data : corpora()) {
    const Result plain = run(*data, {});
    ASSERT_GT(plain.summary.counted, 1000u);
    for (const std::vector<KeyField>& keys : key_sets) {
      const size_t distinct = run(*data, {}, keys).apps.size();
      for (const size_t max_apps : {Options{}.max_apps, size_t{3}}) {
        const Result keyed = run(*data, {}, keys, max_apps);
        const std::string what = keys.front().column() + " and " + std::to_string(keys.size() - 1) +
                                 " more, max_apps " + std::to_string(max_apps);
        EXPECT_EQ(per_second_of_keys(keyed), per_second(plain)) << what;
        EXPECT_EQ(keyed.counts, plain.counts) << what;
        EXPECT_EQ(keyed.summary.counted, plain.summary.counted) << what;
        EXPECT_EQ(keyed.summary.rejected, plain.summary.rejected) << what;
        EXPECT_EQ(keyed.summary.no_value.size(), keys.size()) << what;
        EXPECT_EQ(keyed.apps_capped, distinct > max_apps) << what;
      }
    }
  }
}

// What a filtered run counts per second, checked for the accounting on the way.
PerSecond counted(const Result& r, const Result& plain, const std::string& what) {
  const Summary& s = r.summary;
  EXPECT_EQ(s.lines, plain.summary.lines) << what;
  EXPECT_EQ(s.counted + s.filtered(), plain.summary.counted) << what;
  EXPECT_EQ(s.rejected, plain.summary.rejected) << what;
  return per_second(r);
}

TEST_F(Corpora, AFilterAndItsComplementsAddUpToThePlainRun) {
  const std::string kNumber = R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)";
  for (const std::string* data : corpora()) {
    const Result plain = run(*data, {});
    const PerSecond all = per_second(plain);
    for (const std::string field : {"status", "/req/bytes", "method"}) {
      const auto of = [&](const std::string& expression) {
        return counted(run(*data, {expression}), plain, expression);
      };
      EXPECT_EQ(of("exists " + field) + of("missing " + field), all) << field;
      const PerSecond scalars = of(field + " ~ (?s).*");
      const PerSecond not_numbers = of(field + " !~ " + kNumber);
      for (const std::string value : {"500", "2e2", "200.0", "-0", "1e400", "1e3", "0.10000000000000001"}) {
        const PerSecond ordered = of(field + " < " + value) + of(field + " >= " + value);
        EXPECT_EQ(ordered + not_numbers, scalars) << field << " " << value;
        EXPECT_EQ(of(field + " == " + value) + of(field + " != " + value), ordered) << field << " " << value;
        EXPECT_EQ(of(field + " <= " + value) + of(field + " > " + value), ordered) << field << " " << value;
      }
    }
  }
  // loggen writes every status as a number.
  const Result plain = run(*loggen_, {});
  const PerSecond parts = counted(run(*loggen_, {"status<500"}), plain, "<") +
                          counted(run(*loggen_, {"status>=500"}), plain, ">=") +
                          counted(run(*loggen_, {"missing status"}), plain, "missing");
  EXPECT_EQ(parts, per_second(plain));
}

TEST_F(Corpora, FiltersTogetherFilterTheirIntersection) {
  for (const std::string* data : corpora()) {
    const Result plain = run(*data, {});
    const PerSecond both = counted(run(*data, {"status >= 200", "status < 300"}), plain, "both");
    const PerSecond below = counted(run(*data, {"status < 300"}), plain, "below");
    const PerSecond only_low = counted(run(*data, {"status < 200"}), plain, "low");
    const PerSecond in_range_by_pattern = counted(run(*data, {"status >= 200", "status < 300", "exists status"}),
                                                  plain, "three");
    EXPECT_EQ(both + only_low, below);
    EXPECT_EQ(in_range_by_pattern, both);
  }
}

TEST_F(Corpora, EveryThreadCountAndSegmentSizeGivesTheSameKeyedFilteredResult) {
  Options base;
  base.by = {{"status", Kind::kStatusClass, 0}, {"method", Kind::kValue, 0}, {"path", Kind::kPathPrefix, 2}};
  base.where = {"status >= 2e2", "exists path"};
  base.by_app = true;
  const std::string want_csv = reference::csv(reference::aggregate_buffer(*loggen_, reference::Rules(base)), base);
  ASSERT_GT(want_csv.size(), 10000u);
  const Result first = aggregate_buffer(*loggen_, base);
  const std::string want_json = format_report(first, as(Format::kJson));
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    for (const size_t segment_bytes : {size_t{0}, size_t{1}, size_t{4096}, size_t{65536}}) {
      Options options = base;
      options.threads = threads;
      options.segment_bytes = segment_bytes;
      const std::string where = "threads " + std::to_string(threads) + ", segment_bytes " + std::to_string(segment_bytes);
      for (const Result& got : {aggregate({log_->path()}, options), aggregate_buffer(*loggen_, options)}) {
        EXPECT_EQ(format_report(got, as(Format::kCsv)), want_csv) << where;
        Summary s = got.summary;
        s.elapsed_seconds = 0;
        s.bytes = first.summary.bytes;
        s.files = first.summary.files;
        EXPECT_EQ(s.filtered_by, first.summary.filtered_by) << where;
        EXPECT_EQ(s.no_value, first.summary.no_value) << where;
        EXPECT_EQ(s.fields, first.summary.fields) << where;
        Result copy = got;
        copy.summary = first.summary;
        EXPECT_EQ(format_report(copy, as(Format::kJson)), want_json) << where;
      }
    }
  }
}

TEST_F(Corpora, TheOverallRowOfAKeyIsItsRowsAddedUp) {
  Options o;
  o.by = {{"status", Kind::kStatusClass, 0}, {"method", Kind::kValue, 0}};
  o.sum = {"bytes", "latency_ms"};
  o.quantiles = {"latency_ms"};
  o.count_if = {"status>=500"};
  o.threads = 2;
  o.segment_bytes = 64 * 1024;
  const Result per_second = aggregate_buffer(*loggen_, o);
  ASSERT_GT(per_second.apps.size(), 5u);
  // Each key's rows of every second, added up.
  std::map<std::string, MeasureCell> want;
  MeasureCell cell;
  for (size_t r = 0; r < per_second.app_counts.size(); ++r) {
    per_second.cells.get(r, cell);
    const std::string& key = per_second.apps[per_second.app_counts[r].app];
    want.try_emplace(key, per_second.query.measures().empty_cell()).first->second.add(cell);
  }
  // What the document does not hold: the min and max of a field only summed,
  // the precision of a sum past its range (null).
  for (auto& [key, added] : want) {
    FieldMeasure& bytes = added.fields[0];
    bytes.min = FieldMeasure{}.min;
    bytes.max = FieldMeasure{}.max;
    for (FieldMeasure& f : added.fields) {
      if (f.sum.overflowed()) f.digits = 0;
    }
  }
  ReportOptions overall = as(Format::kJson);
  overall.bucketing = Bucketing::whole();
  const std::string json = format_report(per_second, overall);
  const Result back = parse_partial(json).result;
  ASSERT_EQ(back.apps.size(), want.size());
  ASSERT_EQ(back.app_counts.size(), want.size());
  for (size_t r = 0; r < back.app_counts.size(); ++r) {
    const AppCount& row = back.app_counts[r];
    EXPECT_EQ(row.second, kWholeRunStart);
    back.cells.get(r, cell);
    EXPECT_EQ(row.count, want.at(back.apps[row.app]).count) << "row " << r;
    EXPECT_EQ(cell, want.at(back.apps[row.app])) << "row " << r;
  }
  // Busiest first: the csv's counts descend.
  std::istringstream csv(format_report(per_second, as(overall, Format::kCsv)));
  std::string line;
  std::getline(csv, line);
  EXPECT_TRUE(line.starts_with("status_class(status),method,count,")) << line;
  uint64_t previous = UINT64_MAX, rows = 0;
  while (std::getline(csv, line)) {
    const size_t second_comma = line.find(',', line.find(',') + 1);
    const uint64_t count = std::stoull(line.substr(second_comma + 1));
    EXPECT_LE(count, previous) << line;
    previous = count;
    ++rows;
  }
  EXPECT_EQ(rows, want.size());
  for (const unsigned threads : {1u, 3u}) {
    for (const size_t segment_bytes : {size_t{1}, size_t{4096}}) {
      Options options = o;
      options.threads = threads;
      options.segment_bytes = segment_bytes;
      Result got = aggregate_buffer(*loggen_, options);
      got.summary.elapsed_seconds = per_second.summary.elapsed_seconds;
      EXPECT_EQ(format_report(got, overall), json) << threads << " threads, segments of " << segment_bytes;
    }
  }
}

}  // namespace
}  // namespace logagg
