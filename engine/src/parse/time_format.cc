// The time formats (see time_format.h): compile() turns a spec into a list of
// steps once; second() runs them over each time field without looking at the
// spec again. Epoch numbers are floored from their digits, never a double.
// Also the names of auto's forms (time_form_key, logagg/result.h).
#include "parse/time_format.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "parse/common_date_time.h"
#include "text/ascii.h"
#include "text/byte_ranges.h"
#include "time/civil_time.h"
#include "time/time_zone.h"

namespace logagg {
namespace {

// The UTC seconds of the years 0000..9999, the range of unix* times.
constexpr int64_t kFirstSecond = days_from_civil(0, 1, 1) * kSecondsPerDay;
constexpr int64_t kLastSecond = days_from_civil(10000, 1, 1) * kSecondsPerDay - 1;
// An integer part of more digits than this is out of that range.
constexpr int64_t kMaxSecondDigits = 12;
// Exponents are read up to about this size; any larger is out of range too.
constexpr int64_t kExponentCap = int64_t{1} << 48;
// The epoch digits of auto: each number's unit from its magnitude.
constexpr int kAutoDigits = -1;

// The digits of a second auto reads a number in, from its magnitude: how
// many digits it has before its decimal point (0 for |v| < 1). Seconds below
// 1e11, milliseconds below 1e14, microseconds below 1e17, else nanoseconds.
constexpr int auto_digits(int64_t magnitude) noexcept {
  return magnitude <= 11 ? 0 : magnitude <= 14 ? 3 : magnitude <= 17 ? 6 : 9;
}

// The form of a number auto read in units of 10^-digits seconds (zero
// written with an exponent leaves kAutoDigits: seconds, as plain zero).
constexpr TimeForm epoch_form(int digits) noexcept {
  return digits == 9   ? TimeForm::kUnixNs
         : digits == 6 ? TimeForm::kUnixUs
         : digits == 3 ? TimeForm::kUnixMs
                       : TimeForm::kUnix;
}

// The numbers a pattern reads.
enum Field : uint8_t { kYear, kMonth, kDay, kYearDay, kHour, kMinute, kSecond, kFieldCount };

enum class Op : uint8_t {
  kLiteral,     // literal_size bytes of Pattern::literals from literal_begin
  kDigits,      // `width` digits, their number into `field`
  kSpaceDigit,  // a space or a digit, then a digit, into `field` (%e)
  kMonthName,   // Jan .. Dec, into the month
  kFraction,    // one or more digits, dropped (truncated)
  kOffset,      // +hhmm, +hh:mm, the same with '-', or Z (%z)
  kClfOffset,   // +hhmm or -hhmm only (clf)
};

struct Step {
  Op op;
  Field field = kYear;
  uint8_t width = 0;
  uint32_t literal_begin = 0, literal_size = 0;
};

// The most bytes of a pattern's head (below).
constexpr size_t kHeadBytes = 32;

// A number in the head: `width` digits at byte `at`.
struct HeadNumber {
  uint8_t at, width;
  Field field;
};

// A compiled pattern (clf is one too). Its head, the steps of fixed width
// at its start (up to kHeadBytes bytes), is checked with two loads of
// sixteen bytes against templates of byte ranges, and its numbers are read
// at their offsets; the steps after the head run one by one.
struct Pattern {
  std::vector<Step> steps;
  std::string literals;
  bool brackets = false;      // clf: optionally inside '[' ']'
  bool has_offset = false;    // %z
  bool has_year_day = false;  // %j instead of a month and a day

