// Tests for /metrics' pieces (engine/src/serve): names, label values and
// HELP text as Prometheus's text format wants them (hostile keys included),
// exact decimals moved to seconds, and LiveTotals: rounds added up into
// counters equal to one batch run over the same lines, keys capped, units.
// That a real Prometheus and promtool accept the exposition is serve_e2e's.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/serve.h"
#include "serve/live_totals.h"
#include "serve/prometheus_text.h"

namespace logagg {
namespace {

using namespace std::string_literals;

TEST(PrometheusText, NamesAreMadeValid) {
  EXPECT_EQ(metric_name("latency_ms"), "latency_ms");
  EXPECT_EQ(metric_name("status_class(status)"), "status_class_status_");
  EXPECT_EQ(metric_name("2xx"), "_2xx");
  EXPECT_EQ(metric_name("a:b.c-d"), "a_b_c_d");
  EXPECT_EQ(metric_name(""), "_");
  EXPECT_EQ(label_name("__name__"), "name__");
  EXPECT_EQ(label_name("___"), "_");
  EXPECT_EQ(label_name("héllo"), "h__llo");
  EXPECT_EQ(metric_name("respTime"), "resp_time");
  EXPECT_EQ(metric_name("HTTPStatus2xx"), "httpstatus2xx");
  EXPECT_EQ(label_name("userAgent"), "user_agent");
}

TEST(PrometheusText, LabelValuesAreEscapedAndValidUtf8) {
  std::string out;
  append_label_value(out, "a\\b\"c\nd\te\u00e9\u2028");
  EXPECT_EQ(out, "a\\\\b\\\"c\\nd\te\u00e9\u2028");
  out.clear();
  append_label_value(out,
                     "bad\xff\xc3(\xed\xa0\x80"
                     "end"s);  // a stray byte, a cut sequence, a surrogate
  EXPECT_EQ(out, "bad\uFFFD\uFFFD(\uFFFD\uFFFD\uFFFDend");
  out.clear();
  append_label_value(out, "nul\0byte"s);
  EXPECT_EQ(out, "nul\0byte"s);
}

TEST(PrometheusText, HelpEscapesOnlyBackslashAndLineFeed) {
  std::string out;
  append_help_text(out, "a \"quoted\" \\ path\nline");
  EXPECT_EQ(out, "a \"quoted\" \\\\ path\\nline");
}

TEST(PrometheusText, DecimalsShiftExactly) {
  EXPECT_EQ(shift_decimal("1234.5", 3), "1.2345");
  EXPECT_EQ(shift_decimal("7", 3), "0.007");
  EXPECT_EQ(shift_decimal("-1500", 3), "-1.5");
  EXPECT_EQ(shift_decimal("0", 9), "0");
  EXPECT_EQ(shift_decimal("-0.000", 3), "0");
  EXPECT_EQ(shift_decimal("123456789012345678901234567890.123456789", 9), "123456789012345678901.234567890123456789");
  EXPECT_EQ(shift_decimal("42", 0), "42");
  EXPECT_EQ(shift_decimal("0.005", -3), "5");
  EXPECT_EQ(shift_decimal("2.5", -6), "2500000");
  EXPECT_EQ(shift_decimal("0.0000001", -6), "0.1");
}

std::string line(const std::string& host, int status, const std::string& latency, int second = 0) {
  return R"({"app_id":"a","timestamp":"2023-11-14T22:13:2)" + std::to_string(second) + R"(Z","host":)" + host +
         R"(,"status":)" + std::to_string(status) + R"(,"latency_ms":)" + latency + "}\n";
}

Options red() {
  Options o;
  o.by = {KeyField{"host"}};
  o.where = {"status!=404"};
  o.count_if = {"status>=500"};
  o.sum = {"latency_ms"};
  return o;
}

TEST(LiveTotals, RoundsAddUpToTheBatchAndTheExpositionIsExact) {
  const std::string first = line(R"("a")", 200, "1.5") + line(R"("a")", 503, "2.25", 1) + "not json\n" + "\n";
  const std::string second = line(R"("b")", 200, "1000") + line(R"("a")", 404, "3") + line(R"("a")", 500, "0.001", 2);
  const Options o = red();
  const Query query(o);
  LiveTotals totals(query, {{"latency_ms", DurationUnit::kMillis}});
  totals.add(aggregate_buffer(first, o, "buf"));
  totals.add(aggregate_buffer(second, o, "buf"));
  const std::string text = totals.exposition();
  for (const char* want : {
           "# HELP logagg_lines_total Lines counted since logagg started, per key.\n"
           "# TYPE logagg_lines_total counter\n"
           "logagg_lines_total{host=\"a\"} 3\n"
           "logagg_lines_total{host=\"b\"} 1\n",
           "logagg_lines_read_total 7\n",
           "logagg_lines_blank_total 1\n",
           "logagg_lines_rejected_total{reason=\"invalid_json\"} 1\n",
           "logagg_lines_rejected_total{reason=\"bad_time\"} 0\n",
           "logagg_lines_filtered_total{filter=\"status!=404\"} 1\n",
           "logagg_lines_matching_total{count_if=\"status>=500\",host=\"a\"} 2\n",
           "logagg_lines_matching_total{count_if=\"status>=500\",host=\"b\"} 0\n",
           "# TYPE logagg_latency_seconds_total counter\n",
           "logagg_latency_seconds_total{host=\"a\"} 0.003751\n",
           "logagg_latency_seconds_total{host=\"b\"} 1\n",
       }) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  }
  EXPECT_EQ(text.back(), '\n');
}

TEST(LiveTotals, HostileKeysAreEscapedNoKeyAndOtherAreNamedAndKeysAreCapped) {
  Options o;
  o.by = {KeyField{"host"}};
  o.max_apps = 3;
  const std::string log = line(R"("x\"y\\z\nw")", 200, "1") + line("5", 200, "1") + line(R"({"o":1})", 200, "1") +
                          line(R"("d")", 200, "1") + line(R"("e")", 200, "1");
  const Query query(o);
  LiveTotals totals(query, {});
  totals.add(aggregate_buffer(log, o, "buf"));
  totals.add(aggregate_buffer(line(R"("f")", 200, "1"), o, "buf"));  // a fourth key past the cap of 3
  const std::string text = totals.exposition();
  for (const char* want : {"logagg_lines_total{host=\"x\\\"y\\\\z\\nw\"} 1\n", "logagg_lines_total{host=\"5\"} 1\n",
                           "logagg_lines_total{host=\"(none)\"} 1\n", "logagg_lines_total{host=\"(other)\"} 3\n"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  }
  EXPECT_EQ(text.find("host=\"f\""), std::string::npos) << text;
}

TEST(LiveTotals, WithoutKeysOneSeriesAndKeyColumnsNamedLikeOwnLabelsAreRenamed) {
  Options plain;
  const Query plain_query(plain);
  LiveTotals none(plain_query, {});
  EXPECT_NE(none.exposition().find("\nlogagg_lines_total 0\n"), std::string::npos);
  none.add(aggregate_buffer(line(R"("a")", 200, "1"), plain, "buf"));
  EXPECT_NE(none.exposition().find("\nlogagg_lines_total 1\n"), std::string::npos);

  Options o;
  o.by = {KeyField{"le"}, KeyField{"instance"}};
  const Query query(o);
  LiveTotals totals(query, {});
  totals.add(aggregate_buffer(R"({"app_id":"a","timestamp":"2023-11-14T22:13:20Z","le":"x","instance":"y"})"
                              "\n",
                              o, "buf"));
  EXPECT_NE(totals.exposition().find("logagg_lines_total{key_le=\"x\",key_instance=\"y\"} 1\n"), std::string::npos)
      << totals.exposition();
}

TEST(LiveTotals, NamesTakenGetANumberAndRepeatedExpressionsAreWrittenOnce) {
  Options o;
  o.sum = {"lines", "latency_ms", "latency_s"};
  o.where = {"status!=404", "status!=404"};
  o.count_if = {"status>=500", "status>=500"};
  const Query query(o);
  LiveTotals totals(query, {});
  totals.add(aggregate_buffer(line(R"("a")", 200, "1"), o, "buf"));
  const std::string text = totals.exposition();
  for (const char* want : {"# TYPE logagg_lines_2_total counter\n", "# TYPE logagg_latency_seconds_total counter\n",
                           "# TYPE logagg_latency_seconds_2_total counter\n"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  }
  size_t types = 0;
  for (size_t at = text.find("# TYPE logagg_lines_total "); at != std::string::npos;
       at = text.find("# TYPE logagg_lines_total ", at + 1)) {
    ++types;
  }
  EXPECT_EQ(types, 1u);
  const auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("logagg_lines_filtered_total{filter=\"status!=404\"}"), 1u);
  EXPECT_EQ(count("logagg_lines_matching_total{count_if=\"status>=500\"}"), 1u);
}

TEST(ListenAddress, HostAndPortAndLoopback) {
  EXPECT_EQ(parse_listen_address("8080").host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("8080").port, 8080);
  EXPECT_EQ(parse_listen_address("0.0.0.0:0").host, "0.0.0.0");
  EXPECT_EQ(parse_listen_address("[::1]:9").host, "::1");
  for (const char* bad : {"", "host:", ":80", "::1:80", "1.2.3.4:65536", "x", "127.0.0.1:-1"}) {
    EXPECT_THROW(parse_listen_address(bad), std::invalid_argument) << bad;
  }
  for (const char* yes : {"127.0.0.1", "127.1.2.3", "::1", "localhost"}) EXPECT_TRUE(is_loopback_host(yes)) << yes;
  for (const char* no : {"0.0.0.0", "::", "10.0.0.1", "127.example.com", "128.0.0.1", "::ffff:10.0.0.1"}) {
    EXPECT_FALSE(is_loopback_host(no)) << no;
  }
}

TEST(ListenAddress, StreamsFitTheDescriptorLimit) {
  ServeOptions o;
  EXPECT_FALSE(o.fit_to_descriptors(size_t{1} << 20));
  EXPECT_EQ(o.max_streams, 256u);
  EXPECT_TRUE(o.fit_to_descriptors(1024));
  EXPECT_EQ(o.max_streams, 111u);
  EXPECT_LE(o.descriptors(), 1024u / 4);
  EXPECT_TRUE(o.fit_to_descriptors(64));
  EXPECT_EQ(o.max_streams, 1u);  // always one
}

TEST(Histograms, BoundsAreTheGivenOrTheDefaultsInTheFieldsUnit) {
  Options o;
  o.quantiles = {"latency_ms", "bytes", "wait"};
  ServeOptions serve;
  plan_histograms(o, {{"wait", DurationUnit::kMicros}}, {"bytes=100,1000.5"}, serve);
  ASSERT_EQ(o.histograms.size(), 3u);
  EXPECT_EQ(o.histograms[0].first, "latency_ms");  // ms by its name: the default seconds, in ms
  EXPECT_EQ(o.histograms[0].second.front(), 5.0);
  EXPECT_EQ(o.histograms[0].second.back(), 10000.0);
  EXPECT_EQ(o.histograms[1].second, (std::vector<double>{100, 1000.5}));
  EXPECT_EQ(o.histograms[2].second.front(), 5000.0);  // µs by its --unit
  EXPECT_EQ(serve.histograms[0].second, default_histogram_bounds(true));
  EXPECT_EQ(serve.histograms[1].second, (std::vector<std::string>{"100", "1000.5"}));
  for (const char* bad : {"status=1,2", "bytes=2,1", "bytes=1,1", "bytes=1e3", "bytes=-1", "bytes", "bytes=1,,2"}) {
    ServeOptions s2;
    Options o2 = o;
    EXPECT_THROW(plan_histograms(o2, {}, {bad}, s2), std::invalid_argument) << bad;
  }
}

// Lines of latency_ms values, random but many on the bounds themselves.
std::string latency_lines(std::mt19937& rng, size_t n, std::vector<double>& values) {
  static const char* kOnBounds[] = {"5", "10", "25", "50", "100", "250", "500", "1000", "2500", "5000", "10000"};
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    std::string v =
        rng() % 3 == 0 ? kOnBounds[rng() % 11] : std::to_string(rng() % 20000) + "." + std::to_string(rng() % 1000);
    values.push_back(std::stod(v));
    out += line(R"("h)" + std::to_string(rng() % 3) + R"(")", 200, v, static_cast<int>(rng() % 4));
  }
  return out;
}

TEST(Histograms, CountsAreExactAtEveryBoundWhateverTheThreadsAndSegments) {
  Options o;
  o.by = {KeyField{"host"}};
  o.quantiles = {"latency_ms"};
  ServeOptions serve;
  plan_histograms(o, {}, {}, serve);
  std::mt19937 rng(7);
  std::vector<double> values;
  const std::string log = latency_lines(rng, 3000, values);
  const Query query(o);
  std::string first;
  for (const unsigned threads : {1u, 4u}) {
    Options run = o;
    run.threads = threads;
    run.segment_bytes = threads == 1 ? 0 : 4096;
    LiveTotals totals(query, {}, serve.histograms);
    totals.add(aggregate_buffer(log, run, "buf"));
    const std::string text = totals.exposition();
    if (first.empty()) first = text;
    EXPECT_EQ(text, first) << threads << " threads";
  }
  // Against a count by hand, over all keys: at most each bound, cumulative.
  const std::vector<double>& bounds = query.measures().fields[0].bounds;
  for (size_t b = 0; b < bounds.size(); ++b) {
    uint64_t want = 0;
    for (const double v : values) want += v <= bounds[b] ? 1 : 0;
    uint64_t got = 0;
    const std::string le = "le=\"" + serve.histograms[0].second[b] + "\"} ";
    for (size_t at = first.find(le); at != std::string::npos; at = first.find(le, at + 1)) {
      got += std::stoull(first.substr(at + le.size()));
    }
    EXPECT_EQ(got, want) << "le " << serve.histograms[0].second[b];
  }
  EXPECT_NE(first.find("# TYPE logagg_latency_seconds histogram\n"), std::string::npos) << first;
  EXPECT_NE(first.find("logagg_latency_seconds_bucket{host=\"h0\",le=\"+Inf\"} "), std::string::npos);
  EXPECT_NE(first.find("logagg_latency_seconds_count{host=\"h0\"} "), std::string::npos);
  EXPECT_NE(first.find("logagg_latency_seconds_sum{host=\"h0\"} "), std::string::npos);
  EXPECT_EQ(first.find("logagg_latency_seconds_total"), std::string::npos) << "no --sum, no sum counter";
}

TEST(Histograms, SumInSecondsAndCountsOfOneKey) {
  Options o;
  o.quantiles = {"latency_ms"};
  ServeOptions serve;
  plan_histograms(o, {}, {"latency_ms=0.001,0.0015"}, serve);
  const Query query(o);
  LiveTotals totals(query, {}, serve.histograms);
  totals.add(aggregate_buffer(line(R"("a")", 200, "1") + line(R"("a")", 200, "1.5") + line(R"("a")", 200, "1.50001") +
                                  line(R"("a")", 200, "0.25"),
                              o, "buf"));
  const std::string text = totals.exposition();
  for (const char* want :
       {"logagg_latency_seconds_bucket{le=\"0.001\"} 2\n", "logagg_latency_seconds_bucket{le=\"0.0015\"} 3\n",
        "logagg_latency_seconds_bucket{le=\"+Inf\"} 4\n", "logagg_latency_seconds_sum 0.00425001\n",
        "logagg_latency_seconds_count 4\n"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  }
}

}  // namespace
}  // namespace logagg
