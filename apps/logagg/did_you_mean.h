// "did you mean --quantiles?": a mistyped long option named with the option
// it most likely meant. Each argument CLI11 did not expect (App::remaining)
// that starts with "--" is matched against the command's long options.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace logagg::cli {

// `error`'s message, and for an unexpected "--NAME" (or "--NAME=VALUE")
// within two edits of one of `app`'s long options, or the start of exactly
// one of them, "; did you mean --OPTION?" after it.
std::string with_suggestion(const CLI::App& app, const CLI::ParseError& error);

}  // namespace logagg::cli
