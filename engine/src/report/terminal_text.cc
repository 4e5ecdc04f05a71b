// Terminal-safe text and its display width (see terminal_text.h).
#include "report/terminal_text.h"

#include <locale.h>
#include <wchar.h>

#include <algorithm>
#include <cstdio>

#include "text/utf8.h"

namespace logagg {
namespace {

void append_hex(std::string& out, const char* format, unsigned value) {
  char buf[8];
  out.append(buf, static_cast<size_t>(std::snprintf(buf, sizeof buf, format, value)));
}

// Code points a terminal does not show as themselves: the C1 controls, the
// bidi controls and the invisible separators of terminal_text.h (U+200B,
// U+2028, U+2029, U+2060, U+FEFF; the joiners U+200C/U+200D are left alone,
// emoji and Indic scripts need them).
bool is_format_control(int32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200b || cp == 0x200e || cp == 0x200f ||
         (cp >= 0x2028 && cp <= 0x202e) || cp == 0x2060 || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

// The C.UTF-8 locale for wcwidth, made once; null where the system has none.
locale_t utf8_locale() {
  static const locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t{});
  return locale;
}

}  // namespace

void append_terminal_text(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const int32_t cp = next_code_point(s, i);
    if (cp == '\\') {
      out.append("\\\\");
    } else if (cp == '\n') {
      out.append("\\n");
    } else if (cp == '\r') {
      out.append("\\r");
    } else if (cp == '\t') {
      out.append("\\t");
    } else if (cp < 0x20 || cp == 0x7f) {  // C0, DEL, or not UTF-8 (-1)
      append_hex(out, "\\x%02x", static_cast<unsigned char>(s[start]));
    } else if (is_format_control(cp)) {
      append_hex(out, "\\u%04x", static_cast<unsigned>(cp));
    } else {
      out.append(s.substr(start, i - start));
    }
  }
}

std::string terminal_text(std::string_view s) {
  std::string out;
  append_terminal_text(out, s);
  return out;
}

size_t display_width(std::string_view text) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    return text.size();
  }
  const locale_t locale = utf8_locale();
  const locale_t previous = locale != nullptr ? uselocale(locale) : nullptr;
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    const int32_t cp = next_code_point(text, i);
    const int w = locale != nullptr && cp >= 0 ? wcwidth(static_cast<wchar_t>(cp)) : 1;
    width += w < 0 ? 1 : static_cast<size_t>(w);
  }
  if (previous != nullptr) uselocale(previous);
  return width;
}

}  // namespace logagg
