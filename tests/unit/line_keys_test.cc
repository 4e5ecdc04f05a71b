// Tests of the keys and filters of a line (parse/line_keys.h): the derived
// keys (status_class, path_prefix) on their edges, KeyRules::of's refusals
// (overlapping paths, more than four keys, more fields than a parser looks
// for, a filter it cannot read), key tuples and filter verdicts pinned on
// hand-made lines, and LineParser and BlockParser giving every line the same
// verdict, filter and key tuple for --by and --where on generated and
// hostile lines (quotes, commas, escaped newlines and control bytes, invalid
// UTF-8, 10 kB keys, keys at JSON Pointer paths, duplicate fields, objects
// and arrays as values), for block sizes from one byte up.
#include "parse/line_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/result.h"
#include "parse/line_parser.h"
#include "support/hostile_lines.h"
#include "support/parser_verdicts.h"

namespace {

using logagg::KeyField;
using logagg::LineRules;
using logagg::LineStatus;
using logagg::Options;
using logagg::Query;
using logagg::testing::Seen;

using Kind = KeyField::Kind;

KeyField value_key(std::string field) { return {std::move(field), Kind::kValue, 0}; }
KeyField class_key(std::string field) { return {std::move(field), Kind::kStatusClass, 0}; }
KeyField prefix_key(std::string field, unsigned n) { return {std::move(field), Kind::kPathPrefix, n}; }

// A key tuple of these parts (kNoKey for a part without a value).
std::string tuple(const std::vector<std::string_view>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += logagg::kKeySeparator;
    out += parts[i];
  }
  return out;
}

TEST(StatusClassTest, ThreeDigitsFrom100To599NameTheirClassAndAnythingElseIsOther) {
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"100", "1xx"}, {"199", "1xx"}, {"200", "2xx"}, {"204", "2xx"}, {"301", "3xx"}, {"404", "4xx"},
      {"499", "4xx"}, {"500", "5xx"}, {"599", "5xx"}, {"099", "other"}, {"000", "other"}, {"600", "other"},
      {"999", "other"}, {"20", "other"}, {"2000", "other"}, {"", "other"}, {"-200", "other"}, {"2e2", "other"},
      {"200.0", "other"}, {" 200", "other"}, {"200 ", "other"}, {"2x0", "other"}, {"abc", "other"},
      {"true", "other"}, {"null", "other"}, {"OK", "other"}, {"\xd9\xa2\xd9\xa0", "other"}};
  for (const auto& [value, want] : rows) EXPECT_EQ(logagg::status_class(value), want) << "'" << value << "'";
}

TEST(PathPrefixTest, TheFirstNSegmentsOfThePathOrTheUrlsPathWithTheQueryAndFragmentDropped) {
  struct Row {
    std::string_view value;
    unsigned n;
    std::string_view want;
  };
  const Row rows[] = {
      {"/api/v1/orders/7075?x=1", 2, "/api/v1"},
      {"/api/v1/orders/7075?x=1", 1, "/api"},
      {"/api/v1/orders/7075?x=1", 4, "/api/v1/orders/7075"},
      {"/api/v1/orders/7075?x=1", 9, "/api/v1/orders/7075"},
      {"/api/v1/orders/", 3, "/api/v1/orders"},
      {"/api/v1/orders/", 4, "/api/v1/orders/"},
      {"/api/v1", 2, "/api/v1"},
      {"/api/v1?a/b/c", 3, "/api/v1"},
      {"/api#frag/x/y", 2, "/api"},
      {"/api/v1#f?x", 5, "/api/v1"},
      {"/a?x#y/z", 1, "/a"},
      {"/", 1, "/"},
      {"/", 2, "/"},
      {"//a/b", 1, "/"},
      {"//a/b", 2, "//a"},
      // An absolute URL: its path.
      {"https://host/a/b?x=1", 1, "/a"},
      {"https://host:8443/a/b#f", 2, "/a/b"},
      {"http://user@host/", 1, "/"},
      {"https://host", 1, "/"},
      {"https://host?x=/a/b", 2, "/"},
      {"svn+ssh.1://h/r/trunk", 1, "/r"},
      // Neither a path nor a URL: other.
      {"", 1, "other"},
      {"?x=1", 1, "other"},
      {"#top", 3, "other"},
      {"api/v1/x", 1, "other"},
      {"*", 1, "other"},
      {"mailto:a@b/c", 1, "other"},
      {"https:/host/a", 1, "other"},
      {"1http://h/a", 1, "other"},
      {"/caf\xc3\xa9/men\xc3\xbc/x", 2, "/caf\xc3\xa9/men\xc3\xbc"},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(logagg::path_prefix(row.value, row.n), row.want) << "'" << row.value << "' N=" << row.n;
  }
}

