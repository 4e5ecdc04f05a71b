// What became of one line: counted (with its UTC second), blank, rejected
// with exactly one reason, or filtered out by one --where filter. Every line
// read gets exactly one verdict, which is how the summary proves that no line
// is lost:
//   lines = counted + outside_range + blank + sum(rejected[reason]) + filtered
// (outside_range: valid lines outside --since / --until, see Summary).
#pragma once

#include <cstdint>
#include <string_view>

#include "logagg/result_parts.h"  // Reason
#include "parse/measure_value.h"

namespace logagg {

enum class LineStatus : uint8_t { kCounted, kBlank, kRejected, kFiltered };

struct LineVerdict {
  LineStatus status;
  Reason reason;   // meaningful only when status == kRejected
  uint8_t filter = 0;    // kFiltered: the index in Question::where of the filter that failed
  uint8_t no_value = 0;  // kCounted with --by: bit i set if by key i has no value (kNoKey)
  TimeForm time_form = TimeForm::kRfc3339;  // kCounted under --time-format auto: the form its time was in
  int64_t second;  // meaningful only when status == kCounted: UTC seconds since the epoch
  // Meaningful only when status == kCounted: the app id (unescaped), or with
  // --by the key tuple (result.h). It points into the line or the parser's
  // buffers: valid until the parser's next line.
  std::string_view app;
  // Meaningful only when status == kCounted with measures: what they read
  // from the line, in the parser's scratch (valid until its next line).
  const LineMeasures* measures = nullptr;

  static constexpr LineVerdict counted(int64_t s, std::string_view app = {}, TimeForm form = TimeForm::kRfc3339) {
    return {LineStatus::kCounted, Reason{}, 0, 0, form, s, app};
  }
  static constexpr LineVerdict blank() { return {LineStatus::kBlank, Reason{}, 0, 0, {}, 0, {}}; }
  static constexpr LineVerdict rejected(Reason r) { return {LineStatus::kRejected, r, 0, 0, {}, 0, {}}; }
  static constexpr LineVerdict filtered(uint8_t filter) {
    return {LineStatus::kFiltered, Reason{}, filter, 0, {}, 0, {}};
  }
};

}  // namespace logagg
