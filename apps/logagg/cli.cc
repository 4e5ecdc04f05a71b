// Flag parsing with CLI11 (see cli.h).
#include "cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>

#include "logagg/line_parser.h"

namespace logagg::cli {

int parse(int argc, char** argv, Config& config) {
  CLI::App app{
      "logagg: exact per-second request counts from JSON access logs.\n\n"
      "Reads one JSON object per line from each PATH (a file, a folder read recursively,\n"
      "or - for standard input) and counts the lines whose app field is alphanumeric and\n"
      "whose time field is an RFC 3339 date-time, per UTC second.\n\n"
      "Example: logagg access.log --per-second\n"
      "         logagg --format csv /var/log/app/ > per-second.csv\n",
      "logagg"};
  app.get_formatter()->column_width(30);

  Options& o = config.options;
  app.add_option("PATH", config.paths, "Files, folders, or - for standard input")->required();
  bool per_second = true;  // the only bucket size so far; the flag exists because users type it
  app.add_flag("--per-second", per_second, "Count per UTC second (the default)");
  const std::map<std::string, Format> formats{
      {"table", Format::kTable}, {"csv", Format::kCsv}, {"json", Format::kJson}};
  app.add_option("--format", config.format, "Output: table, csv or json (default table)")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description(""));
  app.add_option("--threads", o.threads, "Worker threads (default: hardware threads)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--app-field", o.app_field, "Field holding the application id (default app_id)");
  app.add_option("--time-field", o.time_field, "Field holding the timestamp (default timestamp)");
  app.add_option("--show-rejects", o.max_reject_samples,
                 "Print the first N rejected lines as PATH:LINE: reason to stderr");
  app.add_flag("-q,--quiet", config.quiet, "No summary on stderr");
  app.add_option("--segment-bytes", o.segment_bytes, "Nominal segment size (for tests)")
      ->check(CLI::PositiveNumber)
      ->group("");
  app.set_version_flag("--version",
                       std::string("logagg ") + LOGAGG_VERSION + " (" + json_parser_description() + ")");

  try {
    app.parse(argc, argv);
    if (o.app_field == o.time_field) {
      throw CLI::ValidationError("--app-field and --time-field must name different fields");
    }
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "logagg: %s\nTry 'logagg --help' for more information.\n", e.what());
    return 2;
  }
  return -1;
}

}  // namespace logagg::cli
