// Flag parsing with CLI11 (see cli.h).
#include "cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "logagg/line_parser.h"

namespace logagg::cli {
namespace {

// The flags that name a bucket size; --bucket DURATION names any other.
struct PerFlag {
  const char* flag;
  Bucketing bucketing;
};
constexpr PerFlag kPerFlags[] = {{"--per-second", Bucketing::of_seconds(1)},
                                 {"--per-minute", Bucketing::of_seconds(60)},
                                 {"--per-hour", Bucketing::of_seconds(3600)},
                                 {"--per-day", Bucketing::of_seconds(kSecondsPerDay)}};

// Sets the bucketing from whichever bucket flag was given; two is a usage error.
void apply_bucket_flags(const CLI::App& app, const std::string& duration, Bucketing& bucketing) {
  std::string given;
  const auto take = [&](const std::string& flag, const Bucketing& b) {
    if (!given.empty()) throw CLI::ValidationError(given + " and " + flag + " both set the bucket size; give one");
    given = flag;
    bucketing = b;
  };
  for (const PerFlag& p : kPerFlags) {
    if (app.count(p.flag) > 0) take(p.flag, p.bucketing);
  }
  if (app.count("--bucket") > 0) take("--bucket", parse_bucketing(duration));
}

}  // namespace

int parse(int argc, char** argv, Config& config) {
  // One screen (24 lines, tests/docs_test.sh): the most used options first;
  // the counting rules, exit status and examples are in the man page
  // (generated from this text).
  CLI::App app{
      "logagg: exact per-second request counts from JSON access logs, one object per\n"
      "line; a line counts if its app id is alphanumeric and its time is RFC 3339.",
      "logagg"};
  app.get_formatter()->column_width(24);
  app.footer(
      "Commands:\n"
      "  split                 Cut a log into line-aligned chunk files (see its --help)");

  Options& o = config.options;
  app.add_option("PATH", config.paths, "Files, folders (read recursively), or - for stdin")
      ->required()
      ->type_name("");
  const std::map<std::string, Format> formats{
      {"table", Format::kTable}, {"csv", Format::kCsv}, {"json", Format::kJson}};
  app.add_option("--format", config.format, "Output: table (default), csv or json")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description(""))
      ->type_name("FORMAT");
  for (const PerFlag& p : kPerFlags) app.add_flag(p.flag)->group("");  // all on --per-minute's line
  app.get_option("--per-minute")
      ->description("Rows per minute; or --per-hour, --per-day, --per-second (default)")
      ->group("Options");
  std::string duration;
  app.add_option("--bucket", duration, "Rows per DURATION: 5s, 15m, 1h, 1d... (must divide a day)")
      ->check([](const std::string& text) {
        try {
          parse_bucketing(text);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      })
      ->type_name("DURATION");
  app.add_flag("--fill-gaps", o.fill_gaps, "Rows of 0 for empty buckets between the first and the last");
  app.add_flag("--stats", config.stats, "Total, peak, mean, median, p95, p99 per bucket to stderr (json: always)");
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
    apply_bucket_flags(app, duration, o.bucketing);
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
