// The --format html page (html_report.h): the report's title, notes, an
// interactive uPlot chart of the buckets, the panels of measures, and the
// keys', totals', statistics and accounting tables, in one file that needs
// no network. The page is written in order:
// head (the Content-Security-Policy, uPlot's and the page's style sheets),
// body text and tables, the series as one JSON document in a
// <script type="application/json">, uPlot's script and the page's own
// (page.js), which parses the JSON and draws the charts. The page of the whole
// input's one bucket (--overall) has a table of its rows instead of the chart,
// and no script.
// Bytes from the input (app ids, option values such as --app-pattern) reach
// the page in two contexts only, each written by one function of PageWriter:
// text (element content, also fit for quoted attribute values) and JSON
// strings inside the data <script>; page.js shows the JSON's strings as text.
#include "report/html/html_report.h"

#include <absl/strings/escaping.h>
#include <absl/strings/str_replace.h>

#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>

#include "report/html/html_assets.h"
#include "report/report_text.h"

namespace logagg {
namespace {

constexpr size_t kChunk = 64 * 1024;

// Debian's abseil has a string_view of its own.
absl::string_view absl_view(std::string_view s) { return {s.data(), s.size()}; }

using Escape = std::pair<absl::string_view, absl::string_view>;  // from, to
// Text: the five characters markup is made of; CR as a reference, which the
// parser keeps (a raw one it reads as LF); NUL, which HTML cannot hold (the
// parser drops it or reads U+FFFD), as U+FFFD, so it is not silently lost.
constexpr std::array<Escape, 7> kTextEscapes{{{"&", "&amp;"},
                                              {"<", "&lt;"},
                                              {">", "&gt;"},
                                              {"\"", "&quot;"},
                                              {"'", "&#39;"},
                                              {"\r", "&#13;"},
                                              {absl::string_view("\0", 1), "&#xFFFD;"}}};
// A JSON string in <script>: '<' as \u003c, so that neither "</script" nor
// "<!--" (which would change how the element ends) can occur, '>' and '&' for
// any reader that takes the data for markup, and U+2028, U+2029, which
// JavaScript before ES2019 read as line ends, as escapes; JSON.parse reads
// them all back as the same characters.
constexpr std::array<Escape, 5> kScriptJsonEscapes{
    {{"<", "\\u003c"}, {">", "\\u003e"}, {"&", "\\u0026"}, {"\u2028", "\\u2028"}, {"\u2029", "\\u2029"}}};

// The page's Content-Security-Policy: nothing may load (no network, no file),
// only its own inline scripts and style sheets run (by the hashes of their
// text; the JSON data <script> is not run, so it needs none), no <base> or
// form can be added, and no string may become markup through innerHTML and
// its kin (trusted types, where the browser has them). A live page may also
// connect to its own origin (its event stream).
std::string content_security_policy(bool live) {
  const auto hash = [](const html_assets::Asset& asset) {
    return "'sha256-" + absl::Base64Escape(absl_view(asset.sha256)) + "'";
  };
  return "default-src 'none'; script-src " + hash(html_assets::kUplotJs) + " " + hash(html_assets::kPageJs) +
         "; style-src " + hash(html_assets::kUplotCss) + " " + hash(html_assets::kPageCss) +
         "; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'" +
         (live ? "; connect-src 'self'" : "");
}

// Buffers the page and hands it to the sink in chunks of about kChunk bytes.
class PageWriter {
 public:
  explicit PageWriter(const ReportSink& sink) : sink_(sink) { buffer_.reserve(kChunk + 1024); }

  void raw(std::string_view text) {
    if (buffer_.size() + text.size() > kChunk) flush();
    buffer_.append(text);
  }

  // Text in element content or a quoted attribute value (kTextEscapes).
  void text(std::string_view text) {
    buffer_.append(absl::StrReplaceAll(absl_view(text), kTextEscapes));
    if (buffer_.size() >= kChunk) flush();
  }

  // A JSON string in the data <script> (RFC 8259, append_json_string), with
  // kScriptJsonEscapes on top.
  void json_string(std::string_view text) {
    std::string json;
    append_json_string(json, text);
    buffer_.append(absl::StrReplaceAll(json, kScriptJsonEscapes));
  }

  template <class Integer>
  void number(Integer value) {
    char digits[24];
    buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    if (buffer_.size() >= kChunk) flush();
  }

  void flush() {
    if (buffer_.empty()) return;
    sink_(buffer_);
    buffer_.clear();
  }

