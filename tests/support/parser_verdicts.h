// The two line parsers side by side, for the tests that compare them: each
// line's verdict (with a counted line's app id or key tuple, copied, as it is
// valid only until the parser's next line) from LineParser line by line and
// from BlockParser over the whole text, and a description of a verdict that
// shows every field a verdict carries (reason, filter, no-value bits, tuple).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/result.h"
#include "model/line_verdict.h"
#include "parse/line_parser.h"
#include "text/lines.h"  // kLinePadding

namespace logagg::testing {

// A verdict and, for a counted line, its app id or key tuple.
using Seen = std::pair<LineVerdict, std::string>;

inline std::string printable(std::string_view bytes) {
  std::string out;
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\\') {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

inline std::string describe(const Seen& seen) {
  const LineVerdict& v = seen.first;
  switch (v.status) {
    case LineStatus::kCounted:
      return "counted " + std::to_string(v.second) + " app '" + printable(seen.second) + "' no_value " +
             std::to_string(v.no_value) + " field_kinds " + std::to_string(v.field_kinds);
    case LineStatus::kBlank:
      return "blank";
    case LineStatus::kRejected:
      return "rejected " + std::to_string(static_cast<int>(v.reason));
    case LineStatus::kFiltered:
      return "filtered by " + std::to_string(v.filter) + " field_kinds " + std::to_string(v.field_kinds);
  }
  return "?";
}

// Whether two verdicts are the same in every field that their status gives a meaning.
inline bool same(const Seen& a, const Seen& b) {
  if (a.first.status != b.first.status) return false;
  switch (a.first.status) {
    case LineStatus::kCounted:
      return a.first.second == b.first.second && a.second == b.second && a.first.no_value == b.first.no_value &&
             a.first.field_kinds == b.first.field_kinds;
    case LineStatus::kRejected:
      return a.first.reason == b.first.reason;
    case LineStatus::kFiltered:
      return a.first.filter == b.first.filter && a.first.field_kinds == b.first.field_kinds;
    case LineStatus::kBlank:
      return true;
  }
  return false;
}

// BlockParser's verdicts for every line of `text`; `padded`: readable padding
// follows the text, else the last blocks are copied.
inline std::vector<Seen> blocks(const std::string& text, size_t block_bytes, bool padded, const LineRules& rules,
                                size_t max_line_bytes = size_t{1} << 20) {
  BlockParser parser(rules, max_line_bytes, block_bytes);
  const std::string buffer = padded ? text + std::string(kLinePadding, '"') : text;
  std::vector<Seen> out;
  parser.classify_lines(std::string_view(buffer).substr(0, text.size()), buffer.size(), [&](const LineVerdict& v) {
    out.emplace_back(v, v.status == LineStatus::kCounted ? std::string(v.app) : "");
  });
  return out;
}

// LineParser's verdicts for the lines of `text`: split at LF, one CR before it dropped.
inline std::vector<Seen> line_by_line(const std::string& text, const LineRules& rules,
                                      size_t max_line_bytes = size_t{1} << 20) {
  LineParser parser(rules, max_line_bytes);
  std::vector<Seen> out;
  for (size_t at = 0; at < text.size();) {
    size_t lf = text.find('\n', at);
    const size_t next = lf == std::string::npos ? text.size() : lf + 1;
    if (lf == std::string::npos) lf = text.size();
    size_t end = lf;
    if (lf < text.size() && end > at && text[end - 1] == '\r') --end;
    const std::string line = text.substr(at, end - at);
    const LineVerdict v = parser.classify(line, line.size());
    out.emplace_back(v, v.status == LineStatus::kCounted ? std::string(v.app) : "");
    at = next;
  }
  return out;
}

// Every line of `text` gets LineParser's verdict from BlockParser, in every
// field, for every block size in `sizes`, padded and not.
inline void expect_parsers_agree(const std::string& text, const std::vector<size_t>& sizes, const LineRules& rules,
                                 size_t max_line_bytes = size_t{1} << 20) {
  const std::vector<Seen> want = line_by_line(text, rules, max_line_bytes);
  for (const size_t block_bytes : sizes) {
    for (const bool padded : {false, true}) {
      const std::vector<Seen> got = blocks(text, block_bytes, padded, rules, max_line_bytes);
      ASSERT_EQ(got.size(), want.size()) << "block_bytes " << block_bytes;
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_TRUE(same(got[i], want[i])) << "block_bytes " << block_bytes << (padded ? " padded" : " copied")
                                           << ", line " << i << ": blocks " << describe(got[i])
                                           << ", LineParser " << describe(want[i]);
      }
    }
  }
}

}  // namespace logagg::testing
