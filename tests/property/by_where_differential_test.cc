// Differential tests of --by, --by-status-class, --by-path-prefix, --by-app,
// --where and --app-field none (issue 30): hostile lines
// (support/hostile_lines.h: keys with quotes, commas, newlines and control
// bytes, invalid UTF-8 lines, 10 kB keys, keys at JSON Pointer paths, fields
// twice, containers as values, numbers spelt 2e2, 200.0, -0 and 1e400) go
// through the engine and through the slow reference (tests/reference/,
// reference/keys.cc), which must agree on each line's verdict, filter and
// key tuple (LineParser), and on whole buffers at threads 1, 2, 3 and 8 with
// segments of 1, 7, 64 and 4096 bytes: the full csv output (format_report)
// and the summary accounting (lines = counted + blank + rejected + filtered,
// by reason, by filter, and the lines without a value per key). A
// disagreement is shrunk and printed as an escaped literal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/options.h"
#include "logagg/report.h"
#include "logagg/result.h"
#include "parse/line_parser.h"
#include "reference/reference.h"
#include "support/hostile_lines.h"
#include "support/report_as.h"
#include "support/sanitizers.h"

namespace {

using logagg::KeyField;
using Kind = logagg::KeyField::Kind;

struct OptionSet {
  std::vector<KeyField> by;
  std::vector<std::string> where;
  bool by_app = false;
  std::string app_field = "app_id";

  logagg::Options options() const {
    logagg::Options o;
    o.by = by;
    o.where = where;
    o.by_app = by_app;
    o.app_field = app_field;
    return o;
  }
};

const OptionSet kOptionSets[] = {
    {{{"status", Kind::kValue, 0}}, {}},
    {{{"status", Kind::kValue, 0}, {"method", Kind::kValue, 0}}, {"status >= 2e2"}},
    {{{"status", Kind::kStatusClass, 0}, {"path", Kind::kPathPrefix, 2}}, {"exists method", "path ~ /.*"}, true},
    {{{"/req/host", Kind::kValue, 0}, {"/req/tags/0", Kind::kValue, 0}, {"/path", Kind::kPathPrefix, 1}},
     {"/req/bytes < 1e400", "method != DELETE"},
     false,
     "none"},
    {{{"method", Kind::kValue, 0}}, {"status == 200.0", "status !~ 5.."}},
    {{}, {"status != -0", "status < 1e400"}},
    {{{"status", Kind::kValue, 0}}, {"status == -0"}},
    {{{"status", Kind::kStatusClass, 0}, {"/req/tags/1", Kind::kValue, 0}, {"path", Kind::kValue, 0},
      {"method", Kind::kValue, 0}},
     {"missing /req/nothing", R"(/req/host == "b.example")"},
     false,
     "none"},
    {{}, {}, false, "none"},
    {{}, {"/req/bytes >= 1e3", "status > -1"}, true},
    {{{"method", Kind::kValue, 0}, {"status", Kind::kValue, 0}}, {"method ~ (?s).*", "status <= 1e400"}, true},
    {{{"path", Kind::kPathPrefix, 3}}, {R"(method == "GET")", "exists /req/tags/1"}},
};

std::string options_text(const logagg::Options& o) {
  std::string out = "app_field " + o.app_field + (o.by_app ? ", by_app" : "");
  for (const KeyField& k : o.by) out += ", by " + k.column();
  for (const std::string& w : o.where) out += ", where '" + w + "'";
  return out;
}

class by_where_differential : public testing::TestWithParam<uint64_t> {
 protected:
  logagg::Options options() const { return kOptionSets[GetParam() % std::size(kOptionSets)].options(); }
  std::string buffer() const {
    logagg::testing::HostileLines lines(GetParam());
    std::mt19937_64 rng(GetParam());
    std::string out;
    for (int n = 0; n < 400; ++n) {
      out += lines.line();
      out += rng() % 5 == 0 ? "\r\n" : "\n";
      if (rng() % 20 == 0) out += "  \n";
    }
    return out;
  }
};

// What differs between the engine's line verdict (and tuple) and the reference's, "" if nothing.
std::string line_difference(logagg::LineParser& parser, const reference::Rules& rules, const logagg::Options& options,
                            const std::string& line) {
  const logagg::LineVerdict got = parser.classify(line, line.size());
  const std::string got_key(got.app);
  std::string app;
  reference::KeyTuple tuple;
  const logagg::LineVerdict want = reference::classify(line, rules, &app, &tuple);
  const std::string want_key = options.by_app || !options.by.empty() ? reference::engine_key(tuple) : app;
  const bool counted = want.status == logagg::LineStatus::kCounted;
  if (reference::same_verdict(got, want) && (!counted || (got_key == want_key && got.no_value == want.no_value))) {
    return "";
  }
  return "engine " + reference::describe(got) + " key " + reference::quoted(got_key) + " no_value " +
         std::to_string(got.no_value) + ", reference " + reference::describe(want) + " key " +
         reference::quoted(want_key) + " no_value " + std::to_string(want.no_value);
}

TEST_P(by_where_differential, EachLineGetsTheReferencesVerdictAndKeys) {
  const logagg::Options options = this->options();
  const reference::Rules rules(options);
  logagg::LineParser parser(logagg::Query(options).rules(), options.max_line_bytes);
  logagg::testing::HostileLines lines(GetParam() + 1000);
  size_t counted = 0, filtered = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::string line = lines.line();
    const std::string diff = line_difference(parser, rules, options, line);
    if (!diff.empty()) {
      const std::string small = reference::shrink(
          line, [&](const std::string& l) { return !line_difference(parser, rules, options, l).empty(); });
      FAIL() << options_text(options) << ": line " << reference::quoted(small) << ": "
             << line_difference(parser, rules, options, small) << " (shrunk from " << reference::quoted(line) << ")";
    }
    const logagg::LineVerdict v = reference::classify(line, rules);
    counted += v.status == logagg::LineStatus::kCounted;
    filtered += v.status == logagg::LineStatus::kFiltered;
  }
  // Some of every outcome (a filter like status == -0 lets few lines through).
  EXPECT_GT(counted, 0u);
  EXPECT_GT(counted + filtered, 500u);
  if (!options.where.empty()) EXPECT_GT(filtered, 20u);
}

