// Tests for parse/line_verdict.h and the reason names it defines: each Reason
// has a stable machine key (json) and a short text (stderr), unique, in the
// order of the enum, exactly as the README's reason table lists them; and the
// LineVerdict constructors set what they say.
#include "model/line_verdict.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/test_paths.h"

namespace logagg {
namespace {

// The names are part of the output format: changing one breaks readers of
// the json reports and documents merged later. Spelled out here on purpose.
// clang-format off
const std::pair<const char*, const char*> kWant[] = {
    {"line_too_long", "line too long"},
    {"invalid_json", "invalid JSON"},
    {"not_object", "not a JSON object"},
    {"missing_app", "app field missing"},
    {"duplicate_app", "app field duplicated"},
    {"app_not_string", "app field not a string"},
    {"bad_app", "app id not alphanumeric"},
    {"missing_time", "time field missing"},
    {"duplicate_time", "time field duplicated"},
    {"time_not_string", "time field not a string"},
    {"bad_time", "timestamp not RFC 3339"},
};
// clang-format on
static_assert(std::size(kWant) == kReasonCount);

std::vector<std::pair<std::string, std::string>> engine_names() {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t r = 0; r < kReasonCount; ++r) {
    out.emplace_back(reason_key(static_cast<Reason>(r)), reason_text(static_cast<Reason>(r)));
  }
  return out;
}

TEST(ReasonNames, KeysAndTextsAreStable) {
  const auto names = engine_names();
  for (size_t r = 0; r < kReasonCount; ++r) {
    EXPECT_EQ(names[r].first, kWant[r].first) << r;
    EXPECT_EQ(names[r].second, kWant[r].second) << r;
  }
  EXPECT_EQ(reason_key(Reason::kInvalidJson), "invalid_json");
  EXPECT_EQ(reason_text(Reason::kBadTime), "timestamp not RFC 3339");
}

TEST(ReasonNames, KeysAndTextsAreUniqueAndKeysAreSnakeCase) {
  std::set<std::string> keys, texts;
  const std::regex snake("[a-z]+(_[a-z]+)*");
  for (const auto& [key, text] : engine_names()) {
    EXPECT_TRUE(keys.insert(key).second) << "duplicate key " << key;
    EXPECT_TRUE(texts.insert(text).second) << "duplicate text " << text;
    EXPECT_TRUE(std::regex_match(key, snake)) << key;
    EXPECT_FALSE(text.empty());
  }
}

TEST(ReasonNames, TheReadmeTableListsTheSameInTheSameOrder) {
  std::ifstream in(testing::source_dir() + "/README.md");
  ASSERT_TRUE(in) << "README.md not found";
  std::stringstream text;
  text << in.rdbuf();
  // Rows "| `key` | text | when |" of the reason table.
  const std::regex row("\\n\\| `([a-z_]+)` \\| ([^|]*[^| ]) +\\|");
  const std::string readme = text.str();
  std::vector<std::pair<std::string, std::string>> documented;
  for (std::sregex_iterator it(readme.begin(), readme.end(), row), end; it != end; ++it) {
    documented.emplace_back((*it)[1], (*it)[2]);
  }
  EXPECT_EQ(documented, engine_names());
}

TEST(LineVerdict, ConstructorsSetStatusAndTheirOneField) {
  const std::string line = R"({"app_id":"web1"})";
  const LineVerdict c = LineVerdict::counted(-42, std::string_view(line).substr(11, 4));
  EXPECT_EQ(c.status, LineStatus::kCounted);
  EXPECT_EQ(c.second, -42);
  EXPECT_EQ(c.app, "web1");
  EXPECT_EQ(c.app.data(), line.data() + 11) << "a view into the line, not a copy";
  EXPECT_TRUE(LineVerdict::counted(7).app.empty());
  EXPECT_EQ(LineVerdict::blank().status, LineStatus::kBlank);
  const LineVerdict r = LineVerdict::rejected(Reason::kDuplicateTime);
  EXPECT_EQ(r.status, LineStatus::kRejected);
  EXPECT_EQ(r.reason, Reason::kDuplicateTime);
  static_assert(LineVerdict::rejected(Reason::kBadApp).reason == Reason::kBadApp, "usable at compile time");
}

}  // namespace
}  // namespace logagg

namespace logagg {
namespace {

TEST(ReasonText, NamesANonDefaultPatternOrFormat) {
  Options o;
  EXPECT_EQ(reason_text(Reason::kBadApp, o), "app id not alphanumeric");
  EXPECT_EQ(reason_text(Reason::kBadTime, o), "timestamp not RFC 3339");
  o.app_pattern = "[a-z0-9.-]+";
  o.time_format = "unix-ms";
  EXPECT_EQ(reason_text(Reason::kBadApp, o), "app id does not match [a-z0-9.-]+");
  EXPECT_EQ(reason_text(Reason::kBadTime, o), "time not in unix-ms");
  o.app_pattern = "[a-zA-Z0-9]+";  // the same rule, written otherwise, is not the default
  o.time_format = "%Y-%m-%d %H:%M:%S";
  EXPECT_EQ(reason_text(Reason::kBadApp, o), "app id does not match [a-zA-Z0-9]+");
  EXPECT_EQ(reason_text(Reason::kBadTime, o), "time not in %Y-%m-%d %H:%M:%S");
  for (const Reason r : {Reason::kInvalidJson, Reason::kMissingApp, Reason::kTimeNotString}) {
    EXPECT_EQ(reason_text(r, o), reason_text(r)) << "only bad_app and bad_time name the option";
  }
}

}  // namespace
}  // namespace logagg
