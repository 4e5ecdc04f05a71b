// Reading a result document back (parse_partial of result_document.h): the
// documents `logagg --format json` writes (document_writer.cc; their fields
// are listed in report.h and named in document_fields.h). They are small next to the logs they describe, so
// simdjson's DOM API reads them whole.
#include "logagg/result_document.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "count/count.h"
#include "logagg/rfc3339.h"
#include "parse/line_parser.h"  // LineRules: the Query's compiled app pattern
#include "report/document_fields.h"
#include "time/civil_time.h"

namespace logagg {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

[[noreturn]] void fail(const std::string& why) { throw std::runtime_error(why); }

// "second", "minute", "hour", "day" or a duration such as "5s".
Bucketing bucketing_named(std::string_view name) {
  try {
    return parse_bucketing(name);
  } catch (const std::invalid_argument& e) {
    fail(std::string("bucket ") + e.what());
  }
}

// A time as the report writes it: RFC 3339, except that the year may have a
// '-' sign or more than 4 digits (an offset can move a valid timestamp into
// year -1 or 10000 in UTC). Such a year is read apart, the rest is parsed
// with year 2000 (a leap year) in its place, and the days are moved over.
int64_t instant(std::string_view text, std::string_view what) {
  const auto refuse = [&] { fail(std::string(what) + " '" + std::string(text) + "' is not an RFC 3339 date-time"); };
  if (const std::optional<int64_t> second = parse_rfc3339(text)) return *second;
  const bool negative = text.starts_with('-');
  const size_t digits_end = text.find('-', negative ? 1 : 0);
  if (digits_end == std::string_view::npos || digits_end - negative < 4 || digits_end - negative > 6) refuse();
  int64_t year = 0;
  for (const char c : text.substr(negative, digits_end - negative)) {
    if (c < '0' || c > '9') refuse();
    year = year * 10 + (c - '0');
  }
  if (negative) year = -year;
  const std::string in_2000 = "2000" + std::string(text.substr(digits_end));
  const std::optional<int64_t> second = parse_rfc3339(in_2000);
  if (!second) refuse();
  const auto month = static_cast<unsigned>((in_2000[5] - '0') * 10 + (in_2000[6] - '0'));
  const auto day = static_cast<unsigned>((in_2000[8] - '0') * 10 + (in_2000[9] - '0'));
  if (month == 2 && day == 29 && !is_leap_year(year)) refuse();
  return *second + (days_from_civil(year, month, day) - days_from_civil(2000, month, day)) * kSecondsPerDay;
}

uint64_t number(const object& o, std::string_view key) {
  uint64_t v = 0;
  if (o[key].get(v) != simdjson::SUCCESS) fail("summary." + std::string(key) + " is missing or not a count");
  return v;
}

std::optional<int64_t> optional_instant(const object& doc, std::string_view key) {
  std::string_view text;
  if (doc[key].get(text) != simdjson::SUCCESS) return std::nullopt;
  return instant(text, key);
}

// Numbers the apps of a --by-app document's rows (result.apps: by name,
// kOtherApp last) and fills the result's counts from them.
void take_app_rows(std::vector<std::pair<std::string_view, AppCount>>& rows, const AppPattern* ids, Result& result) {
  std::vector<std::string_view> names;
  for (const auto& [app, row] : rows) {
    if (ids != nullptr && app != kOtherApp && !ids->matches(app)) {
      fail(std::string("\"").append(app).append("\" is not an app id of its app_pattern"));
    }
    names.push_back(app);
  }
  std::sort(names.begin(), names.end(), app_before);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  result.apps.assign(names.begin(), names.end());
  std::vector<AppCount> numbered;
  numbered.reserve(rows.size());
  for (auto& [app, row] : rows) {
    row.app = static_cast<uint32_t>(std::lower_bound(names.begin(), names.end(), app, app_before) - names.begin());
    numbered.push_back(row);
  }
  add_up_app_rows(numbered, result);
}

// "by": the --by keys of a version 2 document.
std::vector<KeyField> key_fields(const object& doc) {
  std::vector<KeyField> keys;
  simdjson::dom::array by;
  if (doc[result_doc::kBy].get(by) != simdjson::SUCCESS) return keys;
  for (const element key : by) {
    std::string_view field, kind;
    if (key[result_doc::kKeyField].get(field) != simdjson::SUCCESS ||
        key[result_doc::kKeyKind].get(kind) != simdjson::SUCCESS || !key_kind_named(kind)) {
      fail("a \"by\" key is not {\"field\": F, \"key\": \"value\" | \"status_class\" | \"path_prefix\"}");
    }
    KeyField k{std::string(field), *key_kind_named(kind), 0};
    if (k.kind == KeyField::Kind::kPathPrefix) {
      uint64_t segments = 0;
      if (key[result_doc::kKeySegments].get(segments) != simdjson::SUCCESS || segments == 0 || segments > 100) {
        fail("a \"by\" path_prefix key has no \"segments\" from 1 to 100");
      }
      k.segments = static_cast<unsigned>(segments);
    }
    keys.push_back(std::move(k));
  }
  return keys;
}

// A list of strings of a version 2 document ("where", "sum", ...): empty when absent.
std::vector<std::string> strings(const object& doc, std::string_view key) {
  std::vector<std::string> out;
  simdjson::dom::array items;
  if (doc[key].get(items) != simdjson::SUCCESS) return out;
  for (const element item : items) {
    std::string_view text;
    if (item.get(text) != simdjson::SUCCESS) fail("an item of \"" + std::string(key) + "\" is not a string");
    out.emplace_back(text);
  }
  return out;
}

// The settings a document was made with: bucket, zone, fields, range, keys, filters.
void read_settings(const object& doc, Partial& p) {
  Question q;
  std::string_view text;
  if (doc[result_doc::kBucket].get(text) != simdjson::SUCCESS) fail("no \"bucket\"");
  p.report.bucketing = bucketing_named(text);
  if (doc[result_doc::kAppField].get(text) != simdjson::SUCCESS) fail("no \"app_field\"");
  q.app_field = std::string(text);
  if (doc[result_doc::kTimeField].get(text) != simdjson::SUCCESS) fail("no \"time_field\"");
  q.time_field = std::string(text);
  // Present only when not the default (so documents of default runs are as they were).
  if (doc[result_doc::kTimeFormat].get(text) == simdjson::SUCCESS) q.time_format = std::string(text);
  if (doc[result_doc::kInputTz].get(text) == simdjson::SUCCESS) q.input_tz = std::string(text);
  if (doc[result_doc::kAppPattern].get(text) == simdjson::SUCCESS) q.app_pattern = std::string(text);
  if (doc[result_doc::kTz].get(text) == simdjson::SUCCESS) {  // made with --tz: buckets in that zone
    try {
      p.report.bucketing = p.report.bucketing.in_zone(find_time_zone(text));
    } catch (const std::invalid_argument& e) {
      fail(std::string("tz: ") + e.what());
    }
  }
  q.since = optional_instant(doc, result_doc::kSince);
  q.until = optional_instant(doc, result_doc::kUntil);

  bool by_app = false;
  if (doc[result_doc::kByApp].get(by_app) == simdjson::SUCCESS && by_app) q.by_app = true;
  q.by = key_fields(doc);
  q.where = strings(doc, result_doc::kWhere);
  q.sum = strings(doc, result_doc::kSum);
  q.quantiles = strings(doc, result_doc::kQuantiles);
  q.percentiles = strings(doc, result_doc::kPercentiles);
  if (q.quantiles.empty()) q.percentiles = Question().percentiles;
  q.count_if = strings(doc, result_doc::kCountIf);
  double accuracy = 0;
  if (!q.quantiles.empty() &&
      (doc[result_doc::kQuantileAccuracy].get(accuracy) != simdjson::SUCCESS || accuracy != kSketchAccuracy)) {
    fail("quantiles not kept within 1 % (no \"quantile_accuracy\": 0.01): results cannot be added");
  }
  if (q.by_app || !q.by.empty()) {
    if (doc[result_doc::kTop].error() != simdjson::NO_SUCH_FIELD) {
      fail(
          "made with --top, whose (other) hides different apps in each result: "
          "merge results made without --top, and give --top to the merge");
    }
    uint64_t max_apps = 0;
    if (doc[result_doc::kMaxApps].get(max_apps) == simdjson::SUCCESS) {  // its table filled up
      p.result.apps_capped = true;
      q.max_apps = max_apps;
    }
  }
  try {
    p.result.query = Query(q);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
}

// A row's key tuple (result.h) from its key columns: each a string, or
// null for no value (kNoKey); "(other)" is kOtherApp unless the row says it
// is a real key. False if a column is missing or of another type.
bool row_key(const element& row, const std::vector<std::string>& columns, std::string& tuple) {
  tuple.clear();
  bool real_app = false;
  if (row[result_doc::kRealApp].get(real_app) != simdjson::SUCCESS) real_app = false;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) tuple.push_back(kKeySeparator);
    const auto value = row[columns[c]];
    std::string_view text;
    if (value.is_null()) {
      tuple.append(kNoKey);
    } else if (value.get(text) == simdjson::SUCCESS) {
      tuple.append(text == kOtherAppName && !real_app ? kOtherApp : text);
    } else {
      return false;
    }
  }
  if (tuple.find(kOtherApp) != std::string::npos) tuple = kOtherApp;  // the tuple of keys not told apart
  return true;
}

