// What the engine check (checks.cc) asks of the writers once a run has been
// counted (issue 18): whatever app ids the drawn options let through, the
// csv reads back into exactly the rows counted (by a small RFC 4180 reader of
// its own), the json reads back through parse_partial into the same result,
// the table, --stats and --show-rejects texts hold nothing a terminal would
// act on, and the html page (in builds that have it; results within a day)
// holds no markup but its own. Included by checks.cc only.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/merge.h"
#include "logagg/report.h"
#include "logagg/rfc3339.h"

namespace logagg_fuzz {

using CsvRecords = std::vector<std::vector<std::string>>;

// The records of `csv` per RFC 4180, each ended by a LF (the writer's line
// end): fields split at commas; a field that starts with a double quote runs
// to the next lone one, "" standing for a quote; an unquoted field may hold
// no quote, CR or LF. nullopt if `csv` is not such a text.
inline std::optional<CsvRecords> read_csv(std::string_view csv) {
  CsvRecords records(1);
  std::string field;
  bool field_start = true;
  for (size_t i = 0; i < csv.size();) {
    const char c = csv[i++];
    if (field_start && c == '"') {
      for (;; ++i) {
        if (i == csv.size()) return std::nullopt;  // no closing quote
        if (csv[i] == '"' && (i + 1 == csv.size() || csv[i + 1] != '"')) break;
        if (csv[i] == '"') ++i;
        field += csv[i];
      }
      if (++i < csv.size() && csv[i] != ',' && csv[i] != '\n') return std::nullopt;
      field_start = false;
    } else if (c == ',' || c == '\n') {
      records.back().push_back(std::move(field));
      field.clear();
      if (c == '\n') records.emplace_back();
      field_start = true;
    } else if (c == '"' || c == '\r') {
      return std::nullopt;
    } else {
      field += c;
      field_start = false;
    }
  }
  if (!field_start || !records.back().empty()) return std::nullopt;  // the last record has no LF
  records.pop_back();
  return records;
}

// Why `text` is not safe to print on a terminal, or "": it must be valid
// UTF-8 without C0 controls but LF, DEL, C1 controls (U+0080..U+009F) or
// bidi controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069).
inline std::string terminal_unsafe(std::string_view text) {
  if (!simdjson::validate_utf8(text.data(), text.size())) return "not valid UTF-8";
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
    if ((b(0) < 0x20 && b(0) != '\n') || b(0) == 0x7f) return "a raw control byte " + std::to_string(b(0));
    const bool c1 = b(0) == 0xc2 && b(1) >= 0x80 && b(1) <= 0x9f;
    const bool bidi = (b(0) == 0xd8 && b(1) == 0x9c) ||
                      (b(0) == 0xe2 && b(1) == 0x80 && (b(2) == 0x8e || b(2) == 0x8f || (b(2) >= 0xaa && b(2) <= 0xae))) ||
                      (b(0) == 0xe2 && b(1) == 0x81 && b(2) >= 0xa6 && b(2) <= 0xa9);
    if (c1 || bidi) return std::string("a raw ") + (c1 ? "C1" : "bidi") + " control at byte " + std::to_string(i);
  }
  return {};
}

// Why the html page `page` holds markup that is not its own, or "": it has
// its three scripts (the data, uPlot, the page's) and two style sheets, and
// no element an id could smuggle in, whatever the case of the tag.
inline std::string html_unsafe(std::string_view page) {
  constexpr std::pair<std::string_view, size_t> kTags[] = {{"<script", 3}, {"</script", 3}, {"<style", 2}, {"</style", 2},
                                                           {"<img", 0},    {"<svg", 0},     {"<iframe", 0}};
  size_t counts[std::size(kTags)] = {};
  for (size_t at = page.find('<'); at != std::string_view::npos; at = page.find('<', at + 1)) {
    for (size_t k = 0; k < std::size(kTags); ++k) {
      const std::string_view tag = kTags[k].first;
      const std::string_view here = page.substr(at, tag.size());
      counts[k] += std::equal(here.begin(), here.end(), tag.begin(), tag.end(),
                              [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    }
  }
  for (size_t k = 0; k < std::size(kTags); ++k) {
    if (counts[k] != kTags[k].second) {
      return std::to_string(counts[k]) + " " + std::string(kTags[k].first) + ", not " + std::to_string(kTags[k].second);
    }
  }
  return {};
}

// A day of seconds at most: the page charts every second from the first to
// the last, so a result spread over years would make each run write megabytes.
inline constexpr int64_t kHtmlCheckMaxSpan = 86400;

// The checks above on a result counted by app (its question: result.query);
// "" if all hold, else the first failure.
inline std::string check_outputs(const logagg::Result& result) {
  logagg::ReportOptions report;
  report.format = logagg::Format::kCsv;
  const std::optional<CsvRecords> csv = read_csv(logagg::format_report(result, report));
  if (!csv) return "the csv is not RFC 4180";
  CsvRecords want = {{"second", "app_id", "count"}};
  for (const logagg::AppCount& c : result.app_counts) {
    char second[logagg::kUtcSecondMaxChars];
    const std::string& app = result.apps[c.app];
    want.push_back({std::string(second, static_cast<size_t>(logagg::format_utc_second(c.second, second))),
                    app == logagg::kOtherApp ? std::string(logagg::kOtherAppName) : app, std::to_string(c.count)});
  }
  if (*csv != want) return "the csv does not read back into the rows counted";
  report.format = logagg::Format::kJson;
  try {
    const logagg::Partial back = logagg::parse_partial(logagg::format_report(result, report));
    if (back.result.apps != result.apps || back.result.app_counts != result.app_counts) {
      return "the json does not read back into the result";
    }
  } catch (const std::runtime_error& e) {
    return std::string("the json does not read back: ") + e.what();
  }
  report.format = logagg::Format::kTable;
  for (const auto& [what, text] : {std::pair{"the table", logagg::format_report(result, report)},
                                   std::pair{"--stats", logagg::format_stats(result, report)},
                                   std::pair{"--show-rejects", logagg::format_rejects(result)}}) {
    if (const std::string why = terminal_unsafe(text); !why.empty()) return std::string(what) + " holds " + why;
  }
  const bool short_span =
      result.counts.empty() || result.counts.back().second - result.counts.front().second <= kHtmlCheckMaxSpan;
  if (logagg::has_html_format() && short_span) {
    report.format = logagg::Format::kHtml;
    if (const std::string why = html_unsafe(logagg::format_report(result, report)); !why.empty()) {
      return "the html page holds " + why;
    }
  }
  return {};
}

}  // namespace logagg_fuzz
