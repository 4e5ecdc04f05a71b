// The result document's round trip (logagg/result_document.h, written by
// report/document_writer.cc, read by report/result_document.cc): a document
// of version 1 and of version 2, with every setting it can hold, read back
// and written again is the same bytes; and every field it holds is read
// back: without it, the document is refused or reads back as another
// result. Only what is recomputed from the rest is not read: "stats" (from
// the counts), a row's ratio(EXPR) (from count(EXPR) and count) and its
// percentiles pP(F) (from sketch(F), min(F) and max(F)), and the summary's
// "warnings" (from its field tallies, logagg/field_checks.h), which a
// document read back and written again leaves out.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/report.h"
#include "logagg/result_document.h"

namespace logagg {
namespace {

std::string line(std::string_view app, std::string_view time, std::string_view rest = "") {
  return "{\"app_id\": \"" + std::string(app) + "\", \"timestamp\": \"" + std::string(time) + "\"" + std::string(rest) +
         "}\n";
}

// Lines with every verdict: counted under several keys (one spelt "(other)"),
// blank, rejected, filtered, outside --since, without a key or a measure.
std::string sample_log() {
  std::string log;
  log += line("api", "2023-11-14T22:13:20Z", R"(, "path": "/a/b?x", "status": 200, "ms": 1.5, "bytes": 10)");
  log += line("api", "2023-11-14T22:13:20.5Z", R"(, "path": "/a/c", "status": 503, "ms": 250, "bytes": 20)");
  log += line("web", "2023-11-14T22:13:21Z", R"(, "path": "/b", "status": 404, "ms": 7, "bytes": 30)");
  log += line("(other)", "2023-11-14T22:13:22Z", R"(, "status": 200, "ms": "x")");
  log += line("web", "2023-11-14T22:14:05Z", R"(, "path": "/a", "status": 200, "ms": 3, "bytes": 5)");
  log += line("web", "2023-11-14T21:00:00Z", R"(, "status": 200)");  // before --since
  log += "\n{\"app_id\": \"api\"}\nnot json\n";
  return log;
}

// A document of `options`' run over the sample log, per `bucket`.
std::string document_of(const Options& options, std::string_view bucket = "1s", bool zoned = false) {
  ReportOptions json;
  json.format = Format::kJson;
  json.bucketing = parse_bucketing(bucket);
  if (zoned) json.bucketing = json.bucketing.in_zone(find_time_zone("Europe/Berlin"));
  return format_report(aggregate_buffer(sample_log(), options), json);
}

// The document `p` writes again.
std::string written_again(const Partial& p) {
  ReportOptions json = p.report;
  json.format = Format::kJson;
  return format_report(p.result, json);
}

struct Documents {
  std::vector<std::pair<std::string, std::string>> named;  // (what, document)
};

Documents documents() {
  Documents d;
  Options plain;
  d.named.push_back({"v1 plain", document_of(plain)});
  Options v1 = plain;
  v1.by_app = true;
  v1.since = 1700000000;  // 2023-11-14T22:13:20Z
  v1.until = 1700003600;
  v1.app_pattern = "[a-z()]+";
  v1.max_apps = 2;  // the table fills up: "max_apps"
  d.named.push_back({"v1 by app, range, pattern, cap, zone, minutes", document_of(v1, "1m", true)});
  Options v1_formats = plain;
  v1_formats.time_format = "auto";
  v1_formats.input_tz = "UTC";
  v1_formats.by_app = true;  // an app id spelt "(other)": "real_app"
  v1_formats.app_pattern = "[a-z()]+";
  d.named.push_back({"v1 auto time, by app", document_of(v1_formats)});
  Options v2;
  v2.by_app = true;
  v2.by = {{"path", KeyField::Kind::kPathPrefix, 1}, {"status", KeyField::Kind::kStatusClass, 0}};
  v2.where = {"exists status"};
  v2.sum = {"bytes"};
  v2.quantiles = {"ms"};
  v2.percentiles = {"50", "99.9"};
  v2.count_if = {"status>=500"};
  d.named.push_back({"v2 keys, filters, measures", document_of(v2)});
  Options none = plain;
  none.app_field = "none";
  none.by = {{"status", KeyField::Kind::kValue, 0}};
  d.named.push_back({"v2 no app field", document_of(none)});
  return d;
}

TEST(ResultDocument, ReadBackAndWrittenAgainIsTheSameBytes) {
  for (const auto& [what, doc] : documents().named) {
    const Partial p = parse_partial(doc);
    EXPECT_EQ(written_again(p), doc) << what;
  }
}

// A summary list must name the settings' filters, keys and fields, in order:
// a document whose lines are told for other ones is refused.
TEST(ResultDocument, ASummaryListNamingOtherSettingsIsRefused) {
  const std::string doc = documents().named[3].second;  // keys, filters, measures
  for (const auto& [from, to] : {std::pair{R"({"where": "exists status")", R"({"where": "exists path")"},
                                 std::pair{R"x({"key": "status_class(status)")x", R"x({"key": "status")x"},
                                 std::pair{R"({"field": "ms")", R"({"field": "bytes")"}}) {
    std::string other = doc;
    const size_t at = other.find(from);
    ASSERT_NE(at, std::string::npos) << from << " in " << doc;
    other.replace(at, std::string_view(from).size(), to);
    EXPECT_THROW(parse_partial(other), std::runtime_error) << to;
  }
}

// `element` as JSON, without the members whose path (keys joined by '.',
// "[]" for any array element) is `skip`.
void write_without(const simdjson::dom::element& element, const std::string& path, const std::string& skip,
                   std::string& out) {
  if (element.is_object()) {
    out.push_back('{');
    bool first = true;
    const simdjson::dom::object object = element.get_object();
    for (const auto field : object) {
      const std::string inner = path.empty() ? std::string(field.key) : path + "." + std::string(field.key);
      if (inner == skip) continue;
      if (!first) out.push_back(',');
      first = false;
      out.append("\"").append(field.key).append("\":");
      write_without(field.value, inner, skip, out);
    }
    out.push_back('}');
  } else if (element.is_array()) {
    out.push_back('[');
    bool first = true;
    const simdjson::dom::array array = element.get_array();
    for (const auto item : array) {
      if (!first) out.push_back(',');
      first = false;
      write_without(item, path + "[]", skip, out);
    }
    out.push_back(']');
  } else {
    out.append(simdjson::to_string(element));
  }
}

// Whether a member path is of a value recomputed from the others.
bool recomputed(std::string_view path) {
  if (path == "stats") return true;
  constexpr std::string_view kRow = "counts[].";  // a row's column (whose name may hold a '.')
  if (!path.starts_with(kRow)) return false;
  const std::string_view column = path.substr(kRow.size());
  return column.starts_with("ratio(") ||
         (column.size() > 1 && column[0] == 'p' && column[1] >= '0' && column[1] <= '9');
}

// Every member path of `element` but those of recomputed values, each once.
void member_paths(const simdjson::dom::element& element, const std::string& path, std::vector<std::string>& out) {
  if (element.is_object()) {
    const simdjson::dom::object object = element.get_object();
    for (const auto field : object) {
      const std::string inner = path.empty() ? std::string(field.key) : path + "." + std::string(field.key);
      if (recomputed(inner)) continue;
      if (std::find(out.begin(), out.end(), inner) == out.end()) out.push_back(inner);
      member_paths(field.value, inner, out);
    }
  } else if (element.is_array()) {
    const simdjson::dom::array array = element.get_array();
    for (const auto item : array) member_paths(item, path + "[]", out);
  }
}

TEST(ResultDocument, WarningsAreWrittenAndNotReadBack) {
  Options options;
  options.where = {"no_such>=1"};
  Result r = aggregate_buffer(sample_log(), options);
  r.warnings = {{"no_such_field", "no_such", "--where no_such>=1: no line has the field no_such"}};
  ReportOptions json;
  json.format = Format::kJson;
  const std::string doc = format_report(r, json);
  EXPECT_NE(doc.find(R"("warnings": [
      {"code": "no_such_field", "field": "no_such", "message": "--where no_such>=1: no line has the field no_such"}
    ])"),
            std::string::npos)
      << doc;
  const Partial p = parse_partial(doc);
  EXPECT_TRUE(p.result.warnings.empty());
  ASSERT_EQ(p.result.summary.fields.size(), 1u);
  EXPECT_EQ(p.result.summary.fields[0], (FieldTally{p.result.summary.counted + p.result.summary.filtered(), 0, 0, 0}));
}

TEST(ResultDocument, EveryFieldWrittenIsReadBack) {
  std::vector<std::string> seen;  // the paths of all the documents
  for (const auto& [what, doc] : documents().named) {
    simdjson::dom::parser parser;
    const simdjson::dom::element root = parser.parse(doc);
    std::vector<std::string> paths;
    member_paths(root, "", paths);
    seen.insert(seen.end(), paths.begin(), paths.end());
    const std::string whole = written_again(parse_partial(doc));
    for (const std::string& path : paths) {
      std::string without;
      write_without(root, "", path, without);
      try {
        EXPECT_NE(written_again(parse_partial(without)), whole) << what << ": " << path << " is not read back";
      } catch (const std::runtime_error&) {
        // refused without it: read
      }
    }
  }
  // The documents hold every setting and every optional field there is.
  for (const char* path : {"tz",
                           "time_format",
                           "input_tz",
                           "app_pattern",
                           "since",
                           "until",
                           "by_app",
                           "by[].segments",
                           "max_apps",
                           "where",
                           "sum",
                           "quantiles",
                           "percentiles",
                           "count_if",
                           "quantile_accuracy",
                           "counts[].real_app",
                           "counts[].sketch(ms)",
                           "summary.outside_range",
                           "summary.time_formats.unix-ms",
                           "summary.filtered",
                           "summary.no_value[].key",
                           "summary.no_measure[].field",
                           "summary.fields[].others",
                           "summary.rejected_by_reason.invalid_json"}) {
    EXPECT_NE(std::find(seen.begin(), seen.end(), path), seen.end()) << path << " is in no document";
  }
}

}  // namespace
}  // namespace logagg
