// Differential tests of --time-format auto (engine/src/parse/time_format.h)
// against each explicit format on the same values:
// - numbers, as strings and as JSON number tokens (number_second), next to
//   second boundaries in every written form (exponents moving the point
//   anywhere, fractions of up to 30 digits) and with integer parts of 1 to
//   22 digits: auto gives what the unix* format of the value's magnitude
//   gives, that magnitude computed here on its own from the decimal text;
//   and the magnitude boundaries themselves, by a table;
// - strings: RFC 3339 texts as rfc3339 reads them, clf texts as clf does,
//   and the common date-time forms as the patterns that write them read
//   them, with offsets, and without one in an input zone (around Berlin's
//   transitions) or, with no zone given, as UTC.
// Wherever the explicit format reads a value, auto also says it read it in
// that form (TimeForm: the unit of the magnitude, rfc3339, clf, or the common
// date-times for a text RFC 3339 does not read), as the summary counts them.
#include <date/date.h>
#include <date/tz.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "parse/time_format.h"
#include "reference/time_generators.h"

namespace {

using logagg::TimeForm;
using logagg::TimeFormat;
using Rng = std::mt19937_64;

std::string show(const std::optional<int64_t>& s) { return s ? std::to_string(*s) : "no match"; }

// Counts the cases and disagreements, reporting the first few; some cases
// must be accepted, so that a broken generator cannot pass by rejecting all.
class Agreement {
 public:
  // `got_form`: the form auto says it read `text` in, `want_form` the one it
  // must say where `want` is a second.
  void check(std::string_view what, std::string_view text, const std::optional<int64_t>& got,
             const std::optional<int64_t>& want, TimeForm got_form, TimeForm want_form) {
    ++cases_;
    accepted_ += want.has_value();
    if (got == want && (!want || got_form == want_form)) return;
    if (++count_ <= 10) {
      ADD_FAILURE() << what << " on \"" << text << "\": auto " << show(got) << " as "
                    << logagg::time_form_key(got_form) << ", " << show(want) << " as " << logagg::time_form_key(want_form);
    }
  }
  ~Agreement() {
    EXPECT_EQ(count_, 0) << "disagreements in " << cases_ << " cases";
    EXPECT_GT(accepted_, cases_ / 4) << "too few cases accepted: the generator is broken";
  }

 private:
  long cases_ = 0, count_ = 0, accepted_ = 0;
};

// How many digits |v| has before its decimal point when written plainly (0
// for |v| < 1) for the RFC 8259 number `text`: the written point moved by the
// exponent, counted from the first non-zero digit.
int64_t magnitude(std::string_view text) {
  if (text.starts_with('-')) text.remove_prefix(1);
  const size_t e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, e);
  const int64_t exponent = e == std::string_view::npos ? 0 : std::clamp<int64_t>(std::stoll(std::string(text.substr(e + 1))), -99999, 99999);
  const size_t dot = mantissa.find('.');
  const std::string digits = std::string(mantissa.substr(0, dot)) +
                             std::string(dot == std::string_view::npos ? "" : mantissa.substr(dot + 1));
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  const int64_t point = static_cast<int64_t>(std::min(dot, mantissa.size())) + exponent;
  return std::max<int64_t>(point - static_cast<int64_t>(first), 0);
}

// The explicit format auto must agree with on a number of `magnitude`.
const char* unit_of(int64_t magnitude) {
  return magnitude <= 11 ? "unix" : magnitude <= 14 ? "unix-ms" : magnitude <= 17 ? "unix-us" : "unix-ns";
}

// The form auto must name for a number read as `unit`.
TimeForm form_of(std::string_view unit) {
  return unit == "unix" ? TimeForm::kUnix : unit == "unix-ms" ? TimeForm::kUnixMs : unit == "unix-us" ? TimeForm::kUnixUs : TimeForm::kUnixNs;
}

