// Options whose value is one of a few names (--format, detect's --format,
// split's --copy-method): a name is taken in any case, anything else is
// refused with the names listed plainly, and a number is no name (CLI11 would
// read "2" as an enum's third value).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace logagg::cli {

// A transform that turns one of `choices`' names (any case) into the text
// CLI11 reads as its value, and refuses anything else: "must be one of
// table, csv, json, html (not xml)".
template <class T>
CLI::Validator one_of(std::vector<std::pair<std::string, T>> choices) {
  std::string names;
  for (const auto& choice : choices) names += (names.empty() ? "" : ", ") + choice.first;
  return CLI::Validator(
      [choices = std::move(choices), names](std::string& text) -> std::string {
        const std::string lower = CLI::detail::to_lower(text);
        for (const auto& [name, value] : choices) {
          if (name != lower) continue;
          if constexpr (std::is_enum_v<T>) {
            text = std::to_string(static_cast<std::underlying_type_t<T>>(value));
          } else {
            text = value;
          }
          return {};
        }
        return "must be one of " + names + " (not " + text + ")";
      },
      "");
}

}  // namespace logagg::cli
