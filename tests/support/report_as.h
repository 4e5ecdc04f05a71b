// Test shorthand: report options with a format, for format_report calls.
#pragma once

#include "logagg/report.h"

namespace logagg {

inline ReportOptions as(ReportOptions report, Format format) {
  report.format = format;
  return report;
}

inline ReportOptions as(Format format) { return as(ReportOptions{}, format); }

}  // namespace logagg
