// check_detect (checks.h): `logagg detect`'s analysis of arbitrary bytes.
#include <string>
#include <string_view>
#include <vector>

#include "checks.h"
#include "logagg/detect.h"
#include "parse/app_pattern.h"

namespace logagg_fuzz {
namespace {

// The argument a POSIX shell reads from shell_quoted's text.
std::string unquoted(std::string_view text) {
  if (!text.starts_with('\'')) return std::string(text);
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    if (text.substr(i, 4) == "'\\''") {
      out += '\'';
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string check_detect(std::string_view input) {
  std::vector<std::string> lines;
  for (size_t at = 0; at <= input.size();) {
    const size_t lf = std::min(input.find('\n', at), input.size());
    lines.emplace_back(input.substr(at, lf - at));
    at = lf + 1;
  }
  const logagg::Detection d = logagg::detect(lines);
  if (d.objects > d.lines || d.lines > lines.size()) return "more objects or lines than the input has";
  if (!d.suggestions.empty() && !d.not_json.empty()) return "suggestions for lines said not to be JSON";
  for (const logagg::Suggestion& s : d.suggestions) {
    if (s.counted > d.lines) return "a suggestion counts more lines than were sampled";
    for (size_t i = 0; i < s.flags.size(); ++i) {
      if (unquoted(logagg::shell_quoted(s.flags[i])) != s.flags[i]) return "a flag does not survive shell quoting";
      if (i > 0 && s.flags[i - 1] == "--app-pattern") {
        try {
          logagg::AppPattern::compile(s.flags[i]);
        } catch (const std::exception& e) {
          return std::string("a suggested pattern does not compile: ") + e.what();
        }
      }
    }
  }
  return {};
}

}  // namespace logagg_fuzz