const TimeFormat& explicit_format(const char* name) {
  static const TimeFormat kFormats[] = {TimeFormat::compile("unix"), TimeFormat::compile("unix-ms"),
                                        TimeFormat::compile("unix-us"), TimeFormat::compile("unix-ns")};
  const std::string_view n = name;
  return kFormats[n == "unix" ? 0 : n == "unix-ms" ? 1 : n == "unix-us" ? 2 : 3];
}

void check_number(Agreement& strings, Agreement& tokens, const TimeFormat& automatic, const std::string& text) {
  const char* unit = unit_of(magnitude(text));
  const std::optional<int64_t> want = explicit_format(unit).second(text);
  TimeForm string_form = TimeForm::kRfc3339, token_form = TimeForm::kRfc3339;
  const std::optional<int64_t> from_string = automatic.second(text, &string_form);
  strings.check(unit, text, from_string, want, string_form, form_of(unit));
  bool is_number = false;
  const std::optional<int64_t> from_token = automatic.number_second(text, is_number, &token_form);
  tokens.check(unit, text, from_token, want, token_form, form_of(unit));
  EXPECT_TRUE(is_number) << text;
}

TEST(TimeAutoDifferential, NumbersAsTheUnitOfTheirMagnitude) {
  Rng rng(3301);
  const TimeFormat automatic = TimeFormat::compile("auto");
  Agreement strings, tokens;
  for (const int unit_digits : {0, 3, 6, 9}) {
    for (int i = 0; i < 20000; ++i) {
      check_number(strings, tokens, automatic, reference::near_boundary(rng, unit_digits).text);
    }
  }
  for (int i = 0; i < 40000; ++i) {  // integer parts of every length, so every magnitude and its edges
    const size_t length = 1 + rng() % 22;
    std::string int_part = reference::random_digits(rng, length);
    if (rng() % 4 == 0) int_part = std::string(1, "19"[rng() % 2]) + std::string(length - 1, "09"[rng() % 2]);
    if (int_part.size() > 1 && int_part[0] == '0') int_part[0] = '1';
    const std::string fraction = rng() % 2 ? reference::random_digits(rng, rng() % 12) : "";
    check_number(strings, tokens, automatic, reference::write_number(rng, rng() % 8 == 0, int_part, fraction));
  }
}

TEST(TimeAutoDifferential, MagnitudeBoundaries) {
  const TimeFormat automatic = TimeFormat::compile("auto");
  const struct {
    const char* text;
    std::optional<int64_t> second;
  } cases[] = {
      {"0", 0},
      {"-0.5", -1},
      {"1700000000", 1700000000},
      {"99999999999", 99999999999},           // the last seconds: 5138-11-16T09:46:39Z
      {"99999999999.999999", 99999999999},    // a fraction does not make it larger
      {"9.9999999999e10", 99999999999},       // written with an exponent
      {"100000000000", 100000000},            // the first milliseconds: 1973-03-03T09:46:40Z
      {"1e11", 100000000},
      {"0.000000000001e23", 100000000},
      {"1700000000123", 1700000000},
      {"99999999999999", 99999999999},        // the last milliseconds
      {"100000000000000", 100000000},         // the first microseconds
      {"1700000000123456", 1700000000},
      {"99999999999999999", 99999999999},     // the last microseconds
      {"100000000000000000", 100000000},      // the first nanoseconds
      {"1e17", 100000000},
      {"1700000000123456789", 1700000000},
      {"-62167219200", -62167219200},         // 0000-01-01T00:00:00Z, in seconds
      {"-62167219201", std::nullopt},         // before the year 0000
      {"-100000000000", -100000000},          // negative milliseconds
      {"-1e17", -100000000},
      {"253402300799000000000", 253402300799},  // 9999-12-31T23:59:59Z in nanoseconds
      {"253402300800000000000", std::nullopt},
  };
  for (const auto& c : cases) {
    TimeForm string_form = TimeForm::kRfc3339, token_form = TimeForm::kRfc3339;
    EXPECT_EQ(automatic.second(c.text, &string_form), c.second) << c.text;
    bool is_number = false;
    EXPECT_EQ(automatic.number_second(c.text, is_number, &token_form), c.second) << c.text;
    EXPECT_TRUE(is_number) << c.text;
    if (!c.second) continue;
    const TimeForm want = form_of(unit_of(magnitude(c.text)));
    EXPECT_EQ(string_form, want) << c.text;
    EXPECT_EQ(token_form, want) << c.text;
  }
  TimeForm form = TimeForm::kRfc3339;  // zero with an exponent: seconds, as plain zero
  bool is_number = false;
  EXPECT_EQ(automatic.number_second("0e5", is_number, &form), 0);
  EXPECT_EQ(form, TimeForm::kUnix);
}

