// Flag parsing with CLI11 (see cli.h).
#include "cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "did_you_mean.h"
#include "list_inputs.h"
#include "logagg/rfc3339.h"
#include "logagg/version.h"
#include "print_result.h"
#include "report_flags.h"

namespace logagg::cli {
namespace {

// The flags that name a bucket size, --per-UNIT for each unit name that
// parse_bucketing reads; --bucket DURATION names any other.
constexpr const char* kPerUnits[] = {"second", "minute", "hour", "day"};

// Sets the bucketing from whichever bucket flag was given; two is a usage error.
void apply_bucket_flags(const CLI::App& app, const std::string& duration, Bucketing& bucketing) {
  std::string given;
  const auto take = [&](const std::string& flag, const Bucketing& b) {
    if (!given.empty()) throw CLI::ValidationError(given + " and " + flag + " both set the bucket size; give one");
    given = flag;
    bucketing = b;
  };
  for (const char* unit : kPerUnits) {
    const std::string flag = std::string("--per-") + unit;
    if (app.count(flag) > 0) take(flag, parse_bucketing(unit));
  }
  if (app.count("--bucket") > 0) take("--bucket", parse_bucketing(duration));
  if (app.count("--overall") > 0) take("--overall", Bucketing::whole());
}

// "START:END" or "START:" (to the end of the file), in bytes.
Options::ByteRange parse_range(const std::string& text) {
  const size_t colon = text.find(':');
  const auto number = [&](std::string_view digits, uint64_t fallback) {
    if (digits.empty() && fallback != 0) return fallback;
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      throw CLI::ValidationError("--range: '" + text + "' is not START:END in bytes (END may be left out)");
    }
    return v;
  };
  if (colon == std::string::npos) number("", 0);  // throws
  const std::string_view sv(text);
  Options::ByteRange range{number(sv.substr(0, colon), 0), number(sv.substr(colon + 1), UINT64_MAX)};
  if (range.end < range.begin) throw CLI::ValidationError("--range: '" + text + "' ends before it starts");
  return range;
}

// An RFC 3339 instant for --since / --until, as its UTC second.
int64_t parse_instant(const std::string& flag, const std::string& text) {
  const std::optional<int64_t> second = parse_rfc3339(text);
  if (!second) throw CLI::ValidationError(flag + ": '" + text + "' is not an RFC 3339 date-time");
  return *second;
}

// A --late DURATION: digits and ms, s or m ("500ms", "5s", "1m").
std::chrono::milliseconds parse_late(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string_view unit = std::string_view(text).substr(digits);
  const int64_t scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : 0;
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + digits, n);
  if (digits == 0 || scale == 0 || ec != std::errc() || n > uint64_t{86400000} / static_cast<uint64_t>(scale)) {
    throw CLI::ValidationError("--late: '" + text + "' is not a duration such as 500ms, 5s or 1m (at most a day)");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(n) * scale);
}

// What --follow can be combined with: the rest streams, or is refused here.
void check_follow(const CLI::App& app, Config& config, const std::string& late) {
  if (!late.empty()) config.late = parse_late(late);
  const auto refuse = [](const std::string& why) { throw CLI::ValidationError("--follow " + why); };
  if (!config.state.empty()) refuse("and --state are two ways to run: give one");
  if (app.count("--range") > 0) refuse("reads whole files as they grow: not with --range");
  if (std::count(config.paths.begin(), config.paths.end(), "-") > 1) refuse("reads standard input (-) once: give it once");
  if (config.report.fill_gaps) refuse("cannot fill gaps with buckets that may still come: not with --fill-gaps");
  if (config.report.format == Format::kHtml) refuse("streams rows: --format html is a whole page");
  if (config.report.bucketing.is_whole()) {
    refuse("prints each bucket when it is complete: --overall's one bucket never is (leave --follow out)");
  }
  if (config.plot && ::isatty(STDOUT_FILENO) != 1) {
    refuse("with --plot redraws its chart on a terminal: stdout is not one");
  }
}

