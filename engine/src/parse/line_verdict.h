// What became of one line: counted (with its UTC second), blank, or rejected
// with exactly one reason. Every line read gets exactly one verdict, which is
// how the summary proves that no line is lost:
//   lines = counted + outside_range + blank + sum(rejected[reason])
// (outside_range: valid lines outside --since / --until, see Summary).
#pragma once

#include <cstdint>
#include <string_view>

#include "logagg/result.h"  // Reason

namespace logagg {

enum class LineStatus : uint8_t { kCounted, kBlank, kRejected };

struct LineVerdict {
  LineStatus status;
  Reason reason;   // meaningful only when status == kRejected
  int64_t second;  // meaningful only when status == kCounted: UTC seconds since the epoch
  // Meaningful only when status == kCounted: the app id (unescaped). It points
  // into the line or the parser's buffers: valid until the parser's next line.
  std::string_view app;

  static constexpr LineVerdict counted(int64_t s, std::string_view app = {}) {
    return {LineStatus::kCounted, Reason{}, s, app};
  }
  static constexpr LineVerdict blank() { return {LineStatus::kBlank, Reason{}, 0, {}}; }
  static constexpr LineVerdict rejected(Reason r) { return {LineStatus::kRejected, r, 0, {}}; }
};

}  // namespace logagg
