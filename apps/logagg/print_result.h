// Printing a result, shared by `logagg` and `logagg merge`: the report (or
// the chart) on stdout, then on stderr the input errors, a warning if app ids
// were folded into (other), reject samples, summary and statistics; and the
// exit status that follows from them.
#pragma once

#include <string>
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
  // The inputs, whose sampled lines name the fields the log has when a
  // field the run asked for is in no line (none for logagg merge).
  std::vector<std::string> inputs;
  bool strict = false;  // --strict: a warning about the run's fields makes the status kWarned
};

// The exit status of a run whose fields gave a warning, with --strict.
inline constexpr int kWarned = 4;

// "logagg: PATH: MESSAGE" on stderr, both as terminal_text shows them (a
// file name or a message can hold any byte but NUL).
void print_error(std::string_view path, std::string_view message);

// "logagg: MESSAGE" then "Try 'logagg COMMAND--help' ...": a usage error,
// its MESSAGE (which may quote arguments) as terminal_text shows it.
void print_usage_error(std::string_view message, std::string_view command);

// The size of a --plot chart: as wide as the terminal on stdout (else
// $COLUMNS, else 80), at least 40 columns.
PlotSize plot_size();

// The result's warnings (logagg/field_checks.h), naming the fields of the
// lines sampled from `inputs` when the run asked for one that no line had
// (a stream, read already, is not sampled; none for no inputs).
void add_field_warnings(Result& result, const std::vector<std::string>& inputs);
// "logagg: warning: MESSAGE" on stderr for each of them.
void print_warnings(const Result& result);
// The warning that the run met more apps or keys than --max-apps, if it did.
void print_cap_warning(const Result& result);

// print_error for each input that could not be read.
void print_input_errors(const std::vector<InputError>& errors);

// Sets the result's warnings (logagg/field_checks.h), which json reports
// carry and stderr shows after the summary, even with -q.
// Returns 0, or 1 if the result has errors or the report could not be written,
// else kWarned with settings.strict if it has warnings.
// A reader that goes away (`logagg big.log | head -1`) is not an error: the
// report stops quietly. SIGPIPE must be ignored by the caller. `written`, if
// given, is set to whether the whole report reached stdout.
int print_result(Result& result, const ReportOptions& report, const PrintSettings& settings, bool* written = nullptr);

}  // namespace logagg::cli
