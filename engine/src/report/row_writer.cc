// The row writers of row_writer.h: csv (RFC 4180 fields), json (the result
// document's "counts" elements, or NDJSON lines) and the aligned table.
#include "report/row_writer.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "report/csv_field.h"
#include "report/document_fields.h"
#include "report/report_text.h"
#include "report/terminal_text.h"

namespace logagg {
namespace {

void append_cells(std::string& out, std::span<const KeyCell* const> cells) {
  for (const KeyCell* cell : cells) out.append(cell->text);
}

class CsvRows final : public RowWriter {
 public:
  explicit CsvRows(const RowSettings& s) : s_(s) {}
  KeyCell key_cell(size_t, std::string_view key) override {
    KeyCell cell;
    append_csv_field(cell.text, shown_key(key), s_.csv_neutralise_formulas);
    cell.text.push_back(',');
    return cell;
  }
  void header(std::string& out) override {
    if (!s_.bucketing.is_whole()) out.append(s_.bucketing.column()).push_back(',');
    for (const std::string& column : s_.key_columns) {  // path_prefix(FIELD,N) and field names may hold commas
      append_csv_field(out, column, false);
      out.push_back(',');
    }
    out.append("count");
    if (s_.measures != nullptr) {
      for (const std::string& column : s_.measures->columns()) {
        out.push_back(',');
        append_csv_field(out, column, false);
      }
    }
    out.push_back('\n');
  }
  void row(std::string& out, std::string_view start, std::span<const KeyCell* const> cells, uint64_t count,
           const MeasureCell* measures, bool) override {
    if (!s_.bucketing.is_whole()) out.append(start).push_back(',');
    append_cells(out, cells);
    append_number(out, count);
    if (s_.measures != nullptr) {
      s_.measures->values(measures, count, values_);
      for (const MeasureText::Value& v : values_) out.append(",").append(v.text);  // absent: empty
    }
    out.push_back('\n');
  }
  void footer(std::string&, uint64_t) override {}

 private:
  const RowSettings s_;
  std::vector<MeasureText::Value> values_;
};

class JsonRows final : public RowWriter {
 public:
  explicit JsonRows(const RowSettings& s) : s_(s) {}
  KeyCell key_cell(size_t column, std::string_view key) override {
    KeyCell cell;
    append_json_string(cell.text, s_.key_columns[column]);
    cell.text.append(": ");
    if (key == kNoKey) {  // no value: null, which no key's text is
      cell.text.append("null");
      return cell;
    }
    append_json_string(cell.text, shown_key(key));
    // A key spelt "(other)" says so; the (other) of keys not told apart does not.
    if (key == kOtherAppName) {
      result_doc::append_key(cell.text, ", ", result_doc::kRealApp);
      cell.text.append("true");
    }
    return cell;
  }
  void header(std::string& out) override {
    if (s_.stream) return;
    result_doc::append_key(out, "  ", result_doc::kCounts);
    out.push_back('[');
  }
  void row(std::string& out, std::string_view start, std::span<const KeyCell* const> cells, uint64_t count,
           const MeasureCell* measures, bool correction) override {
    if (!s_.stream) out.append(rows_ == 0 ? "\n    " : ",\n    ");
    ++rows_;
    out.push_back('{');
    if (!s_.bucketing.is_whole()) {  // the whole run's one bucket has no start to write
      append_json_string(out, s_.bucketing.column());
      out.append(": \"").append(start).append("\", ");
    }
    for (const KeyCell* cell : cells) out.append(cell->text).append(", ");
    result_doc::append_key(out, "", result_doc::kCount);
    append_number(out, count);
    if (s_.measures != nullptr) append_measures(out, measures, count);
    if (correction) {
      result_doc::append_key(out, ", ", result_doc::kCorrection);
      out.append("true");
    }
    out.push_back('}');
    if (s_.stream) out.push_back('\n');
  }
  void footer(std::string& out, uint64_t) override {
    if (!s_.stream) out.append(rows_ == 0 ? "],\n" : "\n  ],\n");
  }

