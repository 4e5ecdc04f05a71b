// The report of report.h: write_report picks the format (table and csv are
// written by row_writer.cc, json by document_writer.cc, html by html/), and the summary,
// statistics and reject texts for stderr.
#include "logagg/report.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <stdexcept>

#ifndef LOGAGG_WITH_HTML
#define LOGAGG_WITH_HTML 0
#endif

#include "logagg/rfc3339.h"
#include "report/stats.h"
#if LOGAGG_WITH_HTML
#include "report/html/html_report.h"
#endif
#include "report/document_writer.h"
#include "report/measure_text.h"
#include "report/report_output.h"
#include "report/report_rows.h"
#include "report/report_text.h"
#include "report/row_writer.h"
#include "report/terminal_text.h"

namespace logagg {
namespace {

// `text` as terminal_text shows it, padded with spaces to `width` columns.
void append_terminal_padded(std::string& out, std::string_view text, size_t width) {
  const size_t at = out.size();
  append_terminal_text(out, text);
  const size_t columns = display_width(std::string_view(out).substr(at));
  if (columns < width) out.append(width - columns, ' ');
}

}  // namespace

void write_report(const Result& result, const ReportOptions& report, const ReportSink& sink) {
  if (report.format == Format::kHtml) {
#if LOGAGG_WITH_HTML
    return write_html_report(make_html_report(result, report), sink);
#else
    throw std::invalid_argument("this logagg was built without --format html (LOGAGG_WITH_HTML=OFF)");
#endif
  }
  const ReportRows rows(result, result.query.key_columns(), report);
  Output out(sink);
  switch (report.format) {
    case Format::kCsv:
    case Format::kTable:
      write_report_rows(rows, report, result.summary.counted, &result.query.measures(), out);
      break;
    case Format::kJson:
      write_result_json(result, rows, report, out);
      break;
    case Format::kHtml:
      break;  // above
  }
  out.flush();
}

void write_live_html_report(const Result& result, const ReportOptions& report, const LiveHtml& live,
                            const ReportSink& sink) {
#if LOGAGG_WITH_HTML
  write_html_report(make_live_html_report(result, report, live), sink);
#else
  static_cast<void>(result), static_cast<void>(report), static_cast<void>(live), static_cast<void>(sink);
  throw std::invalid_argument("this logagg was built without --format html (LOGAGG_WITH_HTML=OFF)");
#endif
}

std::string live_html_data(const Result& result, const ReportOptions& report, size_t keys) {
#if LOGAGG_WITH_HTML
  ReportOptions busiest = report;
  busiest.top = keys;
  const HtmlReport page = make_html_report(result, busiest);
  return page.binned() ? std::string() : write_html_data(page);
#else
  static_cast<void>(result), static_cast<void>(report), static_cast<void>(keys);
  throw std::invalid_argument("this logagg was built without --format html (LOGAGG_WITH_HTML=OFF)");
#endif
}

bool has_html_format() noexcept { return LOGAGG_WITH_HTML; }

std::string format_report(const Result& result, const ReportOptions& report) {
  std::string text;
  write_report(result, report, [&text](std::string_view chunk) { text.append(chunk); });
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

std::string format_summary(const Summary& s, const Query& counted_with, const std::vector<SummaryRow>& more) {
  const Question& question = counted_with.question();
  char buf[256];
  const double secs = std::max(s.elapsed_seconds, 1e-9);
  std::snprintf(buf, sizeof buf,
                "logagg: %llu file%s (%llu unreadable), %s, %llu lines in %.3f s (%s/s, %.2f M lines/s)\n",
                static_cast<unsigned long long>(s.files), s.files == 1 ? "" : "s",
                static_cast<unsigned long long>(s.unreadable), human_bytes(static_cast<double>(s.bytes)).c_str(),
                static_cast<unsigned long long>(s.lines), s.elapsed_seconds,
                human_bytes(static_cast<double>(s.bytes) / secs).c_str(), static_cast<double>(s.lines) / secs / 1e6);
  std::string out = buf;
  // The labels' column is 30 wide, or as wide as the longest reason (a
  // non-default pattern or time format is named in its reason's text).
  std::string reasons[kReasonCount];
  size_t column = 30;
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] == 0) continue;
    reasons[i] = terminal_text(reason_text(static_cast<Reason>(i), question));
    column = std::max(column, 4 + display_width(reasons[i]));
  }
  auto row = [&](size_t indent, std::string_view label, uint64_t n) {
    out.append(indent, ' ');
    append_padded(out, label, column - indent, false);
    out.push_back(' ');
    append_padded(out, std::to_string(n), 12, true);
    out.push_back('\n');
  };
  row(2, "counted", s.counted);
  for (size_t i = 0; i < s.time_forms.size(); ++i) {  // auto: by the form of their time
    if (s.time_forms[i] != 0) row(4, "time in " + std::string(time_form_key(static_cast<TimeForm>(i))), s.time_forms[i]);
  }
  const std::span<const std::string> by = counted_with.by_columns();
  for (size_t i = 0; i < by.size() && i < s.no_value.size(); ++i) {  // under (none)
    if (s.no_value[i] != 0) row(4, "no " + terminal_text(by[i]), s.no_value[i]);
  }
  const MeasureSpec& spec = counted_with.measures();
  for (size_t i = 0; i < spec.fields.size() && i < s.no_measure.size(); ++i) {  // not in n(F)
    if (s.no_measure[i] != 0) row(4, "no number in " + terminal_text(spec.fields[i].name), s.no_measure[i]);
  }
  if (s.outside_range != 0) row(2, "outside --since/--until", s.outside_range);
  row(2, "blank", s.blank);
  row(2, "rejected", s.rejected_total());
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] != 0) row(4, reasons[i], s.rejected[i]);
  }
  if (!question.where.empty()) {
    row(2, "filtered", s.filtered());
    for (size_t i = 0; i < question.where.size() && i < s.filtered_by.size(); ++i) {
      if (s.filtered_by[i] != 0) row(4, "not " + terminal_text(question.where[i]), s.filtered_by[i]);
    }
  }
  for (const SummaryRow& r : more) row(2, r.label, r.count);
  return out;
}

