// The result document of `--format json` (its fields: report.h; their names:
// document_fields.h), written by document_writer.cc; parse_partial
// (result_document.h, result_document.cc) reads one back.
#pragma once

#include "logagg/report.h"
#include "logagg/result.h"
#include "report/report_output.h"
#include "report/report_rows.h"

namespace logagg {

// Writes `r` as one json document: the settings of its question, the rows
// of `rows`, the line accounting and the statistics.
void write_result_json(const Result& r, const ReportRows& rows, const ReportOptions& report, Output& o);

}  // namespace logagg
