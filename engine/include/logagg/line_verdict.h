// What became of one line: counted (with its UTC second), blank, or rejected
// with exactly one reason. Every line read gets exactly one verdict, which is
// how the summary proves that no line is lost:
//   lines = counted + outside_range + blank + sum(rejected[reason])
// (outside_range: valid lines outside --since / --until, see Summary).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace logagg {

// Why a line was rejected. When a line has several problems, the first one in
// this order is reported: the JSON checks first, then app field, then time field.
enum class Reason : uint8_t {
  kLineTooLong,    // longer than Options::max_line_bytes; not parsed
  kInvalidJson,    // not exactly one RFC 8259 JSON value (syntax, UTF-8, escapes, trailing data)
  kNotObject,      // valid JSON, but not an object
  kMissingApp,     // the app field is absent (at the top level)
  kDuplicateApp,   // the app field appears more than once
  kAppNotString,   // the app field is not a string
  kBadApp,         // the app id is empty or has a byte outside [A-Za-z0-9]
  kMissingTime,    // the time field is absent (at the top level)
  kDuplicateTime,  // the time field appears more than once
  kTimeNotString,  // the time field is not a string
  kBadTime,        // the timestamp is not an RFC 3339 date-time
};
inline constexpr size_t kReasonCount = 11;

// Stable machine name, used in JSON output: "invalid_json", "bad_time", ...
std::string_view reason_key(Reason r) noexcept;
// Short human description, used on stderr: "invalid JSON", ...
std::string_view reason_text(Reason r) noexcept;

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

using ReasonCounts = std::array<uint64_t, kReasonCount>;

}  // namespace logagg