// A "counts" row's bucket start (in `column`; none in the whole run's rows
// of an "overall" document, `column` empty) and count, and with
// `key_columns` its key tuple; false if one of them is missing or of
// another type.
bool row_head(const element& row, const std::string& column, const std::vector<std::string>* key_columns,
              std::string_view& start, uint64_t& count, std::string& tuple) {
  return (column.empty() || row[column].get(start) == simdjson::SUCCESS) &&
         row[result_doc::kCount].get(count) == simdjson::SUCCESS &&
         (key_columns == nullptr || row_key(row, *key_columns, tuple));
}

// The rows' start column: none for the whole run's one bucket.
std::string start_column(const Bucketing& bucketing) { return bucketing.is_whole() ? "" : bucketing.column(); }

// A row's bucket start, read by row_head from `column`.
int64_t row_start(std::string_view start, const std::string& column) {
  return column.empty() ? kWholeRunStart : instant(start, column);
}

// A min or max: its exact decimal in a string (a number, as documents
// before them wrote it, is taken as its double), into `v` and, when the
// double does not write it back, `text`.
bool read_extreme(const simdjson::simdjson_result<element>& value, double& v, std::string& text) {
  std::string_view written;
  if (value.get(written) != simdjson::SUCCESS) return value.get(v) == simdjson::SUCCESS;
  const std::optional<MeasureValue> read = read_measure(written);
  if (!read) return false;
  v = read->real;
  text = extreme_text(v, read->written);
  return true;
}

