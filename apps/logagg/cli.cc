// Flag parsing with CLI11 (see cli.h).
#include "cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>

#include "logagg/line_parser.h"

namespace logagg::cli {

int parse(int argc, char** argv, Config& config) {
  // One screen: the most used options first, then an example; the counting
  // rules and exit status are in the man page (generated from this text).
  CLI::App app{
      "logagg: exact per-second request counts from JSON access logs, one object per\n"
      "line; a line counts if its app id is alphanumeric and its time is RFC 3339.",
      "logagg"};
  app.get_formatter()->column_width(24);
  app.footer(
      "Commands:\n"
      "  split                 Cut a log into line-aligned chunk files (see its --help)\n\n"
      "Example: logagg --format csv /var/log/app/ > per-second.csv");

  Options& o = config.options;
  app.add_option("PATH", config.paths, "Files, folders (read recursively), or - for stdin")
      ->required()
      ->type_name("");
  const std::map<std::string, Format> formats{
      {"table", Format::kTable}, {"csv", Format::kCsv}, {"json", Format::kJson}};
  app.add_option("--format", config.format, "Output: table (default), csv or json")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description(""))
      ->type_name("FORMAT");
  app.add_option("--threads", o.threads, "Worker threads, 1..1024 (default: all hardware threads)")
      ->check(CLI::Range(1u, 1024u).description(""))
      ->type_name("N");
  app.add_option("--show-rejects", o.max_reject_samples,
                 "Print the first N rejected lines to stderr as PATH:LINE: reason")
      ->type_name("N");
  app.add_flag("-q,--quiet", config.quiet, "No summary on stderr");
  app.add_option("--app-field", o.app_field, "Field holding the application id (default app_id)")
      ->type_name("NAME");
  app.add_option("--time-field", o.time_field, "Field holding the timestamp (default timestamp)")
      ->type_name("NAME");
  bool per_second = true;  // the only bucket size so far; the flag exists because users type it
  app.add_flag("--per-second", per_second, "Count per UTC second (the default)");
  app.add_option("--segment-bytes", o.segment_bytes, "Nominal segment size (for tests)")
      ->check(CLI::PositiveNumber)
      ->group("");
  app.set_help_flag("-h,--help", "Print this help and exit");
  app.set_version_flag("--version",
                       std::string("logagg ") + LOGAGG_VERSION + " (" + json_parser_description() + ")",
                       "Print the version and the JSON parser's kernel for this CPU");

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
