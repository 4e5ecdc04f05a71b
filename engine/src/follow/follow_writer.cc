// The rows of --follow as text (FollowWriter of logagg/follow.h): the
// batch report's row writers (report/row_writer.h), streamed.
#include "logagg/follow.h"

#include "report/report_text.h"
#include "report/row_writer.h"

namespace logagg {
namespace {

std::unique_ptr<RowWriter> stream_writer(const std::vector<std::string>& key_columns, const ReportOptions& report) {
  RowSettings settings;
  settings.format = report.format;
  settings.bucketing = report.bucketing;
  settings.csv_neutralise_formulas = report.csv_neutralise_formulas;
  settings.stream = true;
  settings.key_columns = key_columns;
  return make_row_writer(settings);
}

}  // namespace

std::string FollowWriter::header() const {
  std::string out;
  stream_writer(key_columns_, report_)->header(out);
  return out;
}

std::string FollowWriter::rows(const std::vector<FollowRow>& rows) const {
  const std::unique_ptr<RowWriter> writer = stream_writer(key_columns_, report_);
  std::string out;
  StartTexts starts(report_.bucketing);
  const size_t columns = key_columns_.size();
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
    writer->row(out, starts.of(r.start), row_cells, r.count, nullptr, r.correction);
  }
  return out;
}

std::string FollowWriter::footer(uint64_t counted) const {
  std::string out;
  stream_writer(key_columns_, report_)->footer(out, counted);
  return out;
}

}  // namespace logagg
