// Printing a result (see print_result.h).
#include "print_result.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "logagg/detect.h"
#include "logagg/field_checks.h"
#include "logagg/terminal_text.h"

namespace logagg::cli {
namespace {

// Writes to stdout; on the first failure remembers its errno and throws
// WriteFailed, which stops the report at once, so that a long one (--fill-gaps
// over years) does not run on after its reader has gone.
struct WriteFailed {};
struct StdoutSink {
  int error = 0;
  void operator()(std::string_view chunk) {
    if (std::fwrite(chunk.data(), 1, chunk.size(), stdout) != chunk.size()) {
      error = errno;
      throw WriteFailed{};
    }
  }
  void finish() {
    if (error == 0 && std::fflush(stdout) != 0) error = errno;
  }
};

void write_stderr(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stderr); }

// A warning for each --sum field whose total left the exact range in some
// rows (printed there as "-" in a table, empty in csv, null in json).
void print_sum_overflows(const Result& result) {
  const MeasureSpec& spec = result.query.measures();
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    size_t rows = 0;
    for (size_t row = 0; row < result.cells.size(); ++row) rows += result.cells.sum(row, i).overflowed();
    if (rows == 0) continue;
    std::fprintf(stderr,
                 "logagg: warning: sum(%s) is past the +-1.7e20 that --sum adds exactly in %zu row%s of seconds: "
                 "those rows show no sum (table -, csv empty, json null)\n",
                 terminal_text(spec.fields[i].name).c_str(), rows, rows == 1 ? "" : "s");
  }
}

}  // namespace

void add_field_warnings(Result& result, const std::vector<std::string>& inputs) {
  result.warnings = check_fields(result.query, result.summary);
  std::vector<std::string> files;
  for (const std::string& path : inputs) {
    if (path != "-") files.push_back(path);
  }
  if (files.empty() || !names_missing_fields(result.warnings)) return;
  std::vector<LogField> fields;
  for (const FieldValues& f : read_shape(sample_inputs(files).lines).fields)
    fields.push_back({f.name, holds_http_statuses(f)});
  result.warnings = check_fields(result.query, result.summary, fields);
}

void print_cap_warning(const Result& result) {
  if (!result.apps_capped) return;
  const Query& query = result.query;
  const char* what = query.by_keys() ? "keys" : "ids";  // --by: key tuples
  const size_t cap = query.question().max_apps;
  std::fprintf(stderr,
               "logagg: warning: a run met more than %zu distinct %s%s (--max-apps); the lines of the %s "
               "it met after its first %zu are counted as %s, and which %s those are can change from run to "
               "run\n",
               cap, query.by_keys() ? "" : "app ", what, what, cap, std::string(kOtherAppName).c_str(), what);
}

void print_warnings(const Result& result) {
  for (const FieldWarning& w : result.warnings) write_stderr("logagg: warning: " + terminal_text(w.message) + "\n");
}

void print_error(std::string_view path, std::string_view message) {
  write_stderr("logagg: " + terminal_text(path) + ": " + terminal_text(message) + "\n");
}

void print_usage_error(std::string_view message, std::string_view command) {
  std::string out = "logagg: ";
  for (size_t at = 0;;) {  // line by line: a message may show an argument again, with a caret under it
    const size_t end = message.find('\n', at);
    out += terminal_text(message.substr(at, end - at));
    if (end == std::string_view::npos) break;
    out += '\n';
    at = end + 1;
  }
  write_stderr(out + "\nTry 'logagg " + std::string(command) + "--help' for more information.\n");
}

PlotSize plot_size() {
  PlotSize size;
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    size.width = ws.ws_col;
  } else if (const char* columns = std::getenv("COLUMNS")) {
    size.width = static_cast<unsigned>(std::clamp(std::atoi(columns), 0, 1000));
  }
  size.width = std::max(size.width, 40u);
  return size;
}

void print_input_errors(const std::vector<InputError>& errors) {
  for (const InputError& e : errors) print_error(e.path, e.message);
}

int print_result(Result& result, const ReportOptions& report, const PrintSettings& settings, bool* written) {
  const Query& query = result.query;
  add_field_warnings(result, settings.inputs);
  StdoutSink out;
  try {
    if (settings.plot) {
      const std::optional<PlotMeasures> measures = plot_measures(result, report);
      out(format_plot(rebucket(result.counts, report.bucketing), report.bucketing, plot_size(),
                      measures ? &*measures : nullptr));
    } else {
      write_report(result, report, std::ref(out));
    }
  } catch (const WriteFailed&) {
    // out.error says why; reported below unless the reader just went away.
  }
  out.finish();
  if (written != nullptr) *written = out.error == 0;

  print_input_errors(result.errors);
  print_cap_warning(result);
  print_sum_overflows(result);
  write_stderr(format_rejects(result));
  if (settings.summary) {
    write_stderr(format_summary(result.summary, query));
    if (query.measured()) {  // the memory of the measures (sketches only with --quantiles)
      const std::string buckets = query.question().quantiles.empty()
                                      ? ""
                                      : ", " + std::to_string(result.cells.sketch_buckets()) + " sketch buckets";
      std::fprintf(stderr, "  measures kept: %zu rows%s, %s\n", result.cells.size(), buckets.c_str(),
                   human_bytes(static_cast<double>(result.cells.bytes())).c_str());
    }
  }
  if (settings.stats && report.format != Format::kJson) write_stderr(format_stats(result, report));
  print_warnings(result);
  if (out.error != 0 && out.error != EPIPE) {
    std::fprintf(stderr, "logagg: cannot write the report: %s\n", std::strerror(out.error));
    return 1;
  }
  if (!result.errors.empty()) return 1;
  return settings.strict && !result.warnings.empty() ? kWarned : 0;
}

}  // namespace logagg::cli