// A row's measures (measure_text.h's columns and json's sketches), checked:
// a sum an exact decimal (null: overflowed, or 0 for a row without a
// number, n = 0), min and max present when n is not 0 and in order, a
// sketch's buckets ascending and adding up to n.
MeasureCell read_cell(const element& row, const MeasureSpec& spec, uint64_t count) {
  MeasureCell cell;
  cell.count = count;
  const auto whole = [&](const std::string& column) {
    uint64_t n = 0;
    if (row[column].get(n) != simdjson::SUCCESS) fail("a \"counts\" row has no " + column);
    return n;
  };
  for (const std::string& expression : spec.count_if)
    cell.matched.push_back(whole(MeasureSpec::column("count", expression)));
  for (const MeasureSpec::Field& field : spec.fields) {
    FieldMeasure& f = cell.fields.emplace_back();
    f.n = whole(MeasureSpec::column("n", field.name));
    if (field.summed) {
      const std::string column = MeasureSpec::column("sum", field.name);
      std::string_view text;
      if (row[column].is_null()) {
        f.sum = FixedSum::of_units(f.n == 0 ? 0 : FixedSum::kOverflow);
      } else if (std::optional<MeasureValue> v;
                 row[column].get(text) == simdjson::SUCCESS && (v = read_measure(text))) {
        const size_t point = text.find('.');
        f.sum = v->fixed;
        f.digits = static_cast<uint8_t>(point == std::string_view::npos ? 0 : text.size() - point - 1);
        if (text.find_first_of("eE") != std::string_view::npos || f.digits > FixedSum::kFractionDigits) {
          fail("a \"counts\" row's " + column + " is not a plain decimal");
        }
      } else {
        fail("a \"counts\" row's " + column + " is not a decimal in a string, or null");
      }
    }
    if (!field.quantiled || f.n == 0) continue;
    const std::string min = MeasureSpec::column("min", field.name), max = MeasureSpec::column("max", field.name);
    if (!read_extreme(row[min], f.min, f.min_text) || !read_extreme(row[max], f.max, f.max_text) ||
        exactly_below(f.max, f.max_text, f.min, f.min_text)) {
      fail("a \"counts\" row has no " + min + " and " + max + " (decimals in strings)");
    }
    simdjson::dom::array buckets;
    const std::string sketch = MeasureSpec::column(result_doc::kSketch, field.name);
    if (row[sketch].get(buckets) != simdjson::SUCCESS) {
      fail("a \"counts\" row has no sketch(" + field.name + ")");
    }
    int64_t previous = INT64_MIN;
    for (const element bucket : buckets) {
      simdjson::dom::array pair;
      int64_t key = 0;
      uint64_t n = 0;
      if (bucket.get(pair) != simdjson::SUCCESS || pair.size() != 2 || pair.at(0).get(key) != simdjson::SUCCESS ||
          pair.at(1).get(n) != simdjson::SUCCESS || key <= previous || n == 0 || !LogSketch::valid_key(key)) {
        fail("sketch(" + field.name + ") is not [[key, count], ...] ascending by key");
      }
      previous = key;
      f.sketch.add_key(static_cast<int32_t>(key), n);
    }
    if (f.sketch.total() != f.n) fail("sketch(" + field.name + ") does not add up to n(" + field.name + ")");
  }
  return cell;
}

