// Report and summary formatting (see report.h).
#include "logagg/report.h"

#include <algorithm>
#include <cstdio>

#include "parse/rfc3339.h"
#include "report/stats.h"
#include "report/html/html_report.h"
#include "report/report_rows.h"
#include "report/report_text.h"

namespace logagg {
namespace {

// Accumulates report text and hands it to the sink in chunks, so a report of
// millions of rows never sits in memory whole. A sink that throws is not
// called again.
class Output {
 public:
  explicit Output(const ReportSink& sink) : sink_(sink) {}
  std::string& text() { return buf_; }
  void row_done() {
    if (buf_.size() >= kChunkBytes) flush();
  }
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  const ReportSink& sink_;
  std::string buf_;
};

void write_csv(const ReportRows& rows, Output& o) {
  std::string& out = o.text();
  out.append(rows.bucketing().column()).append(rows.by_app() ? ",app_id,count\n" : ",count\n");
  rows.for_each([&](int64_t start, std::string_view app, uint64_t count) {
    append_start(out, rows.bucketing(), start);
    out.push_back(',');
    if (rows.by_app()) out.append(app).push_back(',');
    append_number(out, count);
    out.push_back('\n');
    o.row_done();
  });
}

void write_table(const Result& r, const ReportRows& rows, Output& o) {
  const std::string total = std::to_string(r.summary.counted);
  const size_t count_width = std::max<size_t>(total.size(), 5);
  // "YYYY-MM-DDThh:mm:ssZ", or "YYYY-MM-DDThh:mm:ss+hh:mm" in a zone
  const size_t second_width = rows.bucketing().zone() != nullptr ? 25 : 20;
  size_t app_width = 0;  // no app column without --by-app
  if (rows.by_app()) {
    app_width = std::string_view("app_id").size();
    for (const std::string& app : rows.apps()) app_width = std::max(app_width, app.size());
  }
  std::string& out = o.text();
  append_padded(out, rows.bucketing().column(), second_width, false);
  out.append("  ");
  if (rows.by_app()) {
    append_padded(out, "app_id", app_width, false);
    out.append("  ");
  }
  append_padded(out, "count", count_width, true);
  out.push_back('\n');
  rows.for_each([&](int64_t start, std::string_view app, uint64_t count) {
    char buf[kBucketStartMaxChars];
    const auto len = static_cast<size_t>(rows.bucketing().format_start(start, buf));
    append_padded(out, std::string_view(buf, len), second_width, false);
    out.append("  ");
    if (rows.by_app()) {
      append_padded(out, app, app_width, false);
      out.append("  ");
    }
    append_padded(out, std::to_string(count), count_width, true);
    out.push_back('\n');
    o.row_done();
  });
  append_padded(out, "total", second_width + (rows.by_app() ? app_width + 2 : 0), false);
  out.append("  ");
  append_padded(out, total, count_width, true);
  out.push_back('\n');
}

// The "stats" object of the json document; null where an empty series has no value.
void append_json_stats(std::string& out, const Result& r, const ReportRows& rows, const ReportStats& stats) {
  const BucketStats& st = stats.buckets;
  const Bucketing& bucketing = rows.bucketing();
  const bool any = st.buckets > 0;
  const auto field = [&](const char* key, auto&& append_value, bool last = false) {
    out.append("    \"").append(key).append("\": ");
    if (any) {
      append_value();
    } else {
      out.append("null");
    }
    out.append(last ? "\n" : ",\n");
  };
  const auto quoted_second = [&](int64_t second) {
    out.push_back('"');
    append_start(out, bucketing, second);
    out.push_back('"');
  };
  out.append("  \"stats\": {\n    \"buckets\": ");
  append_number(out, st.buckets);
  out.append(",\n    \"empty_buckets\": ");
  append_number(out, st.empty);
  out.append(",\n    \"total\": ");
  append_number(out, st.total);
  out.append(",\n");
  field("first", [&] { quoted_second(st.first); });
  field("last", [&] { quoted_second(st.last); });
  field("peak", [&] {
    out.append("{\"bucket\": ");
    quoted_second(st.peak);
    out.append(", \"count\": ");
    append_number(out, st.max);
    out.push_back('}');
  });
  field("mean", [&] { out.append(ratio_text(st.total, st.buckets)); });
  field("median", [&] { append_number(out, st.median); });
  field("p95", [&] { append_number(out, st.p95); });
  field("p99", [&] { append_number(out, st.p99); });
  field("max", [&] { append_number(out, st.max); }, !rows.by_app());
  if (rows.by_app()) {
    out.append("    \"top_apps\": [");
    const std::vector<AppTotal>& top = stats.ranked_apps;
    for (size_t i = 0; i < top.size(); ++i) {
      out.append(i == 0 ? "\n      {\"app_id\": \"" : ",\n      {\"app_id\": \"");
      out.append(r.apps[top[i].app]).append("\", \"count\": ");
      append_number(out, top[i].count);
      out.append(", \"percent\": ").append(ratio_text(top[i].count * 100, st.total)).push_back('}');
    }
    out.append(top.empty() ? "]\n" : "\n    ]\n");
  }
  out.append("  }\n");
}

void write_json(const Result& r, const ReportRows& rows, const Options& options, const ReportOptions& report,
                Output& o) {
  const Summary& s = r.summary;
  std::string& out = o.text();
  out.append("{\n  \"logagg\": 1,\n  \"bucket\": \"").append(rows.bucketing().name()).append("\",\n  \"app_field\": ");
  append_json_string(out, options.app_field);
  out.append(",\n  \"time_field\": ");
  append_json_string(out, options.time_field);
  if (const TimeZone* zone = rows.bucketing().zone()) {  // only with --tz, so merges can refuse others
    out.append(",\n  \"tz\": ");
    append_json_string(out, time_zone_name(*zone));
  }
  if (rows.by_app()) {  // only with --by-app, so merges can refuse others
    out.append(",\n  \"by_app\": true");
    if (report.top != 0) {
      out.append(",\n  \"top\": ");
      append_number(out, report.top);
    }
    if (r.apps_capped) {
      out.append(",\n  \"max_apps\": ");
      append_number(out, options.max_apps);
    }
  }
  // Only with --since / --until: the range, so merges can refuse others.
  for (const auto& [key, bound] : {std::pair{"since", options.since}, std::pair{"until", options.until}}) {
    if (!bound) continue;
    out.append(",\n  \"").append(key).append("\": \"");
    append_second(out, *bound);
    out.push_back('"');
  }
  out.append(",\n  \"counts\": [");
  const std::string row_start = "\n    {\"" + rows.bucketing().column() + "\": \"";
  bool first = true;
  rows.for_each([&](int64_t start, std::string_view app, uint64_t count) {
    if (!first) out.push_back(',');
    first = false;
    out.append(row_start);
    append_start(out, rows.bucketing(), start);
    if (rows.by_app()) out.append("\", \"app_id\": \"").append(app);
    out.append("\", \"count\": ");
    append_number(out, count);
    out.push_back('}');
    o.row_done();
  });
  out.append(first ? "],\n" : "\n  ],\n");
  out.append("  \"summary\": {\n");
  const std::pair<const char*, uint64_t> fields[] = {
      {"files", s.files},     {"unreadable", s.unreadable}, {"bytes", s.bytes},
      {"lines", s.lines},     {"counted", s.counted},       {"blank", s.blank},
      {"rejected", s.rejected_total()}};
  for (const auto& [key, value] : fields) {
    out.append("    \"").append(key).append("\": ");
    append_number(out, value);
    out.append(",\n");
    if (key == std::string_view("counted") && (options.since || options.until)) {
      out.append("    \"outside_range\": ");
      append_number(out, s.outside_range);
      out.append(",\n");
    }
  }
  out.append("    \"rejected_by_reason\": {");
  for (size_t i = 0; i < kReasonCount; ++i) {
    out.append(i == 0 ? "\n      \"" : ",\n      \"");
    out.append(reason_key(static_cast<Reason>(i))).append("\": ");
    append_number(out, s.rejected[i]);
  }
  out.append("\n    }\n  },\n");
  append_json_stats(out, r, rows,
                    report_stats(r, rows.by_app(), rows.buckets(), rows.bucketing(), report.top));
  out.append("}\n");
}

}  // namespace

void write_report(const Result& result, const Options& options, const ReportOptions& report,
                  const ReportSink& sink) {
  if (report.format == Format::kHtml) return write_html_report(make_html_report(result, options, report), sink);
  const ReportRows rows(result, options.by_app, report);
  Output out(sink);
  switch (report.format) {
    case Format::kCsv:
      write_csv(rows, out);
      break;
    case Format::kJson:
      write_json(result, rows, options, report, out);
      break;
    case Format::kTable:
      write_table(result, rows, out);
      break;
    case Format::kHtml:
      break;  // above
  }
  out.flush();
}

std::string format_report(const Result& result, const Options& options, const ReportOptions& report) {
  std::string text;
  write_report(result, options, report, [&text](std::string_view chunk) { text.append(chunk); });
  return text;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

std::string format_summary(const Summary& s) {
  char buf[256];
  const double secs = std::max(s.elapsed_seconds, 1e-9);
  std::snprintf(buf, sizeof buf,
                "logagg: %llu file%s (%llu unreadable), %s, %llu lines in %.3f s (%s/s, %.2f M lines/s)\n",
                static_cast<unsigned long long>(s.files), s.files == 1 ? "" : "s",
                static_cast<unsigned long long>(s.unreadable), human_bytes(static_cast<double>(s.bytes)).c_str(),
                static_cast<unsigned long long>(s.lines), s.elapsed_seconds,
                human_bytes(static_cast<double>(s.bytes) / secs).c_str(), static_cast<double>(s.lines) / secs / 1e6);
  std::string out = buf;
  auto row = [&](int indent, std::string_view label, uint64_t n) {
    std::snprintf(buf, sizeof buf, "%*s%-*.*s %12llu\n", indent, "", 30 - indent, static_cast<int>(label.size()),
                  label.data(), static_cast<unsigned long long>(n));
    out.append(buf);
  };
  row(2, "counted", s.counted);
  if (s.outside_range != 0) row(2, "outside --since/--until", s.outside_range);
  row(2, "blank", s.blank);
  row(2, "rejected", s.rejected_total());
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] != 0) row(4, reason_text(static_cast<Reason>(i)), s.rejected[i]);
  }
  return out;
}