 private:
  // The measures' columns, null where absent, then each quantiled field's
  // sketch as [[bucket key, count], ...] ascending, so that merge adds rows
  // up exactly (an empty bucket's row has none).
  void append_measures(std::string& out, const MeasureCell* cell, uint64_t count) {
    const MeasureText& m = *s_.measures;
    m.values(cell, count, values_);
    for (size_t c = 0; c < values_.size(); ++c) {
      out.append(", ");
      append_json_string(out, m.columns()[c]);
      out.append(": ");
      MeasureText::append_json(out, values_[c]);
    }
    if (cell == nullptr) return;
    for (size_t i = 0; i < m.spec().fields.size(); ++i) {
      if (!m.spec().fields[i].quantiled) continue;
      out.append(", ");
      append_json_string(out, MeasureSpec::column(result_doc::kSketch, m.spec().fields[i].name));
      out.append(": [");
      const std::vector<LogSketch::Bucket> buckets = cell->fields[i].sketch.buckets();
      for (size_t b = 0; b < buckets.size(); ++b) {
        out.append(b == 0 ? "[" : ", [");
        out.append(std::to_string(buckets[b].key)).append(", ");
        append_number(out, buckets[b].count);
        out.push_back(']');
      }
      out.push_back(']');
    }
  }

  const RowSettings s_;
  uint64_t rows_ = 0;
  std::vector<MeasureText::Value> values_;
};

class TableRows final : public RowWriter {
 public:
  explicit TableRows(const RowSettings& s)
      : s_(s),
        start_width_(start_width(s.bucketing)),
        count_width_(s.stream ? kStreamCountWidth : std::max<size_t>(std::to_string(s.widest_count).size(), 5)) {
    for (const std::string& column : s_.key_columns) key_widths_.push_back(display_width(column));
    // The whole run's rows have no start column: the total line's label
    // takes the first key's.
    if (whole() && !key_widths_.empty()) key_widths_[0] = std::max(key_widths_[0], kTotal.size());
  }
  KeyCell key_cell(size_t column, std::string_view key) override {
    KeyCell cell;
    if (s_.stream) cell.text.append("  ");
    append_terminal_text(cell.text, shown_key(key));
    cell.columns = display_width(cell.text);
    key_widths_[column] = std::max(key_widths_[column], cell.columns);
    return cell;
  }
  void header(std::string& out) override {
    if (!whole()) {
      append_padded(out, s_.bucketing.column(), start_width_, false);
      out.append("  ");
    }
    if (!s_.stream) {
      for (size_t c = 0; c < key_widths_.size(); ++c) append_padded(out, s_.key_columns[c], key_widths_[c] + 2, false);
    }
    append_padded(out, "count", count_width_, true);
    if (s_.measures != nullptr) {
      for (size_t c = 0; c < s_.measure_widths.size(); ++c) {
        out.append("  ");
        append_padded(out, s_.measures->columns()[c], s_.measure_widths[c], true);
      }
    }
    if (s_.stream) {
      for (const std::string& column : s_.key_columns) out.append("  ").append(column);
    }
    out.push_back('\n');
  }
  void row(std::string& out, std::string_view start, std::span<const KeyCell* const> cells, uint64_t count,
           const MeasureCell* measures, bool correction) override {
    if (!whole()) {
      append_padded(out, start, start_width_, false);
      out.append("  ");
    }
    if (!s_.stream) {
      for (size_t c = 0; c < cells.size(); ++c) {
        out.append(cells[c]->text).append(key_widths_[c] + 2 - cells[c]->columns, ' ');
      }
    }
    append_padded(out, std::to_string(count), count_width_, true);
    if (s_.measures != nullptr) {
      s_.measures->values(measures, count, values_);
      for (size_t c = 0; c < values_.size(); ++c) {
        out.append("  ");
        append_padded(out, values_[c].present ? std::string_view(values_[c].text) : "-", s_.measure_widths[c], true);
      }
    }
    if (s_.stream) append_cells(out, cells);
    out.append(correction ? "  (correction)\n" : "\n");
  }
  void footer(std::string& out, uint64_t total) override {
    if (whole() && key_widths_.empty()) return;  // its one row is the total
    size_t keys_width = 0;
    if (!s_.stream) {
      for (const size_t width : key_widths_) keys_width += width + 2;
    }
    append_padded(out, kTotal, whole() ? keys_width - 2 : start_width_ + keys_width, false);
    out.append("  ");
    append_padded(out, std::to_string(total), count_width_, true);
    out.append(whole() ? "\nrows: busiest first\n" : "\n");
  }

