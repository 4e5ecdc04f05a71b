// A generator of hostile access-log lines for the tests of --by and --where
// (tests/unit/line_keys_test.cc, tests/property/by_where_differential_test.cc).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace logagg::testing {

// Random lines about status, method, path and a nested request ("req":
// {"host", "tags": [..], "bytes"}), with the hostile values keys and filters
// must survive: quotes, commas, escaped newlines and control bytes, bidi
// controls, values spelt "(none)" and "(other)", 10 kB values, numbers
// spelt 2e2, 200.0, -0 and 1e400, objects, arrays and literals, fields
// twice; one line in forty with invalid UTF-8, one in forty with a raw
// control byte. Timestamps fall in the ten seconds from
// 2023-11-14T22:13:20Z; some lines lack the app id or the time.
class HostileLines {
 public:
  explicit HostileLines(uint64_t seed) : rng_(seed) {}

  std::string line() {
    std::vector<std::string> members;
    if (!one_in(15)) members.push_back(R"("app_id":")" + pick({"web1", "api2", "x", "bad id"}) + "\"");
    if (!one_in(20)) members.push_back(R"("timestamp":"2023-11-14T22:13:2)" + std::to_string(rng_() % 10) + "Z\"");
    if (!one_in(8)) members.push_back("\"status\":" + value({"200", "503", "2e2", "200.0", "-0", "1e400", "\"404\"",
                                                             "\"5xx\"", "\"0.004\"", "599", "600", "99"}));
    if (!one_in(8)) members.push_back("\"method\":" + value({"\"GET\"", "\"G\\u0045T\"", "\"PO,ST\""}));
    if (!one_in(8))
      members.push_back("\"path\":" +
                        value({"\"/api/v1/orders/7?x=1\"", "\"/\"", "\"/a/b#c/d\"", "\"?q\"", "\"/caf\\u00e9/x/y\"",
                               "\"https://h:8443/a/b?c\"", "\"HTTP://h\"", "\"api/v1\"", "\"x://h\\n/a\""}));
    if (!one_in(4)) members.push_back("\"req\":" + request());
    if (one_in(10)) members.push_back(members[rng_() % members.size()]);  // a field twice
    std::shuffle(members.begin(), members.end(), rng_);
    std::string out = "{";
    for (size_t i = 0; i < members.size(); ++i) out += (i ? "," : "") + members[i];
    out += "}";
    if (one_in(40)) out.insert(rng_() % out.size(), "\xC3\x28");  // invalid UTF-8
    if (one_in(40)) out.insert(rng_() % out.size(), "\x01");      // a raw control byte
    return out;
  }

 private:
  bool one_in(uint64_t n) { return rng_() % n == 0; }
  std::string pick(std::initializer_list<std::string_view> options) {
    return std::string(options.begin()[rng_() % options.size()]);
  }
  // One of `typical`, or a hostile value.
  std::string value(std::initializer_list<std::string_view> typical) {
    switch (rng_() % 10) {
      case 0:
        return pick({"{\"a\":1}", "[1,2]", "[]", "{}", "null", "true", "false"});
      case 1:
        return pick({R"("a\"b,c")", R"("line\nbreak\r\n")", R"("\u0000\u0007\u001b[31m")", R"("\t,\"")",
                     "\"\xe2\x80\xae rtl\"", R"x("(none)")x", R"x("(other)")x", R"("")", R"("\ud83d\ude00")"});
      case 2:
        return "\"" + std::string(10000 + rng_() % 100, 'k') + "\"";
      default:
        return pick(typical);
    }
  }
  std::string request() {
    std::string out = "{";
    if (!one_in(4)) out += "\"host\":" + value({"\"a.example\"", "\"b.example\"", "\"b.example:8080\""}) + ",";
    if (one_in(8)) out += "\"host\":\"dup\",";
    out += "\"tags\":[" + value({"\"t0\"", "1"}) + "," + value({"\"t1\""}) + "]";
    if (!one_in(3)) out += ",\"bytes\":" + value({"0", "1234", "1e3", "1000.0", "-5"});
    return out + "}";
  }

  std::mt19937_64 rng_;
};

}  // namespace logagg::testing