std::string format_stats(const Result& result, const Options& options, const ReportOptions& report) {
  const ReportRows rows(result, options.by_app, report);
  const ReportStats stats = report_stats(result, options.by_app, rows.buckets(), rows.bucketing(), report.top);
  const BucketStats& st = stats.buckets;
  std::string out = "logagg: stats per " + rows.bucketing().name();
  if (st.buckets == 0) return out + ": no counted lines\n";
  out.append(": ");
  append_number(out, st.buckets);
  out.append(st.buckets == 1 ? " bucket, " : " buckets, ");
  append_start(out, rows.bucketing(), st.first);
  out.append(" to ");
  append_start(out, rows.bucketing(), st.last);
  out.append(" (");
  append_number(out, st.empty);
  out.append(" empty)\n");
  auto row = [&](std::string_view label, const std::string& value) {
    out.append("  ");
    append_padded(out, label, 28, false);
    // Values end in column 43; a longer label (a peak's start with its
    // offset) takes from the value's padding.
    append_padded(out, value, 41 - std::min<size_t>(std::max<size_t>(label.size(), 28), 41 - value.size()), true);
    out.push_back('\n');
  };
  std::string peak = "peak at ";
  append_start(peak, rows.bucketing(), st.peak);
  row("total", std::to_string(st.total));
  row(peak, std::to_string(st.max));
  row("mean", ratio_text(st.total, st.buckets));
  row("median", std::to_string(st.median));
  row("p95", std::to_string(st.p95));
  row("p99", std::to_string(st.p99));
  row("max", std::to_string(st.max));
  if (options.by_app) {
    out.append("  top apps by lines:\n");
    for (const AppTotal& t : stats.ranked_apps) {
      out.append("    ");
      append_padded(out, result.apps[t.app], 26, false);
      append_padded(out, std::to_string(t.count), 13, true);
      append_padded(out, ratio_text(t.count * 100, st.total) + "%", 10, true);
      out.push_back('\n');
    }
  }
  return out;
}

std::string format_rejects(const Result& result) {
  std::string out;
  for (const RejectSample& r : result.rejects) {
    out.append(r.path).push_back(':');
    append_number(out, r.line);
    out.append(": ").append(reason_text(r.reason)).push_back('\n');
  }
  return out;
}

}  // namespace logagg
