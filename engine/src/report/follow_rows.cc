// The rows of --follow as text (FollowWriter of logagg/follow_rows.h): the
// batch report's row writers (row_writer.h), streamed.
#include "logagg/follow_rows.h"

#include <algorithm>
#include <optional>

#include "report/measure_text.h"
#include "report/report_text.h"
#include "report/row_writer.h"

namespace logagg {
namespace {

// A streamed table's measure columns are as wide as their names, and at
// least kStreamMeasureWidth: rows are written before the widest is known.
constexpr size_t kStreamMeasureWidth = 10;

std::unique_ptr<RowWriter> stream_writer(const std::vector<std::string>& key_columns, const ReportOptions& report,
                                         const std::optional<MeasureText>& measures) {
  RowSettings settings;
  settings.format = report.format;
  settings.bucketing = report.bucketing;
  settings.csv_neutralise_formulas = report.csv_neutralise_formulas;
  settings.stream = true;
  settings.key_columns = key_columns;
  if (measures) {
    settings.measures = &*measures;
    for (const std::string& column : measures->columns()) {
      settings.measure_widths.push_back(std::max(display_width(column), kStreamMeasureWidth));
    }
  }
  return make_row_writer(settings);
}

std::optional<MeasureText> measure_text(const MeasureSpec& spec) {
  if (spec.empty()) return std::nullopt;
  return MeasureText(spec);
}

}  // namespace

std::string FollowWriter::header() const {
  std::string out;
  stream_writer(query_.key_columns(), report_, measure_text(query_.measures()))->header(out);
  return out;
}

std::string FollowWriter::rows(const std::vector<FollowRow>& rows) const {
  const std::optional<MeasureText> measures = measure_text(query_.measures());
  const std::unique_ptr<RowWriter> writer = stream_writer(query_.key_columns(), report_, measures);
  std::string out;
  StartTexts starts(report_.bucketing);
  const size_t columns = query_.key_columns().size();
  std::vector<KeyCell> cells(columns);
  std::vector<const KeyCell*> row_cells(columns);
  for (const FollowRow& r : rows) {
    if (columns > 0) {
      const std::vector<std::string_view> parts = key_parts(r.app, columns);
      for (size_t c = 0; c < columns; ++c) {
        cells[c] = writer->key_cell(c, parts[c]);
        row_cells[c] = &cells[c];
      }
    }
    writer->row(out, starts.of(r.start), row_cells, r.count, measures ? &r.measures : nullptr, r.correction);
  }
  return out;
}

std::string FollowWriter::footer(uint64_t counted) const {
  std::string out;
  stream_writer(query_.key_columns(), report_, std::nullopt)->footer(out, counted);
  return out;
}

}  // namespace logagg
