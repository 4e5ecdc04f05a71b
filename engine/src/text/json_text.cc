// JSON string literals and the UTF-8 check behind them (logagg/json_text.h).
#include "logagg/json_text.h"

#include <cstdio>

#include "text/utf8.h"

namespace logagg {

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const int32_t cp = next_code_point(s, i);
    if (cp == '"' || cp == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0) {
      out.append("\\ufffd");
    } else if (cp < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out.append(buf);
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  out.push_back('"');
}

bool is_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (next_code_point(s, i) < 0) return false;
  }
  return true;
}

}  // namespace logagg
