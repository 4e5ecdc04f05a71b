// The rows of --follow as text (FollowWriter of logagg/follow.h): the
// batch report's row writers (report/row_writer.h), streamed.
#include "logagg/follow.h"

#include "report/report_text.h"
#include "report/row_writer.h"

namespace logagg {
namespace {

std::unique_ptr<RowWriter> stream_writer(bool by_app, const ReportOptions& report) {
  RowSettings settings;
  settings.format = report.format;
  settings.bucketing = report.bucketing;
  settings.csv_neutralise_formulas = report.csv_neutralise_formulas;
  settings.stream = true;
  if (by_app) settings.key_columns = {"app_id"};
  return make_row_writer(settings);
}

}  // namespace

std::string FollowWriter::header() const {
  std::string out;
  stream_writer(by_app_, report_)->header(out);
  return out;
}

std::string FollowWriter::rows(const std::vector<FollowRow>& rows) const {
  const std::unique_ptr<RowWriter> writer = stream_writer(by_app_, report_);
  std::string out;
  StartTexts starts(report_.bucketing);
  for (const FollowRow& r : rows) {
    const KeyCell cell = by_app_ ? writer->key_cell(0, r.app) : KeyCell{};
    const KeyCell* cells[] = {&cell};
    writer->row(out, starts.of(r.start), std::span(cells, by_app_ ? 1 : 0), r.count, r.correction);
  }
  return out;
}

std::string FollowWriter::footer(uint64_t counted) const {
  std::string out;
  stream_writer(by_app_, report_)->footer(out, counted);
  return out;
}

}  // namespace logagg