// The "counts" rows of a measured document, cells and all, into the result.
void read_measured_counts(const simdjson::dom::array& counts, Partial& p) {
  const bool keyed = p.result.query.keyed();
  const std::vector<std::string>& key_columns = p.result.query.key_columns();
  const std::string column = start_column(p.report.bucketing);
  const MeasureSpec& spec = p.result.query.measures();
  std::vector<MeasuredRow> rows;
  std::string tuple;
  for (const element row : counts) {
    std::string_view start;
    uint64_t count = 0;
    if (!row_head(row, column, keyed ? &key_columns : nullptr, start, count, tuple)) {
      fail("a \"counts\" row has no " + (column.empty() ? "" : column + ", ") + "count or key");
    }
    if (count == 0) continue;  // rows of --fill-gaps add nothing
    rows.push_back({row_start(start, column), keyed ? tuple : std::string(), read_cell(row, spec, count)});
  }
  set_measured_rows(std::move(rows), spec, keyed, p.result);
}

// The "counts" rows, ascending, into the result (per key with --by-app or --by).
void read_counts(const object& doc, Partial& p) {
  const Query& query = p.result.query;
  const bool by_app = query.keyed();
  const std::vector<std::string>& key_columns = query.key_columns();
  simdjson::dom::array counts;
  if (doc[result_doc::kCounts].get(counts) != simdjson::SUCCESS) fail("no \"counts\" array");
  if (query.measured()) return read_measured_counts(counts, p);
  const std::string column = start_column(p.report.bucketing);
  std::string row_shape = column.empty() ? "{" : "{\"" + column + "\": TIME, ";
  for (const std::string& key : key_columns) row_shape += "\"" + key + "\": KEY, ";
  row_shape += "\"count\": N}";
  std::vector<std::string> tuples;  // the rows' key tuples, which app_rows view
  tuples.reserve(counts.size());
  std::vector<std::pair<std::string_view, AppCount>> app_rows;  // with keys: (key tuple, row)
  std::optional<int64_t> previous;
  std::string tuple;
  for (const element row : counts) {
    std::string_view start;
    uint64_t count = 0;
    if (!row_head(row, column, by_app ? &key_columns : nullptr, start, count, tuple)) {
      fail("a \"counts\" row is not " + row_shape);
    }
    const int64_t second = row_start(start, column);
    if (previous && (second < *previous || (second == *previous && !by_app))) {
      fail("\"counts\" rows are not in ascending order");
    }
    previous = second;
    if (count == 0) continue;  // rows of --fill-gaps add nothing
    if (by_app) {
      app_rows.push_back({tuples.emplace_back(tuple), {second, 0, count}});
    } else {
      p.result.counts.push_back({second, count});
    }
  }
  if (!by_app) return;
  // Only a document of app ids alone is checked against its app_pattern,
  // the one its Query compiled.
  take_app_rows(app_rows, query.by_keys() ? nullptr : &query.rules().app_pattern, p.result);
}