 private:
  const ReportSink& sink_;
  std::string buffer_;
};

// 86400 as "86,400".
std::string grouped(size_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

void write_table(PageWriter& out, std::string_view id, std::string_view heading,
                 const std::vector<std::pair<std::string, std::string>>& rows) {
  out.raw("<section><h2>");
  out.text(heading);
  out.raw("</h2><table id=\"");
  out.raw(id);
  out.raw("\">\n");
  for (const auto& [label, value] : rows) {
    out.raw("<tr><th>");
    out.text(label);
    out.raw("</th><td>");
    out.text(value);
    out.raw("</td></tr>\n");
  }
  out.raw("</table></section>\n");
}

template <class Integer>
void write_array(PageWriter& out, const std::vector<Integer>& values) {
  out.raw("[");
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.raw(",");
    out.number(values[i]);
  }
  out.raw("]");
}

template <class Strings>
void write_strings(PageWriter& out, const Strings& strings, bool json) {
  out.raw("[");
  for (size_t i = 0; i < strings.size(); ++i) {
    if (i > 0) out.raw(",");
    json ? out.json_string(strings[i]) : out.raw(strings[i]);  // raw: numbers or null, as MeasureText writes them
  }
  out.raw("]");
}

// {"zone", "bucket", "stacked", "count_axis", "names": [...], "x": [point
// starts (HtmlReport::starts)], "y": [[counts of names[0]], ...]}, and with
// measures "panels": [{"title", "left", "right"}, ...], "m": [{"name",
// "panel", "right", "unit", "v": [value or null per point]}, ...], with keys
// too "k": {"x": [key point starts], "v": [[[values of m[0] for names[0]],
// ...], ...]}; a live page's "live": {"events", "points"} (HtmlReport::Live).
void write_data_json(PageWriter& out, const HtmlReport& report) {
  out.raw("{\"zone\":");
  out.json_string(report.time_zone);
  out.raw(",\"bucket\":");
  out.json_string(report.bucket_name);
  out.raw(",\"count_axis\":");
  out.json_string(report.count_axis);
  out.raw(report.stacked ? ",\"stacked\":true,\"names\":[" : ",\"stacked\":false,\"names\":[");
  for (size_t i = 0; i < report.series.size(); ++i) {
    if (i > 0) out.raw(",");
    out.json_string(report.series[i].name);
  }
  out.raw("],\n\"x\":");
  write_array(out, report.starts);
  out.raw(",\n\"y\":[");
  for (size_t i = 0; i < report.series.size(); ++i) {
    if (i > 0) out.raw(",\n");
    write_array(out, report.series[i].values);
  }
  out.raw("]");
  if (!report.measures.empty()) {
    out.raw(",\n\"panels\":[");
    for (size_t i = 0; i < report.panels.size(); ++i) {
      out.raw(i > 0 ? ",{\"title\":" : "{\"title\":");
      out.json_string(report.panels[i].title);
      out.raw(",\"left\":");
      out.json_string(report.panels[i].left);
      out.raw(",\"right\":");
      out.json_string(report.panels[i].right);
      out.raw("}");
    }
    out.raw("],\n\"m\":[");
  }
  for (size_t i = 0; i < report.measures.size(); ++i) {
    const HtmlReport::Measure& m = report.measures[i];
    out.raw(i > 0 ? ",\n{\"name\":" : "{\"name\":");
    out.json_string(m.name);
    out.raw(",\"panel\":");
    out.number(m.panel);
    out.raw(m.right ? ",\"right\":true,\"unit\":" : ",\"right\":false,\"unit\":");
    out.json_string(m.unit);
    out.raw(",\"v\":");
    write_strings(out, m.values, /*json=*/false);
    out.raw(i + 1 == report.measures.size() ? "}]" : "}");
  }
  if (!report.key_values.empty()) {
    out.raw(",\n\"k\":{\"x\":");
    write_array(out, report.key_starts);
    out.raw(",\"v\":[");
    for (size_t k = 0; k < report.key_values.size(); ++k) {
      out.raw(k > 0 ? ",\n[" : "[");
      for (size_t i = 0; i < report.key_values[k].size(); ++i) {
        if (i > 0) out.raw(",");
        write_strings(out, report.key_values[k][i], /*json=*/false);
      }
      out.raw("]");
    }
    out.raw("]}");
  }
  if (report.live) {
    out.raw(",\n\"live\":{\"events\":");
    out.json_string(report.live->events);
    out.raw(",\"points\":");
    out.number(report.live->points);
    out.raw("}");
  }
  out.raw("}");
}

void write_data(PageWriter& out, const HtmlReport& report) {
  out.raw("<script type=\"application/json\" id=\"logagg-data\">");
  write_data_json(out, report);
  out.raw("</script>\n");
}

// The notes above the chart (or the rows), if any.
void write_notes(PageWriter& out, const HtmlReport& report) {
  if (!report.notes.empty()) {
    out.raw("<ul class=\"notes\" id=\"notes\">\n");
    for (const std::string& note : report.notes) {
      out.raw("<li>");
      out.text(note);
      out.raw("</li>\n");
    }
    out.raw("</ul>\n");
  }
}

// A table of rows (HtmlReport::RowsTable) with the id `id`.
void write_rows_table(PageWriter& out, std::string_view id, const HtmlReport::RowsTable& table) {
  out.raw("<table id=\"");
  out.raw(id);
  out.raw("\">\n<tr>");
  for (const std::string& column : table.columns) {
    out.raw("<th>");
    out.text(column);
    out.raw("</th>");
  }
  out.raw("</tr>\n");
  for (const std::vector<std::string>& row : table.rows) {
    out.raw("<tr>");
    for (const std::string& cell : row) {
      out.raw("<td>");
      out.text(cell);
      out.raw("</td>");
    }
    out.raw("</tr>\n");
  }
  out.raw("</table>");
}

// The tables after the chart or the rows: the measures over report.span
// (with measures), the statistics and the accounting.
void write_tables(PageWriter& out, const HtmlReport& report) {
  out.raw("<div class=\"tables\">\n");
  if (!report.totals.empty()) {
    write_table(out, "totals", "Measures over " + report.span + ", all keys", report.totals);
  }
  write_table(out, "stats", "Statistics", report.stats);
  write_table(out, "accounting", "Lines", report.accounting);
  out.raw("</div>\n");
}

// The rest of the page of the whole input's one bucket (HtmlReport::rows_table),
// after the title: its rows as a table, the statistics and the accounting;
// no chart, so no script.
void write_rows_page(PageWriter& out, const HtmlReport& report) {
  const HtmlReport::RowsTable& table = *report.rows_table;
  out.raw("</h1>\n<p class=\"subtitle\">");
  out.text(grouped(table.rows.size()));
  out.raw(table.rows.size() == 1 ? " row" : " rows");
  out.raw(" &middot; busiest first</p>\n");
  write_notes(out, report);
  out.raw("<section>");
  write_rows_table(out, "rows", table);
  out.raw("</section>\n");
  write_tables(out, report);
  out.raw("</body>\n</html>\n");
  out.flush();
}

}  // namespace

std::string write_html_data(const HtmlReport& report) {
  std::string json;
  const ReportSink sink = [&json](std::string_view text) { json.append(text); };
  PageWriter out(sink);
  write_data_json(out, report);
  out.flush();
  std::erase(json, '\n');  // only between values: a string's line feed is written \n
  return json;
}

void write_html_report(const HtmlReport& report, const ReportSink& sink) {
  PageWriter out(sink);
  out.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta http-equiv=\"Content-Security-Policy\" content=\"");
  out.raw(content_security_policy(report.live.has_value()));
  out.raw(
      "\">\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"logagg, uPlot ");
  out.raw(html_assets::kUplotVersion);
  out.raw("\">\n<title>");
  out.text(report.title);
  out.raw("</title>\n<style>");
  out.raw(html_assets::kUplotCss.text);
  out.raw("</style>\n<style>");
  out.raw(html_assets::kPageCss.text);
  out.raw("</style>\n</head>\n<body>\n<h1>");
  out.text(report.title);
  if (report.rows_table) return write_rows_page(out, report);
  out.raw("</h1>\n<p class=\"subtitle\">");
  out.text(grouped(report.starts.size()));
  if (report.buckets_per_point > 1) {
    out.raw(" points of ");
    out.text(grouped(report.buckets_per_point));
    out.raw(" buckets");
  } else {
    out.raw(report.starts.size() == 1 ? " bucket" : " buckets");
  }
  out.raw(" &middot; bucket: ");
  out.text(report.bucket_name);
  out.raw(" &middot; times in ");
  out.text(report.time_zone);
  out.raw(" &middot; drag across the chart to zoom in, double-click to zoom out</p>\n");
  write_notes(out, report);
  out.raw("<div id=\"chart\"></div>\n");
  if (!report.panels.empty()) out.raw("<div id=\"panels\"></div>\n");
  if (report.keys_table) {
    out.raw("<section id=\"keys-section\"><h2>Keys</h2><p class=\"subtitle\">");
    out.text(report.keys_table_note);
    out.raw("</p>");
    write_rows_table(out, "keys", *report.keys_table);
    out.raw("</section>\n");
  }
  write_tables(out, report);
  write_data(out, report);
  out.raw("<script>");
  out.raw(html_assets::kUplotJs.text);
  out.raw("</script>\n<script>");
  out.raw(html_assets::kPageJs.text);
  out.raw("</script>\n</body>\n</html>\n");
  out.flush();
}

}  // namespace logagg