// Flag values that are checked and converted after parsing, so that a bad
// value names its option and the checks can see every flag.
struct RawFlags {
  std::string tz, duration, top, max_apps, since, until, range, late, serve;
  size_t serve_history = 0;
  std::vector<std::string> serve_buckets;  // --serve-buckets FIELD=B1,B2,...
  std::vector<std::string> by, by_status_class;  // --by keys, put in order by apply_flags
  std::vector<std::pair<std::string, std::string>> by_path_prefix;  // (N, FIELD)
  const CLI::Option *by_option = nullptr, *by_status_class_option = nullptr, *by_path_prefix_option = nullptr;
  unsigned progress_delay_ms = 1000;
};

// The report's options: what to show and how (--help lists them first).
void add_report_options(CLI::App& app, Config& config, RawFlags& raw) {
  add_format_option(app, config.report);
  for (const char* unit : kPerUnits) app.add_flag(std::string("--per-") + unit)->group("");  // all on --per-minute's line
  app.get_option("--per-minute")
      ->description("Rows per minute, --per-hour, --per-day, --per-second (default), --overall; --tz ZONE: local")
      ->group("Options");
  add_overall_flag(app)->group("");  // on --per-minute's line
  app.add_option("--tz", raw.tz, "Buckets in local time of ZONE (Europe/Madrid, UTC, local)")
      ->type_name("ZONE")
      ->group("");  // on --per-minute's line
  app.add_option("--bucket", raw.duration, "Rows per DURATION: 5s, 15m, 1h, 1d (divides a day); --fill-gaps: 0 rows too")
      ->check([](const std::string& text) {
        try {
          parse_bucketing(text);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      })
      ->type_name("DURATION");
  add_fill_gaps_flag(app, config.report)->group("");  // on --bucket's line
  add_stats_flag(app, config.stats);
  add_plot_flag(app, config.plot)->group("");  // on --stats' line
  app.add_flag("--by-app", config.options.by_app, "Rows per bucket and app; --top N: N busiest, rest as (other); --max-apps N");
  add_top_option(app, raw.top)->group("");  // on --by-app's line (and implies it)
  app.add_option("--max-apps", raw.max_apps, "At most N app ids told apart, later ones count as (other)")
      ->type_name("N")
      ->group("");  // in --by-app's section of the man page
  raw.by_option = app.add_option("--by", raw.by, "Rows per bucket and FIELD's value (up to 4); --by-status-class F, --by-path-prefix N F")
      ->type_name("FIELD");
  raw.by_status_class_option = app.add_option("--by-status-class", raw.by_status_class, "Rows per HTTP status class (2xx..5xx, other) of FIELD")
      ->type_name("FIELD")
      ->group("");  // on --by's line
  raw.by_path_prefix_option = app.add_option("--by-path-prefix", raw.by_path_prefix, "Rows per first N segments of the URL path in FIELD")
      ->type_name("N FIELD")
      ->group("");  // on --by's line
  app.add_option("--where", config.options.where, "Count only lines where FIELD OP VALUE: == != < <= > >= ~ !~, exists F")
      ->type_name("EXPR");
  app.add_option("--sum", config.options.sum, "Exact sum of FIELD per row; --quantiles F, --percentiles 50,99.9, --count-if EXPR, --unit F=ms")
      ->type_name("FIELD");
  app.add_option("--quantiles", config.options.quantiles, "Quantiles (within 1%), exact min and max of FIELD per row")
      ->type_name("FIELD")
      ->group("");  // on --sum's line
  app.add_option("--percentiles", config.options.percentiles, "The quantiles --quantiles shows (default 50,90,99)")
      ->delimiter(',')
      ->type_name("P,...")
      ->group("");  // on --sum's line
  app.add_option("--count-if", config.options.count_if, "Also count the lines where EXPR (--where's grammar) holds, and their ratio")
      ->type_name("EXPR")
      ->group("");  // on --sum's line
  add_unit_option(app, config.report)->group("");  // on --sum's line
}

// What to read and count, then the rest.
void add_input_options(CLI::App& app, Config& config, RawFlags& raw) {
  Options& o = config.options;
  app.add_option("--since", raw.since, "Count lines from TIME (RFC 3339) on; --until TIME: before; --range A:B bytes")
      ->type_name("TIME");
  app.add_option("--until", raw.until, "Count lines before TIME (RFC 3339)")->group("");
  app.add_option("--include", o.include, "Only folder files matching GLOB; --exclude GLOB: skip; --list-inputs, --piece-size")
      ->type_name("GLOB");
  app.add_option("--exclude", o.exclude, "Skip folder files matching GLOB (repeatable)")->group("");
  app.add_flag("--list-inputs", config.list_inputs, "Print the files a run would read, in its order, and exit")
      ->group("");  // on --include's line
  add_piece_size_option(app, config);
  app.add_option("--state", config.state, "Count only what is new since the last run with FILE; --delta, --delta-dir")
      ->type_name("FILE");
  app.add_flag("--delta", config.delta, "With --state: print what this run added, not the running total")
      ->group("");  // on --state's line
  app.add_option("--delta-dir", config.delta_dir, "With --state: each run's delta as a file of DIR, saved with the state")
      ->type_name("DIR")
      ->group("");  // on --state's line
  app.add_flag("--follow", config.follow,
               "Keep reading what is appended; --late DURATION; --serve ADDR, --serve-history N, --serve-buckets F=B,..");
  app.add_option("--late", raw.late, "With --follow: a bucket is complete DURATION past its end (default 5s)")
      ->type_name("DURATION")
      ->group("");  // on --follow's line
  app.add_option("--serve", raw.serve,
                 "With --follow: a live dashboard at /, /metrics (Prometheus) and /events over HTTP on "
                 "[HOST:]PORT (127.0.0.1 by default); --serve-history N")
      ->type_name("ADDR")
      ->group("");  // on --follow's line
  app.add_option("--serve-history", raw.serve_history, "With --serve: the buckets /events and the dashboard keep (default 3600)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20).description(""))
      ->type_name("N")
      ->group("");  // on --follow's line
  app.add_option("--serve-buckets", raw.serve_buckets,
                 "With --serve: a --quantiles field's histogram bounds in /metrics, FIELD=B1,B2,... (seconds for a "
                 "duration)")
      ->type_name("FIELD=BOUNDS")
      ->group("");  // on --follow's line
  app.add_option("--range", raw.range, "Only the lines that start in this byte range of the one FILE")
      ->type_name("START:END")
      ->group("");  // on --since's line
  app.add_option("--threads", o.threads, "Worker threads, 1..1024 (default: all hardware threads)")
      ->check(CLI::Range(1u, 1024u).description(""))
      ->type_name("N");
  app.add_option("--show-rejects", o.max_reject_samples,
                 "The first N rejected lines to stderr as PATH:LINE: reason; -q,--quiet: no summary; --strict")
      ->type_name("N");
  app.add_flag("-q,--quiet", config.quiet, "No summary on stderr")->group("");  // on --show-rejects' line
  app.add_flag("--strict", config.strict, "Exit 4 on a warning that the log cannot answer the question asked")
      ->group("");  // on --show-rejects' line
  app.add_option("--app-field", o.app_field, "App id field or /json/pointer (default app_id); --app-pattern REGEX")
      ->type_name("NAME");
  app.add_option("--app-pattern", o.app_pattern, "Ids that count, an RE2 regex (default [A-Za-z0-9]+)")->group("");
  app.add_option("--time-field", o.time_field, "Time field (default timestamp); --time-format FORMAT, --input-tz ZONE")
      ->type_name("NAME");
  app.add_option("--time-format", o.time_format, "rfc3339 (default), unix, unix-ms, unix-us, unix-ns, clf, auto, %Y-%m-%d...")
      ->group("");
  app.add_option("--input-tz", o.input_tz, "The zone of a --time-format pattern without %z")->group("");
  app.add_option("--progress-delay-ms", raw.progress_delay_ms, "Milliseconds before progress shows (for tests)")
      ->group("");
  app.add_option("--segment-bytes", o.segment_bytes, "Nominal segment size (for tests)")
      ->check(CLI::PositiveNumber)
      ->group("");
  app.set_help_flag("-h,--help", "Print this help and exit; --version: version, JSON parser kernel, gzip decoder");
  app.set_version_flag("--version",
                       std::string("logagg ") + std::string(kVersion) + " (" + json_parser_description() +
                           "; gzip: " + std::string(kGzipDecoder) + ")",
                       "Print the version, the JSON parser's kernel for this CPU and the gzip decoder")
      ->group("");  // on --help's line
}

// Question::by from the --by, --by-status-class and --by-path-prefix flags,
// in the order they were given.
std::vector<KeyField> key_fields(const CLI::App& app, const RawFlags& raw) {
  std::vector<KeyField> keys;
  size_t by = 0, by_class = 0, by_prefix = 0;
  // CLI11 lists --by-path-prefix once per value it took (two per use) or once per use.
  const auto prefix_entries = static_cast<size_t>(
      std::count(app.parse_order().begin(), app.parse_order().end(), raw.by_path_prefix_option));
  const size_t entries_per_use = prefix_entries == 2 * raw.by_path_prefix.size() ? 2 : 1;
  size_t prefix_entry = 0;
  for (const CLI::Option* option : app.parse_order()) {
    if (option == raw.by_option) {
      keys.push_back({raw.by.at(by++), KeyField::Kind::kValue, 0});
    } else if (option == raw.by_status_class_option) {
      keys.push_back({raw.by_status_class.at(by_class++), KeyField::Kind::kStatusClass, 0});
    } else if (option == raw.by_path_prefix_option && prefix_entry++ % entries_per_use == 0) {
      const auto& [n, field] = raw.by_path_prefix.at(by_prefix++);
      keys.push_back({field, KeyField::Kind::kPathPrefix, static_cast<unsigned>(parse_count("--by-path-prefix", n, 100))});
    }
  }
  return keys;
}

// --unit names a field --sum or --quantiles measures.
void check_units(const Config& config) {
  const std::vector<MeasureSpec::Field>& fields = config.query.measures().fields;
  for (const auto& [field, unit] : config.report.units) {
    const std::string& name = field;  // a lambda may not capture a structured binding (clang, C++20)
    if (std::none_of(fields.begin(), fields.end(), [&](const MeasureSpec::Field& f) { return f.name == name; })) {
      throw CLI::ValidationError("--unit " + field + "=" + std::string(unit_name(unit)) +
                                 ": not a field of --sum or --quantiles");
    }
  }
}

// --serve, --serve-history and --serve-buckets: the server's options, and
// the histograms of /metrics in the question.
void apply_serve_flags(const CLI::App& app, Config& config, const RawFlags& raw) {
  if (app.count("--serve") == 0) {
    if (app.count("--serve-history") > 0 || app.count("--serve-buckets") > 0) {
      throw CLI::ValidationError("--serve-history and --serve-buckets need --serve");
    }
    return;
  }
  if (!config.follow) throw CLI::ValidationError("--serve needs --follow: it serves a followed run's counts as they grow");
  try {
    config.serve = parse_listen_address(raw.serve);
    plan_histograms(config.options, config.report.units, raw.serve_buckets, *config.serve);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(e.what());
  }
  if (raw.serve_history > 0) config.serve->history = raw.serve_history;
}

// Checks what CLI11 cannot check alone and fills what needs more than one flag.
void apply_flags(const CLI::App& app, Config& config, const RawFlags& raw) {
  Options& o = config.options;
  o.by = key_fields(app, raw);
  apply_bucket_flags(app, raw.duration, config.report.bucketing);
  check_report_flags(app, raw.top, config.plot, config.report);
  if (const std::string why = plot_refusal(config.report.bucketing); config.plot && !why.empty()) {
    throw CLI::ValidationError(why);
  }
  if (app.count("--max-apps") > 0) o.max_apps = parse_count("--max-apps", raw.max_apps, 1000000000);
  const bool capped = config.report.top != 0 || app.count("--max-apps") > 0;
  if (capped && o.by.empty() && o.app_field != kNoAppField) o.by_app = true;
  if (capped && !o.by_app && o.by.empty()) {
    throw CLI::ValidationError("--top and --max-apps need keys: --by FIELD (there is no app with --app-field none)");
  }
  if (app.count("--since") > 0) o.since = parse_instant("--since", raw.since);
  if (app.count("--until") > 0) o.until = parse_instant("--until", raw.until);
  if (o.since && o.until && *o.until <= *o.since) {
    throw CLI::ValidationError("--until must be later than --since (the range is [since, until))");
  }
  apply_serve_flags(app, config, raw);  // before the Query: the histograms are part of its question
  try {
    config.query = Query(o);  // the question read and checked once
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(e.what());
  }
  check_units(config);
  if (app.count("--tz") > 0) {
    try {
      config.report.bucketing = config.report.bucketing.in_zone(find_time_zone(raw.tz));
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError(std::string("--tz: ") + e.what());
    }
  }
  config.progress_delay = std::chrono::milliseconds(raw.progress_delay_ms);
  check_list_inputs_flags(app, config);
  if (config.delta && config.state.empty()) throw CLI::ValidationError("--delta needs --state FILE");
  if (app.count("--delta-dir") > 0 && (config.state.empty() || config.delta_dir.empty())) {
    throw CLI::ValidationError("--delta-dir needs --state FILE, and a folder");
  }
  if (app.count("--late") > 0 && !config.follow) throw CLI::ValidationError("--late needs --follow");
  if (config.follow) check_follow(app, config, raw.late);
  if (!config.state.empty()) {
    if (app.count("--range") > 0) {
      throw CLI::ValidationError("--state reads what is new in whole files: not with --range");
    }
    if (std::find(config.paths.begin(), config.paths.end(), "-") != config.paths.end()) {
      throw CLI::ValidationError("--state remembers files: standard input (-) cannot be read with it");
    }
  }
  if (app.count("--range") > 0) {
    if (config.paths.size() != 1 || config.paths[0] == "-" || std::filesystem::is_directory(config.paths[0])) {
      throw CLI::ValidationError("--range needs exactly one PATH, a file");
    }
    o.range = parse_range(raw.range);
  }
}

}  // namespace

int parse(int argc, char** argv, Config& config) {
  // One screen (24 lines, tests/e2e/docs_test.sh): the most used options first;
  // the counting rules, exit status and examples are in the man page
  // (generated from this text).
  CLI::App app{
      "logagg: exact request counts per second (and key) from JSON access logs, one object\n"
      "per line, in files, folders or - (stdin): alphanumeric app id, RFC 3339 time.",
      "logagg"};
  app.get_formatter()->column_width(24);
  app.footer(
      "Commands: split (line-aligned chunks), merge (adds up results), detect (flags a log needs): COMMAND --help");

  app.add_option("PATH", config.paths, "Files, folders (read recursively), or - for stdin")
      ->required()  // so that a repeatable option before the paths (--include GLOB) leaves them
      ->type_name("")
      ->group("");  // in the description above
  RawFlags raw;
  add_report_options(app, config, raw);  // in the order --help shows them
  add_input_options(app, config, raw);
  try {
    app.parse(argc, argv);
    apply_flags(app, config, raw);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {  // CLI11's message would not name PATH
    const bool no_path = config.paths.empty();
    print_usage_error(no_path ? "no PATH to read: give files, folders, or - for standard input" : e.what(), "");
    return 2;
  } catch (const CLI::ParseError& e) {
    print_usage_error(with_suggestion(app, e), "");
    return 2;
  }
  return -1;
}


}  // namespace logagg::cli
