// JSON text as logagg's documents write it (result documents, the state
// file, `logagg detect --json`, `logagg split --list`): numbers and string
// literals that are always valid JSON, whatever bytes a string holds.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace logagg {

// `n` in decimal.
inline void append_number(std::string& out, uint64_t n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

// A JSON string literal (RFC 8259) for arbitrary bytes: `"` and `\\`
// escaped, U+0000..U+001F as \\u00hh, every byte that starts no valid UTF-8
// sequence as \\ufffd (only paths and command-line arguments can hold them:
// app ids are decoded JSON), the rest as is. So the document is always
// valid JSON, and a valid UTF-8 string reads back exactly.
void append_json_string(std::string& out, std::string_view s);

// Whether `s` is valid UTF-8 (RFC 3629), so that append_json_string writes
// it back exactly.
bool is_utf8(std::string_view s);

}  // namespace logagg
