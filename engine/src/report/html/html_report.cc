// The --format html page (html_report.h): the report's title, notes, an
// interactive uPlot chart of the buckets, and the statistics and accounting
// tables, in one file that needs no network. The page is written in order:
// head (uPlot's and the page's style sheets), body text and tables, the
// series as one JSON document in a <script type="application/json">, uPlot's
// script and kPageScript, which parses the JSON and draws the chart.
#include "report/html/html_report.h"

#include <charconv>
#include <string>
#include <string_view>

#include "report/html/html_assets.h"

namespace logagg {
namespace {

constexpr std::string_view kPageStyle = R"css(
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --rule: #d1d9e0; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 24px 32px 40px; max-width: 1400px; color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
h1 { margin: 0 0 4px; font-size: 22px; font-weight: 600; }
h2 { margin: 0 0 8px; font-size: 15px; font-weight: 600; }
.subtitle { margin: 0 0 12px; color: var(--muted); }
.notes { margin: 0 0 12px; padding: 8px 12px 8px 28px; background: #fff8c5; border: 1px solid #eed888;
  border-radius: 6px; }
#chart { width: 100%; min-height: 450px; margin: 8px 0 24px; }
#chart .empty { padding: 180px 0; text-align: center; color: var(--muted); }
.uplot { font-family: inherit; }
.u-legend { font-size: 13px; }
.u-legend .u-value { font-variant-numeric: tabular-nums; }
.tables { display: flex; flex-wrap: wrap; gap: 24px 48px; align-items: flex-start; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 12px; border-bottom: 1px solid var(--rule); text-align: left; }
td { text-align: right; }
th { font-weight: 500; color: var(--muted); }
)css";

// Reads the JSON after the tables (see write_data) and draws it with uPlot.
// Stacked series are drawn as cumulative bands without lines, and "total"
// (the top edge) only in the legend; the legend shows each series' own count
// at the hovered bucket.
// For tests: window.logaggChart is the uPlot instance, and after the first
// draw body[data-points] is the number of points drawn (buckets, or sums of
// buckets_per_point of them), body[data-render-ms] the time from creating the
// chart to its first draw and body[data-ready-ms] the time from the start of
// loading the page to it.
constexpr std::string_view kPageScript = R"js(
"use strict";
(() => {
  const report = JSON.parse(document.getElementById("logagg-data").textContent);
  const chart = document.getElementById("chart");
  const n = report.x.length;
  if (n === 0) {
    chart.innerHTML = '<p class="empty">Nothing was counted.</p>';
    document.body.dataset.points = "0";
    return;
  }
  let zone = report.zone;
  try {
    new Intl.DateTimeFormat("en-US", {timeZone: zone});
  } catch (e) {
    let notes = document.getElementById("notes");
    if (!notes) {
      notes = document.createElement("ul");
      notes.className = "notes";
      notes.id = "notes";
      chart.before(notes);
    }
    notes.appendChild(document.createElement("li")).textContent =
        `This browser does not know the time zone ${zone}: times are shown in UTC.`;
    zone = "UTC";
  }
  const dateParts = new Intl.DateTimeFormat("en-US", {timeZone: zone, hourCycle: "h23", year: "numeric",
      month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"});
  const bucketLabel = t => {
    const p = {};
    for (const {type, value} of dateParts.formatToParts(new Date(t * 1e3))) p[type] = value;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
  const count = new Intl.NumberFormat("en-US");
  const compact = new Intl.NumberFormat("en-US", {notation: "compact", maximumFractionDigits: 1});
  const palette = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7",
                   "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0", "#d4a6c8", "#7d8f31"];
  const ys = report.y;
  const own = y => (u, v, s, i) => i == null ? "--" : count.format(y[i]);
  const series = [{label: `${report.bucket} (${zone})`, value: (u, t) => t == null ? "--" : bucketLabel(t)}];
  report.names.forEach((name, k) => {
    const color = palette[k % palette.length];
    series.push(report.stacked ? {label: name, stroke: color, width: 0, fill: color + "c0", value: own(ys[k])}
                               : {label: name, stroke: color, width: 1, fill: color + "30", value: own(ys[k])});
  });
  // Each shown series is drawn as the sum of itself and the shown ones before
  // it, filled down to the previous one (a band); hidden ones keep their data.
  const stack = u => {
    const sum = new Float64Array(n);
    const stacked = [];
    const bands = [];
    let below = 0;
    ys.forEach((y, k) => {
      if (u && !u.series[1 + k].show) return stacked.push(y);
      const top = new Float64Array(n);
      for (let i = 0; i < n; i++) top[i] = sum[i] += y[i];
      stacked.push(top);
      if (below > 0) bands.push({series: [1 + k, below], fill: series[1 + k].fill});
      below = 1 + k;
    });
    return {stacked, bands};
  };
  let data = [report.x].concat(ys);
  let bands = [];
  const total = new Float64Array(report.stacked ? n : 0);
  if (report.stacked) {
    for (const y of ys) for (let i = 0; i < n; i++) total[i] += y[i];
    const s = stack(null);
    series.push({label: "total", stroke: "#1f2328", paths: () => null, value: own(total)});
    data = [report.x].concat(s.stacked, [total]);
    bands = s.bands;
  }
  const restack = u => {
    const s = stack(u);
    u.delBand(null);
    s.bands.forEach(b => u.addBand(b));
    u.setData([report.x].concat(s.stacked, [total]));
  };
  // Time axis labels, 24-hour and year-month-day; columns as in uPlot's
  // default: smallest tick step (s), label, then labels where the year, month,
  // day, hour, minute or second rolls over (appended: mode 1).
  const ymd = "\n{YYYY}-{MM}-{DD}";
  const timeTicks = [
    [365 * 86400, "{YYYY}", null, null, null, null, null, null, 1],
    [28 * 86400, "{YYYY}-{MM}", null, null, null, null, null, null, 1],
    [86400, "{MM}-{DD}", "\n{YYYY}", null, null, null, null, null, 1],
    [60, "{HH}:{mm}", ymd, null, ymd, null, null, null, 1],
    [1, "{HH}:{mm}:{ss}", ymd, null, ymd, null, null, null, 1],
  ];
  const width = () => chart.clientWidth;
  let started = 0;
  const opts = {
    width: width(),
    height: 450,
    padding: [null, 40, null, null],  // room for the last time label's date
    series,
    bands,
    tzDate: t => uPlot.tzDate(new Date(t * 1e3), zone),
    scales: {y: {range: (u, min, max) => [0, uPlot.rangeNum(0, Math.max(max, 1), 0.1, true)[1]]}},
    axes: [{values: timeTicks},
           {size: 60, values: (u, splits) => splits.map(v => v < 1e4 ? count.format(v) : compact.format(v))}],
    cursor: {drag: {x: true, y: false}},
    hooks: {
      draw: [u => {
        if (document.body.dataset.points) return;
        document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
        document.body.dataset.readyMs = performance.now().toFixed(1);
        document.body.dataset.points = String(u.data[0].length);
      }],
      setSeries: report.stacked ? [restack] : [],
    },
  };
  started = performance.now();
  const u = new uPlot(opts, data, chart);
  window.logaggChart = u;
  window.addEventListener("resize", () => u.setSize({width: width(), height: 450}));
})();
)js";

constexpr size_t kChunk = 64 * 1024;

// Buffers the page and hands it to the sink in chunks of about kChunk bytes.
class PageWriter {
 public:
  explicit PageWriter(const ReportSink& sink) : sink_(sink) { buffer_.reserve(kChunk + 1024); }

  void raw(std::string_view text) {
    if (buffer_.size() + text.size() > kChunk) flush();
    buffer_.append(text);
  }

  // Text in element content or a quoted attribute value.
  void text(std::string_view text) {
    for (char c : text) {
      switch (c) {
        case '&': buffer_.append("&amp;"); break;
        case '<': buffer_.append("&lt;"); break;
        case '>': buffer_.append("&gt;"); break;
        case '"': buffer_.append("&quot;"); break;
        case '\'': buffer_.append("&#39;"); break;
        default: buffer_.push_back(c);
      }
    }
    if (buffer_.size() >= kChunk) flush();
  }

  // A JSON string; '<' is escaped too, so "</script" cannot occur.
  void json_string(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    buffer_.push_back('"');
    for (char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        buffer_.push_back('\\');
        buffer_.push_back(c);
      } else if (byte < 0x20 || c == '<') {
        buffer_.append("\\u00");
        buffer_.push_back(kHex[byte >> 4]);
        buffer_.push_back(kHex[byte & 15]);
      } else {
        buffer_.push_back(c);
      }
    }
    buffer_.push_back('"');
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

// {"zone": ..., "bucket": ..., "stacked": ..., "names": [...], "x": [point
// starts (HtmlReport::starts)], "y": [[counts of names[0]], ...]}
void write_data(PageWriter& out, const HtmlReport& report) {
  out.raw("<script type=\"application/json\" id=\"logagg-data\">{\"zone\":");
  out.json_string(report.time_zone);
  out.raw(",\"bucket\":");
  out.json_string(report.bucket_name);
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
  out.raw("]}</script>\n");
}

}  // namespace

void write_html_report(const HtmlReport& report, const ReportSink& sink) {
  PageWriter out(sink);
  out.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"logagg, uPlot ");
  out.raw(html_assets::kUplotVersion);
  out.raw("\">\n<title>");
  out.text(report.title);
  out.raw("</title>\n<style>\n");
  out.raw(html_assets::kUplotCss);
  out.raw("</style>\n<style>");
  out.raw(kPageStyle);
  out.raw("</style>\n</head>\n<body>\n<h1>");
  out.text(report.title);
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
  if (!report.notes.empty()) {
    out.raw("<ul class=\"notes\" id=\"notes\">\n");
    for (const std::string& note : report.notes) {
      out.raw("<li>");
      out.text(note);
      out.raw("</li>\n");
    }
    out.raw("</ul>\n");
  }
  out.raw("<div id=\"chart\"></div>\n<div class=\"tables\">\n");
  write_table(out, "stats", "Statistics", report.stats);
  write_table(out, "accounting", "Lines", report.accounting);
  out.raw("</div>\n");
  write_data(out, report);
  out.raw("<script>\n");
  out.raw(html_assets::kUplotJs);
  out.raw("</script>\n<script>");
  out.raw(kPageScript);
  out.raw("</script>\n</body>\n</html>\n");
  out.flush();
}

}  // namespace logagg
