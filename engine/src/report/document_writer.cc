// The result document of `--format json` (write_result_json): its settings,
// rows, line accounting and statistics, each field named from
// document_fields.h; result_document.cc reads it back.
#include "report/document_writer.h"

#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "report/document_fields.h"
#include "report/report_text.h"
#include "report/row_writer.h"
#include "report/stats.h"

namespace logagg {
namespace {

using result_doc::append_key;

// The "stats" object of the json document; null where an empty series has no value.
void append_json_stats(std::string& out, const ReportStats& stats, const Query& query) {
  const bool by_app = query.keyed();
  const BucketStats& st = stats.buckets;
  const bool any = st.buckets > 0 && stats.over_time;
  const auto field = [&](std::string_view key, auto&& append_value, bool last = false) {
    append_key(out, "    ", key);
    if (any) {
      append_value();
    } else {
      out.append("null");
    }
    out.append(last ? "\n" : ",\n");
  };
  const auto quoted = [&](const std::string& start) { out.append("\"").append(start).push_back('"'); };
  append_key(out, "  ", result_doc::kStats);
  append_key(out, "{\n    ", result_doc::kStatBuckets);
  append_number(out, st.buckets);
  append_key(out, ",\n    ", result_doc::kStatEmptyBuckets);
  append_number(out, st.empty);
  append_key(out, ",\n    ", result_doc::kStatTotal);
  append_number(out, st.total);
  out.append(",\n");
  field(result_doc::kStatFirst, [&] { quoted(stats.first); });
  field(result_doc::kStatLast, [&] { quoted(stats.last); });
  field(result_doc::kStatPeak, [&] {
    append_key(out, "{", result_doc::kStatPeakBucket);
    quoted(stats.peak);
    append_key(out, ", ", result_doc::kCount);
    append_number(out, st.max);
    out.push_back('}');
  });
  for (size_t i = 0; i < stats.figures.size(); ++i) {
    const std::string& value = stats.figures[i].second;
    field(
        stats.figures[i].first, [&] { out.append(value); },
        i + 1 == stats.figures.size() && !by_app && !query.measured());
  }
  if (query.measured()) {
    // The measures of every counted line, keyed by column as in the rows.
    const MeasureText measures(query.measures());
    std::vector<MeasureText::Value> values;
    measures.values(stats.measures ? &*stats.measures : nullptr, st.total, values);
    append_key(out, "    ", result_doc::kStatMeasures);
    out.push_back('{');
    for (size_t c = 0; c < values.size(); ++c) {
      out.append(c == 0 ? "" : ", ");
      append_json_string(out, measures.columns()[c]);
      out.append(": ");
      MeasureText::append_json(out, values[c]);
    }
    out.append(by_app ? "},\n" : "}\n");
  }
  if (by_app) {
    // "top_apps" of app ids alone; with --by "top_keys", each with its key columns (null: no value).
    append_key(out, "    ", query.by_keys() ? result_doc::kStatTopKeys : result_doc::kStatTopApps);
    out.push_back('[');
    const std::vector<std::string>& columns = query.key_columns();
    for (size_t i = 0; i < stats.ranked_apps.size(); ++i) {
      const ReportStats::RankedApp& app = stats.ranked_apps[i];
      out.append(i == 0 ? "\n      {" : ",\n      {");
      const std::vector<std::string_view> parts = key_parts(app.id, columns.size());
      for (size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) out.append(", ");
        append_json_string(out, columns[c]);
        out.append(": ");
        if (parts[c] == kNoKey) {
          out.append("null");
        } else {
          append_json_string(out, parts[c]);
        }
      }
      append_key(out, ", ", result_doc::kCount);
      append_number(out, app.count);
      append_key(out, ", ", result_doc::kStatPercent);
      out.append(app.percent).push_back('}');
    }
    out.append(stats.ranked_apps.empty() ? "]\n" : "\n    ]\n");
  }
  out.append("  }\n");
}

// "by": the --by keys, each {"field": F, "key": "value" | "status_class" |
// "path_prefix", "segments": N (path_prefix only)}.
void append_key_fields(std::string& out, const std::vector<KeyField>& keys) {
  append_key(out, ",\n  ", result_doc::kBy);
  out.push_back('[');
  for (size_t i = 0; i < keys.size(); ++i) {
    append_key(out, i == 0 ? "\n    {" : ",\n    {", result_doc::kKeyField);
    append_json_string(out, keys[i].field);
    append_key(out, ", ", result_doc::kKeyKind);
    out.append("\"").append(key_kind_name(keys[i].kind)).push_back('"');
    if (keys[i].kind == KeyField::Kind::kPathPrefix) {
      append_key(out, ", ", result_doc::kKeySegments);
      append_number(out, keys[i].segments);
    }
    out.push_back('}');
  }
  out.append("\n  ]");
}

// The document's head: its version and the settings it was made with (only
// those in force, so merges can refuse results made otherwise).
void write_settings(const Result& r, const ReportRows& rows, const ReportOptions& report, std::string& out) {
  const Query& query = r.query;
  const Question& question = query.question();
  // Version 2: a document with keys or filters (--by, --where, --app-field
  // none), which a reader of version 1 must not take for a plain one.
  // Measures (--sum, --quantiles, --count-if) make version 2 too.
  const bool v2 = query.by_keys() || !question.where.empty() || !query.has_app() || query.measured();
  append_key(out, "{\n  ", result_doc::kVersion);
  out.push_back(v2 ? '2' : '1');
  append_key(out, ",\n  ", result_doc::kBucket);
  out.append("\"").append(rows.bucketing().name()).push_back('"');
  append_key(out, ",\n  ", result_doc::kAppField);
  append_json_string(out, question.app_field);
  append_key(out, ",\n  ", result_doc::kTimeField);
  append_json_string(out, question.time_field);
  const Question defaults;
  for (const auto& [key, value, fallback] :
       {std::tuple{result_doc::kTimeFormat, &question.time_format, &defaults.time_format},
        std::tuple{result_doc::kInputTz, &question.input_tz, &defaults.input_tz},
        std::tuple{result_doc::kAppPattern, &question.app_pattern, &defaults.app_pattern}}) {
    if (*value == *fallback) continue;  // only when not the default, so merges can refuse others
    append_key(out, ",\n  ", key);
    append_json_string(out, *value);
  }
  if (const TimeZone* zone = rows.bucketing().zone()) {  // only with --tz, so merges can refuse others
    append_key(out, ",\n  ", result_doc::kTz);
    append_json_string(out, time_zone_name(*zone));
  }
  if (rows.by_app()) {  // only with --by-app or --by, so merges can refuse others
    if (question.by_app) {
      append_key(out, ",\n  ", result_doc::kByApp);
      out.append("true");
    }
    if (!question.by.empty()) append_key_fields(out, question.by);
    if (report.top != 0) {
      append_key(out, ",\n  ", result_doc::kTop);
      append_number(out, report.top);
    }
    if (r.apps_capped) {
      append_key(out, ",\n  ", result_doc::kMaxApps);
      append_number(out, question.max_apps);
    }
  }
  // Only when given: the filters and the measures, so merges can refuse others.
  const std::vector<std::string> none;
  for (const auto& [key, values] :
       {std::pair{result_doc::kWhere, &question.where}, std::pair{result_doc::kSum, &question.sum},
        std::pair{result_doc::kQuantiles, &question.quantiles},
        std::pair{result_doc::kPercentiles, question.quantiles.empty() ? &none : &question.percentiles},
        std::pair{result_doc::kCountIf, &question.count_if}}) {
    if (values->empty()) continue;
    append_key(out, ",\n  ", key);
    out.push_back('[');
    for (size_t i = 0; i < values->size(); ++i) {
      if (i > 0) out.append(", ");
      append_json_string(out, (*values)[i]);
    }
    out.push_back(']');
  }
  if (!question.quantiles.empty()) {
    append_key(out, ",\n  ", result_doc::kQuantileAccuracy);
    out.append("0.01");
  }
  // Only with --since / --until: the range, so merges can refuse others.
  for (const auto& [key, bound] :
       {std::pair{result_doc::kSince, question.since}, std::pair{result_doc::kUntil, question.until}}) {
    if (!bound) continue;
    append_key(out, ",\n  ", key);
    out.push_back('"');
    append_second(out, *bound);
    out.push_back('"');
  }
}

// ,\n "LIST": [{"NAME": names[i], "lines": lines[i]}, ...]: the lines per
// filter or key (a count missing from `lines` is 0).
void append_lines_list(std::string& out, std::string_view list, std::string_view name,
                       std::span<const std::string> names, const std::vector<uint64_t>& lines) {
  append_key(out, ",\n    ", list);
  out.push_back('[');
  for (size_t i = 0; i < names.size(); ++i) {
    append_key(out, i == 0 ? "\n      {" : ",\n      {", name);
    append_json_string(out, names[i]);
    append_key(out, ", ", result_doc::kLines);
    append_number(out, i < lines.size() ? lines[i] : 0);
    out.push_back('}');
  }
  out.append("\n    ]");
}

// How the valid lines held each of the question's fields.
void write_field_tallies(const std::vector<std::string>& names, const std::vector<FieldTally>& tallies,
                         std::string& out) {
  append_key(out, ",\n    ", result_doc::kFields);
  out.push_back('[');
  for (size_t i = 0; i < names.size(); ++i) {
    const FieldTally& t = tallies[i];
    append_key(out, i == 0 ? "\n      {" : ",\n      {", result_doc::kFieldName);
    append_json_string(out, names[i]);
    const std::pair<std::string_view, uint64_t> kinds[] = {{result_doc::kFieldAbsent, t.absent},
                                                           {result_doc::kFieldNumbers, t.numbers},
                                                           {result_doc::kFieldStrings, t.strings},
                                                           {result_doc::kFieldOthers, t.others}};
    for (const auto& [key, n] : kinds) {
      append_key(out, ", ", key);
      append_number(out, n);
    }
    out.push_back('}');
  }
  out.append("\n    ]");
}

void write_warnings(const std::vector<FieldWarning>& warnings, std::string& out) {
  append_key(out, ",\n    ", result_doc::kWarnings);
  out.push_back('[');
  for (size_t i = 0; i < warnings.size(); ++i) {
    append_key(out, i == 0 ? "\n      {" : ",\n      {", result_doc::kWarningCode);
    append_json_string(out, warnings[i].code);
    append_key(out, ", ", result_doc::kWarningField);
    append_json_string(out, warnings[i].field);
    append_key(out, ", ", result_doc::kWarningMessage);
    append_json_string(out, warnings[i].message);
    out.push_back('}');
  }
  out.append("\n    ]");
}

// The "summary" line accounting.
void write_summary(const Summary& s, const Query& query, const std::vector<FieldWarning>& warnings, std::string& out) {
  const Question& question = query.question();
  append_key(out, "  ", result_doc::kSummary);
  out.append("{\n");
  const std::pair<const char*, uint64_t> fields[] = {{"files", s.files},
                                                     {"unreadable", s.unreadable},
                                                     {"bytes", s.bytes},
                                                     {"lines", s.lines},
                                                     {"counted", s.counted},
                                                     {"blank", s.blank},
                                                     {"rejected", s.rejected_total()}};
  for (const auto& [key, value] : fields) {
    append_key(out, "    ", key);
    append_number(out, value);
    out.append(",\n");
    if (key == result_doc::kCounted && (question.since || question.until)) {
      append_key(out, "    ", result_doc::kOutsideRange);
      append_number(out, s.outside_range);
      out.append(",\n");
    }
  }
  append_key(out, "    ", result_doc::kRejectedByReason);
  out.push_back('{');
  for (size_t i = 0; i < kReasonCount; ++i) {
    append_key(out, i == 0 ? "\n      " : ",\n      ", reason_key(static_cast<Reason>(i)));
    append_number(out, s.rejected[i]);
  }
  out.append("\n    }");
  // With --where: the lines each filter took out; with --by: the counted
  // lines without a value for each key. Lists, as a field may repeat.
  if (!question.where.empty()) {
    append_key(out, ",\n    ", result_doc::kFiltered);
    append_number(out, s.filtered());
    append_lines_list(out, result_doc::kFilteredBy, result_doc::kWhere, question.where, s.filtered_by);
  }
  if (query.by_keys()) {
    append_lines_list(out, result_doc::kNoValue, result_doc::kNoValueKey, query.by_columns(), s.no_value);
  }
  // With measures: the counted lines without a usable number in each field.
  const MeasureSpec& spec = query.measures();
  if (!spec.fields.empty()) {
    std::vector<std::string> fields;
    for (const MeasureSpec::Field& f : spec.fields) fields.push_back(f.name);
    append_lines_list(out, result_doc::kNoMeasure, result_doc::kNoMeasureField, fields, s.no_measure);
  }
  // With --time-format auto: the counted lines by the form of their time.
  if (query.counts_time_forms()) {
    append_key(out, ",\n    ", result_doc::kTimeFormats);
    out.push_back('{');
    for (size_t i = 0; i < kTimeFormCount; ++i) {
      append_key(out, i == 0 ? "\n      " : ",\n      ", time_form_key(static_cast<TimeForm>(i)));
      append_number(out, i < s.time_forms.size() ? s.time_forms[i] : 0);
    }
    out.append("\n    }");
  }
  if (!query.fields().empty() && s.fields.size() == query.fields().size()) {
    write_field_tallies(query.fields(), s.fields, out);
  }
  if (!warnings.empty()) write_warnings(warnings, out);
  out.append("\n  },\n");
}

}  // namespace

void write_result_json(const Result& r, const ReportRows& rows, const ReportOptions& report, Output& o) {
  write_settings(r, rows, report, o.text());
  o.text().append(",\n");
  write_report_rows(rows, report, r.summary.counted, &r.query.measures(),
                    o);  // the "counts" array, handed to the sink as it grows
  write_summary(r.summary, r.query, r.warnings, o.text());
  std::string& out = o.text();
  append_json_stats(out, report_stats(r, rows.by_app(), rows.buckets(), rows.bucketing(), report.top), r.query);
  out.append("}\n");
}

}  // namespace logagg