// The csv and the accounting of the engine's result, against the reference's.
testing::AssertionResult same_result(const std::string& data, const logagg::Options& options,
                                     const reference::Rules& rules) {
  const logagg::Result got = logagg::aggregate_buffer(data, options);
  const reference::Aggregate want = reference::aggregate_buffer(data, rules);
  std::ostringstream diff;
  const std::string got_csv = logagg::format_report(got, logagg::as(logagg::Format::kCsv));
  const std::string want_csv = reference::csv(want, options);
  if (got_csv != want_csv) {
    size_t at = 0;
    while (at < got_csv.size() && at < want_csv.size() && got_csv[at] == want_csv[at]) ++at;
    const size_t from = got_csv.rfind('\n', at) == std::string::npos ? 0 : got_csv.rfind('\n', at) + 1;
    diff << " csv differs from byte " << at << ": engine "
         << reference::quoted(got_csv.substr(from, std::min<size_t>(200, got_csv.size() - from))) << ", reference "
         << reference::quoted(want_csv.substr(from, std::min<size_t>(200, want_csv.size() - from))) << ";";
  }
  const logagg::Summary& s = got.summary;
  if (s.lines != want.lines) diff << " lines " << s.lines << " != " << want.lines << ";";
  if (s.counted != want.counted) diff << " counted " << s.counted << " != " << want.counted << ";";
  if (s.blank != want.blank) diff << " blank " << s.blank << " != " << want.blank << ";";
  for (size_t r = 0; r < logagg::kReasonCount; ++r) {
    if (s.rejected[r] != want.rejected[r]) diff << " rejected reason " << r << " " << s.rejected[r] << ";";
  }
  if (s.filtered_by != want.filtered_by) diff << " filtered_by differs;";
  if (s.no_value != want.no_value) diff << " no_value differs;";
  if (s.fields != want.fields) diff << " field tallies differ;";
  if (s.lines != s.counted + s.outside_range + s.blank + s.rejected_total() + s.filtered()) {
    diff << " lines != counted + outside_range + blank + rejected + filtered;";
  }
  if (diff.str().empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << options_text(options) << ", threads " << options.threads << ", segment_bytes "
                                     << options.segment_bytes << ":" << diff.str();
}

TEST_P(by_where_differential, BuffersGiveTheReferencesCsvAndAccountingForEveryThreadCountAndSegment) {
  const logagg::Options base = options();
  const reference::Rules rules(base);
  const std::string data = buffer();
  const reference::Aggregate want = reference::aggregate_buffer(data, rules);
  ASSERT_GT(want.counted, 0u);
  ASSERT_GT(want.counted + std::accumulate(want.filtered_by.begin(), want.filtered_by.end(), uint64_t{0}), 100u);
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    for (const size_t segment_bytes : {size_t{1}, size_t{7}, size_t{64}, size_t{4096}}) {
      logagg::Options options = base;
      options.threads = threads;
      options.segment_bytes = segment_bytes;
      const testing::AssertionResult same = same_result(data, options, rules);
      if (!same) {
        const std::string small =
            reference::shrink(data, [&](const std::string& b) { return !same_result(b, options, rules); });
        FAIL() << same.message() << "\n  smallest differing buffer " << reference::quoted(small) << ": "
               << same_result(small, options, rules).message();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, by_where_differential,
                         testing::Range<uint64_t>(0, logagg::testing::seeds(36, std::size(kOptionSets))));

}  // namespace
