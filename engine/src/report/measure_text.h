// A row's measure columns as text (MeasureSpec::columns(): count(EXPR),
// ratio(EXPR), n(F), sum(F), min(F), max(F), pP(F)): one definition for
// every row writer, so csv, json and the table print the same digits.
//
// Every value is a plain decimal, never with an exponent: counts as
// integers; a sum exactly, with as many fraction digits as the most precise
// value it added (0.004 + 0.5 = 0.504); min and max as the shortest decimal
// that reads back as the same double (any value written with up to 15
// significant digits prints as written; an integer past 2^64 ends in ".0",
// which JSON readers need to take it as a number); a quantile of the least
// or greatest rank as min or max, any other as its bucket's representative,
// clamped to [min, max], to 7 significant digits; a ratio
// rounded half up to 4 decimals. json writes a sum as a string holding
// that decimal, so that no JSON reader rounds it. A value the row does not have (no line, no
// usable value, a sum past its range, the sum of lines none of which had a
// number: an empty bucket's sum is 0) is absent: csv leaves the field empty,
// json writes null, the table "-".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/measures.h"
#include "logagg/report.h"

namespace logagg {

class MeasureText {
 public:
  // `units` (--unit, for the table and --stats' text only): the fields whose
  // values are durations, printed readably (see ReportOptions::units).
  explicit MeasureText(MeasureSpec spec, const std::vector<std::pair<std::string, DurationUnit>>& units = {});
  const MeasureSpec& spec() const { return spec_; }
  const std::vector<std::string>& columns() const { return columns_; }

  struct Value {
    std::string text;
    bool present = false;
    bool exact = false;  // a sum, min or max: json writes its exact decimal as a string, which no reader rounds
  };
  // The values of a row of `count` lines whose measures are `cell` (nullptr:
  // an empty bucket of --fill-gaps), one per column, in `out` (resized).
  void values(const MeasureCell* cell, uint64_t count, std::vector<Value>& out) const;
  // `v` as a json value: null when absent, an exact one as a string, others as numbers.
  static void append_json(std::string& out, const Value& v);

 private:
  MeasureSpec spec_;
  std::vector<std::string> columns_;
  std::vector<std::optional<DurationUnit>> units_;  // of each spec_.fields
};

// `v` as the shortest plain decimal that reads back as `v` ("0.004", "1e21"
// as "1000000000000000000000").
void append_plain_double(std::string& out, double v);
// The --unit of `field` in `units` (the last given), if any.
std::optional<DurationUnit> unit_of(const std::vector<std::pair<std::string, DurationUnit>>& units,
                                    std::string_view field);
// `v` rounded to `significant` digits, as a plain decimal without trailing zeros.
void append_rounded_double(std::string& out, double v, int significant);
// A duration of `v` `unit`s in the largest of s, ms, µs and ns in which it
// is at least 1 (ns for less), to 3 significant digits or its whole part:
// "12.3 ms", "1 s" (for 999.7 ms), "1234 s", "0 ms" (for 0 ms).
void append_duration(std::string& out, double v, DurationUnit unit);

}  // namespace logagg
