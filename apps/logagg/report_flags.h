// The flags that say how a result is shown, defined once for `logagg` and
// `logagg merge`, so that both accept and describe them alike: --format
// (and --csv-safe), --fill-gaps, --stats, --plot, --top, --unit and --overall, and the checks
// made after parsing (whole-number values that name their flag, --plot
// refused beside --format). Each add_* returns the option, for the caller to
// place in its --help.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "choices.h"
#include "logagg/report.h"

namespace logagg::cli {

// --format, and --csv-safe on its line of --help.
inline CLI::Option* add_format_option(CLI::App& app, ReportOptions& report) {
  const std::vector<std::pair<std::string, Format>> formats{
      {"table", Format::kTable}, {"csv", Format::kCsv}, {"json", Format::kJson}, {"html", Format::kHtml}};
  const auto html_built = [](std::string& value) -> std::string {
    if (has_html_format() || CLI::detail::to_lower(value) != "html") return {};
    return "this logagg was built without --format html (LOGAGG_WITH_HTML=OFF)";
  };
  // transform() puts a validator before those added earlier: html_built sees
  // the value as given, before it is mapped to a Format.
  app.add_flag("--csv-safe", report.csv_neutralise_formulas, "csv: ids starting with = + - @ TAB CR get a ' in front")
      ->group("");  // on --format's line
  return app.add_option("--format", report.format, "Output: table (default), csv, json, html (a chart); --csv-safe")
      ->transform(one_of(formats))
      ->transform(CLI::Validator(html_built, ""))
      ->type_name("FORMAT");
}

inline CLI::Option* add_fill_gaps_flag(CLI::App& app, ReportOptions& report) {
  return app.add_flag("--fill-gaps", report.fill_gaps, "Rows of 0 for empty buckets between the first and the last");
}

inline CLI::Option* add_stats_flag(CLI::App& app, bool& stats) {
  return app.add_flag("--stats", stats, "Total, peak, mean, median, p95, p99 per bucket to stderr (json: always)");
}

inline CLI::Option* add_plot_flag(CLI::App& app, bool& plot) {
  return app.add_flag("--plot", plot, "A chart of the counts on stdout instead of rows, as wide as the terminal");
}

// --unit FIELD=UNIT (repeatable): FIELD's values are durations in UNIT, which
// the table prints readably (ReportOptions::units). The last '=' separates,
// so a field name may hold one.
inline CLI::Option* add_unit_option(CLI::App& app, ReportOptions& report) {
  return app
      .add_option_function<std::vector<std::string>>(
          "--unit",
          [&report](const std::vector<std::string>& values) {
            for (const std::string& v : values) {
              const size_t eq = v.rfind('=');
              try {
                if (eq == std::string::npos || eq == 0) throw std::invalid_argument("want FIELD=UNIT (latency=ms)");
                report.units.emplace_back(v.substr(0, eq), parse_duration_unit(std::string_view(v).substr(eq + 1)));
              } catch (const std::invalid_argument& e) {
                throw CLI::ValidationError("--unit " + v + ": " + e.what());
              }
            }
          },
          "The table prints FIELD's values (durations in s, ms, us, ns) as 12.3 ms")
      ->allow_extra_args(false)  // a value a use: the paths after it stay paths
      ->type_name("FIELD=UNIT");
}

// --top N, its text checked by check_report_flags so that a bad value names the flag.
inline CLI::Option* add_top_option(CLI::App& app, std::string& top) {
  return app.add_option("--top", top, "Of counts per app: only the N busiest apps, the rest summed as (other)")
      ->type_name("N");
}

// The value of `flag` as a whole number from 1 to `max`; throws
// CLI::ValidationError otherwise.
inline size_t parse_count(const std::string& flag, const std::string& text, size_t max = SIZE_MAX) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v == 0 || v > max) {
    throw CLI::ValidationError(flag + ": '" + text + "' is not a whole number " +
                               (max == SIZE_MAX ? std::string("of 1 or more") : "from 1 to " + std::to_string(max)));
  }
  return v;
}

// --overall: one bucket for the whole input, its rows busiest first.
inline CLI::Option* add_overall_flag(CLI::App& app) {
  return app.add_flag("--overall")->description("One row per key for the whole input, busiest first (no time column)");
}

// Why --plot cannot draw a result of `bucketing` (empty: it can): the whole
// input's one bucket is no series over time.
inline std::string plot_refusal(const Bucketing& bucketing) {
  return bucketing.is_whole() ? "--plot draws the counts over time: not with --overall's one bucket for the whole input"
                              : std::string();
}

// After parsing: --top's value into report.top, and --plot refused beside --format.
inline void check_report_flags(const CLI::App& app, const std::string& top, bool plot, ReportOptions& report) {
  if (app.count("--top") > 0) report.top = parse_count("--top", top);
  if (plot && app.count("--format") > 0) {
    throw CLI::ValidationError("--plot draws a chart instead of the rows: give --plot or --format, not both");
  }
}

}  // namespace logagg::cli