// The message of the std::invalid_argument Query(options).rules() throws ("" if none).
std::string refusal(const Options& options) {
  try {
    Query(options).rules();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(KeyRulesTest, RefusesWhatItCannotCount) {
  struct Row {
    std::string_view what;
    Options options;
    std::string_view says;
  };
  auto with = [](std::vector<KeyField> by, std::vector<std::string> where = {}, bool by_app = false,
                 std::string app_field = "app_id") {
    Options o;
    o.by = std::move(by);
    o.where = std::move(where);
    o.by_app = by_app;
    o.app_field = std::move(app_field);
    return o;
  };
  std::vector<std::string> fifteen;
  for (int i = 0; i < 15; ++i) fifteen.push_back("exists f" + std::to_string(i));
  const Row rows[] = {
      {"a key inside another", with({value_key("/req"), value_key("/req/host")}), "--by /req/host: inside or around"},
      {"a key around another", with({value_key("/req/host"), value_key("/req")}), "--by /req: inside or around"},
      {"a key inside the app field", with({value_key("/app_id/x")}), "inside or around the app field"},
      {"a key inside the time field", with({value_key("/timestamp/0")}), "inside or around the time field"},
      {"a filter around a key", with({value_key("/a/b")}, {"/a == 1"}), "--where /a: inside or around"},
      {"five keys", with({value_key("a"), value_key("b"), value_key("c"), value_key("d"), value_key("e")}),
       "--by: at most 4 keys"},
      {"four keys and --by-app", with({value_key("a"), value_key("b"), value_key("c"), value_key("d")}, {}, true),
       "--by: at most 4 keys (--by-app counts as one)"},
      {"fifteen fields", with({}, fifteen), "at most 14 distinct fields in --by and --where together"},
      {"a bad pointer", with({value_key("/a~2")}), "--by /a~2"},
      {"path prefix 0", with({prefix_key("path", 0)}), "--by-path-prefix: N must be 1 or more"},
      {"a bad filter", with({}, {"status = 5"}), "--where 'status = 5'"},
      {"--by-app without an app", with({value_key("a")}, {}, true, "none"), "--by-app: no app field"},
      {"a key twice", with({value_key("host"), value_key("host")}),
       "--by host: the same key as host, named twice; each key is one column"},
      {"a key twice, spelt apart", with({value_key("host"), value_key("m"), value_key("/host")}),
       "--by /host: the same key as host, named twice"},
      {"a derived key twice", with({class_key("status"), class_key("/status")}),
       "--by-status-class /status: the same key as status_class(status), named twice"},
      {"a path prefix twice", with({prefix_key("path", 2), prefix_key("path", 2)}),
       "--by-path-prefix path: the same key as path_prefix(path,2), named twice"},
      {"the app field beside --by-app", with({value_key("app_id")}, {}, true),
       "--by app_id: the app field, which --by-app already shows; drop one"},
  };
  for (const Row& row : rows) {
    const std::string message = refusal(row.options);
    EXPECT_NE(message.find(row.says), std::string::npos) << row.what << ": '" << message << "'";
  }
  // On their edges: accepted.
  EXPECT_EQ(refusal(with({value_key("a"), value_key("b"), value_key("c"), value_key("d")})), "");
  EXPECT_EQ(refusal(with({value_key("a"), value_key("b"), value_key("c")}, {}, true)), "");
  fifteen.pop_back();
  EXPECT_EQ(refusal(with({value_key("f0")}, fifteen)), "");  // 14 fields, a key sharing one
  EXPECT_EQ(refusal(with({value_key("app_id"), value_key("/timestamp")}, {"/app_id ~ a.*"})), "");
  EXPECT_EQ(refusal(with({value_key("status"), class_key("status"), prefix_key("/status", 1)})), "");
  EXPECT_EQ(refusal(with({value_key("/req/host"), value_key("/req/hosts")})), "");
  EXPECT_EQ(refusal(with({prefix_key("path", 1), prefix_key("path", 2)})), "");  // two depths, two keys
  EXPECT_EQ(refusal(with({class_key("app_id")}, {}, true)), "");                 // derived from the app field
}

Options keyed(std::vector<KeyField> by, std::vector<std::string> where = {}, bool by_app = false,
              std::string app_field = "app_id") {
  Options o;
  o.by = std::move(by);
  o.where = std::move(where);
  o.by_app = by_app;
  o.app_field = std::move(app_field);
  return o;
}

// Both parsers' verdicts for `text` under `options`, which must agree; LineParser's returned.
std::vector<Seen> verdicts(const std::string& text, const Options& options) {
  const LineRules rules = Query(options).rules();
  logagg::testing::expect_parsers_agree(text, {1, 3, 64, 4096, 1 << 16}, rules);
  return logagg::testing::line_by_line(text, rules);
}

TEST(LineKeysTest, KeyTuplesAndNoValueBitsPinned) {
  const std::string t = R"("timestamp":"2023-11-14T22:13:20Z")";
  const std::string text =
      "{\"app_id\":\"web1\"," + t + ",\"status\":503,\"path\":\"/api/v1/o?x\",\"m\":\"GET\"}\n" +     // 0
      "{\"app_id\":\"web1\"," + t + ",\"status\":\"404\",\"path\":\"/\",\"m\":\"a,\\\"b\\n\"}\n" +  // 1
      "{\"app_id\":\"web1\"," + t + ",\"status\":2e2,\"m\":{\"x\":1}}\n" +                          // 2
      "{\"app_id\":\"web1\"," + t + ",\"status\":true,\"path\":[\"/a\"],\"m\":null}\n" +             // 3
      "{\"app_id\":\"web1\"," + t + ",\"status\":200,\"status\":201,\"m\":\"\\u0001\\u001f\"}\n";     // 4
  const Options options = keyed({class_key("status"), value_key("status"), prefix_key("path", 2), value_key("m")},
                                {}, false);
  const std::vector<Seen> got = verdicts(text, options);
  ASSERT_EQ(got.size(), 5u);
  const std::string_view none = logagg::kNoKey;
  const std::string want[] = {
      tuple({"5xx", "503", "/api/v1", "GET"}),
      tuple({"4xx", "404", "/", "a,\"b\n"}),
      tuple({"other", "2e2", none, none}),
      tuple({"other", "true", none, "null"}),
      tuple({none, none, none, "\x01\x1f"}),
  };
  const unsigned no_value[] = {0, 0, 4 | 8, 4, 1 | 2 | 4};
  for (size_t i = 0; i < 5; ++i) {
    ASSERT_EQ(got[i].first.status, LineStatus::kCounted) << i;
    EXPECT_EQ(got[i].second, want[i]) << i << ": " << logagg::testing::describe(got[i]);
    EXPECT_EQ(got[i].first.no_value, no_value[i]) << i;
  }
}

TEST(LineKeysTest, TheAppIdLeadsTheTupleWithByAppAndIsAbsentWithAppFieldNone) {
  const std::string text = R"({"app_id":"web1","timestamp":"2023-11-14T22:13:20Z","m":"GET"})" "\n"
                           R"({"timestamp":"2023-11-14T22:13:21Z","m":"PUT"})" "\n";
  const std::vector<Seen> with_app = verdicts(text, keyed({value_key("m")}, {}, true));
  ASSERT_EQ(with_app.size(), 2u);
  EXPECT_EQ(with_app[0].second, tuple({"web1", "GET"}));
  EXPECT_EQ(with_app[1].first.status, LineStatus::kRejected);
  const std::vector<Seen> no_app = verdicts(text, keyed({value_key("m")}, {}, false, "none"));
  EXPECT_EQ(no_app[0].second, "GET");
  EXPECT_EQ(no_app[1].second, "PUT");
  EXPECT_EQ(no_app[1].first.second, 1700000001);
  // The app id itself as a --by key, and the time field's text.
  const std::vector<Seen> app_key = verdicts(text, keyed({value_key("app_id"), value_key("timestamp")}));
  EXPECT_EQ(app_key[0].second, tuple({"web1", "2023-11-14T22:13:20Z"}));
}

TEST(LineKeysTest, TheFirstFilterThatFailsIsTheVerdict) {
  const std::string t = R"("app_id":"a","timestamp":"2023-11-14T22:13:20Z")";
  const std::string text = "{" + t + ",\"status\":503,\"m\":\"GET\"}\n" +   // counted
                           "{" + t + ",\"status\":200,\"m\":\"GET\"}\n" +   // filter 1
                           "{" + t + ",\"m\":\"GET\"}\n" +                  // filter 0
                           "{" + t + ",\"status\":\"599\",\"m\":\"PUT\"}\n" +  // filter 2
                           "{" + t + ",\"status\":{},\"m\":\"GET\"}\n" +    // filter 1 (a container)
                           "{\"timestamp\":\"2023-11-14T22:13:20Z\",\"status\":503}\n" +  // rejected before any filter
                           "{" + t + ",\"status\":5e2,\"m\":\"GET\",\"m\":\"GET\"}\n";  // filter 2 (twice)
  const std::vector<Seen> got = verdicts(text, keyed({}, {"exists status", "status>=500", "m==GET"}));
  ASSERT_EQ(got.size(), 7u);
  EXPECT_EQ(got[0].first.status, LineStatus::kCounted);
  EXPECT_EQ(got[0].second, "a") << "without --by the verdict keeps the app id";
  const int filter[] = {-1, 1, 0, 2, 1, -1, 2};
  for (size_t i = 1; i < 7; ++i) {
    if (filter[i] < 0) continue;
    ASSERT_EQ(got[i].first.status, LineStatus::kFiltered) << i << ": " << logagg::testing::describe(got[i]);
    EXPECT_EQ(got[i].first.filter, filter[i]) << i;
  }
  EXPECT_EQ(got[5].first.status, LineStatus::kRejected);
}

TEST(LineKeysTest, BothParsersGiveTheSameKeysAndFiltersOnHostileLines) {
  const std::vector<Options> option_sets = {
      keyed({value_key("status"), value_key("method")}),
      keyed({class_key("status"), prefix_key("path", 2)}, {"exists method", "path ~ /.*"}, true),
      keyed({value_key("/req/host"), value_key("/req/tags/0"), prefix_key("/path", 1)},
            {"/req/bytes < 1e400", "method != DELETE"}, false, "none"),
      keyed({value_key("method")}, {"status >= 2e2", "status < 600", "status !~ 5.."}),
      keyed({class_key("status"), value_key("/req/tags/1"), value_key("path"), value_key("method")},
            {"missing /req/nothing", "/req/host == \"b.example\""}, false, "none"),
      keyed({}, {"status == -0"}),
      keyed({value_key("status")}, {"status != 200.0", "status == 1e400"}),
  };
  for (uint64_t seed = 0; seed < 12; ++seed) {
    logagg::testing::HostileLines generator(seed);
    std::string text;
    for (int i = 0; i < 300; ++i) text += generator.line() + (i % 7 == 0 ? "\r\n" : "\n");
    const Options& options = option_sets[seed % option_sets.size()];
    const LineRules rules = Query(options).rules();
    logagg::testing::expect_parsers_agree(text, {1, 13, 700, 4096, 1 << 16}, rules);
    if (HasFatalFailure()) {
      ADD_FAILURE() << "seed " << seed;
      return;
    }
    // The lines must exercise every outcome.
    size_t counted = 0, filtered = 0, rejected = 0;
    for (const Seen& s : logagg::testing::line_by_line(text, rules)) {
      counted += s.first.status == LineStatus::kCounted;
      filtered += s.first.status == LineStatus::kFiltered;
      rejected += s.first.status == LineStatus::kRejected;
    }
    EXPECT_GT(counted, 3u) << seed;
    EXPECT_GT(counted + filtered, 100u) << seed;
    EXPECT_GT(rejected, 3u) << seed;
    if (!options.where.empty()) EXPECT_GT(filtered, 10u) << seed;
  }
}

}  // namespace
