// `logagg merge` (see merge_command.h): flags with CLI11, read every result,
// add them up, print like `logagg`.
#include "merge_command.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "did_you_mean.h"
#include "logagg/merge.h"
#include "print_result.h"
#include "report_flags.h"

namespace logagg::cli {
namespace {

// A merge prints no summary: its results' lines were counted by other runs.
PrintSettings quiet_settings() {
  PrintSettings settings;
  settings.summary = false;
  return settings;
}

struct MergeConfig {
  std::vector<std::string> inputs;
  PrintSettings print = quiet_settings();
  ReportOptions report;  // its format, --csv-safe, --fill-gaps and --top (the bucketing is the results')
  bool overall = false;  // --overall: the results' rows added up into one bucket for the whole input
};

int parse(int argc, char** argv, MergeConfig& config) {
  CLI::App app{
      "logagg merge: add up results that `logagg --format json` printed for different\n"
      "inputs or --range pieces, exactly, and print them like logagg would have for all\n"
      "the inputs at once. The results must share their bucket, fields, time format,\n"
      "input zone, app pattern and --since/--until.",
      "logagg merge"};
  app.get_formatter()->column_width(24);
  app.footer("Example: logagg merge day1.json day2.json --format csv > both-days.csv");
  app.add_option("RESULT", config.inputs, "JSON results of logagg, or - for standard input")
      ->required()
      ->type_name("");
  add_format_option(app, config.report);
  add_fill_gaps_flag(app, config.report);
  add_stats_flag(app, config.print.stats);
  add_plot_flag(app, config.print.plot);
  std::string top;
  add_top_option(app, top);
  add_unit_option(app, config.report);
  add_overall_flag(app);
  app.add_flag("--strict", config.print.strict,
               "Exit 4 when a field the results name is in no line, or a comparison or measure never meets its "
               "values");
  app.set_help_flag("-h,--help", "Print this help and exit");
  try {
    app.parse(argc, argv);
    check_report_flags(app, top, config.print.plot, config.report);
    config.overall = app.count("--overall") > 0;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_usage_error(with_suggestion(app, e), "merge ");
    return 2;
  }
  return -1;
}

// The whole of a file, or of standard input for "-"; nullopt if unreadable.
std::optional<std::string> slurp(const std::string& path) {
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return std::nullopt;
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

}  // namespace

int run_merge(int argc, char** argv) {
  MergeConfig config;
  if (const int code = parse(argc, argv, config); code >= 0) return code;

  std::optional<Partial> total;
  for (const std::string& path : config.inputs) {
    const std::optional<std::string> text = slurp(path);
    try {
      if (!text) throw std::runtime_error(std::strerror(errno));
      const Partial part = parse_partial(*text);
      if (total) {
        merge_into(*total, part);
      } else {
        total = part;
      }
    } catch (const std::runtime_error& e) {
      print_error(path == "-" ? "<stdin>" : path, e.what());
      return 1;  // a sum that leaves a result out would look exact and not be
    }
  }
  if (config.report.top != 0 && !total->result.query.keyed()) {
    std::fprintf(stderr, "logagg: --top needs results made with --by-app or --by\n");
    return 2;
  }
  // The results' own buckets, or one for the whole input: their buckets added up.
  config.report.bucketing = config.overall ? Bucketing::whole() : total->report.bucketing;
  if (const std::string why = plot_refusal(config.report.bucketing); config.print.plot && !why.empty()) {
    std::fprintf(stderr, "logagg: %s\n", why.c_str());
    return 2;
  }
  total->report = config.report;
  return print_result(total->result, total->report, config.print);
}

}  // namespace logagg::cli
