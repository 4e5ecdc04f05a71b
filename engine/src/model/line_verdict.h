// What parsing hands to counting for one line: its verdict (counted with
// its UTC second, blank, rejected with exactly one reason, or filtered out by
// one --where filter) and the values its measures read, in the forms they
// use (MeasureForms). The parsers (parse/)
// make them and the counters (count/) tally them; neither stage includes
// the other's headers for them.
//
// Every line read gets exactly one verdict, which is how the summary proves
// that no line is lost:
//   lines = counted + outside_range + blank + sum(rejected[reason]) + filtered
// (outside_range: valid lines outside --since / --until, see Summary).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "logagg/measures.h"
#include "logagg/result_parts.h"  // Reason, TimeForm

namespace logagg {

// The forms of a value its measures use (bits): --sum's exact sum, and the
// double of the quantiles, min and max. A value read in one form leaves the
// other's members of MeasureValue in any state.
enum MeasureForms : uint8_t { kExactForm = 1, kRealForm = 2, kAllForms = 3 };

// A measured field's value (--sum, --quantiles): a JSON number, or a string
// that is one, from its decimal text (read_measure, parse/measure_value.h).
struct MeasureValue {
  double real;     // the nearest double: for the quantiles, min and max
  FixedSum fixed;  // exact to 18 fraction digits, rounded half to even past them; overflowed past +-1.7e20
  int digits;      // fraction digits as written, after the exponent (1.5e-3: 4), at most 18
  // Its text in the line when it has more than 15 digits (then the double
  // may not write it back: min and max keep its exact decimal), else empty.
  std::string_view written;
};

// What the measures read from one counted line: each measured field's value
// (MeasureSpec::fields' order), which of them are usable (bit i for field i:
// values[i] holds its value, in the forms its measures use (MeasureForms:
// --sum's exact value, the quantiles' double); the others hold whatever was
// read last), and
// which --count-if predicates hold (bit i for Question::count_if[i]). The
// values are written in place, line after line, into one vector sized once.
struct LineMeasures {
  std::vector<MeasureValue> values;
  uint64_t usable = 0;
  uint64_t matched = 0;
};

enum class LineStatus : uint8_t { kCounted, kBlank, kRejected, kFiltered };

// How a valid line held one of the question's fields (Summary::fields): two
// bits a field in LineVerdict::field_kinds, field i at bits 2i and 2i + 1.
enum class FieldKind : uint8_t { kAbsent, kNumber, kString, kOther };

struct LineVerdict {
  LineStatus status;
  Reason reason;                            // meaningful only when status == kRejected
  uint8_t filter = 0;                       // kFiltered: the index in Question::where of the filter that failed
  uint8_t no_value = 0;                     // kCounted with --by: bit i set if by key i has no value (kNoKey)
  // kCounted or kFiltered with --by, --where or measures: how the line held
  // each of the question's fields (FieldKind, two bits each). Beside the
  // time's form in one word, so that a verdict stays five words.
  uint32_t field_kinds : 28 = 0;
  uint32_t time_form : 4 = 0;               // kCounted under --time-format auto: the TimeForm its time was in
  int64_t second;                           // meaningful only when status == kCounted: UTC seconds since the epoch
  // Meaningful only when status == kCounted: the app id (unescaped), or with
  // --by the key tuple (result.h). It points into the line or the parser's
  // buffers: valid until the parser's next line.
  std::string_view app;
  // Meaningful only when status == kCounted with measures: what they read
  // from the line, in the parser's scratch (valid until its next line).
  const LineMeasures* measures = nullptr;

  static constexpr LineVerdict counted(int64_t s, std::string_view app = {}, TimeForm form = TimeForm::kRfc3339) {
    return {LineStatus::kCounted, Reason{}, 0, 0, 0, static_cast<uint32_t>(form), s, app};
  }
  static constexpr LineVerdict blank() { return {LineStatus::kBlank, Reason{}, 0, 0, 0, 0, 0, {}}; }
  static constexpr LineVerdict rejected(Reason r) { return {LineStatus::kRejected, r, 0, 0, 0, 0, 0, {}}; }
  static constexpr LineVerdict filtered(uint8_t filter, uint32_t field_kinds) {
    return {LineStatus::kFiltered, Reason{}, filter, 0, field_kinds, 0, 0, {}};
  }
};

}  // namespace logagg
