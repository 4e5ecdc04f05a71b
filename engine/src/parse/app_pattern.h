// The app-id rule (--app-pattern): a regular expression in RE2 syntax that the
// whole decoded app id must match, compiled once at start-up and matched once
// per line that reaches the app-id check.
//
// A pattern runs one of two ways, with the same answers:
// - A byte table (256 entries, one lookup per byte, no regex engine) when the
//   pattern is one character class followed by `+` and the class holds either
//   every non-ASCII code point or none. The classes recognised are
//     [...] and [^...] made of literal ASCII characters, ranges `a-z`, a `]`
//       first or a `-` first or last taken literally, escaped ASCII
//       punctuation (`\.` `\-` `\]` `\\` ...), the C escapes \t \n \r \f \v \a
//       and the Perl classes \d \w \s \D \W \S;
//     `.` (any code point but \n, as RE2 has it without the s flag);
//     \d \w \s \D \W \S alone.
//   So `[A-Za-z0-9]+` (the default), `[a-z0-9.-]+`, `[^ ]+`, `.+` and `\S+`
//   take the table; `[a-zé]+`, `[^é]+`, `[[:alpha:]]+`, `[a-z]*`, `(?i)[a-z]+`
//   and anything longer go to RE2.
//   Why the table is exact: RE2 matches UTF-8 code points, the table bytes. In
//   valid UTF-8 an ASCII code point is one byte below 0x80 and any other code
//   point consists of bytes 0x80..0xFF only, so with every byte >= 0x80 mapped
//   to "the class holds non-ASCII" (true for negated classes, `.`, \D \W \S;
//   false otherwise) the table's answer byte by byte is RE2's code point by
//   code point, for every valid UTF-8 id. Ids are decoded JSON strings, so
//   always valid UTF-8; on invalid UTF-8 (not a JSON string) the two may
//   differ. tests/property/app_pattern_differential_test.cc checks the claim.
// - RE2::FullMatch otherwise: linear in the id's length, so no pattern can
//   hang a job on a hostile line.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "logagg/options.h"  // kDefaultAppPattern

namespace re2 {
class RE2;
}  // namespace re2

namespace logagg {

// An app-id rule. Immutable once compiled: copies share the compiled RE2, and
// every member is safe to call from any number of threads at once.
class AppPattern {
 public:
  // Today's rule: non-empty ASCII letters and digits (parse/app_id.h).
  static constexpr std::string_view kDefault = kDefaultAppPattern;  // logagg/options.h

  // Compiles `regex` (RE2 syntax with RE2's default options: UTF-8, case
  // sensitive, `.` not matching \n), to be matched against the WHOLE id.
  // Throws std::invalid_argument whose what() is RE2's message (e.g.
  // "missing ]: [a-z") when it does not compile; the caller names the option.
  static AppPattern compile(std::string_view regex = kDefault);
  // The same rule always run by RE2, never by a byte table: for the tests and
  // benchmarks that compare the two paths. Throws as compile() does.
  static AppPattern compile_with_re2(std::string_view regex);

  // Whether the whole `id` (decoded, UTF-8) matches. Allocation-free on the
  // byte table; on RE2 only RE2's own lazily built DFA states are allocated,
  // the first times they are needed (bounded by RE2's memory budget).
  bool matches(std::string_view id) const noexcept;
  // matches(), for an id followed by at least kMatchPadding readable bytes
  // (the block parser's: in a padded block or buffer). Where the CPU has
  // SSSE3, a byte table's class is tested 16 bytes at a time (two nibble
  // lookups a byte, by pshufb), not a byte at a time.
  static constexpr size_t kMatchPadding = 16;
  bool matches_padded(std::string_view id) const noexcept { return by_nibbles_ ? matches_by_nibbles(id) : matches(id); }
  // Whether matches() runs the byte table rather than RE2.
  bool uses_byte_table() const noexcept { return re2_ == nullptr; }
  // Whether the pattern is, as text, kDefault.
  bool is_default() const noexcept { return source_ == kDefault; }
  // The pattern as given.
  const std::string& source() const noexcept { return source_; }

 private:
  AppPattern(std::string source, std::shared_ptr<const re2::RE2> re2);

  std::string source_;
  std::shared_ptr<const re2::RE2> re2_;  // null on the byte table
  std::array<bool, 256> table_{};        // on the byte table: which bytes may appear
  // The table's ASCII half by nibbles, for SSSE3: an ASCII byte b may appear
  // where low_nibbles_[b & 15] has bit b >> 4 (the bytes from 0x80 all take
  // table_[0x80]). by_nibbles_: on the byte table, where the CPU has SSSE3.
  bool matches_by_nibbles(std::string_view id) const noexcept;
  bool by_nibbles_ = false;
  std::array<uint8_t, 16> low_nibbles_{};
};

}  // namespace logagg