  size_t head_size = 0;   // bytes
  size_t head_steps = 0;  // steps[0, head_steps) are the head
  // Byte i of the head lies in [lo[i], lo[i] + span[i]] (unsigned); past
  // head_size, and where checked apart (%e's tens, %b), anything does.
  uint8_t lo[kHeadBytes] = {}, span[kHeadBytes] = {};
  HeadNumber numbers[kFieldCount] = {};
  size_t number_count = 0;
  int space_day_at = -1;  // %e in the head: its tens, a space or a digit
  int month_at = -1;      // %b in the head
};

// The month 1..12 of the English abbreviation in p[0..2], or 0.
int month_named(const char* p) noexcept {
  constexpr auto key = [](const char* m) {
    return static_cast<uint32_t>(static_cast<uint8_t>(m[0])) | static_cast<uint32_t>(static_cast<uint8_t>(m[1])) << 8 |
           static_cast<uint32_t>(static_cast<uint8_t>(m[2])) << 16;
  };
  constexpr uint32_t kKeys[12] = {key("Jan"), key("Feb"), key("Mar"), key("Apr"), key("May"), key("Jun"),
                                  key("Jul"), key("Aug"), key("Sep"), key("Oct"), key("Nov"), key("Dec")};
  const uint32_t k = key(p);
  int month = 0;
  for (int m = 0; m < 12; ++m) month |= (kKeys[m] == k) * (m + 1);
  return month;
}

inline int two_digits(const char* p) noexcept { return (p[0] - '0') * 10 + (p[1] - '0'); }

// Reads a UTC offset at p: +hhmm or -hhmm, and with `any_form` also +hh:mm
// and Z. Sets `offset` (seconds east of UTC) and returns the end, or nullptr.
const char* read_offset(const char* p, const char* end, bool any_form, int64_t& offset) noexcept {
  if (any_form && p != end && *p == 'Z') {
    offset = 0;
    return p + 1;
  }
  if (end - p < 5 || (*p != '+' && *p != '-') || !is_digit(p[1]) || !is_digit(p[2])) return nullptr;
  const char* m = p + 3;
  if (any_form && *m == ':') ++m;
  if (end - m < 2 || !is_digit(m[0]) || !is_digit(m[1])) return nullptr;
  const int hours = two_digits(p + 1), minutes = two_digits(m);
  if (hours > 23 || minutes > 59) return nullptr;
  offset = (*p == '-' ? -1 : 1) * int64_t{hours * 3600 + minutes * 60};
  return m + 2;
}

// The numbers a pattern has read, by Field.
using Fields = int[kFieldCount];

// Whether the head's bytes of `text` lie in their ranges: its first sixteen
// bytes, and its last sixteen when it is longer (both loads inside the
// text); a text under sixteen bytes is copied. `text` holds the head.
bool head_in_ranges(const Pattern& pattern, std::string_view text) noexcept {
  const size_t size = pattern.head_size;
  const char* const t = text.data();
  Bytes16 bad;
  if (text.size() >= 16) {
    bad = excess(load16(t), load16(pattern.lo), load16(pattern.span));
  } else {
    char copy[16] = {};
    std::memcpy(copy, t, text.size());
    bad = excess(load16(copy), load16(pattern.lo), load16(pattern.span));
  }
  if (size > 16) {
    bad |= excess(load16(t + size - 16), load16(pattern.lo + size - 16), load16(pattern.span + size - 16));
  }
  return none(bad);
}

// Reads the head's numbers, at their offsets from t, into `value`, and
// checks what the ranges left to it (%e's tens, %b); false if they do not match.
bool read_head(const Pattern& pattern, const char* t, Fields& value) noexcept {
  for (size_t i = 0; i < pattern.number_count; ++i) {
    const HeadNumber& number = pattern.numbers[i];
    const char* d = t + number.at;
    switch (number.width) {
      case 1:
        value[number.field] = d[0] - '0';
        break;
      case 2:
        value[number.field] = two_digits(d);
        break;
      case 3:
        value[number.field] = (d[0] - '0') * 100 + two_digits(d + 1);
        break;
      default:  // 4
        value[number.field] = two_digits(d) * 100 + two_digits(d + 2);
        break;
    }
  }
  if (pattern.space_day_at >= 0) {
    const char tens = t[pattern.space_day_at];
    if (tens != ' ' && !is_digit(tens)) return false;
    value[kDay] += tens == ' ' ? 0 : (tens - '0') * 10;
  }
  return pattern.month_at < 0 || (value[kMonth] = month_named(t + pattern.month_at)) != 0;
}

// Runs `step`, one of the steps after the head, at p: the end of what it
// matched, or nullptr. Its number goes into `value`, an offset to `offset`.
const char* run_step(const Pattern& pattern, const Step& step, const char* p, const char* end, Fields& value,
                     int64_t& offset) noexcept {
  switch (step.op) {
    case Op::kLiteral:
      if (static_cast<size_t>(end - p) < step.literal_size ||
          std::memcmp(p, pattern.literals.data() + step.literal_begin, step.literal_size) != 0) {
        return nullptr;
      }
      return p + step.literal_size;
    case Op::kDigits: {
      if (end - p < step.width) return nullptr;
      int n = 0;
      for (int i = 0; i < step.width; ++i) {
        if (!is_digit(p[i])) return nullptr;
        n = n * 10 + (p[i] - '0');
      }
      value[step.field] = n;
      return p + step.width;
    }
    case Op::kSpaceDigit:
      if (end - p < 2 || !(p[0] == ' ' || is_digit(p[0])) || !is_digit(p[1])) return nullptr;
      value[step.field] = (p[0] == ' ' ? 0 : (p[0] - '0') * 10) + (p[1] - '0');
      return p + 2;
    case Op::kMonthName:
      if (end - p < 3 || (value[kMonth] = month_named(p)) == 0) return nullptr;
      return p + 3;
    case Op::kFraction: {
      const char* const first = p;
      while (p != end && is_digit(*p)) ++p;
      return p == first ? nullptr : p;
    }
    case Op::kOffset:
    case Op::kClfOffset:
      return read_offset(p, end, step.op == Op::kOffset, offset);
  }
  return nullptr;
}

// The local second of the date and time in `value` into `local`; false if
// they do not exist. Not an optional: run_pattern builds its result once,
// since GCC passes an optional<int64_t> through memory and one more on the
// way costs every call a store-forwarding stall.
bool local_second(const Pattern& pattern, const Fields& value, int64_t& local) noexcept {
  const int64_t year = value[kYear];
  int64_t days;
  if (pattern.has_year_day) {
    if (value[kYearDay] < 1 || value[kYearDay] > 365 + is_leap_year(year)) return false;
    days = days_from_civil(year, 1, 1) + value[kYearDay] - 1;
  } else {
    const auto month = static_cast<unsigned>(value[kMonth]), day = static_cast<unsigned>(value[kDay]);
    if (month - 1 > 11 || day - 1 >= days_in_month(year, month)) return false;
    days = days_from_civil(year, month, day);
  }
  if (value[kHour] > 23 || value[kMinute] > 59 || value[kSecond] > 59) return false;
  local = days * kSecondsPerDay + value[kHour] * 3600 + value[kMinute] * 60 + value[kSecond];
  return true;
}

// The UTC second of `text` under `pattern`; `zone` for one without %z: the
// head checked and read, the steps after it run one by one, then the date
// and time checked and converted.
std::optional<int64_t> run_pattern(const Pattern& pattern, const TimeZone* zone, std::string_view text) noexcept {
  if (pattern.brackets && text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  if (text.size() < pattern.head_size || !head_in_ranges(pattern, text)) return std::nullopt;
  Fields value = {0, 1, 1, 1, 0, 0, 0};  // what a pattern leaves out: January 1st, 00:00:00
  if (!read_head(pattern, text.data(), value)) return std::nullopt;
  const char* p = text.data() + pattern.head_size;
  const char* const end = text.data() + text.size();
  int64_t offset = 0;
  for (size_t s = pattern.head_steps; s < pattern.steps.size(); ++s) {
    if ((p = run_step(pattern, pattern.steps[s], p, end, value, offset)) == nullptr) return std::nullopt;
  }
  int64_t local;
  if (p != end || !local_second(pattern, value, local)) return std::nullopt;
  if (pattern.has_offset) return local - offset;
  return zone->utc_of_local(local);  // the zone's data was loaded by compile(), so this does not throw
}

// The floored second of (-)units.fraction units, kPerSecond units a second,
// if it lies in the years 0000..9999.
template <uint64_t kPerSecond>
std::optional<int64_t> floor_units(uint64_t units, bool negative, const char* fraction,
                                   const char* fraction_end) noexcept {
  if (!negative) {
    const uint64_t second = units / kPerSecond;
    if (second > static_cast<uint64_t>(kLastSecond)) return std::nullopt;
    return static_cast<int64_t>(second);
  }
  bool nonzero = false;  // -(units.fraction) / kPerSecond is floored to -ceil(units.fraction / kPerSecond)
  for (; fraction != fraction_end; ++fraction) nonzero |= *fraction != '0';
  const uint64_t before = (units + (nonzero ? kPerSecond : kPerSecond - 1)) / kPerSecond;
  if (before > static_cast<uint64_t>(-kFirstSecond)) return std::nullopt;
  return -static_cast<int64_t>(before);
}

// The floored second of the RFC 8259 number `text` counting units of
// 10^-digits seconds (kAutoDigits: the unit of its magnitude, which it
// leaves in `digits` for a number), if it is one (`is_number`) and in the
// years 0000..9999.
std::optional<int64_t> floor_epoch(std::string_view text, int& digits, bool& is_number) noexcept {
  is_number = false;
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  p += negative;
  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  const char* const int_begin = p;
  if (p == end || !is_digit(*p)) return std::nullopt;
  uint64_t int_value = 0;  // the integer part's value, while it has at most 19 digits
  if (*p++ != '0') {
    int_value = static_cast<uint64_t>(p[-1] - '0');
    for (; p != end && is_digit(*p); ++p) int_value = int_value * 10 + static_cast<uint64_t>(*p - '0');
  }
  const char* const int_end = p;
  const char* frac_begin = p;
  if (p != end && *p == '.') {
    frac_begin = ++p;
    while (p != end && is_digit(*p)) ++p;
    if (p == frac_begin) return std::nullopt;
  }
  const char* const frac_end = p;
  int64_t exponent = 0;
  const bool has_exponent = p != end && (*p == 'e' || *p == 'E');
  if (has_exponent) {
    ++p;
    const bool exponent_negative = p != end && *p == '-';
    if (p != end && (*p == '+' || *p == '-')) ++p;
    const char* const first = p;
    for (; p != end && is_digit(*p); ++p) {
      if (exponent < kExponentCap) exponent = exponent * 10 + (*p - '0');
    }
    if (p == first) return std::nullopt;
    if (exponent_negative) exponent = -exponent;
  }
  if (p != end) return std::nullopt;
  is_number = true;

  const int64_t int_digits = int_end - int_begin;
  if (!has_exponent && int_digits <= 19) {  // the usual case: a whole number of units, and maybe a fraction
    if (digits == kAutoDigits) digits = auto_digits(int_value != 0 ? int_digits : 0);
    switch (digits) {  // constant divisors, which compile to multiplications
      case 0:
        return floor_units<1>(int_value, negative, frac_begin, frac_end);
      case 3:
        return floor_units<1000>(int_value, negative, frac_begin, frac_end);
      case 6:
        return floor_units<1000000>(int_value, negative, frac_begin, frac_end);
      default:
        return floor_units<1000000000>(int_value, negative, frac_begin, frac_end);
    }
  }

  // Otherwise the digits d[0..n) of integer part and fraction in one row;
  // the value is 0.d * 10^point seconds, so d[0..point) is the integer part.
  const int64_t n = int_digits + (frac_end - frac_begin);
  const auto digit = [&](int64_t i) { return i < int_digits ? int_begin[i] - '0' : frac_begin[i - int_digits] - '0'; };
  int64_t first_nonzero = 0;
  while (first_nonzero < n && digit(first_nonzero) == 0) ++first_nonzero;
  if (first_nonzero == n) return 0;  // zero, "-0" too
  if (digits == kAutoDigits) digits = auto_digits(std::max<int64_t>(int_digits + exponent - first_nonzero, 0));
  const int64_t point = int_digits + exponent - digits;
  if (point - first_nonzero > kMaxSecondDigits) return std::nullopt;
  int64_t whole = 0;
  for (int64_t i = first_nonzero; i < point; ++i) whole = whole * 10 + (i < n ? digit(i) : 0);
  if (negative) {
    bool fraction = false;
    for (int64_t i = point > first_nonzero ? point : first_nonzero; i < n && !fraction; ++i) fraction = digit(i) != 0;
    whole = -whole - fraction;
  }
  if (whole < kFirstSecond || whole > kLastSecond) return std::nullopt;
  return whole;
}

// The zone named `name`, its data loaded now, so that second() cannot meet a broken file.
const TimeZone* loaded_zone(std::string_view name) {
  const TimeZone* zone = find_time_zone(name);
  try {
    zone->utc_of_local(0);
  } catch (const std::exception& e) {
    throw std::invalid_argument("time zone '" + std::string(name) + "' cannot be read: " + e.what());
  }
  return zone;
}

[[noreturn]] void refuse(std::string_view spec, const std::string& why) {
  throw std::invalid_argument("time format '" + std::string(spec) + "' " + why);
}

// The width of `step` if it is fixed, else 0.
size_t fixed_width(const Step& step) {
  switch (step.op) {
    case Op::kLiteral:
      return step.literal_size;
    case Op::kDigits:
      return step.width;
    case Op::kSpaceDigit:
      return 2;
    case Op::kMonthName:
      return 3;
    default:
      return 0;
  }
}

// Takes the steps of fixed width at the start of `pattern`, up to
// kHeadBytes bytes, into its head.
void plan_head(Pattern& pattern) {
  for (size_t& i = pattern.head_steps; i < pattern.steps.size(); ++i) {
    const Step& step = pattern.steps[i];
    const size_t at = pattern.head_size, width = fixed_width(step);
    if (width == 0 || at + width > kHeadBytes) break;
    for (size_t k = 0; k < width; ++k) pattern.span[at + k] = 255;  // checked apart, unless set below
    switch (step.op) {
      case Op::kLiteral:
        for (size_t k = 0; k < width; ++k) {
          pattern.lo[at + k] = static_cast<uint8_t>(pattern.literals[step.literal_begin + k]);
          pattern.span[at + k] = 0;
        }
        break;
      case Op::kDigits:
        for (size_t k = 0; k < width; ++k) {
          pattern.lo[at + k] = '0';
          pattern.span[at + k] = 9;
        }
        pattern.numbers[pattern.number_count++] = {static_cast<uint8_t>(at), step.width, step.field};
        break;
      case Op::kSpaceDigit:  // the units digit is a number, the tens are checked apart
        pattern.lo[at + 1] = '0';
        pattern.span[at + 1] = 9;
        pattern.numbers[pattern.number_count++] = {static_cast<uint8_t>(at + 1), 1, step.field};
        pattern.space_day_at = static_cast<int>(at);
        break;
      case Op::kMonthName:
        pattern.month_at = static_cast<int>(at);
        break;
      default:
        break;
    }
    pattern.head_size += width;
  }
  for (size_t k = pattern.head_size; k < kHeadBytes; ++k) pattern.span[k] = 255;
}

// What a spec's directives have given so far.
struct Given {
  bool field[kFieldCount] = {};
  bool fraction = false;
  bool offset = false;
};

// The step of the directive %`directive` of `text` (for clf, %z is the
// +hhmm form alone), marked in `given`; refuses one not supported or that
// gives something twice.
Step directive_step(std::string_view text, char directive, bool clf, Given& given) {
  const auto once = [&](bool& seen, const char* what) {
    if (seen) refuse(text, std::string("gives the ") + what + " twice");
    seen = true;
  };
  // The fixed-width numbers: directive, field, digits, name for messages.
  struct Number {
    char directive;
    Field field;
    uint8_t width;
    const char* what;
  };
  static constexpr Number kNumbers[] = {{'Y', kYear, 4, "year"},    {'m', kMonth, 2, "month"},
                                        {'d', kDay, 2, "day"},      {'j', kYearDay, 3, "day of the year"},
                                        {'H', kHour, 2, "hour"},    {'M', kMinute, 2, "minute"},
                                        {'S', kSecond, 2, "second"}};
  const Number* number = nullptr;
  for (const Number& n : kNumbers) {
    if (n.directive == directive) number = &n;
  }
  if (number != nullptr) {
    once(given.field[number->field], number->what);
    return {.op = Op::kDigits, .field = number->field, .width = number->width};
  }
  switch (directive) {
    case 'e':
      once(given.field[kDay], "day");
      return {.op = Op::kSpaceDigit, .field = kDay};
    case 'b':
      once(given.field[kMonth], "month");
      return {.op = Op::kMonthName};
    case 'f':
      once(given.fraction, "fraction");
      return {.op = Op::kFraction};
    case 'z':
      once(given.offset, "offset");
      return {.op = clf ? Op::kClfOffset : Op::kOffset};
    default:
      refuse(text, std::string("has %") + directive +
                       ", which is not supported (the directives are %Y %m %d %e %b %j %H %M %S %f %z %%)");
  }
}

// Turns `text` into pattern.steps: runs of literal bytes, and a step for
// each directive.
Given add_steps(Pattern& pattern, std::string_view text, bool clf) {
  Given given;
  std::string literal;
  const auto flush_literal = [&] {
    if (literal.empty()) return;
    pattern.steps.push_back({.op = Op::kLiteral,
                             .literal_begin = static_cast<uint32_t>(pattern.literals.size()),
                             .literal_size = static_cast<uint32_t>(literal.size())});
    pattern.literals += literal;
    literal.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      literal += text[i];
      continue;
    }
    if (++i == text.size()) refuse(text, "ends in a lone %");
    if (text[i] == '%') {
      literal += '%';
      continue;
    }
    flush_literal();
    pattern.steps.push_back(directive_step(text, text[i], clf, given));
  }
  flush_literal();
  return given;
}

// Refuses a pattern that does not give each field it needs, or gives a
// date twice over, or leaves a gap in the time, or has %f before a digit.
void check_given(const Pattern& pattern, std::string_view text, const Given& given) {
  const bool* const seen = given.field;
  if (!seen[kYear]) refuse(text, "has no year (%Y)");
  if (seen[kYearDay] && (seen[kMonth] || seen[kDay])) refuse(text, "gives the day of the year (%j) and a month or day");
  if (!seen[kYearDay] && !seen[kMonth]) refuse(text, "has no month (%m or %b)");
  if (!seen[kYearDay] && !seen[kDay]) refuse(text, "has no day (%d, %e or %j)");
  if (seen[kMinute] && !seen[kHour]) refuse(text, "has a minute (%M) but no hour (%H)");
  if (seen[kSecond] && !seen[kMinute]) refuse(text, "has a second (%S) but no minute (%M)");
  if (given.fraction && !seen[kSecond]) refuse(text, "has a fraction (%f) but no second (%S)");
  for (size_t i = 0; i + 1 < pattern.steps.size(); ++i) {
    const Step& next = pattern.steps[i + 1];
    const bool starts_with_digit = next.op == Op::kDigits || next.op == Op::kSpaceDigit ||
                                   (next.op == Op::kLiteral && is_digit(pattern.literals[next.literal_begin]));
    if (pattern.steps[i].op == Op::kFraction && starts_with_digit) {
      refuse(text, "has a digit right after %f, which takes every digit");
    }
  }
}

// Compiles `text` into a Pattern (for clf, %z is the +hhmm form alone) and
// checks that it gives each field it needs exactly once.
Pattern compile_pattern(std::string_view text, bool clf) {
  Pattern pattern;
  pattern.brackets = clf;
  const Given given = add_steps(pattern, text, clf);
  pattern.has_offset = given.offset;
  pattern.has_year_day = given.field[kYearDay];
  check_given(pattern, text, given);
  plan_head(pattern);
  return pattern;
}

}  // namespace

struct TimeFormat::Compiled {
  std::string name;
  const TimeZone* zone = nullptr;  // for a pattern without %z: its local times' zone
  Pattern pattern;                 // for clf and patterns
};

TimeFormat TimeFormat::compile(std::string_view spec, std::string_view input_zone) {
  for (const char c : spec) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      throw std::invalid_argument("the time format holds a control character");
    }
  }
  constexpr struct {
    std::string_view name;
    int digits;
  } kEpochs[] = {{"unix", 0}, {"unix-ms", 3}, {"unix-us", 6}, {"unix-ns", 9}};

  const auto no_zone = [&](const char* why) {
    if (!input_zone.empty()) refuse(spec, std::string("takes no input time zone: ") + why);
  };
  if (spec == "rfc3339") {
    no_zone("its times carry their offset");
    return TimeFormat();
  }
  auto compiled = std::make_shared<Compiled>();
  compiled->name = std::string(spec);
  for (const auto& epoch : kEpochs) {
    if (spec == epoch.name) {
      no_zone("its times are UTC instants");
      return TimeFormat(Kind::kEpoch, epoch.digits, std::move(compiled));
    }
  }
  constexpr std::string_view kClf = "%d/%b/%Y:%H:%M:%S %z";
  if (spec == "clf") {
    no_zone("its times carry their offset");
    compiled->pattern = compile_pattern(kClf, true);
    return TimeFormat(Kind::kPattern, 0, std::move(compiled));
  }
  if (spec == "auto") {  // clf is one of its forms; the zone is for the zone-less ones
    compiled->pattern = compile_pattern(kClf, true);
    if (!input_zone.empty()) compiled->zone = loaded_zone(input_zone);
    return TimeFormat(Kind::kAuto, kAutoDigits, std::move(compiled));
  }
  if (spec.find('%') == std::string_view::npos) {
    throw std::invalid_argument("unknown time format '" + std::string(spec) +
                                "': expected rfc3339, unix, unix-ms, unix-us, unix-ns, clf, auto, or a pattern such as "
                                "'%Y-%m-%d %H:%M:%S'");
  }
  compiled->pattern = compile_pattern(spec, false);
  if (compiled->pattern.has_offset) {
    no_zone("its times carry their offset (%z)");
  } else {
    if (input_zone.empty()) {
      refuse(spec, "has no offset (%z), so it needs an input time zone: the zone its times are written in");
    }
    compiled->zone = loaded_zone(input_zone);
  }
  return TimeFormat(Kind::kPattern, 0, std::move(compiled));
}

