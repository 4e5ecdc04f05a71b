// One field of --format csv (RFC 4180), with OWASP's neutralising of
// spreadsheet formulas when asked (--csv-safe).
#pragma once

#include <string>
#include <string_view>

namespace logagg {

// Appends `field`: in double quotes, each `"` doubled, if it holds a comma,
// a double quote, a CR or a LF; else exactly as it is. With
// `neutralise_formulas`, a field that starts with `=`, `+`, `-`, `@`, TAB or
// CR first gets a `'` in front, so a spreadsheet shows it as text instead of
// running it; the field then no longer reads back as the id itself.
inline void append_csv_field(std::string& out, std::string_view field, bool neutralise_formulas) {
  const bool formula = neutralise_formulas && !field.empty() && std::string_view("=+-@\t\r").find(field[0]) != std::string_view::npos;
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    if (formula) out.push_back('\'');
    out.append(field);
    return;
  }
  out.push_back('"');
  if (formula) out.push_back('\'');
  for (const char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace logagg