 private:
  static constexpr size_t kStreamCountWidth = 10;
  static constexpr std::string_view kTotal = "total";

  bool whole() const { return s_.bucketing.is_whole(); }

  const RowSettings s_;
  size_t start_width_;
  size_t count_width_;
  std::vector<size_t> key_widths_;  // each key column's: its name's, or its widest cell's
  std::vector<MeasureText::Value> values_;
};

}  // namespace

std::unique_ptr<RowWriter> make_row_writer(const RowSettings& settings) {
  switch (settings.format) {
    case Format::kCsv:
      return std::make_unique<CsvRows>(settings);
    case Format::kJson:
      return std::make_unique<JsonRows>(settings);
    case Format::kTable:
      return std::make_unique<TableRows>(settings);
    case Format::kHtml:
      break;
  }
  throw std::invalid_argument("--format html has no rows");
}

namespace {

// Each measure column's width in a table: its name's, or its widest value's
// ("-" for an absent one), from a first pass over the rows.
std::vector<size_t> measure_widths(const ReportRows& rows, const MeasureText& measures) {
  std::vector<size_t> widths;
  for (const std::string& column : measures.columns()) widths.push_back(std::max<size_t>(display_width(column), 1));
  std::vector<MeasureText::Value> values;
  rows.for_each([&](int64_t, uint32_t, uint64_t count, const MeasureCell* cell) {
    measures.values(cell, count, values);
    for (size_t c = 0; c < values.size(); ++c) widths[c] = std::max(widths[c], display_width(values[c].text));
  });
  return widths;
}

}  // namespace

void write_report_rows(const ReportRows& rows, const ReportOptions& report, uint64_t counted,
                       const MeasureSpec* measure_spec, Output& o) {
  RowSettings settings;
  settings.format = report.format;
  settings.bucketing = rows.bucketing();
  settings.csv_neutralise_formulas = report.csv_neutralise_formulas;
  settings.widest_count = counted;
  settings.key_columns = rows.key_columns();
  std::optional<MeasureText> measures;
  if (measure_spec != nullptr && !measure_spec->empty()) {
    measures.emplace(*measure_spec, report.format == Format::kTable ? report.units
                                                                    : std::vector<std::pair<std::string, DurationUnit>>{});
    settings.measures = &*measures;
    if (report.format == Format::kTable) settings.measure_widths = measure_widths(rows, *measures);
  }
  const size_t columns = settings.key_columns.size();
  const std::unique_ptr<RowWriter> writer = make_row_writer(settings);
  // Each key tuple's cells, column by column, made before the header, which a table sizes by them.
  std::vector<KeyCell> cells;
  for (uint32_t app = 0; app < rows.apps().size(); ++app) {
    const std::vector<std::string_view> parts = key_parts(rows.key(app), columns);
    for (size_t c = 0; c < columns; ++c) cells.push_back(writer->key_cell(c, parts[c]));
  }
  std::vector<const KeyCell*> row_cells(columns);
  std::string& out = o.text();
  writer->header(out);
  StartTexts starts(rows.bucketing());
  rows.for_each([&](int64_t start, uint32_t app, uint64_t count, const MeasureCell* cell) {
    for (size_t c = 0; c < columns; ++c) row_cells[c] = &cells[app * columns + c];
    writer->row(out, starts.of(start), row_cells, count, cell, false);
    o.row_done();
  });
  writer->footer(out, counted);
}

}  // namespace logagg