const std::string& TimeFormat::name() const noexcept {
  static const std::string kDefault = "rfc3339";
  return compiled_ != nullptr ? compiled_->name : kDefault;
}

const TimeZone* TimeFormat::input_zone() const noexcept { return compiled_ != nullptr ? compiled_->zone : nullptr; }

std::optional<int64_t> TimeFormat::epoch_second(std::string_view text) const noexcept {
  bool is_number;
  int digits = epoch_digits_;
  return floor_epoch(text, digits, is_number);
}

std::optional<int64_t> TimeFormat::number_second(std::string_view token, bool& is_number,
                                                 TimeForm* form) const noexcept {
  int digits = epoch_digits_;
  const std::optional<int64_t> second = floor_epoch(token, digits, is_number);
  if (form != nullptr && kind_ == Kind::kAuto) *form = epoch_form(digits);
  return second;
}

std::optional<int64_t> TimeFormat::pattern_second(std::string_view text) const noexcept {
  return run_pattern(compiled_->pattern, compiled_->zone, text);
}

// RFC 3339 first (the most common, and the default's parser), then a number
// (whose grammar fails at the first byte that is not one), clf, the common forms.
std::optional<int64_t> TimeFormat::auto_second(std::string_view text, TimeForm* form) const noexcept {
  TimeForm read_as = TimeForm::kRfc3339;
  std::optional<int64_t> second = parse_rfc3339(text);
  if (!second) {
    bool is_number;
    int digits = kAutoDigits;
    second = floor_epoch(text, digits, is_number);
    if (is_number) {
      read_as = epoch_form(digits);
    } else if ((second = run_pattern(compiled_->pattern, nullptr, text))) {
      read_as = TimeForm::kClf;
    } else {
      second = parse_common_date_time(text, compiled_->zone);
      read_as = TimeForm::kCommon;
    }
  }
  if (form != nullptr) *form = read_as;
  return second;
}

}  // namespace logagg
