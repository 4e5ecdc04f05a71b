// Tests for the --format html writer (report/html/html_report.cc) with hostile
// strings in every place input reaches the page: text escaping in the title,
// notes and tables, the JSON strings of the data <script> (read back exactly),
// and the Content-Security-Policy as the first element of <head>; the rows
// table of --overall's page, escaped alike. That the
// page runs and shows the ids as text in a browser is html_hostile's.
#include "report/html/html_report.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <regex>
#include <string>
#include <vector>

namespace logagg {
namespace {

using namespace std::string_literals;

const std::vector<std::string> kHostile = {
    "</script><img src=x onerror=alert(1)>",
    "\"><svg onload=alert(2)>",
    "'",
    "&amp;",
    "line\u2028and\u2029paragraph",
    "nul\0byte"s,
    "\u202egnp.exe",
    "<!--<script>",
    "]]>",
    "cr\rlf\nend",
};

std::string page_of(const HtmlReport& report) {
  std::string page;
  write_html_report(report, [&](std::string_view chunk) { page.append(chunk); });
  return page;
}

HtmlReport hostile_report() {
  HtmlReport r;
  r.title = "logagg: <b>title</b>";
  r.bucket_name = "second";
  r.time_zone = "UTC";
  r.starts = {1700000000};
  r.stacked = true;
  for (const std::string& id : kHostile) {
    r.series.push_back({id, {1}});
    r.stats.emplace_back("app " + id, "1 (10%)");
  }
  r.accounting.emplace_back("  app id does not match .+|<img src=x onerror=alert(7)>", "1");
  r.notes.push_back("note <i>" + kHostile[0]);
  return r;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlReport, TextIsEscapedWhereverInputIsShown) {
  const std::string page = page_of(hostile_report());
  for (const char* markup : {"<img", "<svg", "<b>", "<i>", "<!--"}) {
    EXPECT_EQ(page.find(markup), std::string::npos) << markup;
  }
  for (const char* shown : {
           "<title>logagg: &lt;b&gt;title&lt;/b&gt;</title>",
           "<li>note &lt;i&gt;&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</li>",
           "<th>app &quot;&gt;&lt;svg onload=alert(2)&gt;</th>",
           "<th>app &#39;</th>",
           "<th>app &amp;amp;</th>",
           "<th>app &lt;!--&lt;script&gt;</th>",
           "<th>app ]]&gt;</th>",
           // CR survives the parser as a reference; NUL, which HTML cannot hold, is U+FFFD.
           "<th>app cr&#13;lf\nend</th>",
           "<th>app nul&#xFFFD;byte</th>",
           "<th>app line\u2028and\u2029paragraph</th>",
           "<th>  app id does not match .+|&lt;img src=x onerror=alert(7)&gt;</th>",
       }) {
    EXPECT_NE(page.find(shown), std::string::npos) << shown;
  }
  EXPECT_EQ(page.find('\0'), std::string::npos);
  EXPECT_EQ(page.find('\r'), std::string::npos);
}

TEST(HtmlReport, TheWholeInputsRowsAreATableOfEscapedTextWithoutScript) {
  HtmlReport r = hostile_report();
  r.rows_table.emplace();
  r.rows_table->columns = {"host <b>", "count", "share"};
  for (const std::string& id : kHostile) r.rows_table->rows.push_back({id, "1", "10.000%"});
  const std::string page = page_of(r);
  EXPECT_EQ(page.find("<script"), std::string::npos) << "no chart, no script";
  EXPECT_EQ(page.find("<div id=\"chart\">"), std::string::npos);
  for (const char* markup : {"<img", "<svg", "<b>", "<i>", "<!--"}) {
    EXPECT_EQ(page.find(markup), std::string::npos) << markup;
  }
  for (const char* shown :
       {"<p class=\"subtitle\">10 rows &middot; busiest first</p>",
        "<table id=\"rows\">\n<tr><th>host &lt;b&gt;</th><th>count</th><th>share</th></tr>\n",
        "<tr><td>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</td><td>1</td><td>10.000%</td></tr>",
        "<td>nul&#xFFFD;byte</td>", "<table id=\"stats\">", "<table id=\"accounting\">"}) {
    EXPECT_NE(page.find(shown), std::string::npos) << shown;
  }
}

TEST(HtmlReport, DataScriptHoldsTheIdsExactlyAndNoMarkup) {
  const std::string page = page_of(hostile_report());
  const std::string open = "<script type=\"application/json\" id=\"logagg-data\">";
  const size_t begin = page.find(open) + open.size();
  const size_t end = page.find("</script>", begin);
  ASSERT_NE(end, std::string::npos);
  const std::string json = page.substr(begin, end - begin);
  for (const char* raw : {"<", ">", "&", "\u2028", "\u2029", "\r"}) {
    EXPECT_EQ(json.find(raw), std::string::npos) << "raw " << raw << " in " << json;
  }
  for (const char* escaped : {R"("\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e")", R"("\u0026amp;")",
                              R"("line\u2028and\u2029paragraph")", R"("nul\u0000byte")"}) {
    EXPECT_NE(json.find(escaped), std::string::npos) << escaped;
  }

  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(padded).get(doc), simdjson::SUCCESS) << json;
  std::vector<std::string> names;
  for (const simdjson::dom::element name : doc["names"].get_array()) names.emplace_back(name.get_string().value());
  EXPECT_EQ(names, kHostile);
  EXPECT_EQ(json.find("\"m\""), std::string::npos) << "no measures, no \"m\"";
}

// The data <script>'s JSON, parsed.
simdjson::dom::element data_of(const std::string& page, simdjson::dom::parser& parser, std::string& json) {
  const std::string open = "<script type=\"application/json\" id=\"logagg-data\">";
  const size_t begin = page.find(open) + open.size();
  json = page.substr(begin, page.find("</script>", begin) - begin);
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  return doc;
}

TEST(HtmlReport, PanelsMeasuresAndKeysAreReadBackWithTheirAxesUnitsAndNulls) {
  HtmlReport r = hostile_report();
  r.starts = {1700000000, 1700000001};
  for (HtmlSeries& s : r.series) s.values = {1, 0};
  r.count_axis = "requests per second";
  r.panels.push_back({"lines matching --count-if", "requests per second", "% of the lines counted"});
  r.panels.push_back({kHostile[1], "latency (ms)", ""});
  r.measures.push_back({"count(" + kHostile[0] + ")", 0, false, "", {"1", "null"}});
  r.measures.push_back({"ratio(" + kHostile[0] + ")", 0, true, "ratio", {"0.25", "null"}});
  r.measures.push_back({"p99(latency)", 1, false, "ms", {"12.5", "null"}});
  r.key_starts = {1700000000};
  r.key_values.assign(r.series.size(), {{"1"}, {"0.5"}, {"null"}});
  r.key_values[1][2] = {"7"};
  r.keys_table = HtmlReport::RowsTable{{"app", "count"}, {{kHostile[0], "1"}}};
  r.keys_table_note = "note " + kHostile[1];
  r.totals.emplace_back("p99(" + kHostile[0] + ")", "12.5 ms");
  const std::string page = page_of(r);
  simdjson::dom::parser parser;
  std::string json;
  const simdjson::dom::element doc = data_of(page, parser, json);
  EXPECT_EQ(std::string(doc["count_axis"].get_string().value()), "requests per second");
  const simdjson::dom::array panels = doc["panels"].get_array();
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(std::string(panels.at(0)["right"].get_string().value()), "% of the lines counted");
  EXPECT_EQ(std::string(panels.at(1)["title"].get_string().value()), kHostile[1]);
  EXPECT_EQ(std::string(panels.at(1)["right"].get_string().value()), "");
  const simdjson::dom::array m = doc["m"].get_array();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(std::string(m.at(0)["name"].get_string().value()), "count(" + kHostile[0] + ")");
  EXPECT_TRUE(m.at(1)["right"].get_bool().value());
  EXPECT_EQ(m.at(2)["panel"].get_uint64().value(), 1u);
  EXPECT_FALSE(m.at(2)["right"].get_bool().value());
  EXPECT_EQ(std::string(m.at(2)["unit"].get_string().value()), "ms");
  EXPECT_EQ(m.at(2)["v"].at(0).get_double().value(), 12.5);
  EXPECT_TRUE(m.at(2)["v"].at(1).is_null());
  const simdjson::dom::element k = doc["k"];
  EXPECT_EQ(k["x"].get_array().size(), 1u);
  ASSERT_EQ(k["v"].get_array().size(), kHostile.size());
  EXPECT_EQ(k["v"].at(1).at(2).at(0).get_double().value(), 7.0);
  EXPECT_TRUE(k["v"].at(0).at(2).at(0).is_null());
  EXPECT_EQ(k["v"].at(0).at(1).at(0).get_double().value(), 0.5);
  // The keys' table, its note and the totals as text.
  EXPECT_NE(page.find("<table id=\"keys\">"), std::string::npos);
  EXPECT_NE(page.find("<table id=\"totals\">"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<svg"), std::string::npos);
}

TEST(HtmlReport, PolicyIsFirstInHeadAndAllowsOnlyThePagesOwnScriptsAndStyles) {
  const std::string page = page_of(hostile_report());
  const std::string hash = "'sha256-[A-Za-z0-9+/]{43}='";
  const std::regex head(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src " +
      hash + " " + hash + "; style-src " + hash + " " + hash +
      "; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'\">\n");
  const size_t charset = page.find("<meta charset=\"utf-8\">");
  ASSERT_NE(charset, std::string::npos);
  EXPECT_TRUE(std::regex_match(page.substr(0, charset), head)) << page.substr(0, charset);
  // Two scripts that run (uPlot's and the page's), the data one, two style sheets:
  // as many as the policy names, and no inline style or handler attribute.
  EXPECT_EQ(occurrences(page, "<script>"), 2u);
  EXPECT_EQ(occurrences(page, "<script"), 3u);
  EXPECT_EQ(occurrences(page, "</script>"), 3u);
  EXPECT_EQ(occurrences(page, "<style>"), 2u);
  EXPECT_EQ(occurrences(page, "<style"), 2u);
  std::string markup = page;  // without the scripts' and style sheets' text
  for (const auto& [open, close] : {std::pair{"<script", "</script>"}, std::pair{"<style>", "</style>"}}) {
    for (size_t at; (at = markup.find(open)) != std::string::npos;) markup.erase(at, markup.find(close, at) + 1 - at);
  }
  EXPECT_FALSE(std::regex_search(markup, std::regex("<[a-z][^<>]* (style|on[a-z]+)="))) << markup;
  EXPECT_EQ(markup.find("<!DOCTYPE html>"), 0u);
  EXPECT_NE(markup.find("</body>"), std::string::npos);
}

}  // namespace
}  // namespace logagg