// summary.LIST's "lines", one per filter, key or field of `names` (none
// when it is empty), each an object naming its NAME as `names` does.
std::vector<uint64_t> listed_lines(const object& s, std::string_view list, std::string_view name,
                                   std::span<const std::string> names) {
  std::vector<uint64_t> lines;
  if (names.empty()) return lines;
  const std::string where = "summary." + std::string(list);
  simdjson::dom::array items;
  if (s[list].get(items) != simdjson::SUCCESS || items.size() != names.size()) {
    fail(where + " is missing or not one entry per " + std::string(name));
  }
  for (const element item : items) {
    uint64_t n = 0;
    std::string_view named;
    if (item[result_doc::kLines].get(n) != simdjson::SUCCESS) fail(where + " has an entry without lines");
    if (item[name].get(named) != simdjson::SUCCESS || named != names[lines.size()]) {
      fail(where + " does not name each " + std::string(name) + " of the document's settings, in order");
    }
    lines.push_back(n);
  }
  return lines;
}

// How the valid lines held each of the question's fields: one entry per
// field, in order. A document written before they were tallied has none:
// then none (a merge with it has none either, merge.h).
std::vector<FieldTally> field_tallies(const object& s, const std::vector<std::string>& names, uint64_t valid_lines) {
  std::vector<FieldTally> tallies;
  simdjson::dom::array items;
  if (names.empty() || s[result_doc::kFields].get(items) != simdjson::SUCCESS) return tallies;
  if (items.size() != names.size()) fail("summary.fields is not one entry per field of the document's settings");
  for (const element item : items) {
    std::string_view named;
    if (item[result_doc::kFieldName].get(named) != simdjson::SUCCESS || named != names[tallies.size()]) {
      fail("summary.fields does not name each field of the document's settings, in order");
    }
    FieldTally t;
    const std::pair<std::string_view, uint64_t*> kinds[] = {{result_doc::kFieldAbsent, &t.absent},
                                                            {result_doc::kFieldNumbers, &t.numbers},
                                                            {result_doc::kFieldStrings, &t.strings},
                                                            {result_doc::kFieldOthers, &t.others}};
    for (const auto& [key, n] : kinds) {
      if (item[key].get(*n) != simdjson::SUCCESS) fail("summary.fields has an entry without " + std::string(key));
    }
    if (t.absent + t.present() != valid_lines) fail("summary.fields do not add up to the valid lines");
    tallies.push_back(t);
  }
  return tallies;
}

