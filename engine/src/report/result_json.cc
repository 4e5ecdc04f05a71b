// The result document of `--format json` (write_result_json): its settings,
// rows, line accounting and statistics. `logagg merge` reads it back in
// merge/result_reader.cc.
#include "report/result_json.h"

#include <string>
#include <tuple>
#include <utility>

#include "report/report_text.h"
#include "report/row_writer.h"
#include "report/stats.h"

namespace logagg {
namespace {

// The "stats" object of the json document; null where an empty series has no value.
void append_json_stats(std::string& out, const ReportStats& stats, bool by_app) {
  const BucketStats& st = stats.buckets;
  const bool any = st.buckets > 0;
  const auto field = [&](std::string_view key, auto&& append_value, bool last = false) {
    out.append("    \"").append(key).append("\": ");
    if (any) {
      append_value();
    } else {
      out.append("null");
    }
    out.append(last ? "\n" : ",\n");
  };
  const auto quoted = [&](const std::string& start) { out.append("\"").append(start).push_back('"'); };
  out.append("  \"stats\": {\n    \"buckets\": ");
  append_number(out, st.buckets);
  out.append(",\n    \"empty_buckets\": ");
  append_number(out, st.empty);
  out.append(",\n    \"total\": ");
  append_number(out, st.total);
  out.append(",\n");
  field("first", [&] { quoted(stats.first); });
  field("last", [&] { quoted(stats.last); });
  field("peak", [&] {
    out.append("{\"bucket\": ");
    quoted(stats.peak);
    out.append(", \"count\": ");
    append_number(out, st.max);
    out.push_back('}');
  });
  for (size_t i = 0; i < stats.figures.size(); ++i) {
    const std::string& value = stats.figures[i].second;
    field(stats.figures[i].first, [&] { out.append(value); },
          i + 1 == stats.figures.size() && !by_app);
  }
  if (by_app) {
    out.append("    \"top_apps\": [");
    for (size_t i = 0; i < stats.ranked_apps.size(); ++i) {
      const ReportStats::RankedApp& app = stats.ranked_apps[i];
      out.append(i == 0 ? "\n      {\"app_id\": " : ",\n      {\"app_id\": ");
      append_json_string(out, app.id);
      out.append(", \"count\": ");
      append_number(out, app.count);
      out.append(", \"percent\": ").append(app.percent).push_back('}');
    }
    out.append(stats.ranked_apps.empty() ? "]\n" : "\n    ]\n");
  }
  out.append("  }\n");
}

// The document's head: its version and the settings it was made with (only
// those in force, so merges can refuse results made otherwise).
void write_settings(const Result& r, const ReportRows& rows, const Options& options, const ReportOptions& report,
                    std::string& out) {
  out.append("{\n  \"logagg\": 1,\n  \"bucket\": \"").append(rows.bucketing().name()).append("\",\n  \"app_field\": ");
  append_json_string(out, options.app_field);
  out.append(",\n  \"time_field\": ");
  append_json_string(out, options.time_field);
  const Options defaults;
  for (const auto& [key, value, fallback] :
       {std::tuple{"time_format", &options.time_format, &defaults.time_format},
        std::tuple{"input_tz", &options.input_tz, &defaults.input_tz},
        std::tuple{"app_pattern", &options.app_pattern, &defaults.app_pattern}}) {
    if (*value == *fallback) continue;  // only when not the default, so merges can refuse others
    out.append(",\n  \"").append(key).append("\": ");
    append_json_string(out, *value);
  }
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
}

// The "summary" line accounting.
void write_summary(const Summary& s, const Options& options, std::string& out) {
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
}

}  // namespace

void write_result_json(const Result& r, const ReportRows& rows, const Options& options, const ReportOptions& report,
                       Output& o) {
  write_settings(r, rows, options, report, o.text());
  o.text().append(",\n");
  write_report_rows(rows, report, r.summary.counted, o);  // the "counts" array, handed to the sink as it grows
  write_summary(r.summary, options, o.text());
  std::string& out = o.text();
  append_json_stats(out, report_stats(r, rows.by_app(), rows.buckets(), rows.bucketing(), report.top), rows.by_app());
  out.append("}\n");
}

}  // namespace logagg
