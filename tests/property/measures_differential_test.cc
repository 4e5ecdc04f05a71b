// Differential tests of --sum, --quantiles and --count-if (issue 32): logs of
// uniform, log-normal, bimodal, constant, all-zero, negative and huge-range
// values (numbers and numeric strings, with lines that have none or a
// non-numeric one) go through the engine at threads 1, 2, 3 and 8 with
// several segment sizes, and through json documents of any split into
// pieces added up by merge in any order: the output must be byte-identical on
// every path (the json's sums and sketches too), and against
// an exact reference (every value kept and sorted) each row's n, sum (to the
// last digit), min and max must be exact and each printed quantile within
// 1 % of the nearest-rank value. The same without a key: one measured field
// alone (the line keys' own path for it), and beside it two, a predicate and
// a filter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/measures.h"
#include "logagg/merge.h"
#include "logagg/report.h"
#include "report/measure_text.h"
#include "support/report_as.h"

namespace logagg {
namespace {

__extension__ typedef __int128 Micro;  // the reference's sums: the values are written with 6 fraction digits

struct RefRow {
  uint64_t count = 0, errors = 0;
  std::vector<double> lat;
  Micro lat_sum = 0, bytes_sum = 0;
  uint64_t bytes_n = 0;
};

struct Log {
  std::string text;
  std::map<std::pair<int64_t, std::string>, RefRow> rows;  // (second, status)
  bool huge = false;                                       // values past the sum's range: quantiles only
};

std::string micro_text(Micro v) {
  const bool negative = v < 0;
  if (negative) v = -v;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%llu.%06llu", negative ? "-" : "", static_cast<unsigned long long>(v / 1000000),
                static_cast<unsigned long long>(v % 1000000));
  return buf;
}

Log make_log(const std::function<double(std::mt19937_64&)>& draw, bool huge, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Log log;
  log.huge = huge;
  const char* statuses[] = {"200", "404", "503"};
  for (int i = 0; i < 3000; ++i) {
    const int64_t second = 1700000000 + i / 200;
    const std::string status = statuses[rng() % 3];
    RefRow& row = log.rows[{second, status}];
    ++row.count;
    row.errors += status == "503";
    std::string line = "{\"app_id\":\"a\",\"timestamp\":\"2023-11-14T22:" + std::to_string(13 + (i / 200) / 60) + ":" +
                       (((20 + (i / 200)) % 60) < 10 ? "0" : "") + std::to_string((20 + (i / 200)) % 60) +
                       "Z\",\"status\":" + status;
    const int shape = static_cast<int>(rng() % 10);
    if (shape == 0) {
      line += ",\"lat\":\" 5\"";  // a numeric string with a space: not a number
    } else if (shape != 1) {      // shape 1: no lat field
      const double v = draw(rng);
      char text[64];
      if (huge) {
        std::snprintf(text, sizeof text, "%.6e", v);
        row.lat.push_back(std::strtod(text, nullptr));
      } else {
        std::snprintf(text, sizeof text, "%.6f", v);
        const double written = std::strtod(text, nullptr);
        row.lat.push_back(written);
        row.lat_sum += static_cast<Micro>(std::llround(written * 1e6));
      }
      line += shape % 2 == 0 ? ",\"lat\":\"" + std::string(text) + "\"" : ",\"lat\":" + std::string(text);
    }
    if (rng() % 7 != 0) {
      const uint64_t bytes = rng() % 100000;
      line += ",\"bytes\":" + std::to_string(bytes);
      row.bytes_sum += static_cast<Micro>(bytes) * 1000000;
      ++row.bytes_n;
    }
    log.text += line + "}\n";
  }
  return log;
}

Options measured(bool huge) {
  Options o;
  o.by = {{"status", KeyField::Kind::kValue, 0}};
  o.sum = huge ? std::vector<std::string>{"bytes"} : std::vector<std::string>{"bytes", "lat"};
  o.quantiles = {"lat"};
  o.percentiles = {"0", "50", "90", "99", "99.9", "100"};
  o.count_if = {"status>=500"};
  return o;
}

// The printed quantile `p` (an index into spec.percentiles) of the lat field.
std::string quantile_text(const MeasureSpec& spec, const MeasureCell& cell, ptrdiff_t p) {
  const MeasureText text(spec);
  std::vector<MeasureText::Value> values;
  text.values(&cell, cell.count, values);
  const auto column = std::find(text.columns().begin(), text.columns().end(), "p" + spec.percentiles[p].text + "(lat)");
  return values[static_cast<size_t>(column - text.columns().begin())].text;
}

// A cell's lat extremes, exactly, and each printed quantile within 1 % of
// the nearest-rank value of `values`, the reference's.
void check_extremes_and_quantiles(const MeasureSpec& spec, const MeasureCell& cell, const FieldMeasure& lat,
                                  std::vector<double> values) {
  std::sort(values.begin(), values.end());
  if (values.empty()) return;
  EXPECT_EQ(lat.min, values.front());
  EXPECT_EQ(lat.max, values.back());
  for (const Percentile& p : spec.percentiles) {
    const double exact = values[p.rank(values.size()) - 1];
    const std::string text = quantile_text(spec, cell, &p - spec.percentiles.data());
    const double got = std::strtod(text.c_str(), nullptr);
    EXPECT_LE(std::fabs(got - exact), kSketchAccuracy * std::fabs(exact))
        << "p" << p.text << " of " << values.size() << " values: " << text << " vs " << exact;
  }
}

// Checks one result against the reference, row by row.
void check_against_reference(const Log& log, const Result& r, const Options& o) {
  const MeasureSpec spec = MeasureSpec::of(o);
  ASSERT_EQ(r.app_counts.size(), log.rows.size());
  size_t i = 0;
  for (const auto& [key, ref] : log.rows) {
    const AppCount& c = r.app_counts[i];
    const MeasureCell cell = r.cells[i++];
    ASSERT_EQ(c.second, key.first);
    ASSERT_EQ(r.apps[c.app], key.second);
    EXPECT_EQ(cell.count, ref.count);
    EXPECT_EQ(cell.matched[0], ref.errors);
    const FieldMeasure& bytes = cell.fields[0];
    const FieldMeasure& lat = cell.fields[1];
    EXPECT_EQ(bytes.n, ref.bytes_n);
    EXPECT_TRUE(bytes.sum.units() == ref.bytes_sum * 1000000000000) << "bytes sum";
    EXPECT_EQ(lat.n, ref.lat.size());
    if (!log.huge) {
      std::string printed;
      lat.sum.append(printed, lat.digits);
      EXPECT_EQ(printed, micro_text(ref.lat_sum));
    }
    check_extremes_and_quantiles(spec, cell, lat, ref.lat);
  }
}

void check_every_path(const Log& log) {
  const Options base = measured(log.huge);
  const Result one = aggregate_buffer(log.text, [&] {
    Options o = base;
    o.threads = 1;
    return o;
  }());
  check_against_reference(log, one, base);
  const std::string csv = format_report(one, as(Format::kCsv));
  uint64_t lat_values = 0;
  for (size_t r = 0; r < one.cells.size(); ++r) lat_values += one.cells[r].fields[1].n;
  EXPECT_EQ(one.summary.no_measure[1], one.summary.counted - lat_values);  // lines without a usable lat
  for (const unsigned threads : {2u, 3u, 8u}) {
    for (const size_t segment : {size_t{0}, size_t{64}, size_t{4096}}) {
      Options o = base;
      o.threads = threads;
      o.segment_bytes = segment;
      EXPECT_EQ(format_report(aggregate_buffer(log.text, o), as(Format::kCsv)), csv)
          << threads << " threads, segments of " << segment;
    }
  }
  // Any split into line-aligned pieces (rows, and so sketch buckets, cut
  // between pieces), each a json document, added up by merge in any order:
  // the whole run's document, every measure to its last byte.
  // (The summary after the rows differs: each piece counts as a file.)
  const auto rows_of = [](const std::string& json) { return json.substr(0, json.find("\"summary\"")); };
  const std::string json = rows_of(format_report(one, as(Format::kJson)));
  std::mt19937_64 rng(log.text.size());
  for (int split = 0; split < 6; ++split) {
    std::vector<size_t> cuts = {0, log.text.size()};
    for (int c = 0, n = 1 + static_cast<int>(rng() % 5); c < n; ++c) {
      cuts.push_back(log.text.find('\n', rng() % log.text.size()) + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<Partial> pieces;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const std::string piece = log.text.substr(cuts[i], cuts[i + 1] - cuts[i]);
      pieces.push_back(parse_partial(format_report(aggregate_buffer(piece, base), as(Format::kJson))));
    }
    std::shuffle(pieces.begin(), pieces.end(), rng);
    for (size_t i = 1; i < pieces.size(); ++i) merge_into(pieces[0], pieces[i]);
    EXPECT_EQ(rows_of(format_report(pieces[0].result, as(Format::kJson))), json)
        << "split at " << ::testing::PrintToString(cuts);
  }
  // Two pieces, added up by merge, per minute.
  const size_t cut = log.text.find('\n', log.text.size() / 3) + 1;
  Partial a = parse_partial(format_report(aggregate_buffer(log.text.substr(0, cut), base), as(Format::kJson)));
  const Partial b = parse_partial(format_report(aggregate_buffer(log.text.substr(cut), base), as(Format::kJson)));
  merge_into(a, b);
  EXPECT_EQ(format_report(a.result, as(Format::kCsv)), csv);
  ReportOptions minutes = as(Format::kCsv);
  minutes.bucketing = Bucketing::of_seconds(60);
  Options o = base;
  o.threads = 3;
  EXPECT_EQ(format_report(a.result, minutes), format_report(aggregate_buffer(log.text, o), minutes));
  // Per minute against the per-second cells added by hand: each row of a
  // minute starts on its minute, so re-bucketing has nothing left to add.
  std::map<std::pair<int64_t, uint32_t>, MeasureCell> by_minute;
  for (size_t r = 0; r < one.app_counts.size(); ++r) {
    const AppCount& c = one.app_counts[r];
    by_minute[{c.second - (c.second % 60 + 60) % 60, c.app}].add(one.cells[r]);
  }
  Result floored;
  floored.query = one.query;
  floored.cells = one.cells.empty_like();
  floored.apps = one.apps;
  floored.summary = one.summary;
  for (const auto& [key, cell] : by_minute) {
    floored.app_counts.push_back({key.first, key.second, cell.count});
    floored.cells.push_back(cell);
  }
  std::map<int64_t, uint64_t> totals;
  for (const AppCount& c : floored.app_counts) totals[c.second] += c.count;
  for (const auto& [second, count] : totals) floored.counts.push_back({second, count});
  EXPECT_EQ(format_report(one, minutes), format_report(floored, minutes));
}

// The reference's rows added up by second, those of `status` left out.
std::map<int64_t, RefRow> by_second(const Log& log, const std::string& status = "") {
  std::map<int64_t, RefRow> seconds;
  for (const auto& [key, ref] : log.rows) {
    if (key.second == status) continue;
    RefRow& s = seconds[key.first];
    s.count += ref.count;
    s.errors += ref.errors;
    s.bytes_n += ref.bytes_n;
    s.bytes_sum += ref.bytes_sum;
    s.lat.insert(s.lat.end(), ref.lat.begin(), ref.lat.end());
  }
  return seconds;
}

// Without a --by key: one measured field and nothing else (--sum bytes;
// --quantiles lat; both of lat), the question the line keys answer without
// their general rules (and a sum alone, the one the cells count without
// their loop), against the reference added up by second: each second's n,
// exact sum, extremes and quantiles, and the lines without a usable value.
void check_one_measure(const Log& log) {
  const std::map<int64_t, RefRow> seconds = by_second(log);
  Options sum;
  sum.sum = {"bytes"};
  Options quantiles;
  quantiles.quantiles = {"lat"};
  quantiles.percentiles = {"0", "50", "99", "100"};
  Options both = quantiles;
  both.sum = {"lat"};
  const Result summed = aggregate_buffer(log.text, sum);
  const Result ranked = aggregate_buffer(log.text, quantiles);
  const Result summed_and_ranked = aggregate_buffer(log.text, both);
  const MeasureSpec spec = MeasureSpec::of(quantiles);
  const MeasureSpec both_spec = MeasureSpec::of(both);
  ASSERT_EQ(summed.cells.size(), seconds.size());
  ASSERT_EQ(ranked.cells.size(), seconds.size());
  ASSERT_EQ(summed_and_ranked.cells.size(), seconds.size());
  uint64_t bytes_values = 0, lat_values = 0;
  size_t i = 0;
  for (const auto& [second, ref] : seconds) {
    SCOPED_TRACE(second);
    ASSERT_EQ(summed.counts[i].second, second);
    ASSERT_EQ(ranked.counts[i].second, second);
    const MeasureCell summed_cell = summed.cells[i];  // read out of the table: a copy
    const FieldMeasure& bytes = summed_cell.fields[0];
    EXPECT_EQ(bytes.n, ref.bytes_n);
    EXPECT_TRUE(bytes.sum.units() == ref.bytes_sum * 1000000000000) << "bytes sum";
    bytes_values += bytes.n;
    const MeasureCell cell = ranked.cells[i];
    const FieldMeasure& lat = cell.fields[0];
    EXPECT_EQ(lat.n, ref.lat.size());
    lat_values += lat.n;
    check_extremes_and_quantiles(spec, cell, lat, ref.lat);
    const MeasureCell both_cell = summed_and_ranked.cells[i++];
    EXPECT_EQ(both_cell.fields[0].n, ref.lat.size());
    check_extremes_and_quantiles(both_spec, both_cell, both_cell.fields[0], ref.lat);
  }
  EXPECT_EQ(summed.summary.no_measure[0], summed.summary.counted - bytes_values);
  ASSERT_EQ(summed.summary.fields.size(), 1u);  // bytes: a number where it is there at all
  EXPECT_EQ(summed.summary.fields[0].numbers, bytes_values);
  EXPECT_EQ(summed.summary.fields[0].absent, summed.summary.counted - bytes_values);
  EXPECT_EQ(ranked.summary.no_measure[0], ranked.summary.counted - lat_values);
}

// Beside check_one_measure's question, those nearest to it, each a step away: the general
// rules' (a second measure, a predicate, a filter, a --by key) and its own
// with --by-app, against the reference.
void check_nearest_questions(const Log& log) {
  const std::map<int64_t, RefRow> seconds = by_second(log);
  Options two;
  two.sum = {"bytes", "lat"};
  Options predicate;
  predicate.sum = {"bytes"};
  predicate.count_if = {"status>=500"};
  Options filtered;
  filtered.sum = {"bytes"};
  filtered.where = {"status!=404"};
  const Result both = aggregate_buffer(log.text, two);
  const Result matched = aggregate_buffer(log.text, predicate);
  const Result kept = aggregate_buffer(log.text, filtered);
  const std::map<int64_t, RefRow> kept_seconds = by_second(log, "404");
  ASSERT_EQ(both.cells.size(), seconds.size());
  ASSERT_EQ(matched.cells.size(), seconds.size());
  ASSERT_EQ(kept.cells.size(), kept_seconds.size());
  size_t k = 0;
  for (const auto& [second, ref] : seconds) {
    const MeasureCell cell = both.cells[k];
    EXPECT_EQ(cell.fields[0].n, ref.bytes_n) << second;
    EXPECT_EQ(cell.fields[1].n, ref.lat.size()) << second;
    EXPECT_EQ(matched.cells[k++].matched[0], ref.errors) << second;
  }
  k = 0;
  for (const auto& [second, ref] : kept_seconds) {
    EXPECT_EQ(kept.counts[k].count, ref.count) << second;
    const MeasureCell cell = kept.cells[k++];
    EXPECT_TRUE(cell.fields[0].sum.units() == ref.bytes_sum * 1000000000000) << second;
  }
  Options keyed;
  keyed.sum = {"bytes"};
  keyed.by = {{"status", KeyField::Kind::kValue, 0}};
  Options per_app;
  per_app.sum = {"bytes"};
  per_app.by_app = true;
  const Result by_status = aggregate_buffer(log.text, keyed);
  const Result by_app = aggregate_buffer(log.text, per_app);
  ASSERT_EQ(by_status.app_counts.size(), log.rows.size());
  k = 0;
  for (const auto& [key, ref] : log.rows) {
    EXPECT_EQ(by_status.apps[by_status.app_counts[k].app], key.second);
    const MeasureCell cell = by_status.cells[k++];
    EXPECT_TRUE(cell.fields[0].sum.units() == ref.bytes_sum * 1000000000000) << key.first << " " << key.second;
  }
  ASSERT_EQ(by_app.apps, std::vector<std::string>{"a"});
  ASSERT_EQ(by_app.app_counts.size(), seconds.size());
  k = 0;
  for (const auto& [second, ref] : seconds) {
    const MeasureCell cell = by_app.cells[k++];
    EXPECT_EQ(cell.fields[0].n, ref.bytes_n) << second;
  }
}

TEST(MeasuresDifferential, EveryDistributionOnEveryPath) {
  const std::vector<std::pair<const char*, std::function<double(std::mt19937_64&)>>> shapes = {
      {"uniform", [](std::mt19937_64& g) { return std::uniform_real_distribution<double>(0, 1000)(g); }},
      {"log-normal", [](std::mt19937_64& g) { return std::lognormal_distribution<double>(2, 1.5)(g); }},
      {"bimodal",
       [](std::mt19937_64& g) {
         return g() % 2 ? std::normal_distribution<double>(5, 1)(g) : std::normal_distribution<double>(900, 50)(g);
       }},
      {"constant", [](std::mt19937_64&) { return 42.5; }},
      {"all-zero", [](std::mt19937_64&) { return 0.0; }},
      {"negative", [](std::mt19937_64& g) { return -std::lognormal_distribution<double>(1, 2)(g); }},
  };
  uint64_t seed = 1;
  for (const auto& [name, draw] : shapes) {
    SCOPED_TRACE(name);
    const Log log = make_log(draw, false, seed++);
    check_every_path(log);
    check_one_measure(log);
    check_nearest_questions(log);
  }
  SCOPED_TRACE("huge range");
  check_every_path(make_log(
      [](std::mt19937_64& g) {
        const double v = std::exp(std::uniform_real_distribution<double>(-700, 700)(g));
        return g() % 2 ? v : -v;
      },
      true, seed));
}

}  // namespace
}  // namespace logagg