std::string format_stats(const Result& result, const ReportOptions& report) {
  const Query& query = result.query;
  const ReportRows rows(result, query.key_columns(), report);
  const ReportStats stats = report_stats(result, query.keyed(), rows.buckets(), rows.bucketing(), report.top);
  const BucketStats& st = stats.buckets;
  std::string out = stats.over_time ? "logagg: stats per " + rows.bucketing().name() : "logagg: stats of the whole run";
  if (st.buckets == 0) return out + ": no counted lines\n";
  if (stats.over_time) {
    out.append(": ");
    append_number(out, st.buckets);
    out.append(st.buckets == 1 ? " bucket, " : " buckets, ");
    out.append(stats.first).append(" to ").append(stats.last).append(" (");
    append_number(out, st.empty);
    out.append(" empty)\n");
  } else {
    out.append(":\n");
  }
  auto row = [&](std::string_view label, const std::string& value) {
    out.append("  ");
    append_padded(out, label, 28, false);
    // Values end in column 43; a longer label (a peak's start with its
    // offset) takes from the value's padding.
    append_padded(out, value, 41 - std::min<size_t>(std::max<size_t>(label.size(), 28), 41 - value.size()), true);
    out.push_back('\n');
  };
  row("total", std::to_string(st.total));
  if (stats.over_time) {
    row("peak at " + stats.peak, std::to_string(st.max));
    for (const auto& [name, value] : stats.figures) row(name, value);
  }
  if (query.measured()) {
    out.append("  measures of all counted lines:\n");
    const MeasureText measures(query.measures(), report.units);
    std::vector<MeasureText::Value> values;
    measures.values(stats.measures ? &*stats.measures : nullptr, st.total, values);
    for (size_t c = 0; c < values.size(); ++c) {
      row("  " + terminal_text(measures.columns()[c]), values[c].present ? values[c].text : "-");
    }
  }
  if (query.keyed()) {
    out.append(query.by_keys() ? "  top keys by lines:\n" : "  top apps by lines:\n");
    const size_t parts = query.key_columns().size();
    for (const ReportStats::RankedApp& app : stats.ranked_apps) {
      out.append("    ");
      append_terminal_padded(out, key_text(app.id, parts), 26);
      append_padded(out, std::to_string(app.count), 13, true);
      append_padded(out, app.percent + "%", 10, true);
      out.push_back('\n');
    }
  }
  return out;
}

std::string format_rejects(const Result& result) {
  std::string out;
  for (const RejectSample& r : result.rejects) {
    append_terminal_text(out, r.path);
    out.push_back(':');
    append_number(out, r.line);
    out.append(": ");
    append_terminal_text(out, reason_text(r.reason, result.query.question()));  // may name --app-pattern's regex
    out.push_back('\n');
  }
  return out;
}

}  // namespace logagg
