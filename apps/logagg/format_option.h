// The --format option, shared by `logagg` and `logagg merge` so that both
// accept and describe the same output formats.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "logagg/report.h"

namespace logagg::cli {

// --format, and --csv-safe on its line of --help.
inline CLI::Option* add_format_option(CLI::App& app, ReportOptions& report) {
  static const std::map<std::string, Format> kFormats{
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
      ->transform(CLI::CheckedTransformer(kFormats, CLI::ignore_case).description(""))
      ->transform(CLI::Validator(html_built, ""))
      ->type_name("FORMAT");
}

}  // namespace logagg::cli
