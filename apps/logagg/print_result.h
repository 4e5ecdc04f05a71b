// Printing a result, shared by `logagg` and `logagg merge`: the report (or
// the chart) on stdout, then on stderr the input errors, a warning if app ids
// were folded into (other), reject samples, summary and statistics; and the
// exit status that follows from them.
#pragma once

#include <string_view>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/options.h"
#include "logagg/report.h"

namespace logagg::cli {

struct PrintSettings {
  bool summary = true;  // the run summary on stderr
  bool stats = false;   // bucket statistics on stderr (json documents carry them anyway)
  bool plot = false;    // a chart (report/plot.h) on stdout instead of the report, as wide as the terminal
};

// "logagg: PATH: MESSAGE" on stderr, both as terminal_text shows them (a
// file name or a message can hold any byte but NUL).
void print_error(std::string_view path, std::string_view message);

// "logagg: MESSAGE" then "Try 'logagg COMMAND--help' ...": a usage error,
// its MESSAGE (which may quote arguments) as terminal_text shows it.
void print_usage_error(std::string_view message, std::string_view command);

// The size of a --plot chart: as wide as the terminal on stdout (else
// $COLUMNS, else 80), at least 40 columns.
PlotSize plot_size();

// print_error for each input that could not be read.
void print_input_errors(const std::vector<InputError>& errors);

// Returns 0, or 1 if the result has errors or the report could not be written.
// A reader that goes away (`logagg big.log | head -1`) is not an error: the
// report stops quietly. SIGPIPE must be ignored by the caller. `written`, if
// given, is set to whether the whole report reached stdout.
int print_result(const Result& result, const ReportOptions& report, const PrintSettings& settings,
                 bool* written = nullptr);

}  // namespace logagg::cli