// The "summary" line accounting, which must add up.
void read_summary(const object& doc, Partial& p) {
  object s;
  if (doc[result_doc::kSummary].get(s) != simdjson::SUCCESS) fail("no \"summary\" object");
  Summary& sum = p.result.summary;
  const Question& q = p.result.query.question();
  sum.files = number(s, result_doc::kFiles);
  sum.unreadable = number(s, result_doc::kUnreadable);
  sum.bytes = number(s, result_doc::kBytes);
  sum.lines = number(s, result_doc::kLines);
  sum.counted = number(s, result_doc::kCounted);
  if (q.since || q.until) sum.outside_range = number(s, result_doc::kOutsideRange);
  sum.blank = number(s, result_doc::kBlank);
  object reasons;
  if (s[result_doc::kRejectedByReason].get(reasons) != simdjson::SUCCESS) fail("no \"summary.rejected_by_reason\"");
  for (size_t i = 0; i < kReasonCount; ++i) sum.rejected[i] = number(reasons, reason_key(static_cast<Reason>(i)));
  if (number(s, result_doc::kRejected) != sum.rejected_total()) fail("summary.rejected is not the sum of its reasons");
  sum.filtered_by = listed_lines(s, result_doc::kFilteredBy, result_doc::kWhere, q.where);
  sum.no_value = listed_lines(s, result_doc::kNoValue, result_doc::kNoValueKey, p.result.query.by_columns());
  std::vector<std::string> fields;
  for (const MeasureSpec::Field& f : p.result.query.measures().fields) fields.push_back(f.name);
  sum.no_measure = listed_lines(s, result_doc::kNoMeasure, result_doc::kNoMeasureField, fields);
  sum.fields = field_tallies(s, p.result.query.fields(), sum.counted + sum.outside_range + sum.filtered());
  if (p.result.query.counts_time_forms()) {
    object forms;
    if (s[result_doc::kTimeFormats].get(forms) != simdjson::SUCCESS)
      fail("no \"summary.time_formats\" (--time-format auto)");
    uint64_t total = 0;
    for (size_t i = 0; i < kTimeFormCount; ++i) {
      sum.time_forms.push_back(number(forms, time_form_key(static_cast<TimeForm>(i))));
      total += sum.time_forms.back();
    }
    if (total != sum.counted) fail("summary.time_formats do not add up to summary.counted");
  }
  if (!q.where.empty() && number(s, result_doc::kFiltered) != sum.filtered()) {
    fail("summary.filtered is not the sum of its filters");
  }
  if (sum.lines != sum.counted + sum.outside_range + sum.blank + sum.rejected_total() + sum.filtered()) {
    fail("summary.lines is not counted + blank + rejected + filtered");
  }
  uint64_t total = 0;
  for (const SecondCount& c : p.result.counts) total += c.count;
  if (total != sum.counted) fail("the counts do not add up to summary.counted");
}

}  // namespace

Partial parse_partial(std::string_view json) {
  simdjson::dom::parser parser;
  object doc;
  if (parser.parse(simdjson::padded_string(json)).get(doc) != simdjson::SUCCESS) {
    fail("not a logagg JSON result (invalid JSON, or not an object)");
  }
  uint64_t version = 0;
  if (doc[result_doc::kVersion].get(version) != simdjson::SUCCESS || (version != 1 && version != 2)) {
    fail("not a logagg JSON result (no \"logagg\": 1 or 2)");
  }
  Partial p;
  read_settings(doc, p);
  read_counts(doc, p);
  read_summary(doc, p);
  return p;
}

}  // namespace logagg