// Texts written in `pattern` from random local times (offsets random for
// %z), read by auto and by the explicit format `explicit_spec` in `zone`:
// the same second, or (`accepted_only`) the same where the explicit format
// reads one (rfc3339 refuses %z's +hhmm, which auto reads as a common form).
void agree_on_pattern(Rng& rng, const char* pattern, const std::string& explicit_spec, const char* zone,
                      const TimeFormat& automatic, int n, bool accepted_only = false) {
  const TimeFormat explicit_format = TimeFormat::compile(explicit_spec, zone);
  const std::vector<reference::Piece> ps = reference::pieces(pattern);
  const bool clf = explicit_spec == "clf";
  const std::vector<reference::Transition> ts =
      std::string_view(zone).empty() ? std::vector<reference::Transition>{}
                                     : reference::transitions(date::locate_zone(zone));
  Agreement agreement;
  for (int i = 0; i < n; ++i) {
    const date::local_seconds local = ts.empty() ? reference::random_local(rng) : reference::near_transition(rng, ts);
    const int64_t offset = rng() % 2 ? reference::uniform(rng, -1439, 1439) : 60 * reference::uniform(rng, -12, 14);
    std::string text = reference::write_time(rng, ps, local, offset, clf);
    if (clf && rng() % 2) text = "[" + text + "]";
    const std::optional<int64_t> want = explicit_format.second(text);
    if (accepted_only && !want) continue;
    const TimeForm want_form = logagg::parse_rfc3339(text) ? TimeForm::kRfc3339 : clf ? TimeForm::kClf : TimeForm::kCommon;
    TimeForm form = TimeForm::kUnix;
    const std::optional<int64_t> got = automatic.second(text, &form);
    agreement.check(std::string(pattern) + " as " + explicit_spec, text, got, want, form, want_form);
  }
}

TEST(TimeAutoDifferential, StringsAsTheirExplicitFormat) {
  Rng rng(3302);
  const TimeFormat automatic = TimeFormat::compile("auto");
  agree_on_pattern(rng, "%Y-%m-%dT%H:%M:%S%z", "rfc3339", "", automatic, 20000, true);
  agree_on_pattern(rng, "%Y-%m-%d %H:%M:%S.%f%z", "rfc3339", "", automatic, 20000, true);
  agree_on_pattern(rng, "%d/%b/%Y:%H:%M:%S %z", "clf", "", automatic, 20000);
  for (const char* pattern : {"%Y-%m-%d %H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%d %H:%M:%S,%f %z",
                              "%Y-%m-%d %H:%M:%S %z"}) {
    agree_on_pattern(rng, pattern, pattern, "", automatic, 10000);
  }
}

TEST(TimeAutoDifferential, ZonelessFormsInTheInputZoneElseUtc) {
  Rng rng(3303);
  const char* const patterns[] = {"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%d %H:%M:%S,%f"};
  for (const char* pattern : patterns) {
    agree_on_pattern(rng, pattern, pattern, "UTC", TimeFormat::compile("auto"), 10000);
    agree_on_pattern(rng, pattern, pattern, "Europe/Berlin", TimeFormat::compile("auto", "Europe/Berlin"), 10000);
  }
}

}  // namespace
