// Differential test of the app-id rule's byte table (parse/app_pattern.h)
// against RE2 itself: random single-class patterns (bracket classes, negated
// or not, with literals, ranges, escapes, C escapes, Perl classes, `]` and `-`
// in their literal places; `.`; Perl classes alone) and random ids (ASCII
// bytes from NUL to DEL, the pattern's own characters, multi-byte UTF-8 up to
// U+10FFFF, the empty id). Every pattern must compile exactly when RE2 compiles
// it and take the table exactly when the generator made a table class; on
// every id, compile(p).matches() (the table), compile(p).matches_padded() (the
// table 16 bytes at a time, the id followed by random bytes),
// compile_with_re2(p).matches() and RE2::FullMatch with RE2's default
// options must agree. Patterns the
// table must leave to RE2 (non-ASCII members, POSIX classes, hex escapes,
// other repetitions) are drawn too, and must agree on RE2. A disagreement
// prints the pattern and the id as escaped bytes.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "parse/app_pattern.h"

namespace {

using logagg::AppPattern;

// `s` with every byte outside printable ASCII as \xHH.
std::string escaped(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += ch;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

// Code points at the edges of UTF-8's lengths, and some in between.
const char32_t kNonAscii[] = {0x80,   0xA0,   0xE9,   0x7FF,  0x800,   0x2028,  0x65E5,
                              0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};

struct Pattern {
  std::string text;
  bool table;  // whether it is one the byte table must run
};

class PatternGenerator {
 public:
  explicit PatternGenerator(uint64_t seed) : rng_(seed) {}

  Pattern next() {
    switch (pick(12)) {
      case 0:
        return {".+", true};
      case 1:
        return {std::string("\\") + "dDwWsS"[pick(6)] + "+", true};
      case 2:
        return not_for_the_table();
      default:
        return {bracket_class(false) + "+", true};
    }
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool coin(size_t one_in) { return pick(one_in) == 0; }

  // A character that stands for itself in a class without an escape.
  char plain() {
    static constexpr std::string_view kPlain = "abcxyzAMZ0159 !\"#$%&'()*+,./:;<=>?@^_`{|}~\t\x01\x1f\x7f";
    return kPlain[pick(kPlain.size())];
  }

  // One class character, spelled one of the ways RE2 reads it; sets `value`.
  std::string spelled_char(int& value) {
    static constexpr std::string_view kPunct = ".-]\\[^$*+?(){}|/ !_#&~";
    switch (pick(6)) {
      case 0: {
        const char c = kPunct[pick(kPunct.size())];
        value = static_cast<unsigned char>(c);
        return std::string("\\") + c;
      }
      case 1: {
        static constexpr std::string_view kLetters = "nrtafv";
        static constexpr std::string_view kValues = "\n\r\t\a\f\v";
        const size_t k = pick(kLetters.size());
        value = static_cast<unsigned char>(kValues[k]);
        return std::string("\\") + kLetters[k];
      }
      default: {
        const char c = plain();
        value = static_cast<unsigned char>(c);
        return std::string(1, c);
      }
    }
  }

  // A bracket class; with `foreign`, one item the table cannot run is mixed in.
  std::string bracket_class(bool foreign) {
    std::string s = "[";
    if (coin(2)) s += '^';
    if (coin(8)) s += ']';  // literal as the first character
    if (coin(8)) s += '-';  // literal as the first character
    const size_t items = 1 + pick(5);
    const size_t foreign_at = foreign ? pick(items) : items;
    for (size_t i = 0; i < items; ++i) {
      if (i == foreign_at) {
        s += foreign_item();
        continue;
      }
      switch (pick(5)) {
        case 0:
          s += std::string("\\") + "dDwWsS"[pick(6)];
          break;
        case 1:
        case 2: {
          int lo, hi;
          std::string a = spelled_char(lo), b = spelled_char(hi);
          if (hi < lo) std::swap(a, b);
          s += a + "-" + b;
          break;
        }
        default: {
          int unused;
          s += spelled_char(unused);
        }
      }
    }
    if (coin(8)) s += '-';  // literal as the last character
    return s + "]";
  }

  std::string foreign_item() {
    switch (pick(5)) {
      case 0:
        return utf8(kNonAscii[pick(std::size(kNonAscii))]);
      case 1:
        return "a-" + utf8(kNonAscii[pick(std::size(kNonAscii))]);
      case 2:
        return std::string("[:") + (coin(2) ? "alpha" : "punct") + ":]";
      case 3:
        return "\\x41";
      default:
        return "\\pL";
    }
  }

  Pattern not_for_the_table() {
    static const char* const kRepeats[] = {"*", "+?", "{2,}", "", "+a", "+$"};
    switch (pick(3)) {
      case 0:
        return {bracket_class(true) + "+", false};
      case 1:
        return {bracket_class(false) + kRepeats[pick(std::size(kRepeats))], false};
      default:
        return {"(?i)" + bracket_class(false) + "+", false};
    }
  }

  std::mt19937_64 rng_;
};

// Random ids: ASCII bytes (controls and NUL among them), characters of the
// pattern (so that matches are common), multi-byte UTF-8, or nothing at all;
// and ids of the pattern's ASCII characters alone, of given lengths.
class IdGenerator {
 public:
  explicit IdGenerator(uint64_t seed) : rng_(seed) {}

  std::string next(std::string_view pattern) {
    const size_t kind = pick(4);
    const size_t length = pick(10) == 0 ? 0 : 1 + pick(12);
    std::string id;
    for (size_t i = 0; i < length; ++i) {
      const size_t draw = kind == 0 ? 0 : pick(kind == 1 ? 6 : 3);
      if (draw == 0) {
        id += pattern_char(pattern);
      } else if (draw == 1) {
        id += utf8(kNonAscii[pick(std::size(kNonAscii))]);
      } else if (draw == 2) {
        id += static_cast<char>(pick(128));
      } else {
        id += utf8(random_code_point());
      }
    }
    return id;
  }

  // `length` bytes of the pattern's own ASCII characters: ids long enough
  // for matches_padded's second and third 16 bytes.
  std::string ascii(std::string_view pattern, size_t length) {
    std::string id;
    for (size_t i = 0; i < length; ++i) id += pattern_char(pattern);
    return id;
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  char pattern_char(std::string_view pattern) {
    const auto c = static_cast<unsigned char>(pattern[pick(pattern.size())]);
    return c < 0x80 ? static_cast<char>(c) : 'a';
  }

  char32_t random_code_point() {
    for (;;) {
      const char32_t cp = static_cast<char32_t>(0x80 + pick(0x10FFFF - 0x80 + 1));
      if (cp < 0xD800 || cp > 0xDFFF) return cp;  // no surrogates: not UTF-8
    }
  }

  std::mt19937_64 rng_;
};

TEST(AppPatternDifferential, ByteTableAgreesWithRe2) {
  constexpr int kPatterns = 4000;
  constexpr int kIdsPerPattern = 150;
  PatternGenerator patterns(20231114);
  IdGenerator ids(1700000000);
  std::mt19937_64 junk(7);  // the bytes after an id, which matches_padded() may read
  RE2::Options options;
  options.set_log_errors(false);
  int compiled = 0, on_table = 0, matched = 0, missed = 0;
  for (int n = 0; n < kPatterns; ++n) {
    const Pattern p = patterns.next();
    const RE2 re(p.text, options);
    if (!re.ok()) {
      EXPECT_THROW(AppPattern::compile(p.text), std::invalid_argument) << escaped(p.text);
      continue;
    }
    ++compiled;
    const AppPattern chosen = AppPattern::compile(p.text);
    const AppPattern forced = AppPattern::compile_with_re2(p.text);
    ASSERT_EQ(chosen.uses_byte_table(), p.table) << escaped(p.text);
    ASSERT_FALSE(forced.uses_byte_table());
    on_table += p.table;

    // Every ASCII byte and every edge code point alone, then random ids.
    std::vector<std::string> cases;
    for (int b = 0; b < 128; ++b) cases.emplace_back(1, static_cast<char>(b));
    for (const char32_t cp : kNonAscii) cases.push_back(utf8(cp));
    cases.emplace_back();
    for (int i = 0; i < kIdsPerPattern; ++i) cases.push_back(ids.next(p.text));
    for (const size_t length : {15, 16, 17, 31, 32, 33, 40}) cases.push_back(ids.ascii(p.text, length));
    for (const std::string& id : cases) {
      const bool expected = RE2::FullMatch(id, re);
      (expected ? matched : missed) += 1;
      ASSERT_EQ(chosen.matches(id), expected)
          << "pattern " << escaped(p.text) << (p.table ? " (byte table)" : "") << " on id \"" << escaped(id) << "\"";
      std::string padded = id;
      for (size_t i = 0; i < AppPattern::kMatchPadding; ++i) padded += static_cast<char>(junk());
      ASSERT_EQ(chosen.matches_padded(std::string_view(padded.data(), id.size())), expected)
          << "pattern " << escaped(p.text) << " (padded) on id \"" << escaped(id) << "\"";
      ASSERT_EQ(forced.matches(id), expected)
          << "pattern " << escaped(p.text) << " (RE2) on id \"" << escaped(id) << "\"";
    }
  }
  // The generators must exercise what they claim: mostly valid patterns, most
  // of them on the table, and ids both inside and outside the classes.
  EXPECT_GT(compiled, kPatterns * 9 / 10);
  EXPECT_GT(on_table, kPatterns * 3 / 4);
  EXPECT_GT(matched, compiled * kIdsPerPattern / 10);
  EXPECT_GT(missed, compiled * kIdsPerPattern / 10);
}

}  // namespace
