// The fields a line parser looks for (the app id, the time, and the fields of
// --by keys and --where filters), what the walk of one line found for each,
// and the verdict that follows: shared by the per-line parser
// (line_parser.cc) and the block parser (block_parser.cc), so both reject
// for the same reasons in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/line_verdict.h"
#include "parse/app_pattern.h"
#include "parse/field_path.h"
#include "parse/short_number.h"
#include "parse/time_format.h"
#include "text/ascii.h"

namespace logagg {

// What the walk found for a field.
struct FieldSeen {
  int count = 0;
  bool step_twice = false;  // a key on the field's path met twice in one object
  bool is_string = false;
  bool is_number = false;              // a JSON number, kept only where the time format reads numbers
  bool is_scalar = false;              // a number or literal: `text` is its token (the first occurrence)
  bool is_short = false;               // is_scalar: a number of at most 7 digits before and after a point, checked
  TimeForm form = TimeForm::kRfc3339;  // is_number under auto: the unit its magnitude gave
  uint8_t int_digits = 0;              // is_short: its digits before the point
  uint8_t frac_digits = 0;             // is_short: and after it (0: no point)
  // is_string or is_scalar: the unescaped string, or the scalar token: in the line itself, or in a
  // parser's buffer if it had escapes; either way followed by at least 8 readable bytes (the parsers
  // pad their blocks, lines and buffers)
  std::string_view text;
  std::optional<int64_t> second;  // is_number: its second, read in the pass that checked its grammar

  // Forgets the line before, as FieldSeen{} would for every use: the count,
  // the flags, the form and a number's digit counts (the 16 bytes before
  // `text`, kRfc3339 being 0), in one store; text and second are read only
  // under the flags that say this line set them. The block parser's walk resets its fields for every
  // line, and the whole record's three 16-byte stores, one of them across
  // two of its members, stalled it
  // (docs/bench-notes/2026-12-06-fields-and-cells.md).
  void reset() {
    static_assert(std::is_trivially_copyable_v<FieldSeen> && std::is_standard_layout_v<FieldSeen>);
    static_assert(offsetof(FieldSeen, text) == 16, "what reset() clears fits one 16-byte store");
    static_assert(static_cast<int>(TimeForm::kRfc3339) == 0);
    std::memset(static_cast<void*>(this), 0, offsetof(FieldSeen, text));
  }

  // The one value of the field, if it has one (there once, a string, number
  // or literal): a string's text, or a number or literal as written.
  std::optional<std::string_view> value() const {
    if (count != 1 || step_twice || !(is_string || is_scalar)) return std::nullopt;
    return text;
  }

  // The text as a short number (short_number.h), into `n`: as its check
  // measured it (is_short, the block parser's walk), else read; false for a
  // text that is no such number. Precondition: is_string or is_scalar.
  bool short_number(ShortNumber& n) const {
    if (is_short) [[likely]] {
      n = short_number_of(text, int_digits, frac_digits);
      return true;
    }
    return read_short_number<true>(text, n);
  }

  // How the line held the field (a FieldKind, as its two bits): a number is
  // a JSON number token; a key on its path there twice is something else, as
  // a container is. As value() decides, without making the optional. On every
  // valid line: a scalar's token is never empty (the walk checked it), and a
  // digit, not '-', starts most numbers.
  uint32_t kind() const {
    if (count == 1 && !step_twice) [[likely]] {
      if (is_string) return static_cast<uint32_t>(FieldKind::kString);
      const bool number = is_scalar && (is_digit(text.front()) || text.front() == '-');
      return static_cast<uint32_t>(number ? FieldKind::kNumber : FieldKind::kOther);
    }
    return static_cast<uint32_t>(count == 0 && !step_twice ? FieldKind::kAbsent : FieldKind::kOther);
  }
};

// How many fields a line parser can look for: the app id, the time, and the
// distinct fields of --by and --where (bits of an unsigned mask).
inline constexpr size_t kMaxTargets = 16;

// A field: where it is, and what the walk of a line found.
struct FieldTarget {
  FieldPath path;
  std::vector<std::optional<size_t>> indexes;  // each step's array index, if it is one
  FieldSeen seen;

  explicit FieldTarget(FieldPath p = {}) : path(std::move(p)) {
    for (const std::string& step : path.steps) indexes.push_back(FieldPath::index(step));
  }
  bool last_step(size_t depth) const { return depth + 1 == path.steps.size(); }
};

inline constexpr int kApp = 0, kTime = 1;

// The verdict of a line whose JSON is valid, from what its walk found; `app`
// null with --app-field none (no app rules apply). kPadded: the app's text is
// followed by AppPattern::kMatchPadding readable bytes.
template <bool kPadded = false>
inline LineVerdict field_verdict(const FieldSeen* app, const FieldSeen& time, const AppPattern& app_pattern,
                                 const TimeFormat& time_format) {
  if (app != nullptr) [[likely]] {
    if (app->step_twice) return LineVerdict::rejected(Reason::kDuplicateApp);
    if (app->count == 0) return LineVerdict::rejected(Reason::kMissingApp);
    if (app->count > 1) return LineVerdict::rejected(Reason::kDuplicateApp);
    if (!app->is_string) return LineVerdict::rejected(Reason::kAppNotString);
    if (!(kPadded ? app_pattern.matches_padded(app->text) : app_pattern.matches(app->text))) {
      return LineVerdict::rejected(Reason::kBadApp);
    }
  }
  if (time.step_twice) return LineVerdict::rejected(Reason::kDuplicateTime);
  if (time.count == 0) return LineVerdict::rejected(Reason::kMissingTime);
  if (time.count > 1) return LineVerdict::rejected(Reason::kDuplicateTime);
  if (!time.is_string && !time.is_number) return LineVerdict::rejected(Reason::kTimeNotString);
  TimeForm form = time.form;
  const std::optional<int64_t> second = time.is_number ? time.second : time_format.second(time.text, &form);
  if (!second) return LineVerdict::rejected(Reason::kBadTime);
  return LineVerdict::counted(*second, app != nullptr ? app->text : std::string_view{}, form);
}

}  // namespace logagg
