// --where filters: reading "FIELD OP VALUE", "exists FIELD" and "missing
// FIELD", and testing one against what a line's walk found for FIELD.
//
// The grammar, exactly:
// - "exists FIELD" holds when the line has FIELD (any value, even null or an
//   object); "missing FIELD" when it has not. FIELD there has no operator's
//   bytes unless quoted ("missing == 1" compares a field named missing).
// - Otherwise FIELD, then the first operator, then VALUE; spaces around the
//   operator are optional. FIELD is written as --app-field takes it, or as a
//   JSON string ("a==b" with the quotes) when it holds an operator's bytes.
//   OP: == != < <= > >= ~ !~.
// - OP is the operator bytes after FIELD, which must spell one operator
//   (">>", "=<", "<>" or "!==" is refused, and "=" is written "==").
// - VALUE: a JSON string (quoted: its decoded text; a quote not closed is
//   refused), true, false or null (those literals), a JSON number (a
//   number), or else the text as written, which must not be empty, look
//   like a number ("5oo", "1.2.3", "+5": quote it) or start with an
//   operator's byte; for ~ and !~, any non-empty pattern RE2 compiles.
// - Every refusal is a usage error whose message shows the expression again
//   with a caret under the problem.
// - A number VALUE compares exactly (decimal.h) with a JSON number, or with a
//   string whose whole text is a JSON number (nginx writes "0.004"); a text
//   VALUE compares bytewise with a string; a literal equals (or not) the
//   same literal. ~ and !~ match an RE2 pattern against the WHOLE text of a
//   string or of a number as written. Any other pairing (a type mismatch, an
//   object or array, the field missing or there twice) is false, for != and
//   !~ too: a filter on a field holds only for lines that have it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "parse/app_pattern.h"
#include "text/decimal.h"

namespace logagg {

struct FieldSeen;  // what a line's walk found for a field (field_targets.h)

class Filter {
 public:
  enum class Op : uint8_t { kExists, kMissing, kEq, kNe, kLt, kLe, kGt, kGe, kMatch, kNoMatch };

  // Reads one --where expression. Throws std::invalid_argument, with a
  // one-line message naming what is wrong, for one it cannot read.
  static Filter parse(std::string_view expression);

  // The field, as written (for --app-field's path rules).
  const std::string& field() const { return field_; }
  // Whether the filter holds for a line where the walk found `seen` for the
  // field. Inline, defined in where_holds.h, which its callers include: it
  // runs for every filter of every line.
  [[gnu::always_inline]] inline bool holds(const FieldSeen& seen) const;

  // Which JSON types of the field's value the filter can hold for (as
  // holds() says): a number, a string (some only if they hold a number), a
  // literal; all three for exists and missing. For the warnings of
  // logagg/field_checks.h.
  struct Meets {
    bool numbers, strings, literals;
  };
  Meets meets() const;
  // The same comparison with a quoted VALUE that reads as a JSON number
  // written unquoted (`status=="200"` -> `status==200`); empty for any other.
  std::string unquoted() const;

 private:
  enum class Kind : uint8_t { kNumber, kText, kLiteral, kPattern };
  bool compares(int order) const;
  bool holds_otherwise(const FieldSeen& seen) const;

  std::string field_;
  Op op_ = Op::kExists;
  Kind kind_ = Kind::kText;
  // The value's text (number, text, literal), shared so that number_, which
  // views it, stays valid in copies.
  std::shared_ptr<const std::string> value_;
  std::optional<Decimal> number_;  // kNumber
  // kNumber with an integer of at most 18 digits and a comparison: the
  // integers i it holds for are those with low_ <= i <= low_ + span_ (as
  // unsigned, so modulo 2^64) if inside_, the others if not.
  bool ranged_ = false;
  bool inside_ = true;
  uint64_t low_ = 0, span_ = 0;
  std::optional<AppPattern> pattern_;  // kPattern
};

}  // namespace logagg
