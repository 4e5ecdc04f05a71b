// UTF-8 read one code point at a time, for the writers that must tell text
// from other bytes: terminal_text.cc (escapes what is not valid UTF-8) and
// the JSON strings of json_text.cc (which must be valid UTF-8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace logagg {

// The code point that starts at s[i] (i < s.size()), and i moved past it; or
// -1 and i moved past the one byte, when no valid sequence starts there
// (RFC 3629: overlong forms, surrogates and code points past U+10FFFF are
// not valid).
inline int32_t next_code_point(std::string_view s, size_t& i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  size_t tail = 0;
  int32_t cp = 0, least = 0;
  if (lead < 0x80) {
    ++i;
    return lead;
  } else if (lead >= 0xc2 && lead <= 0xdf) {
    tail = 1, cp = lead & 0x1f, least = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    tail = 2, cp = lead & 0x0f, least = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    tail = 3, cp = lead & 0x07, least = 0x10000;
  } else {
    ++i;
    return -1;
  }
  if (s.size() - i <= tail) {
    ++i;
    return -1;
  }
  for (size_t k = 1; k <= tail; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) {
      ++i;
      return -1;
    }
    cp = cp << 6 | (c & 0x3f);
  }
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    ++i;
    return -1;
  }
  i += tail + 1;
  return cp;
}

}  // namespace logagg
